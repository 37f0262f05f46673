#!/bin/sh
# Runs inside run.sh's mount and network namespaces. $T is the scratch directory.
set -u
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
notok() { echo "not ok - $*"; fail=$((fail + 1)); }
check() { d=$1; shift; if "$@"; then ok "$d"; else notok "$d"; fi; }
GLUSTER="gluster --mode=script"
LOOPS=""

stop_pidfile() { # kill the process a pid file names, if it is still that process
	[ -s "$1" ] || return 0
	p=$(cat "$1")
	kill "$p" 2>/dev/null || return 0
	for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || return 0; sleep 0.1; done
	kill -9 "$p" 2>/dev/null
}
teardown() {
	umount "$T/gmnt" 2>/dev/null || umount -l "$T/gmnt" 2>/dev/null
	stop_pidfile "$T/client.pid"
	$GLUSTER volume stop gv0 force >/dev/null 2>&1
	for f in $(find "$T/run" -name '*.pid' 2>/dev/null); do stop_pidfile "$f"; done
	stop_pidfile "$T/glusterd.pid"
	umount "$T/brick" 2>/dev/null
	umount "$T/ext4" 2>/dev/null
	for l in $LOOPS; do losetup -d "$l" 2>/dev/null; done
}
trap teardown EXIT
trap 'exit 1' INT TERM

mount --make-rprivate /
ip link set lo up
mkdir -p "$T/lib" "$T/run" "$T/log" "$T/brick" "$T/gmnt" "$T/ext4" "$T/out"
cp /etc/hosts "$T/hosts"
echo "127.0.0.1 iobench-gluster" >>"$T/hosts"
mount --bind "$T/hosts" /etc/hosts
mkdir -p /var/lib/glusterd /run/gluster /var/log/glusterfs
mount --bind "$T/lib" /var/lib/glusterd
mount --bind "$T/run" /run/gluster
mount --bind "$T/log" /var/log/glusterfs

# The brick: xfs on a loop device (512-byte inodes, as Gluster asks).
truncate -s 2g "$T/xfs.img"
L=$(losetup -f --show "$T/xfs.img") || exit 1
LOOPS="$L"
mkfs.xfs -q -f -i size=512 "$L" && mount "$L" "$T/brick" && mkdir "$T/brick/b" || exit 1

glusterd -p "$T/glusterd.pid" || exit 1
for _ in $(seq 100); do $GLUSTER volume list >/dev/null 2>&1 && break; sleep 0.1; done
if $GLUSTER volume create gv0 "iobench-gluster:$T/brick/b" >"$T/out/create.log" 2>&1 &&
	$GLUSTER volume start gv0 >>"$T/out/create.log" 2>&1; then
	ok "a single-brick volume on iobench-gluster (127.0.0.1), xfs loop brick"
else
	notok "a single-brick volume on iobench-gluster (127.0.0.1), xfs loop brick"
	sed 's/^/#   /' "$T/out/create.log"
	exit 1
fi
glusterfs --volfile-server=iobench-gluster --volfile-id=gv0 -p "$T/client.pid" "$T/gmnt"
for _ in $(seq 100); do stat -f -c %T "$T/gmnt" 2>/dev/null | grep -q fuse && [ -w "$T/gmnt" ] && break; sleep 0.1; done
check "FUSE-mounted at $T/gmnt" sh -c "grep -q ' $T/gmnt fuse.glusterfs ' /proc/mounts"
chmod 777 "$T/gmnt"

# The ext4 for scale: a loop image of the same size on the same disk.
truncate -s 2g "$T/ext4.img"
E=$(losetup -f --show "$T/ext4.img") || exit 1
LOOPS="$LOOPS $E"
mkfs.ext4 -q "$E" && mount "$E" "$T/ext4" && chmod 777 "$T/ext4" || exit 1

D=--direct=1
dd if=/dev/zero of="$T/gmnt/.probe" bs=4096 count=1 oflag=direct 2>/dev/null || D=--direct=0
rm -f "$T/gmnt/.probe"
SEQ="--name=Sequ_Read_Testing --rw=read --bs=4m --iodepth=32 --ioengine=libaio $D --size=512m --runtime=8 --time_based --group_reporting"
FC="--nrfiles=2000 --numjobs=2 --filesize=4k --group_reporting --filename_format=f.\$jobnum.\$filenum"

for fs in gluster ext4; do
	case $fs in gluster) M=$T/gmnt ;; ext4) M=$T/ext4 ;; esac
	# shellcheck disable=SC2086
	"$IOBENCH" $SEQ --filename="$M/testfile" --output-format=json >"$T/out/$fs-host.json" 2>"$T/out/$fs-host.err"
	check "$fs: host sequential read, exit 0" sh -c "[ \$(jq '.jobs[0].read.io_bytes' '$T/out/$fs-host.json') -gt 0 ]"
	chmod 644 "$M/testfile"
	unshare -m -p -f --mount-proc sh -c "
		mount --make-rprivate /
		mount --bind '$M' /mnt
		setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
			'$IOBENCH' $SEQ --filename=/mnt/testfile --output-format=json >'$T/out/$fs-pod.json' 2>'$T/out/$fs-pod.err'
		echo \$? >'$T/out/$fs-pod.rc'
	"
	check "$fs: the same read in a pod sandbox (nobody, own mount and pid namespaces), exit 0" \
		sh -c "[ \"\$(cat '$T/out/$fs-pod.rc')\" -eq 0 ] && [ \$(jq '.jobs[0].read.io_bytes' '$T/out/$fs-pod.json') -gt 0 ]"
	"$IOBENCH" --compare "$T/out/$fs-host.json" "$T/out/$fs-pod.json" >"$T/out/$fs-cmp.txt"
	check "$fs: --compare host pod succeeds" sh -c "[ $? -eq 0 ]"
	sed 's/^/#   /' "$T/out/$fs-cmp.txt"
	rm -f "$M/testfile"
	mkdir -p "$M/fc"
	for e in filecreate filestat filedelete; do
		# shellcheck disable=SC2086
		"$IOBENCH" $FC --name=$e --ioengine=$e --directory="$M/fc" --output-format=json \
			>"$T/out/$fs-$e.json" 2>"$T/out/$fs-$e.err"
		n=$(find "$M/fc" -type f | wc -l)
		case $e in
		filecreate) want=4000 ;; filestat) want=4000 ;; filedelete) want=0 ;;
		esac
		check "$fs: $e over 2 x 2000 files: 4000 operations, $want files left" \
			sh -c "[ \$(jq '.jobs[0].read.clat_ns.N' '$T/out/$fs-$e.json') -eq 4000 ] && [ $n -eq $want ]"
	done
	# The scenario job files (docs/metadata.md), run where the files should be.
	(cd "$M" && "$IOBENCH" "$TOP/jobs/metadata.fio" --output-format=json >"$T/out/$fs-md.json" 2>"$T/out/$fs-md.err")
	check "$fs: jobs/metadata.fio runs (5 phases)" sh -c "[ \$(jq '.jobs | length' '$T/out/$fs-md.json') -eq 5 ]"
	(cd "$M" && "$IOBENCH" "$TOP/jobs/small-files.fio" --output-format=json >"$T/out/$fs-sf.json" 2>"$T/out/$fs-sf.err")
	check "$fs: jobs/small-files.fio reads the 2000-file tree whole" \
		sh -c "[ \$(jq '.jobs[2].whole_files.files' '$T/out/$fs-sf.json') -eq 2000 ]"
done

echo
echo "| storage | seq read 4m QD32 host MiB/s | in the pod MiB/s | filecreate ops/s | p50 / p99 us | filestat ops/s | filedelete ops/s |"
echo "|---|---|---|---|---|---|---|"
for fs in gluster ext4; do
	o=$T/out/$fs
	printf '| %s | %s | %s | %s | %s / %s | %s | %s |\n' "$fs" \
		"$(jq '.jobs[0].read.bw / 1024 | floor' "$o-host.json")" \
		"$(jq '.jobs[0].read.bw / 1024 | floor' "$o-pod.json")" \
		"$(jq '.jobs[0].read.iops | floor' "$o-filecreate.json")" \
		"$(jq '.jobs[0].read.clat_ns.percentile["50.000000"] / 1000 | floor' "$o-filecreate.json")" \
		"$(jq '.jobs[0].read.clat_ns.percentile["99.000000"] / 1000 | floor' "$o-filecreate.json")" \
		"$(jq '.jobs[0].read.iops | floor' "$o-filestat.json")" \
		"$(jq '.jobs[0].read.iops | floor' "$o-filedelete.json")"
done
echo
echo "| storage | md create ops/s | md stat ops/s | md read ops/s | md delete ops/s | tree read files/s | tree MiB/s | image MiB/s |"
echo "|---|---|---|---|---|---|---|---|"
for fs in gluster ext4; do
	o=$T/out/$fs
	printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$fs" \
		"$(jq '.jobs[0].read.iops | floor' "$o-md.json")" "$(jq '.jobs[1].read.iops | floor' "$o-md.json")" \
		"$(jq '.jobs[2].read.iops | floor' "$o-md.json")" "$(jq '.jobs[3].read.iops | floor' "$o-md.json")" \
		"$(jq '.jobs[2].whole_files.files_per_sec | floor' "$o-sf.json")" \
		"$(jq '.jobs[2].read.bw / 1024 | floor' "$o-sf.json")" "$(jq '.jobs[3].read.bw / 1024 | floor' "$o-sf.json")"
done
. "$TOP/tests/gluster/gfapi.sh"
teardown
trap - EXIT
left=$(pgrep -f "$T" | wc -l)
check "teardown: no process of this test is left" [ "$left" -eq 0 ]
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
