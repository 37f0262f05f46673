#!/bin/sh
# lane: timing (tests/run.sh: never beside another timing script)
# Issue 18: iobench-mpi across 3 "hosts" over real TCP: network, UTS and mount namespaces
# joined by veth pairs to a bridge on a private subnet made here, each with its own hostname
# and its own loop-mounted volume; mpirun starts the ranks through a launcher that enters
# each host's namespaces (plm_rsh_agent), and Open MPI's TCP transport carries everything.
# Checked: file per process on each host's volume and a single shared file, client_stats with
# the three hostnames, All clients from the summed bins; a host whose rank is killed ends the
# run within 10 s, non-zero, naming that host; and the Kubernetes-style flow on the same
# hosts (one iobench per host writing json+, then --merge).
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
if [ "$(id -u)" != 0 ] || ! have mpirun || ! have mpicc || ! have ip || ! have nsenter || ! have losetup ||
	! have mkfs.ext4 || ! unshare --net --uts --mount true 2>/dev/null; then
	skip "MPI across hosts" "needs root, Open MPI, iproute2, nsenter, losetup, mkfs.ext4 and unshare"
	exit 0
fi
make_target mpi "make mpi builds ./iobench-mpi" || exit 0
MPI="$TOP/iobench-mpi"
BR="iobmh$$"
NET=10.77.$(($$ % 200 + 20))
cleanup() {
	for n in 1 2 3; do [ -s "$T/h$n.pid" ] && kill "$(cat "$T/h$n.pid")" 2>/dev/null; done
	sleep 0.3
	ip link del "$BR" 2>/dev/null
	for n in 1 2 3; do [ -s "$T/loop$n" ] && losetup -d "$(cat "$T/loop$n")" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

# The hosts: a sleeper holds each one's namespaces; its volume is mounted at $T/vol inside it.
ip link add "$BR" type bridge && ip addr add "$NET.1/24" dev "$BR" && ip link set "$BR" up || {
	skip "MPI across hosts" "cannot make a bridge"
	exit 0
}
mkdir -p vol shared
for n in 1 2 3; do
	truncate -s 64m "img$n"
	mkfs.ext4 -q -F "img$n"
	losetup -f --show "img$n" >"loop$n" || { skip "MPI across hosts" "no free loop device"; exit 0; }
	unshare --net --uts --mount --propagation private sh -c \
		"hostname iob-host$n && mount $(cat "loop$n") '$T/vol' && echo \$\$ >'$T/h$n.pid' && exec sleep 600" &
	for _ in $(seq 100); do [ -s "h$n.pid" ] && break; sleep 0.05; done
	pid=$(cat "h$n.pid")
	ip link add "$BR-$n" type veth peer name eth0 netns "$pid"
	ip link set "$BR-$n" master "$BR" up
	nsenter -t "$pid" -n sh -c "ip link set lo up && ip addr add $NET.1$n/24 dev eth0 && ip link set eth0 up"
done
cat >agent.sh <<AGENT
#!/bin/sh
# mpirun's rsh agent: "agent HOST command..." runs the command in that host's namespaces.
case \$1 in iob-host[1-3]) n=\${1#iob-host} ;; *) echo "agent: unknown host \$1" >&2; exit 1 ;; esac
shift
exec nsenter -t "\$(cat '$T'/h\$n.pid)" -n -u -m -- sh -c "\$*"
AGENT
chmod +x agent.sh
printf 'iob-host1 slots=1\niob-host2 slots=1\niob-host3 slots=1\n' >hosts
cat >hostsrun <<RUN
#!/bin/sh
# mpirun over the 3 hosts, TCP on the private subnet only
exec mpirun --allow-run-as-root --hostfile "$T/hosts" -np 3 --mca plm_rsh_agent "$T/agent.sh" \\
	--mca plm_rsh_no_tree_spawn 1 --mca oob_tcp_if_include "$NET.0/24" \\
	--mca btl_tcp_if_include "$NET.0/24" --mca btl tcp,self "\$@"
RUN
chmod +x hostsrun
in_host() { n=$1; shift; nsenter -t "$(cat "$T/h$n.pid")" -n -u -m -- "$@"; }
check "3 hosts: distinct hostnames, each with its own volume" \
	sh -c "[ \"\$(for n in 1 2 3; do nsenter -t \$(cat h\$n.pid) -u hostname; done | sort -u | wc -l)\" -eq 3 ] &&
	       [ \"\$(for n in 1 2 3; do nsenter -t \$(cat h\$n.pid) -m findmnt -no SOURCE '$T/vol'; done | sort -u | wc -l)\" -eq 3 ]"

# File per process: each rank on its host's own volume.
timeout 120 ./hostsrun "$MPI" --name=fpp --directory="$T/vol" --rw=write --bs=64k --size=4m --ioengine=psync \
	--output-format=json+ >fpp.json 2>fpp.err
rc=$?
sed 's/^/#   /' fpp.err | head -5
check "FPP over TCP: exit 0 ($rc), one JSON document" sh -c "[ $rc -eq 0 ] && jq -e .client_stats fpp.json >/dev/null"
check "client_stats: the three hostnames, then All clients" \
	[ "$(jq -c '[.client_stats[].hostname // .client_stats[].jobname]' fpp.json)" = '["iob-host1:0","iob-host2:1","iob-host3:2","All clients"]' ]
check "each host's volume holds its own 4 MiB file (fpp.N.0 on host N)" sh -c "
	for n in 1 2 3; do f=\$(nsenter -t \$(cat h\$n.pid) -m sh -c 'ls $T/vol' | grep fpp); [ \"\$f\" = fpp.\$((n - 1)).0 ] || exit 1;
	nsenter -t \$(cat h\$n.pid) -m stat -c %s '$T/vol/'\$f | grep -qx $((4 << 20)) || exit 1; done"
p99=$(jq '[.client_stats[:3][].write.clat_ns.bins]' fpp.json | python3 "$TOP/tests/tools/bins_pct.py" 99)
check "All clients: io_bytes summed (12 MiB), p99 from the summed bins ($p99)" \
	sh -c "[ \$(jq '.client_stats[3].write.io_bytes' fpp.json) -eq $((12 << 20)) ] && [ \$(jq '.client_stats[3].write.clat_ns.percentile[\"99.000000\"]' fpp.json) -eq $p99 ]"

# A single shared file: the shared directory every host sees, one region per rank.
timeout 120 ./hostsrun "$MPI" --name=ssf --filename="$T/shared/ssf" --rw=write --bs=64k --size=2m \
	--offset_increment=2m --ioengine=psync --output-format=json+ >ssf.json 2>ssf.err
rc=$?
check "SSF over TCP: exit 0 ($rc), one 6 MiB file written by the three hosts" \
	sh -c "[ $rc -eq 0 ] && [ \$(stat -c %s shared/ssf) -eq $((6 << 20)) ] && [ \$(jq '.client_stats[3].write.io_bytes' ssf.json) -eq $((6 << 20)) ]"

# A host whose rank is killed mid-run: the whole run ends within 10 s, non-zero, naming it.
(timeout 60 ./hostsrun "$MPI" --name=long --directory="$T/vol" --rw=write --bs=64k --size=32m --ioengine=psync \
	--time_based --runtime=30 --output-format=json >long.json 2>long.err; echo $? >long.rc) &
runner=$!
sleep 4
victim=""
for p in $(pgrep -f "iobench-mp[i] --name=long"); do
	[ "$(readlink /proc/$p/ns/uts)" = "$(readlink /proc/$(cat h2.pid)/ns/uts)" ] && victim=$p
done
t0=$(ms)
[ -n "$victim" ] && kill -9 "$victim"
wait $runner
t1=$(ms)
rc=$(cat long.rc)
sed 's/^/#   /' long.err | grep -v '^#   -*$' | head -4
check "rank on iob-host2 killed: the run ended in $((t1 - t0)) ms (< 10 s), exit $rc (non-zero)" \
	sh -c "[ -n '$victim' ] && [ $((t1 - t0)) -lt 10000 ] && [ $rc -ne 0 ] && [ $rc -ne 124 ]"
check "... and the message names the host" grep -q "iob-host2" long.err
check "... no iobench-mpi is left on any host" sh -c "! pgrep -f 'iobench-mp[i] --name=long' >/dev/null"

# The Kubernetes-style flow on the same hosts: one iobench each, json+ to its volume, --merge.
pods=""
for n in 1 2 3; do
	in_host "$n" "$IOBENCH" --name=pod --directory="$T/vol" --rw=randread --bs=4k --size=4m --ioengine=psync \
		--output-format=json+ --output="$T/vol/pod.json" 2>"pod$n.err" &
	pods="$pods $!"
done
# shellcheck disable=SC2086
wait $pods
cat pod1.err pod2.err pod3.err | sed 's/^/#   /' | head -3
for n in 1 2 3; do in_host "$n" cat "$T/vol/pod.json" >"iob-host$n.json"; done
"$IOBENCH" --merge iob-host1.json iob-host2.json iob-host3.json >merged.json 2>merged.err
check "one iobench per host, then --merge: three clients by hostname and All clients summing 12 MiB" \
	sh -c "[ \"\$(jq -c '[.client_stats[] | .hostname // .jobname]' merged.json)\" = '[\"iob-host1\",\"iob-host2\",\"iob-host3\",\"All clients\"]' ] &&
	       [ \$(jq '.client_stats[3].read.io_bytes' merged.json) -eq $((12 << 20)) ]"
