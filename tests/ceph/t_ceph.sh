#!/bin/sh
# `make test-ceph`: iobench's rbd and rados engines on a real single-node Ceph, against fio
# 3.33 on the same cluster (not part of `make test`: it needs Debian's Ceph packages, root
# and about 8 minutes).
#
# The cluster (tests/ceph/cluster.sh): one mon, one mgr and one bluestore OSD on a loop
# device over a sparse file in a temporary directory, on 127.0.0.1, with a private ceph.conf
# and keyring, all inside new mount, network and PID namespaces (unshare -m -n -p): its
# ports live on a private loopback, and no daemon can outlive the namespace. Teardown stops
# the daemons by their pid files (trap), detaches the loop device and removes the directory;
# the last checks, made from outside, say nothing is left.
#
# What it checks: the same work (io_bytes, total_ios per direction) and JSON shapes as fio
# for rbd and rados jobs and fio's example job files; rados objects removed by iobench (fio
# leaves them) and every completion checked (a write past osd_max_object_size fails);
# verify and fsync on an image; hostile setups (no pool, no image, a bad conf path, an
# unreachable cluster) refused in one line, exit 1, in seconds. Then it prints iobench/fio
# ratios for rbd 4k randwrite/randread QD32, rbd 4m read and rados 4m write
# (CEPH_PAIRS alternating pairs each, default 3; CEPH_RUNTIME seconds per run, default 4).
# Then CephFS: an MDS and a file system mounted with ceph-fuse, the Rook user's bs x rw sweep
# on it as CSV, fio's work on the same points, host-vs-pod figures (tests/ceph/t_cephfs.sh).
# Last, a RADOS Gateway (S3 on 127.0.0.1:8000) with an S3 user: curl's SigV4 puts, gets and
# deletes objects, checked against the gateway's own accounting (radosgw-admin bucket stats);
# then iobench's http engine in S3 mode against it (tests/ceph/t_s3.sh).
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
IOBENCH=${IOBENCH:-$TOP/iobench}

if [ "${IOBENCH_CEPH_INNER:-}" != 1 ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "test-ceph: needs root (a loop device, namespaces)" >&2
		exit 1
	fi
	for c in ceph ceph-mon ceph-mgr ceph-osd ceph-mds ceph-fuse setpriv ceph-authtool monmaptool rados rbd radosgw radosgw-admin fio jq \
		python3 curl s3cmd losetup unshare ip timeout; do
		command -v "$c" >/dev/null 2>&1 || { echo "test-ceph: $c is missing (make test-ceph installs it)" >&2; exit 1; }
	done
	T=$(mktemp -d /tmp/iobench-ceph.XXXXXX)
	LOG=$(mktemp /tmp/iobench-ceph-log.XXXXXX)
	export T TOP IOBENCH
	IOBENCH_CEPH_INNER=1 unshare -m -n -p -f --mount-proc sh "$0" 2>&1 | tee "$LOG"
	# Outside the namespaces: whatever the inner script managed, nothing may be left.
	if [ -s "$T/c/loop" ]; then losetup -d "$(cat "$T/c/loop")" 2>/dev/null; fi
	ok() { echo "ok - $*" | tee -a "$LOG"; }
	notok() { echo "not ok - $*" | tee -a "$LOG"; }
	check() { d=$1; shift; if "$@"; then ok "$d"; else notok "$d"; fi; }
	check "teardown: no Ceph daemon of the test is left" sh -c "! pgrep -f '(ceph-(mon|mgr|osd|mds|fuse)|radosgw) -c $T/' >/dev/null"
	check "teardown: no loop device over the test's files" sh -c "! losetup -a | grep -q '$T/'"
	check "teardown: no mount under the test's directory" sh -c "! grep -q ' $T' /proc/mounts"
	rm -rf "$T"
	check "teardown: the test's directory is removed" [ ! -e "$T" ]
	pass=$(grep -c '^ok' "$LOG")
	fail=$(grep -c '^not ok' "$LOG")
	echo "$pass passed, $fail failed"
	rm -f "$LOG"
	[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
	exit
fi

# ---- inside the namespaces ----
ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else notok "$d"; fi; }
C=$T/c
O=$T/out
mkdir -p "$C" "$O"
cd "$O" || exit 1 # what jobs leave in their directory (verify state files) goes with $T
. "$TOP/tests/ceph/cluster.sh"
trap ceph_stop EXIT
trap 'exit 1' INT TERM
mount --make-rprivate /
ip link set lo up

t0=$(date +%s)
if ceph_start && ceph_wait_ok 120; then
	ok "a single-node Ceph (mon, mgr, one bluestore OSD on $(cat "$C/loop")) on 127.0.0.1: HEALTH_OK in $(($(date +%s) - t0)) s"
else
	notok "a single-node Ceph on 127.0.0.1 reaches HEALTH_OK"
	tail -5 "$C/log/setup.log" "$C/log/start.log" 2>/dev/null | sed 's/^/#   /'
	exit 1
fi
IMG_MB=512
if ceph_pools rbd $IMG_MB iobench rados && rbd create --size 64 rbd/fio_test && ceph_wait_ok 120; then
	ok "pools rbd (image iobench, $IMG_MB MiB; fio_test, 64 MiB) and rados, all PGs active+clean"
else
	notok "pools rbd and rados"
	exit 1
fi
# fio's rbd engine and librados's own search find this; fio's example rados.fio reads
# /etc/ceph/ceph.conf, which in this mount namespace is ours (a directory of this test's
# bind-mounted over /etc/ceph: nothing is written to the machine's /etc).
export CEPH_CONF="$C/ceph.conf"
mkdir -p "$C/etc-ceph" && cp "$C/ceph.conf" "$C/etc-ceph/ceph.conf"
[ -d /etc/ceph ] && mount --bind "$C/etc-ceph" /etc/ceph
RBD="--ioengine=rbd --pool=rbd --rbdname=iobench --clientname=admin"
RADOS="--ioengine=rados --pool=rados --conf=$C/ceph.conf --clientname=admin"
objects() { rados -p rados ls 2>/dev/null | sort; }
purge() { rados -p rados ls 2>/dev/null | while read -r o; do rados -p rados rm "$o"; done; }

# Reads of never-written extents return zeros without touching the OSD: fill the image.
"$IOBENCH" --name=fill $RBD --rw=write --bs=4m --iodepth=16 --output-format=json >"$O/fill.json" 2>"$O/fill.err"
check "rbd: a job without size= writes the whole image ($IMG_MB MiB)" \
	[ "$(jq '.jobs[0].write.io_bytes' "$O/fill.json")" -eq $((IMG_MB * 1048576)) ]

# ---- the same work and JSON shapes as fio ----
export FIO_DIFF_IGNORE_TOP=disk_util
EX=""
for d in "$TOP/../shared/fio-examples" "$TOP/../../shared/fio-examples"; do [ -f "$d/rbd.fio" ] && EX=$d; done
{
	cat <<EOF
rbd-randwrite | --name=w $RBD --rw=randwrite --bs=4k --iodepth=32 --size=32m | jobs,ios,keys,opts,clean,files
rbd-read-whole | --name=r $RBD --rw=read --bs=4m --iodepth=8 | jobs,ios,keys,opts,clean
rbd-randread-offset | --name=r $RBD --rw=randread --bs=8k --iodepth=16 --offset=128m --size=16m | jobs,ios,keys,clean
rbd-randrw-direct | --name=m $RBD --rw=randrw --bs=16k --iodepth=16 --size=32m --direct=1 | jobs,split,keys,clean
rbd-two-jobs | --name=a $RBD --rw=randwrite --bs=4k --iodepth=8 --size=8m --name=b $RBD --rw=randread --bs=4k --iodepth=8 --size=8m --offset=64m | jobs,ios,keys,clean
rados-write | --name=o $RADOS --rw=write --bs=4m --iodepth=16 --size=128m --nrfiles=4 | jobs,ios,keys,opts,clean
rados-randwrite | --name=o $RADOS --rw=randwrite --bs=4k --iodepth=32 --size=16m --nrfiles=2 --touch_objects=0 | jobs,ios,keys,clean
rados-trim | --name=t $RADOS --rw=trim --bs=1m --iodepth=8 --size=8m --nrfiles=2 | jobs,ios,keys,clean
rados-trimwrite | --name=tw $RADOS --rw=trimwrite --bs=1m --iodepth=8 --size=8m --nrfiles=2 | jobs,ios,keys,clean
EOF
	[ -n "$EX" ] && echo "example-rbd.fio | $EX/rbd.fio | jobs,ios,keys,clean"
	# fio's rados.fio as it is but size=16m (its 128 MiB of 4k random writes took ~40 s a tool here).
	[ -n "$EX" ] && [ -f /etc/ceph/ceph.conf ] && sed 's/^size=128m$/size=16m/' "$EX/rados.fio" >"$O/rados.fio" &&
		echo "example-rados.fio (size=16m) | $O/rados.fio | jobs,ios,keys,clean"
} >"$O/cases"
python3 "$TOP/tests/tools/fio_diff.py" "$IOBENCH" "$T/work" <"$O/cases"
[ -n "$EX" ] || ok "fio's example job files rbd.fio, rados.fio # SKIP the fio-examples folder is not there"
purge

# ---- rados: objects and completions ----
"$IOBENCH" --name=clean $RADOS --rw=write --bs=1m --iodepth=8 --size=64m --nrfiles=4 --output-format=json \
	>"$O/clean.json" 2>"$O/clean.err"
check "rados: iobench writes 4 objects (64 MiB) and removes them when the job ends" \
	sh -c "[ \$(jq '.jobs[0].write.io_bytes' '$O/clean.json') -eq 67108864 ] && [ -z \"\$(rados -p rados ls)\" ]"
fio --name=clean $RADOS --rw=write --bs=1m --iodepth=8 --size=64m --nrfiles=4 --output-format=json >/dev/null 2>&1
check "rados: fio 3.33 leaves its 4 objects behind (as documented in docs/differences.md)" \
	[ "$(objects | wc -l)" -eq 4 ]
"$IOBENCH" --name=clean $RADOS --rw=read --bs=1m --iodepth=8 --size=64m --nrfiles=4 --output-format=json \
	>"$O/keep.json" 2>"$O/keep.err"
check "rados: objects that were there before the job (fio's) are read and kept" \
	sh -c "[ \$(jq '.jobs[0].read.io_bytes' '$O/keep.json') -eq 67108864 ] && [ \$(rados -p rados ls | wc -l) -eq 4 ]"
purge
"$IOBENCH" --name=rd $RADOS --rw=randread --bs=4k --iodepth=16 --size=32m --nrfiles=2 --output-format=json \
	>"$O/rd.json" 2>"$O/rd.err"
check "rados: a read job writes its new objects up to their size first, reads them all, removes them" \
	sh -c "[ \$(jq '.jobs[0].read.io_bytes' '$O/rd.json') -eq 33554432 ] && [ ! -s '$O/rd.err' ] && [ -z \"\$(rados -p rados ls)\" ]"
"$IOBENCH" --name=big $RADOS --rw=write --bs=4m --iodepth=8 --size=256m --output-format=json >"$O/big.json" 2>"$O/big.err"
rc=$?
check "rados: a 256 MiB object (past osd_max_object_size, 128 MiB) fails with EFBIG, exit 1, object removed" \
	sh -c "[ $rc -eq 1 ] && grep -q 'File too large: write offset=134217728' '$O/big.err' && [ -z \"\$(rados -p rados ls)\" ]"
fio --name=big $RADOS --rw=write --bs=4m --iodepth=8 --size=256m --output-format=json >"$O/big-fio.json" 2>/dev/null
rc=$?
size=$(rados -p rados stat big.0.0 2>/dev/null | sed 's/.*size //')
check "rados: fio 3.33 says the same job wrote 256 MiB (exit $rc) while the object holds $size bytes" \
	sh -c "[ $rc -eq 0 ] && [ \$(jq '.jobs[0].write.io_bytes' '$O/big-fio.json') -eq 268435456 ] && [ '$size' = 134217728 ]"
purge
# offset=: as fio 3.33's rados engine, each object is size / nrfiles bytes and offset= starts
# inside it (not, as files, offset + size / nrfiles). Objects made empty before the job are
# kept by both tools, so their sizes (rados stat) can be compared after it.
offjob() { # tool args...: "exit io_bytes total_ios size-of-o.0.0 size-of-o.0.1"
	p=$1
	shift
	purge
	rados -p rados create o.0.0 && rados -p rados create o.0.1
	"$p" --name=o $RADOS "$@" --output-format=json >"$O/off.json" 2>"$O/off.err"
	rc=$?
	echo "$rc $(jq -r '.jobs[0] | [.write.io_bytes + .read.io_bytes, .write.total_ios + .read.total_ios] | @tsv' "$O/off.json" 2>/dev/null)" \
		"$(rados -p rados stat o.0.0 2>/dev/null | sed 's/.* size //')" "$(rados -p rados stat o.0.1 2>/dev/null | sed 's/.* size //')" | tr -s ' \t' ' '
}
while read -r want args; do
	a=$(offjob "$IOBENCH" $args) b=$(offjob fio $args)
	want=$(echo "$want" | tr , ' ')
	check "rados $args: iobench as fio: exit, bytes, I/Os, objects' sizes ($a; fio $b; expected $want)" \
		sh -c "[ '$a' = '$b' ] && [ '$a' = '$want' ]"
done <<EOF
0,2097152,2,2097152,2097152 --rw=write --bs=1m --size=4m --nrfiles=2 --offset=1m
0,2097152,2,1572864,1572864 --rw=write --bs=1m --size=4m --nrfiles=2 --offset=512k
0,3145728,12,2097152,2097152 --rw=write --bs=256k --size=4m --nrfiles=2 --offset=25%
0,3145728,3,4194304,0 --rw=write --bs=1m --size=4m --offset=1m
0,8388608,8,2097152,2097152 --rw=write --bs=1m --size=4m --nrfiles=2 --offset=1m --io_size=8m
EOF
# fio 3.33's random I/O with offset= on objects stops early (1 of the 8 writes here: its first
# random block past the object's end ends the file); iobench's covers the region.
a=$(offjob "$IOBENCH" --rw=randwrite --bs=256k --size=4m --nrfiles=2 --offset=1m)
b=$(offjob fio --rw=randwrite --bs=256k --size=4m --nrfiles=2 --offset=1m)
check "rados randwrite bs=256k, 4m over 2 objects, offset=1m: iobench writes each object's last 1 MiB ($a; fio: $b)" \
	[ "$a" = "0 2097152 8 2097152 2097152" ]
purge
# Trims zero the range (a write op with rados_write_op_zero, as fio 3.33); at an object's end
# the OSD truncates it. The same trims on the same objects leave the same bytes with both tools.
head -c 4194304 /dev/urandom >"$O/obj4m-r"
for tool in fio iobench; do
	p=$IOBENCH
	[ $tool = fio ] && p=fio
	rados -p rados put t.0.0 "$O/obj4m-r" && rados -p rados put t.0.1 "$O/obj4m-r"
	"$p" --name=t $RADOS --rw=trim --bs=1m --iodepth=4 --size=4m --nrfiles=2 --output-format=json \
		>"$O/trim-$tool.json" 2>"$O/trim-$tool.err"
	echo "$? $(jq -c '.jobs[0].trim | [.io_bytes, .total_ios]' "$O/trim-$tool.json")" >"$O/trim-$tool.res"
	rados -p rados get t.0.0 "$O/trim-$tool.0" && rados -p rados get t.0.1 "$O/trim-$tool.1"
	purge
done
check "rados: rw=trim of the first 2 MiB of two 4 MiB objects: iobench and fio trim 4 MiB in 4 trims, exit 0" \
	sh -c "[ \"\$(cat '$O/trim-iobench.res')\" = '0 [4194304,4]' ] && [ \"\$(cat '$O/trim-fio.res')\" = '0 [4194304,4]' ] && [ ! -s '$O/trim-iobench.err' ]"
head -c 2097152 /dev/zero >"$O/zero2m"
check "rados: the objects iobench trimmed hold what fio's do (2 MiB zeroed, the rest and the size kept; objects there before the job are kept)" \
	sh -c "cmp -s '$O/trim-fio.0' '$O/trim-iobench.0' && cmp -s '$O/trim-fio.1' '$O/trim-iobench.1' && [ \$(stat -c %s '$O/trim-iobench.1') -eq 4194304 ] && cmp -s -n 2097152 '$O/trim-iobench.1' '$O/zero2m' && cmp -s -i 2097152 '$O/trim-iobench.1' '$O/obj4m-r'"

# ---- rbd: verify, fsync ----
"$IOBENCH" --name=v $RBD --rw=randwrite --bs=4k --iodepth=16 --size=16m --offset=256m --verify=crc32c \
	--output-format=json >"$O/v.json" 2>"$O/v.err"
check "rbd: verify=crc32c writes 16 MiB and reads it back checked" \
	sh -c "[ \$(jq '.jobs[0].read.io_bytes' '$O/v.json') -eq 16777216 ] && [ ! -s '$O/v.err' ]"
"$IOBENCH" --name=s $RBD --rw=randwrite --bs=4k --iodepth=4 --size=4m --fsync=8 --output-format=json >"$O/s.json" 2>"$O/s.err"
check "rbd: fsync=8 flushes the image every 8 writes (127 timed syncs for 1024 writes: none after the last, as fio counts them)" \
	[ "$(jq '.jobs[0].sync.lat_ns.N' "$O/s.json")" -eq 127 ]

# ---- hostile setups: one line, exit 1, nothing on stdout, no hang ----
printf '[global]\nmon_host = 127.0.0.1:9\nclient_mount_timeout = 3\nkeyring = %s\n' "$C/client.admin.keyring" >"$C/unreachable.conf"
refuses() { # description, expected text, command...
	d=$1 want=$2
	shift 2
	s=$(date +%s)
	timeout 60 "$@" >"$O/h.out" 2>"$O/h.err"
	rc=$?
	took=$(($(date +%s) - s))
	if [ $rc -eq 1 ] && [ ! -s "$O/h.out" ] && [ "$(wc -l <"$O/h.err")" -eq 1 ] && grep -q "$want" "$O/h.err"; then
		ok "$d: one line, exit 1, ${took} s"
	else
		notok "$d (exit $rc after ${took} s)"
		sed 's/^/#   /' "$O/h.err" | head -5
	fi
}
refuses "rbd: a missing pool" "ioengine=rbd: pool 'nopool': no such pool" \
	"$IOBENCH" --name=h --ioengine=rbd --pool=nopool --rbdname=iobench --rw=read --size=1m
refuses "rbd: a missing image" "ioengine=rbd: image 'noimage' in pool 'rbd': no such image" \
	"$IOBENCH" --name=h --ioengine=rbd --pool=rbd --rbdname=noimage --rw=read --size=1m
refuses "rbd: offset + size past the image's end" "beyond the end of the rbd target ($((IMG_MB * 1048576)) bytes)" \
	"$IOBENCH" --name=h $RBD --rw=read --size=1g
refuses "rbd: an unreachable cluster (CEPH_CONF naming a dead mon, client_mount_timeout=3)" \
	"cannot connect to the cluster (mon_host 127.0.0.1:9) as client.admin: Connection timed out" \
	env CEPH_CONF="$C/unreachable.conf" "$IOBENCH" --name=h $RBD --rw=read --size=1m
refuses "rbd: no ceph.conf to be found" "no monitors to connect to: no ceph.conf found" \
	env CEPH_CONF=/nonexistent/ceph.conf "$IOBENCH" --name=h --ioengine=rbd --pool=rbd --rbdname=iobench --clustername=nocluster --rw=read --size=1m
refuses "rados: a missing pool" "ioengine=rados: pool 'nopool': no such pool" \
	"$IOBENCH" --name=h --ioengine=rados --conf="$C/ceph.conf" --pool=nopool --rw=write --size=1m
refuses "rados: a bad conf path" "conf: cannot read '/nonexistent/ceph.conf': No such file or directory" \
	"$IOBENCH" --name=h --ioengine=rados --conf=/nonexistent/ceph.conf --pool=rados --rw=write --size=1m
refuses "rados: an unreachable cluster (conf= naming a dead mon, client_mount_timeout=3)" \
	"cannot connect to the cluster (mon_host 127.0.0.1:9) as client.admin: Connection timed out" \
	"$IOBENCH" --name=h --ioengine=rados --conf="$C/unreachable.conf" --pool=rados --rw=write --size=1m
refuses "rados: a wrong user" "as client.nobody" \
	"$IOBENCH" --name=h --ioengine=rados --conf="$C/ceph.conf" --clientname=nobody --pool=rados --rw=write --size=1m

# ---- figures: iobench / fio on the same cluster ----
PAIRS=${CEPH_PAIRS:-3}
RT=${CEPH_RUNTIME:-4}
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
figure() { # name, jq expression, args...
	name=$1 expr=$2
	shift 2
	: >"$O/$name.iobench"
	: >"$O/$name.fio"
	load=$(cut -d' ' -f1 /proc/loadavg)
	i=0
	while [ $i -lt "$PAIRS" ]; do
		order="$IOBENCH fio"
		[ $((i % 2)) = 1 ] && order="fio $IOBENCH" # alternating: neither tool always runs second
		for p in $order; do
			tool=$(basename "$p")
			"$p" "$@" --runtime="$RT" --time_based --output-format=json >"$O/$name.json" 2>>"$O/$name.err"
			jq "$expr" "$O/$name.json" >>"$O/$name.$tool" 2>/dev/null || echo 0 >>"$O/$name.$tool"
			purge
		done
		i=$((i + 1))
	done
	a=$(median <"$O/$name.iobench")
	b=$(median <"$O/$name.fio")
	echo "$name $a $b" >>"$O/figures"
	check "$name: both tools ran $PAIRS times (iobench $(awk '{ printf "%s%.0f", (NR > 1 ? " " : ""), $1 }' "$O/$name.iobench"), fio $(awk '{ printf "%s%.0f", (NR > 1 ? " " : ""), $1 }' "$O/$name.fio"); load average $load)" \
		awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > 0 && b > 0) }'
}
: >"$O/figures"
figure "rbd-4k-randwrite-qd32" '.jobs[0].write.iops' --name=f $RBD --rw=randwrite --bs=4k --iodepth=32
figure "rbd-4k-randread-qd32" '.jobs[0].read.iops' --name=f $RBD --rw=randread --bs=4k --iodepth=32
figure "rbd-4m-read-qd32" '.jobs[0].read.bw / 1024' --name=f $RBD --rw=read --bs=4m --iodepth=32
figure "rados-4m-write-qd32" '.jobs[0].write.bw / 1024' --name=f $RADOS --rw=write --bs=4m --iodepth=32 --size=256m --nrfiles=8
echo
echo "| job (median of $PAIRS, ${RT} s each) | iobench | fio 3.33 | iobench/fio |"
echo "|---|---|---|---|"
while read -r name a b; do
	unit=IOPS
	case $name in *4m*) unit=MiB/s ;; esac
	printf '| %s | %.0f %s | %.0f %s | %s |\n' "$name" "$a" "$unit" "$b" "$unit" \
		"$(awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
done <"$O/figures"
echo

# ---- CephFS through ceph-fuse: the sweep as CSV, fio's work, host against pod ----
. "$TOP/tests/ceph/t_cephfs.sh"

# ---- the RADOS Gateway with an S3 user; iobench's S3 (http) engine against it ----
# curl signs with AWS SigV4 (RGW needs x-amz-content-sha256: UNSIGNED-PAYLOAD with curl 7.88).
t0=$(date +%s)
if ceph_rgw_start; then
	ok "radosgw: S3 on 127.0.0.1:8000 (beast), answering in $(($(date +%s) - t0)) s"
	radosgw-admin user create --uid=iobench --display-name=iobench >"$O/user.json" 2>>"$C/log/setup.log"
	AK=$(jq -r '.keys[0].access_key' "$O/user.json")
	SK=$(jq -r '.keys[0].secret_key' "$O/user.json")
	check "radosgw: an S3 user with an access key" sh -c "[ -n '$AK' ] && [ '$AK' != null ]"
	s3() { curl -s -f --aws-sigv4 aws:amz:default:s3 --user "$AK:$SK" -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' "$@"; }
	head -c 4096 /dev/urandom >"$O/obj4k"
	head -c 4194304 /dev/urandom >"$O/obj4m"
	if s3 -X PUT http://127.0.0.1:8000/iobench && s3 -T "$O/obj4k" http://127.0.0.1:8000/iobench/obj4k &&
		s3 -T "$O/obj4m" http://127.0.0.1:8000/iobench/obj4m; then
		ok "radosgw: the user makes a bucket and puts a 4 KiB and a 4 MiB object"
	else
		notok "radosgw: the user makes a bucket and puts a 4 KiB and a 4 MiB object"
	fi
	s3 http://127.0.0.1:8000/iobench/obj4m >"$O/got4m" 2>/dev/null
	check "radosgw: the 4 MiB object reads back the same" cmp -s "$O/obj4m" "$O/got4m"
	radosgw-admin bucket stats --bucket=iobench >"$O/stats.json" 2>/dev/null
	check "radosgw: its own accounting (bucket stats): 2 objects, 4198400 bytes" \
		sh -c "[ \"\$(jq -c '.usage[\"rgw.main\"] | [.num_objects, .size]' '$O/stats.json')\" = '[2,4198400]' ]"
	s3 -X DELETE http://127.0.0.1:8000/iobench/obj4k && s3 -X DELETE http://127.0.0.1:8000/iobench/obj4m &&
		s3 -X DELETE http://127.0.0.1:8000/iobench
	check "radosgw: objects and bucket deleted" sh -c "! radosgw-admin bucket stats --bucket=iobench >/dev/null 2>&1"
	code=$(curl -s -o /dev/null -w '%{http_code}' --aws-sigv4 aws:amz:default:s3 --user "$AK:wrong" \
		-H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' http://127.0.0.1:8000/)
	check "radosgw: a wrong secret key is refused (HTTP $code)" [ "$code" = 403 ]
	. "$TOP/tests/ceph/t_s3.sh" # iobench's http engine (S3) against the gateway
else
	notok "radosgw: S3 on 127.0.0.1:8000"
fi

umount /etc/ceph 2>/dev/null
ceph_stop
trap - EXIT
check "teardown: the CephFS unmounted (no ceph-fuse mount in this namespace), ceph-fuse and the MDS stopped" \
	sh -c "! grep -q ' fuse.ceph-fuse ' /proc/mounts && [ ! -e '$C/run/ceph-fuse.pid' ] && [ ! -e '$C/run/mds.a.pid' ]"
# (Stopped daemons stay zombies of this shell, the namespace's init, until it exits.)
check "teardown: the daemons stopped by their pid files, the loop device detached" \
	sh -c "! ps -eo stat=,comm= | awk '\$1 !~ /^Z/ && \$2 ~ /^(ceph-(mon|mgr|osd|mds|fuse)|radosgw)\$/' | grep -q . && [ ! -e '$C/loop' ]"
