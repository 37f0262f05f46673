#!/bin/sh
# lane: timing (tests/run.sh: never beside another timing script)
# Issue 14: nothing is touched that was not asked for, setup failures carry their errno, and
# reports are written safely. (Signals and waits: t_signals.sh; guards: t_guards.sh.)
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
sum() { sha256sum "$@" | cut -c1-64; }

# --- read-only means read-only ---
head -c 10000 /dev/urandom >short
s0=$(sum short)
"$IOBENCH" --readonly --name=r --rw=read --size=64k --filename=short --output-format=json >ro.json 2>ro.err
rc=$?
check "--readonly read of a 10,000-byte file with size=64k: exit 1 ($rc), the file not grown" \
	sh -c "[ $rc -eq 1 ] && [ \$(stat -c %s short) -eq 10000 ] && [ \"\$(sha256sum short | cut -c1-64)\" = $s0 ]"
check "... one line: refusing to extend, --readonly" \
	sh -c "[ \$(wc -l <ro.err) -eq 1 ] && grep -q \"refusing to extend 'short' from 10000 to 65536 bytes: --readonly\" ro.err"
check "... the report says error 30 (EROFS)" [ "$(jq '.jobs[0].error' ro.json)" = 30 ]
"$IOBENCH" --readonly --name=r --rw=read --size=64k --filename=missing >/dev/null 2>rm.err
check "--readonly read of a missing file: refused, nothing created" \
	sh -c "[ $? -eq 1 ] && [ ! -e missing ] && grep -q \"refusing to create 'missing'\" rm.err"
cp short short2
"$IOBENCH" --name=r --rw=read --size=64k --filename=short2 --output-format=json >rw.json 2>/dev/null
check "without --readonly a read job lays the file out to 64 KiB, as fio" \
	sh -c "[ $? -eq 0 ] && [ \$(stat -c %s short2) -eq 65536 ]"
if have fio; then
	cp short short3
	fio --readonly --name=r --rw=read --size=64k --filename=short3 >/dev/null 2>&1
	check "fio --readonly does not grow it either" [ "$(stat -c %s short3)" -eq 10000 ]
fi
"$IOBENCH" --name=v --rw=write --verify=crc32c --verify_only=1 --size=64k --filename=nothing >/dev/null 2>vo.err
check "verify_only on a missing file: exit 1, nothing created, one line" \
	sh -c "[ $? -eq 1 ] && [ ! -e nothing ] && grep -q \"verify_only: 'nothing' does not exist\" vo.err"
"$IOBENCH" --name=v --rw=write --verify=crc32c --verify_only=1 --size=64k --filename=short >/dev/null 2>vs.err
check "verify_only on a short file: exit 1, the file not grown" \
	sh -c "[ $? -eq 1 ] && [ \$(stat -c %s short) -eq 10000 ] && grep -q 'is shorter than the region' vs.err"
"$IOBENCH" --readonly --name=u --rw=read --size=4k --filename=short --unlink=1 >/dev/null 2>un.err
check "--readonly with unlink=1: refused, the file stays" \
	sh -c "[ $? -eq 1 ] && [ -e short ] && grep -q 'unlink=1 removes' un.err"
for eng in filedelete filecreate dirdelete dircreate; do
	"$IOBENCH" --readonly --name=f --ioengine=$eng --filename=short --size=4k >/dev/null 2>fe.err
	check "--readonly with ioengine=$eng: refused, the file stays" \
		sh -c "[ $? -eq 1 ] && [ -e short ] && grep -q 'ioengine=$eng creates or removes files, and --readonly is set' fe.err"
done
mknod cnull c 1 3
"$IOBENCH" --name=f --ioengine=filedelete --filename=cnull --size=4k >/dev/null 2>fd.err
check "ioengine=filedelete on a device node: refused, the node stays" \
	sh -c "[ $? -eq 1 ] && [ -c cnull ] && grep -q \"'cnull' is a character device; only regular files are supported\" fd.err"
if [ "$(id -u)" = 0 ] && truncate -s 8m lo.img && LO=$(losetup -f --show lo.img 2>/dev/null); then
	"$IOBENCH" --name=f --ioengine=filedelete --filename="$LO" --size=4k >/dev/null 2>fl.err
	check "ioengine=filedelete --filename=$LO: refused, the device node stays" \
		sh -c "[ $? -eq 1 ] && [ -b $LO ] && grep -q 'is a block device; only regular files' fl.err"
	losetup -d "$LO"
else
	skip "filedelete on a loop device" "needs root and a free loop device"
fi
ln -s cnull clink
"$IOBENCH" --name=f --ioengine=filedelete --filename=clink --size=4k >/dev/null 2>fs.err
check "ioengine=filedelete on a symlink: refused, the link stays" sh -c "[ $? -eq 1 ] && [ -L clink ]"
# --- many files in one directory: one walk of it replaces the per-file lstat (core/plan/dirscan.c) ---
mkdir many
i=0
while [ $i -le 300 ]; do [ $i -eq 150 ] || : >many/m.0.$i; i=$((i + 1)); done
mkfifo many/m.0.150
"$IOBENCH" --name=m --ioengine=filedelete --nrfiles=301 --filesize=4k --directory=many >/dev/null 2>mf.err
check "filedelete of 301 files, one a FIFO: refused, every file stays" \
	sh -c "[ $? -eq 1 ] && [ -p many/m.0.150 ] && [ \$(ls many | wc -l) -eq 301 ] && grep -q \"'many/m.0.150' is a FIFO; only regular files are supported\" mf.err"
timeout 10 "$IOBENCH" --name=m --rw=read --nrfiles=301 --filesize=4k --directory=many >/dev/null 2>mr.err
check "a read job over the same 301 files: refused at once for the FIFO (exit $?)" \
	grep -q "'many/m.0.150' is a FIFO, which has no offsets" mr.err
rm many/m.0.150
ln -s m.0.1 many/m.0.150
"$IOBENCH" --name=m --ioengine=filedelete --nrfiles=301 --filesize=4k --directory=many >/dev/null 2>ml.err
check "... one a symbolic link: refused, the link stays" \
	sh -c "[ $? -eq 1 ] && [ -L many/m.0.150 ] && grep -q 'is a symbolic link; only regular files' ml.err"
rm many/m.0.150
mkdir many/m.0.150
"$IOBENCH" --name=m --rw=read --nrfiles=301 --filesize=4k --directory=many --unlink=1 >/dev/null 2>md.err
check "... one a directory, unlink=1: refused, the directory stays" \
	sh -c "[ $? -eq 1 ] && [ -d many/m.0.150 ] && grep -q \"unlink=1: 'many/m.0.150' is a directory\" md.err"
rmdir many/m.0.150
: >many/m.0.150
"$IOBENCH" --name=m --ioengine=filedelete --nrfiles=301 --filesize=4k --directory=many --output-format=json \
	>mo.json 2>mo.err
check "filedelete of 301 regular files: all removed ($(jq '.jobs[0].read.total_ios' mo.json) I/Os), none left" \
	sh -c "[ \$(jq '.jobs[0].read.total_ios' mo.json) -eq 301 ] && [ -z \"\$(ls many)\" ]"
rmdir many

mkfifo fifo
t0=$(ms)
timeout 10 "$IOBENCH" --name=f --filename=fifo --size=1m >/dev/null 2>ff.err
rc=$?
check "a FIFO as the file: refused at once ($(($(ms) - t0)) ms, exit $rc), no wait for a writer" \
	sh -c "[ $rc -eq 1 ] && grep -q \"'fifo' is a FIFO, which has no offsets\" ff.err"

# --- wait_for: only an earlier job (fio: "waitee job b unknown") ---
printf '[a]\nioengine=null\nsize=1m\nwait_for=b\n[b]\nioengine=null\nsize=1m\nwait_for=a\n' >cycle.fio
timeout 10 "$IOBENCH" cycle.fio >/dev/null 2>cy.err
check "wait_for cycle: refused at parse time (exit $?)" grep -q "wait_for: no job named 'b' before it" cy.err
printf '[a]\nioengine=null\nsize=1m\nwait_for=b\n[b]\nioengine=null\nsize=1m\nstonewall\n' >later.fio
timeout 10 "$IOBENCH" later.fio >/dev/null 2>la.err
check "wait_for a job of a later group: refused (exit $?)" grep -q "wait_for: no job named 'b' before it" la.err
if have fio; then
	fio cycle.fio >/dev/null 2>&1
	check "fio refuses the cycle too" [ $? -ne 0 ]
fi

# --- escaped colons: filename=a\:b is one file named a:b (fio's syntax) ---
"$IOBENCH" --name=c --rw=write --size=64k --filename='col\:on' --output-format=json >col.json 2>/dev/null
check "filename='col\\:on' writes one file named 'col:on'" sh -c "[ -f col:on ] && [ ! -e col ] && [ ! -e on ]"
if have fio; then
	fio --name=c --rw=write --size=64k --filename='fcol\:on' >/dev/null 2>&1
	check "... as fio does" [ -f fcol:on ]
fi

# --- setup failures carry their errno into every format ---
mkdir locked && chmod 700 locked
if [ "$(id -u)" = 0 ] && have setpriv; then
	NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
	$NOBODY "$IOBENCH" --name=p --filename=locked/f --size=1m --output-format=json >acc.json 2>acc.err
	rc=$?
	check "permission denied creating the file (as on a root-owned PVC): exit 1, \"error\" : 13" \
		sh -c "[ $rc -eq 1 ] && [ \$(jq '.jobs[0].error' acc.json) -eq 13 ]"
	$NOBODY "$IOBENCH" --name=p --filename=locked/f --size=1m >acc.txt 2>/dev/null
	check "... err=13 in the normal output" grep -q 'p: (groupid=0, jobs=1): err=13' acc.txt
	$NOBODY "$IOBENCH" --name=p --filename=locked/f --size=1m --output-format=terse >acc.terse 2>/dev/null
	check "... and 13 in terse field 5" [ "$(cut -d';' -f5 acc.terse)" = 13 ]
	$NOBODY "$IOBENCH" --name=bad --filename=locked/f --size=1m --name=good --ioengine=null --size=1m \
		--output-format=json >two.json 2>/dev/null
	check "... and the other job of the group still runs" \
		sh -c "[ \$(jq '.jobs[0].error' two.json) -eq 13 ] && [ \$(jq '.jobs[1].error' two.json) -eq 0 ] && [ \$(jq '.jobs[1].read.io_bytes' two.json) -eq 1048576 ]"
else
	skip "permission denied as nobody" "needs root and setpriv"
fi
if [ "$(id -u)" = 0 ] && mkdir tiny && mount -t tmpfs -o size=1m tmpfs tiny 2>/dev/null; then
	"$IOBENCH" --name=n --filename=tiny/f --rw=read --size=4m --output-format=json >nospc.json 2>nospc.err
	check "a layout larger than the free space: refused before writing, \"error\" : 28, no file" \
		sh -c "[ \$(jq '.jobs[0].error' nospc.json) -eq 28 ] && [ ! -e tiny/f ]"
	check "... naming the job, the size and the free space" \
		grep -q "job 'n': cannot lay out 'tiny/f': it needs 4194304 more bytes (4 MiB) and its filesystem has 1048576 bytes (1 MiB) free" nospc.err
	t0=$(ms)
	"$IOBENCH" --name=n --filename=tiny/g --rw=read --size=1t --output-format=json >tb.json 2>/dev/null
	check "a 1 TB read layout on it: refused at once ($(($(ms) - t0)) ms), no file" \
		sh -c "[ $(($(ms) - t0)) -lt 1000 ] && [ ! -e tiny/g ] && [ \$(jq '.jobs[0].error' tb.json) -eq 28 ]"
	"$IOBENCH" --name=n --filename=tiny/h --rw=read --offset=1t --size=64k --output-format=json >off.json 2>/dev/null
	check "offset=1t: refused the same way" sh -c "[ ! -e tiny/h ] && [ \$(jq '.jobs[0].error' off.json) -eq 28 ]"
	echo '{"old" : true}' >tiny/prev.json
	cat /dev/zero >tiny/fill 2>/dev/null
	"$IOBENCH" --name=o --ioengine=null --size=64m --output-format=json+ --output=tiny/prev.json 2>full.err
	rc=$?
	check "--output on a full file system: exit 1 ($rc), one line naming the file and ENOSPC" \
		sh -c "[ $rc -eq 1 ] && [ \$(wc -l <full.err) -eq 1 ] && grep -q \"output: 'tiny/prev.json': cannot write the report: No space left on device\" full.err"
	check "... the earlier result is intact and no temporary file is left" \
		sh -c "[ \"\$(cat tiny/prev.json)\" = '{\"old\" : true}' ] && [ \$(ls -A tiny | wc -l) -eq 2 ]"
	umount tiny
else
	skip "ENOSPC at layout" "needs root and tmpfs"
fi

"$IOBENCH" --name=x --rw=read --filename="$T/oi" --size=1m --offset_increment=4e --numjobs=3 >/dev/null 2>oi.err
check "offset_increment=4e with numjobs=3: refused (beyond the largest file), no file" \
	sh -c "[ $? -eq 1 ] && [ ! -e oi ] && grep -q 'offset of clone 2 is beyond the largest possible file' oi.err"
if [ "$(cat /proc/sys/vm/overcommit_memory)" = 1 ]; then
	skip "out of memory for the buffers" "vm.overcommit_memory=1 grants any allocation"
else
# (ASan refuses an allocation this size unless told to return NULL, as malloc does)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1" \
	"$IOBENCH" --name=m --ioengine=null --bs=1g --iodepth=4096 --size=1t --output-format=json >oom.json 2>oom.err
check "out of memory for the buffers: one line naming them and how much (4.0 TiB), \"error\" : 12" \
	sh -c "[ \$(jq '.jobs[0].error' oom.json) -eq 12 ] && [ \$(grep -vc '^==' oom.err) -eq 1 ] && grep -q 'out of memory: cannot allocate 4.0 TiB (4398046511104 bytes) for the I/O buffers (iodepth 4096 x the largest block size 1073741824' oom.err"
fi

# --- outputs: never clobbered by a run that did not happen ---
echo '{"old" : true}' >prev.json
echo '<svg/>' >prev.svg
"$IOBENCH" --output=prev.json --name=x --ioengine=null --size=1m --bogus=1 2>/dev/null
check "--output=prev.json with a bad job: prev.json is untouched" [ "$(cat prev.json)" = '{"old" : true}' ]
printf '[x]\nioengine=null\nsize=1m\nbs=abc\n' >bad.fio
"$IOBENCH" --output=prev.json bad.fio 2>/dev/null
check "--output=prev.json bad.fio: untouched" [ "$(cat prev.json)" = '{"old" : true}' ]
"$IOBENCH" --plot=prev.svg --name=x --ioengine=null --size=1m --bs=abc 2>/dev/null
check "--plot=prev.svg with a bad job: untouched" [ "$(cat prev.svg)" = '<svg/>' ]
check "... and no temporary files are left" sh -c "! ls -A | grep -q iobench-"
"$IOBENCH" --output=prev.json --name=x --ioengine=null --size=1m --output-format=json 2>/dev/null
check "a good run replaces it" [ "$(jq '.jobs[0].read.io_bytes' prev.json)" = 1048576 ]
"$IOBENCH" --name=x --ioengine=null --size=1m --output-format=json >/dev/full 2>dfull.err
rc=$?
check ">/dev/full: exit 1 ($rc), one line naming stdout and ENOSPC" \
	sh -c "[ $rc -eq 1 ] && [ \$(wc -l <dfull.err) -eq 1 ] && grep -q 'stdout: cannot write the report: No space left on device' dfull.err"
printf '[x]\nioengine=null\nsize=1m\n' >job.fio
j0=$(sum job.fio)
"$IOBENCH" job.fio --output-format=json >&- 2>closed.err
rc=$?
check "closed stdout: exit 1 ($rc) with a message; the job file is untouched" \
	sh -c "[ $rc -eq 1 ] && grep -q 'stdout is closed' closed.err && [ \"\$(sha256sum job.fio | cut -c1-64)\" = $j0 ]"
"$IOBENCH" job.fio --output-format=json --output=/dev/stdout >dev.json 2>/dev/null
check "--output=/dev/stdout is written as it is, and /dev/stdout stays a link" \
	sh -c "[ \$(jq '.jobs[0].read.io_bytes' dev.json) = 1048576 ] && [ -L /dev/stdout ]"
echo before >app.log
"$IOBENCH" job.fio --output-format=json --output=/dev/stdout >>app.log 2>/dev/null
check "--output=/dev/stdout >>log: appended, what the log held is kept" \
	sh -c "[ \"\$(head -1 app.log)\" = before ] && tail -n +2 app.log | jq -e .jobs >/dev/null"
ln -s prev.json plink
"$IOBENCH" --output=plink --name=x --ioengine=null --size=2m --output-format=json 2>/dev/null
check "--output through a symlink replaces the file it names; the link stays a link" \
	sh -c "[ -L plink ] && [ \$(jq '.jobs[0].read.io_bytes' prev.json) = 2097152 ]"

# --- SIGINT during a layout: it ends at once and the partial file is removed ---
if [ "$(id -u)" = 0 ] && have mkfs.ext4 && truncate -s 4g big.img && mkfs.ext4 -q -F big.img && mkdir bigm &&
	mount -o loop big.img bigm 2>/dev/null; then
	read -r seen target ms rc left err <<EOF2
$(python3 "$TOP/tests/tools/layout_sigint.py" bigm/f 3221225472 "$IOBENCH" --name=l --filename=bigm/f --rw=read --size=3g)
EOF2
	echo "#   seen $seen of $target bytes, exit $rc after $ms ms, file $left: $err"
	check "SIGINT during a 3 GiB layout (seen at $seen bytes): exit within 1 s ($ms ms), status $rc" \
		sh -c "[ $seen -gt 0 ] && [ $seen -lt $target ] && [ $ms -lt 1000 ] && [ $rc -eq 130 ]"
	check "... the partial file is removed" [ "$left" = gone ]
	umount bigm
	# The issue's case: a 1 TB read layout on a small loop filesystem, SIGINT 300 ms in.
	truncate -s 64m small.img && mkfs.ext4 -q -F small.img && mount -o loop small.img bigm
	t0=$(ms)
	"$IOBENCH" --name=l --filename=bigm/tb --rw=read --size=1t --output-format=json >tb2.json 2>tb2.err &
	pid=$!
	sleep 0.3
	kill -INT $pid 2>/dev/null
	wait $pid
	rc=$?
	t1=$(ms)
	check "a 1 TB layout on a 64 MiB loop ext4, SIGINT at 300 ms: ended within 1 s of it ($((t1 - t0)) ms in all, exit $rc)" \
		sh -c "[ $((t1 - t0)) -lt 1300 ] && [ $rc -ne 0 ]"
	check "... no file left, and the reason on stderr" sh -c "[ ! -e bigm/tb ] && grep -q 'cannot lay out' tb2.err"
	umount bigm
	rm -f small.img
else
	skip "SIGINT during a layout" "needs root, mkfs.ext4 and a loop mount"
fi
rm -f big.img
