#!/bin/sh
# Issue 16: the job environment options, against fio 3.33: exec_prerun/exec_postrun, uid, gid,
# nice, prio, prioclass, cmdprio_percentage/class/cmdprio/cmdprio_bssplit (fio's "prios"),
# log_prio, cgroup/cgroup_weight/cgroup_nodelete, numa_cpu_nodes, numa_mem_policy, cpumask,
# gtod_cpu, mem/iomem (malloc, shm, shmhuge, mmap, mmaphuge, mmapshared, :FILE),
# iomem_align, hugepage-size, lockmem, lockfile, ioscheduler, write_hint. Each is run with
# fio and iobench: the same I/O, files left and JSON key paths and types; the effect the
# option has (user, nice, I/O priority, cgroup, CPUs, memory policy) seen from /proc while the
# job runs and in the file its exec_prerun writes; hostile values refused in one line. Null
# engine and small files: seconds.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
chmod 711 "$T" # jobs running as nobody write their prerun files in directories below
FIO=no
have fio && FIO=yes
ROOT=no
[ "$(id -u)" = 0 ] && ROOT=yes
NCPU=$(getconf _NPROCESSORS_ONLN)
PY=python3 # Debian's, not a version manager's shim (half a second a call)
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
CG="iobench-t-$$"
export CG T

# ---- differential cases (tests/tools/fio_diff.py): the same job through both tools ----
# Readers and a writer taking turns on one file (lockfile=readwrite): a job file.
cat >"$T/lockrw.fio" <<EOF
[global]
filename=$T/lockrw.dat
size=1m
lockfile=readwrite
ioengine=libaio
iodepth=4
[readers]
rw=randread
numjobs=2
[writer]
rw=randwrite
EOF
if [ $FIO = yes ]; then
	$PY "$TOP/tests/tools/fio_diff.py" "$IOBENCH" "$T/diff" <<'EOF'
prerun    | --name=x --ioengine=null --size=1m --exec_prerun='echo before' --exec_postrun='echo after' --nice=5 --prio=3 --prioclass=2 --lockmem=1m | ios,keys,files
cmdprio   | --name=c --ioengine=io_uring --rw=randread --filename=f --size=1m --cmdprio_percentage=50 --output-format=json+ | ios,keys,files
cmdprio-lat | --name=c --ioengine=io_uring --rw=randread --filename=f --size=1m --cmdprio_percentage=40 --cmdprio_class=2 --cmdprio=7 --prio=3 --lat_percentiles=1 | ios,keys
cmdprio-libaio | --name=c --ioengine=libaio --iodepth=4 --rw=randwrite --filename=f --size=1m --cmdprio_percentage=50,50 --mem=shm | ios,keys,files
cmdprio-split | --name=c --ioengine=io_uring --rw=randread --filename=f --size=1m --bssplit=4k/50:8k/50 --cmdprio_bssplit=4k/100/3/0:8k/50/2/5 | keys
cmdprio-mixed | --name=c --ioengine=io_uring --rw=randrw --filename=f --size=1m --cmdprio_percentage=50 --unified_rw_reporting=mixed | ios,keys
mem-mmapshared | --name=m --rw=read --filename=f --size=256k --mem=mmapshared --mem_align=512 --lockfile=exclusive --numjobs=2 | ios,files
mem-file  | --name=m --rw=write --filename=f --size=256k --mem=mmap:buffers.map --write_hint=long | ios,files
lockfile-rw | $T/lockrw.fio | ios,jobs
cgroup    | --name=g --ioengine=null --size=1m --cgroup=$CG --cpumask=1 --numa_cpu_nodes=0 --numa_mem_policy=bind:0 | ios,keys
EOF
else
	skip "differential cases against fio" "fio is not installed"
fi

# ---- what a job's exec_prerun sees: its user, group, nice, I/O priority, CPUs, policy ----
# The command runs in the job's context in both tools; its output file must be the same.
same_prerun() { # description, command, options...
	desc=$1 cmd=$2
	shift 2
	rm -rf "$T/pf" "$T/pi"
	mkdir -p "$T/pf" "$T/pi"
	chmod 777 "$T/pf" "$T/pi"
	(cd "$T/pi" && "$IOBENCH" --name=pj --ioengine=null --size=64k --exec_prerun="$cmd" "$@" \
		--output-format=json >out.json 2>err.txt)
	ri=$?
	got=$(tr '\n' ' ' <"$T/pi/pj.prerun.txt" 2>/dev/null)
	if [ $FIO = no ]; then
		check "$desc: iobench's prerun saw: $got" [ $ri -eq 0 -a -n "$got" ]
		return
	fi
	(cd "$T/pf" && fio --name=pj --ioengine=null --size=64k --exec_prerun="$cmd" "$@" \
		--output-format=json >out.json 2>err.txt)
	want=$(tr '\n' ' ' <"$T/pf/pj.prerun.txt" 2>/dev/null)
	if [ $ri -eq 0 ] && [ -n "$got" ] && [ "$got" = "$want" ]; then
		ok "$desc: the prerun sees what fio's does ($got)"
	else
		notok "$desc: the prerun sees what fio's does"
		echo "#   fio:     $want"
		echo "#   iobench: $got (exit $ri) $(cat "$T/pi/err.txt")"
	fi
}
# One run shows several options at once (fio takes half a second to start).
ctx='sh -c "id -u; id -g; grep -E \"^(Uid|Gid|Cpus_allowed_list)\" /proc/self/status; nice; ionice;
	head -1 /proc/self/numa_maps | cut -d\" \" -f2"'
numa=no
[ -d /sys/devices/system/node/node0 ] && numa=yes
if have ionice && [ $ROOT = yes ] && [ "$NCPU" -ge 2 ] && [ $numa = yes ]; then
	same_prerun "uid, gid, nice, prio, cpumask=2, numa_mem_policy=bind:0" "$ctx" --uid=65534 --gid=65534 \
		--nice=5 --prio=3 --cpumask=2 --numa_mem_policy=bind:0
	same_prerun "prioclass=1 (realtime), cpumask then cpus_allowed (the last wins), prefer:0" "$ctx" \
		--prioclass=1 --cpumask=0x3 --cpus_allowed=1 --numa_mem_policy=prefer:0
	same_prerun "prioclass=3 (idle), gtod_cpu=1 out of cpus_allowed=0-1, interleave:0" "$ctx" --prioclass=3 \
		--cpus_allowed=0-1 --gtod_cpu=1 --numa_mem_policy=interleave:0
	same_prerun "prioclass=0 prio=6 (best-effort), numa_cpu_nodes=0, local" "$ctx" --prioclass=0 --prio=6 \
		--numa_cpu_nodes=0 --numa_mem_policy=local
	fio_was=$FIO
	FIO=no
	same_prerun "numa_mem_policy=default (iobench)" 'head -1 /proc/self/numa_maps' --numa_mem_policy=default
	FIO=$fio_was
	check "... is the default policy" grep -q ' default ' "$T/pi/pj.prerun.txt"
	(cd "$T/pi" && "$IOBENCH" --name=pn --ioengine=null --size=64k --uid=nobody --gid=nogroup \
		--exec_prerun='id -un; id -gn' --output-format=json >/dev/null 2>&1)
	got=$(tr '\n' ' ' <"$T/pi/pn.prerun.txt")
	check "uid=nobody, gid=nogroup by name: $got" [ "$got" = "nobody nogroup " ]
else
	skip "what the prerun sees" "needs root, ionice, two CPUs and a NUMA node"
fi

# ---- exec_prerun and exec_postrun: the same files, the same contents ----
mkdir -p "$T/ex" && cd "$T/ex" || exit 1
"$IOBENCH" --name=xj --ioengine=null --size=64k --exec_prerun='echo one; echo two >&2' \
	--exec_postrun='pwd' --output-format=json >out.json 2>err.txt
check "prerun's stdout and stderr go to JOBNAME.prerun.txt, postrun's to JOBNAME.postrun.txt" \
	sh -c "[ \"\$(cat xj.prerun.txt)\" = \"\$(printf 'one\ntwo')\" ] && [ \"\$(cat xj.postrun.txt)\" = '$T/ex' ]"
check "... and nothing of them reaches stdout (one JSON document) or stderr" \
	sh -c "$PY -c 'import json,sys; json.load(open(\"out.json\"))' && [ ! -s err.txt ]"
"$IOBENCH" --name=xf --ioengine=null --size=64k --exec_prerun='exit 3' --exec_postrun='touch post-ran' \
	--output-format=json >out.json 2>err.txt
rc=$?
check "a failing exec_prerun fails its job (exit $rc, fio exits 0), which does no I/O and runs no postrun" \
	sh -c "[ $rc -eq 1 ] && [ ! -e post-ran ] && grep -q \"exec_prerun: 'exit 3' exited with status 3\" err.txt &&
		$PY -c 'import json,sys; j=json.load(open(\"out.json\"))[\"jobs\"][0]; sys.exit(j[\"read\"][\"total_ios\"] != 0 or j[\"error\"] == 0)'"
"$IOBENCH" --name=xp --ioengine=null --size=64k --exec_postrun='exit 4' --output-format=json >out.json 2>err.txt
rc=$?
check "a failing exec_postrun is a note (exit $rc; the job's results stand)" \
	sh -c "[ $rc -eq 0 ] && grep -q 'note: exec_postrun' err.txt && [ \$(wc -l < err.txt) -eq 1 ]"
"$IOBENCH" --name=xn --ioengine=null --size=64k --numjobs=2 --exec_prerun='echo x >> both' --output-format=json \
	>out.json 2>err.txt
check "each clone runs the prerun (numjobs=2: two lines), as fio's do" [ "$(wc -l <both)" -eq 2 ]
cd "$T" || exit 1

# ---- the running job, seen from /proc: its thread's user, nice, I/O priority, cgroup ----
# seen PID TEST: some task of process PID passes TEST (a function given the task's dir)
# within 4 s.
seen() {
	i=0
	while [ $i -lt 80 ]; do
		for t in /proc/$1/task/*; do
			"$2" "$t" 2>/dev/null && return 0
		done
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}
t_uid() { grep -q "^Uid:	65534	65534	65534	65534" "$1/status" && grep -q "^Gid:	65534	" "$1/status"; }
t_nice() { [ "$(sed 's/.*) //' "$1/stat" | cut -d' ' -f17)" = 7 ]; }
t_ioprio() { ionice -p "${1##*/}" | grep -q "best-effort: prio 4"; }
t_main_root() { [ "${1##*/}" = "$pid" ] && grep -q "^Uid:	0	" "$1/status" && ! grep -q "/$CG\$" "$1/cgroup"; }
CGW=$CG
cg_gone() { ! ls -d /sys/fs/cgroup/*/$CGW /sys/fs/cgroup/$CGW /sys/fs/cgroup/*/*/$CGW >/dev/null 2>&1; }
live_start() { # tool: the job in the background; sets pid to the process that runs it
	mkdir -p "$T/live-$1" && cd "$T/live-$1" || return
	# fio makes its cgroup after it switched user (as nobody it cannot): its user is seen by
	# the prerun above; iobench does both.
	if [ "$1" = fio ]; then
		fio --name=livejob$$ --ioengine=null --size=1g --time_based --runtime=2 --rate_iops=500 --nice=7 \
			--prio=4 --cgroup=$CG-fio --output-format=json >out.json 2>err.txt &
	else
		"$IOBENCH" --name=livejob$$ --ioengine=null --size=1g --time_based --runtime=2 --rate_iops=500 \
			--uid=65534 --gid=65534 --nice=7 --prio=4 --cgroup=$CG --output-format=json >out.json 2>err.txt &
	fi
	pid=$!
	cd "$T" || return
}
live_checks() { # tool, pid
	lcg=$CG
	pid=$2
	if [ "$1" = fio ]; then # the job is fio's child process
		lcg=$CG-fio
		i=0
		while [ $i -lt 40 ] && ! kid=$(pgrep -P $pid -f livejob$$ | head -1); do
			sleep 0.05
			i=$((i + 1))
		done
		pid=${kid:-$pid}
	fi
	t_cgroup() { grep -q "/$lcg\$" "$1/cgroup"; }
	[ "$1" = iobench ] && check "$1: the job's thread runs as uid and gid 65534 (/proc/PID/task/TID/status)" \
		seen $pid t_uid
	check "$1: the job's thread runs with nice 7 (/proc/PID/task/TID/stat)" seen $pid t_nice
	check "$1: ... at I/O priority best-effort 4 (ionice -p TID)" seen $pid t_ioprio
	check "$1: ... in the cgroup $lcg (/proc/PID/task/TID/cgroup)" seen $pid t_cgroup
	[ "$1" = iobench ] && check "iobench: its main thread stays root and out of the cgroup (only the job's thread moves)" \
		seen $pid t_main_root
	wait $2
	check "$1: the job ends well" grep -q '"error" : 0' "$T/live-$1/out.json"
	CGW=$lcg
	check "$1: the cgroup it made is gone" cg_gone
}
if [ $ROOT = yes ] && have ionice && [ -d /sys/fs/cgroup ]; then
	live_start iobench
	ipid=$pid
	fpid=
	[ $FIO = yes ] && live_start fio && fpid=$pid
	live_checks iobench $ipid
	[ -n "$fpid" ] && live_checks fio $fpid
	CGW=$CG
else
	skip "the running job's user, nice, priority and cgroup" "needs root, ionice and cgroups"
fi

# cgroup v2 where v1's blkio hierarchy is mounted too: in a mount namespace without it.
v2_checks() {
	mnt2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	blk=$(awk '$3 == "cgroup" && $4 ~ /blkio/ { print $2; exit }' /proc/mounts)
	if [ -z "$mnt2" ] || [ $ROOT = no ] || ! have unshare; then
		skip "cgroup v2 (a threaded cgroup for the job's thread)" "needs root, unshare and cgroup2"
		return
	fi
	mkdir -p "$T/v2" && cd "$T/v2" || return
	unshare -m --propagation private sh -c "
		[ -z '$blk' ] || umount '$blk' || exit 2
		'$IOBENCH' --name=v2 --ioengine=null --size=64k --cgroup=$CG/sub --cgroup_nodelete=0 \
			--exec_prerun='grep ^0:: /proc/self/cgroup' --output-format=json >out.json 2>err.txt"
	rc=$?
	check "cgroup v2: the job's thread (and its prerun) ran in a threaded cgroup under the process's own" \
		sh -c "[ $rc -eq 0 ] && grep -q '^0::.*/$CG/sub\$' v2.prerun.txt"
	CGW=$CG
	check "cgroup v2: the cgroups the run made are removed (NAME/sub and NAME)" cg_gone
	cd "$T" || return
}
v2_checks

# cgroup_nodelete leaves what the run made; a cgroup that was there stays either way.
if [ $ROOT = yes ] && [ -d /sys/fs/cgroup ]; then
	"$IOBENCH" --name=k --ioengine=null --size=64k --cgroup=$CG --cgroup_nodelete=1 --output-format=json \
		>/dev/null 2>nd.err
	kept=$(ls -d /sys/fs/cgroup/*/$CG /sys/fs/cgroup/$CG 2>/dev/null | head -1)
	check "cgroup_nodelete=1 leaves the cgroup the run made ($kept)" [ -n "$kept" ]
	"$IOBENCH" --name=k --ioengine=null --size=64k --cgroup=$CG --output-format=json >/dev/null 2>>nd.err
	check "... and a cgroup that was there before a run stays after it" [ -d "$kept" ]
	rmdir "$kept" 2>/dev/null
	check "... (removed by hand here)" cg_gone
fi

# ---- cmdprio: both tools report the priorities their I/Os had ----
if [ $FIO = yes ]; then
	prios() { $PY -c "
import json,sys; j=json.load(open(sys.argv[1]))['jobs'][0]
print(' '.join('%s:%s' % (d, ','.join('%d/%d' % (p['prioclass'], p['prio']) for p in j[d]['prios']))
	for d in ('read','write') if 'prios' in j[d]))" "$1"; }
	for o in "--cmdprio_percentage=50" "--cmdprio_percentage=30,0 --prio=3" \
		"--bssplit=4k/50:8k/50 --cmdprio_bssplit=4k/100/3/0:8k/50/2/5" "--cmdprio_percentage=100"; do
		fio --name=c --ioengine=io_uring --rw=randrw --filename="$T/cf" --size=512k $o --output-format=json \
			>cp-f.json 2>/dev/null
		"$IOBENCH" --name=c --ioengine=io_uring --rw=randrw --filename="$T/cf" --size=512k $o --output-format=json \
			>cp-i.json 2>cp.err
		a=$(prios cp-f.json)
		b=$(prios cp-i.json)
		check "cmdprio $o: the same priorities, in fio's order ('$b')" [ "$a" = "$b" ]
	done
	"$IOBENCH" --name=c --ioengine=io_uring --rw=randread --filename="$T/cf" --size=512k --cmdprio_percentage=50 \
		>cp.txt 2>cp.err
	check "the normal format shows fio's 'clat prio C/L' lines and percentile blocks" \
		sh -c "grep -qE '^    clat prio 0/0 \((n|u|m)sec\): min=' cp.txt && grep -qE '^    clat prio 1/0 \([0-9.]+% of IOs\) percentiles' cp.txt"
	fio --name=c --ioengine=io_uring --rw=randread --filename="$T/cf" --size=512k --cmdprio_percentage=50 \
		--cmdprio_class=2 --lat_percentiles=1 >cpf.txt 2>/dev/null
	"$IOBENCH" --name=c --ioengine=io_uring --rw=randread --filename="$T/cf" --size=512k --cmdprio_percentage=50 \
		--cmdprio_class=2 --lat_percentiles=1 >cpi.txt 2>/dev/null
	shape() { grep -E 'prio [0-9]/' "$1" | sed -E 's/\((n|u|m)sec\).*/(unit)/; s/[0-9.]+% of IOs/N% of IOs/'; }
	a=$(shape cpf.txt)
	b=$(shape cpi.txt)
	check "with lat_percentiles, fio's 'lat prio' lines in fio's order ($(echo "$b" | wc -l) lines)" [ -n "$b" -a "$a" = "$b" ]
	# log_prio: the logs' last column is the I/O's priority, else whether it was cmdprio's.
	for lp in 0 1; do
		rm -f lf_clat.1.log li_clat.1.log
		[ $lp = 0 ] && echo '0, 1, 0, 4096, 0
0, 1, 0, 4096, 1' >lf_clat.1.log # fio's values: 1 for cmdprio's I/Os, 0 for the others
		[ $lp = 1 ] && fio --name=c --ioengine=io_uring --rw=randread --filename="$T/cf" --size=256k --cmdprio_percentage=50 \
			--prio=2 --write_lat_log=lf --log_prio=$lp >/dev/null 2>&1
		"$IOBENCH" --name=c --ioengine=io_uring --rw=randread --filename="$T/cf" --size=256k \
			--cmdprio_percentage=50 --prio=2 --write_lat_log=li --log_prio=$lp >/dev/null 2>&1
		a=$(awk -F', ' '{ print $5 }' lf_clat.1.log | sort -u | tr '\n' ' ')
		b=$(awk -F', ' '{ print $5 }' li_clat.1.log | sort -u | tr '\n' ' ')
		check "log_prio=$lp: the clat log's last column takes fio's values ($b)" [ -n "$b" -a "$a" = "$b" ]
	done
else
	skip "cmdprio and log_prio against fio" "fio is not installed"
fi

# ---- memory: alignment, huge pages, nothing left behind ----
first_buf() { # the first buffer's offset past a page boundary in --debug=mem's lines
	grep -m1 -oE 'io_u 0x[0-9a-f]+, mem 0x[0-9a-f]+' "$1" | sed 's/.*mem 0x//' |
		$PY -c 'import sys; print(int(sys.stdin.read(), 16) % 4096)'
}
for a in 512 1000 8192; do
	"$IOBENCH" --name=a --ioengine=null --size=64k --iodepth=2 --bs=8k --mem_align=$a --debug=mem >al-i.txt 2>&1
	b=$(first_buf al-i.txt)
	if [ $FIO = yes ] && [ $a = 1000 ]; then
		fio --name=a --ioengine=null --size=64k --iodepth=2 --bs=8k --mem_align=$a --debug=mem >al-f.txt 2>&1
		f=$(first_buf al-f.txt)
		check "mem_align=$a: the first buffer is $b bytes past a page, as fio's ($f)" [ "$b" = "$f" ]
	else
		check "mem_align=$a: the first buffer is $((a % 4096)) bytes past a page ($b)" [ "$b" = $((a % 4096)) ]
	fi
done
shm_ours() { ipcs -m -p 2>/dev/null | awk -v p="$1" '$3 == p' | wc -l; }
"$IOBENCH" --name=s --ioengine=null --size=64k --mem=shm --time_based --runtime=2 --rate_iops=100 \
	--output-format=json >/dev/null 2>&1 &
spid=$!
i=0
while [ $i -lt 40 ] && [ "$(shm_ours $spid)" -eq 0 ]; do
	sleep 0.05
	i=$((i + 1))
done
during=$(shm_ours $spid)
wait $spid
check "mem=shm: a segment while the job runs ($during), none after it" sh -c "[ $during -ge 1 ] && [ $(shm_ours $spid) -eq 0 ]"
echo keep >buffers.map
"$IOBENCH" --name=m --rw=write --filename="$T/mf" --size=64k --mem=mmap:buffers.map --output-format=json \
	>mm.json 2>mm.err
rc=$?
check "mem=mmap:FILE refuses a file that is there (exit $rc; fio would resize and overwrite it)" \
	sh -c "[ $rc -eq 1 ] && [ \"\$(cat buffers.map)\" = keep ] && grep -q \"'buffers.map' exists\" mm.err"
rm -f buffers.map
"$IOBENCH" --name=m --rw=write --filename="$T/mf" --size=64k --mem=mmap:buffers.map --numjobs=2 \
	--output-format=json >mm.json 2>mm.err
check "mem=mmap:FILE with numjobs=2: each clone its own file, none left" \
	sh -c "[ $? -eq 0 ] && ! ls buffers.map* 2>/dev/null"

# Huge pages: a few reserved for the test and given back.
huge_checks() {
	hp=/proc/sys/vm/nr_hugepages
	if [ $ROOT = no ] || [ ! -w $hp ] || [ "$(awk '/^Hugepagesize/ { print $2 }' /proc/meminfo)" != 2048 ]; then
		skip "mem=shmhuge, mmaphuge" "needs root and 2 MiB huge pages"
		return
	fi
	old=$(cat $hp)
	echo $((old + 4)) >$hp
	if [ "$(awk '/^HugePages_Free/ { print $2 }' /proc/meminfo)" -lt 2 ]; then
		echo "$old" >$hp
		skip "mem=shmhuge, mmaphuge" "the kernel gave no huge pages"
		return
	fi
	for m in shmhuge mmaphuge; do
		"$IOBENCH" --name=h --rw=randrw --filename="$T/hf" --size=256k --bs=64k --mem=$m --output-format=json \
			>h.json 2>h.err
		rc=$?
		check "mem=$m on reserved huge pages (exit $rc)" sh -c "[ $rc -eq 0 ] && grep -q '\"io_bytes\" : ' h.json"
	done
	mkdir -p "$T/huge"
	unshare -m --propagation private sh -c "mount -t hugetlbfs none '$T/huge' &&
		'$IOBENCH' --name=h --rw=read --filename='$T/hf' --size=256k --bs=64k --mem=mmaphuge:'$T/huge/buf' \
			--output-format=json >h.json 2>h.err && ! ls '$T/huge/'buf* 2>/dev/null"
	check "mem=mmaphuge:FILE on hugetlbfs, the file removed" [ $? -eq 0 ]
	echo "$old" >$hp
}
huge_checks

# ---- write_hint: the files' hint afterwards (F_GET_RW_HINT), as fio leaves it ----
hint() { $PY -c "
import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
print(struct.unpack('Q', fcntl.fcntl(fd, 1035, bytes(8)))[0])" "$1"; }
if $PY -c "import fcntl,os; fcntl.fcntl(os.open('$T', os.O_RDONLY), 1035, bytes(8))" 2>/dev/null; then
	for h in none short medium long extreme; do
		rm -f "$T/wh"
		"$IOBENCH" --name=w --rw=write --filename="$T/wh" --size=64k --write_hint=$h >/dev/null 2>&1
		b=$(hint "$T/wh")
		if [ $FIO = yes ] && [ $h = extreme ]; then
			rm -f "$T/wh"
			fio --name=w --rw=write --filename="$T/wh" --size=64k --write_hint=$h >/dev/null 2>&1
			f=$(hint "$T/wh")
		else # fio's values: none 1, short 2, medium 3, long 4, extreme 5 (F_SET_RW_HINT's)
			f=$(echo "none short medium long extreme" | tr ' ' '\n' | grep -n -x $h | cut -d: -f1)
		fi
		check "write_hint=$h: the file's hint is $b afterwards, as fio's ($f)" [ -n "$b" -a "$b" = "$f" ]
	done
else
	skip "write_hint" "F_GET_RW_HINT is not there"
fi

# ---- ioscheduler: on the job's own block device (a loop device here), put back after ----
sched_checks() {
	if [ $ROOT = no ] || ! have losetup; then
		skip "ioscheduler" "needs root and losetup"
		return
	fi
	truncate -s 8m "$T/sched.img"
	L=$(losetup -f --show "$T/sched.img" 2>/dev/null)
	if [ -z "$L" ]; then
		skip "ioscheduler" "no free loop device"
		return
	fi
	S=/sys/block/${L#/dev/}/queue/scheduler
	was=$(sed 's/.*\[\(.*\)\].*/\1/' "$S")
	want=$(tr -d '[]' <"$S" | tr ' ' '\n' | grep -v -x -e "$was" -e '' | head -1)
	if [ -z "$want" ]; then
		losetup -d "$L"
		skip "ioscheduler" "$L has one scheduler only"
		return
	fi
	"$IOBENCH" --name=s --rw=read --filename="$L" --size=1m --ioscheduler="$want" --exec_prerun="cat $S" \
		--output-format=json >s.json 2>s.err
	rc=$?
	check "ioscheduler=$want: the job ran on it (its prerun saw '$(cat s.prerun.txt)')" \
		sh -c "[ $rc -eq 0 ] && grep -q '\\[$want\\]' s.prerun.txt"
	check "... and the device has its scheduler back after the run ($was; fio leaves it switched)" \
		grep -q "\\[$was\\]" "$S"
	"$IOBENCH" --name=s --rw=read --filename="$L" --size=1m --ioscheduler=no-such-sched --output-format=json \
		>s.json 2>s.err
	rc=$?
	check "ioscheduler=no-such-sched fails the job in one line naming the option (exit $rc, as fio's)" \
		sh -c "[ $rc -eq 1 ] && [ \$(wc -l < s.err) -eq 1 ] && grep -q 'ioscheduler' s.err && grep -q '\\[$was\\]' $S"
	if [ $FIO = yes ]; then
		fio --name=s --rw=read --filename="$L" --size=1m --ioscheduler=no-such-sched --output-format=json \
			>/dev/null 2>&1
		check "... fio fails it too" [ $? -ne 0 ]
	fi
	losetup -d "$L"
}
sched_checks
if [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ]; then
	"$IOBENCH" --name=s --rw=read --filename=/dev/shm/iobench-t-$$ --size=64k --ioscheduler=none --unlink=1 \
		--output-format=json >s.json 2>s.err
	check "ioscheduler on a tmpfs file (no block device): a note, the job runs (fio: silently)" \
		sh -c "[ $? -eq 0 ] && grep -q 'note: ioscheduler' s.err"
fi

# ---- hostile values: one line naming the option, exit 1, nothing on stdout ----
refuse() { # description, expected words, options...
	desc=$1 want=$2
	shift 2
	"$IOBENCH" --name=h --ioengine=null --size=64k "$@" --output-format=json >h.out 2>h.err
	rc=$?
	if [ $rc -eq 1 ] && [ ! -s h.out ] && [ "$(wc -l <h.err)" -eq 1 ] && grep -q -- "$want" h.err; then
		ok "$desc: $(cat h.err)"
	else
		notok "$desc (exit $rc, stdout $(wc -c <h.out) bytes)"
		sed 's/^/#   /' h.err
	fi
}
refuse "an unknown user" "uid: no user named" --uid=no-such-user-here
refuse "an unknown group" "gid: no group named" --gid=no-such-group-here
refuse "a cpumask beyond the CPUs" "cpumask: " --cpumask=$((1 << NCPU))
refuse "an empty cpumask" "cpumask: '0' names no CPU" --cpumask=0
refuse "a gtod_cpu beyond the CPUs" "gtod_cpu: CPU" --gtod_cpu=$NCPU
refuse "a NUMA node that is not there" "numa_cpu_nodes: NUMA node 999" --numa_cpu_nodes=999
refuse "a memory policy's node that is not there" "numa_mem_policy: NUMA node 999" --numa_mem_policy=interleave:999
refuse "prefer with two nodes" "numa_mem_policy:" --numa_mem_policy=prefer:0,0-1
refuse "lockmem larger than the memory" "lockmem: " --lockmem=64t
refuse "a hugepage size the machine has not" "hugepage-size: " --mem=shmhuge --hugepage-size=3m
if [ "$(awk '/^HugePages_Free/ { print $2 }' /proc/meminfo)" = 0 ] && [ -n "$(awk '/^Hugepagesize/ { print $2 }' /proc/meminfo)" ]; then
	refuse "mem=shmhuge without free huge pages" "mem=shmhuge: no free huge pages" --mem=shmhuge
fi
refuse "cmdprio on an engine that cannot" "cmdprio_percentage: the null engine" --cmdprio_percentage=50
refuse "cmdprio_class alone on an engine that cannot (fio: unrecognized option)" "cmdprio_class: the null engine" \
	--cmdprio_class=2
refuse "cmdprio_percentage with cmdprio_bssplit" "cannot be used together" --ioengine=io_uring --filename="$T/cf" \
	--cmdprio_percentage=50 --cmdprio_bssplit=4k/50
refuse "cmdprio_bssplit with a class out of range" "cmdprio_bssplit: " --cmdprio_bssplit=4k/50/9/0
refuse "a cgroup name that climbs out" "cgroup: '../x'" --cgroup=../x
refuse "an ioscheduler name that is a path" "ioscheduler: " --ioscheduler=../x
refuse "mem=cudamalloc" "mem: cudamalloc" --mem=cudamalloc
refuse "prio 8" "prio: '8' is out of range" --prio=8
refuse "nice -21" "nice: '-21' is out of range" --nice=-21
ASAN=no # AddressSanitizer makes mlock a no-op ("ASan ignores mlock")
grep -q __asan_init "$IOBENCH" 2>/dev/null && ASAN=yes
if [ $ASAN = yes ]; then
	skip "lockmem above RLIMIT_MEMLOCK" "an ASan build does not mlock"
elif [ $ROOT = yes ] && have setpriv && have prlimit; then
	# Without privilege, RLIMIT_MEMLOCK holds: a lockmem above it fails the job in one line.
	prlimit --memlock=1048576 setpriv --reuid=65534 --regid=65534 --clear-groups "$IOBENCH" --name=h \
		--ioengine=null --size=64k --lockmem=4m --output-format=json >h.out 2>h.err
	rc=$?
	check "lockmem above RLIMIT_MEMLOCK without CAP_IPC_LOCK: exit $rc, one line naming both (fio: exit 0, no I/O)" \
		sh -c "[ $rc -eq 1 ] && [ \$(wc -l < h.err) -eq 1 ] && grep -q 'lockmem: .*RLIMIT_MEMLOCK' h.err"
fi
if [ $ROOT = yes ] && have setpriv; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$IOBENCH" --name=h --ioengine=null --size=64k --uid=0 \
		--output-format=json >h.out 2>h.err
	rc=$?
	check "uid=0 as nobody: exit $rc, one line naming uid" \
		sh -c "[ $rc -eq 1 ] && [ \$(wc -l < h.err) -eq 1 ] && grep -q 'uid: cannot switch' h.err"
fi

# ---- nothing left behind ----
check "no cgroup named $CG is left in any hierarchy" cg_gone
check "--cmdhelp=all lists none of these options as unsupported" sh -c "! '$IOBENCH' --cmdhelp=all |
	grep -A3 -E '^ *(exec_prerun|exec_postrun|uid|gid|nice|prio|prioclass|cmdprio[a-z_]*|log_prio|cgroup[a-z_]*|numa_[a-z_]*|cpumask|gtod_cpu|mem|iomem_align|hugepage-size|lockmem|lockfile|ioscheduler|write_hint):' |
	grep -q 'not supported'"
