#!/bin/sh
# lane: timing (tests/run.sh: never beside another timing script)
# Issue 3: exitall, continue_on_error; kb_base/unit_base in the normal format.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
dd if=/dev/zero of=data bs=1M count=1 2>/dev/null

t0=$(ms)
"$IOBENCH" --output-format=json --ioengine=null --size=1g --name=long --rw=read --runtime=20 --time_based \
	--name=short --rw=read --size=64m --exitall >x.json 2>/dev/null
t1=$(ms)
check "exitall: a short job ends its long neighbour (took $((t1 - t0)) ms, not 20 s)" [ $((t1 - t0)) -lt 5000 ]
check "exitall: the long job's results are still there" grep -q '"jobname" : "long"' x.json

"$IOBENCH" --output-format=json --name=bad --ioengine=psync --rw=read --filename="$T/nonexistent" \
	--size=1m --allow_file_create=0 >y.json 2>y.err
rc=$?
check "allow_file_create=0: a missing file is refused, naming it" grep -q "nonexistent' does not exist and allow_file_create=0" y.err
check "exit status 1 after a refused file" [ $rc -eq 1 ]

# ENOSPC from a small loop-mounted ext4 (a 1 MiB tmpfs where loop devices are not at hand),
# in a mount namespace of our own.
if unshare -m true 2>/dev/null; then
	mkdir -p mnt
	LOOP=""
	if have losetup && have mkfs.ext4; then
		truncate -s 8m fs.img && mkfs.ext4 -q -F fs.img 2>/dev/null && LOOP=$(losetup -f --show fs.img 2>/dev/null)
	fi
	if [ -n "$LOOP" ]; then
		MOUNT="mount '$LOOP' '$T/mnt'"
		kind="a loop-mounted 8 MiB ext4"
	else
		MOUNT="mount -t tmpfs -o size=1m tmpfs '$T/mnt'"
		kind="a 1 MiB tmpfs"
	fi
	unshare -m sh -c "$MOUNT &&
		'$IOBENCH' --name=w --rw=write --bs=64k --size=16m --fallocate=none --filename='$T/mnt/f' \
			--output-format=json >stop.json 2>stop.err; echo \$? >stop.rc; rm -f '$T/mnt/f';
		'$IOBENCH' --name=w --rw=write --bs=64k --size=16m --fallocate=none --filename='$T/mnt/g' \
			--continue_on_error=write --output-format=json >cont.json 2>cont.err; echo \$? >cont.rc; rm -f '$T/mnt/g';
		'$IOBENCH' --name=w --rw=write --bs=64k --size=16m --fallocate=none --filename='$T/mnt/g' \
			--ignore_error=,ENOSPC --output-format=json >ign.json 2>ign.err; echo \$? >ign.rc; rm -f '$T/mnt/g';
		start=\$(date +%s);
		'$IOBENCH' --output-format=json --name=long --ioengine=null --size=1g --runtime=20 --time_based \
			--name=full --rw=write --bs=64k --size=16m --fallocate=none --filename='$T/mnt/h' \
			--exitall_on_error >eoe.json 2>/dev/null; echo \$((\$(date +%s) - start)) >eoe.secs;
		umount '$T/mnt'"
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	check "ENOSPC on $kind stops the job: exit 1" [ "$(cat stop.rc)" -eq 1 ]
	check "ENOSPC is reported as fio does" \
		grep -qE "io_u error on file $T/mnt/f: No space left on device: write offset=[0-9]+, buflen=65536" stop.err
	check "the results of what completed are printed (error 28, bytes written)" \
		sh -c "grep -q '\"error\" : 28' stop.json && [ \$(jq '.jobs[0].write.io_bytes' stop.json) -gt 0 ]"
	check "continue_on_error=write stops at ENOSPC all the same: it is not on its list (EIO, EILSEQ), as fio" \
		sh -c "[ \$(cat cont.rc) -eq 1 ] && [ \$(jq '.jobs[0].total_err' cont.json) -eq 1 ] && [ \$(jq '.jobs[0].first_error' cont.json) -eq 28 ]"
	check "ignore_error=,ENOSPC goes on and counts the failed writes" \
		grep -qE '[0-9]+ I/O errors in all \(ignore_error names them' ign.err
	check "... and exits 0, as fio (the user named those errors)" [ "$(cat ign.rc)" -eq 0 ]
	check "exitall_on_error: the failing job stops its 20 s neighbour (took $(cat eoe.secs) s)" [ "$(cat eoe.secs)" -lt 5 ]
else
	skip "ENOSPC handling" "cannot unshare a mount namespace (not root?)"
fi

# EIO from a faulting device: the faulty test engine fails the 10th I/O.
"$IOBENCH" --name=f --ioengine=faulty --fault_after=10 --rw=read --size=1m --filename="$T/data" \
	--output-format=json >eio.json 2>eio.err
rc=$?
check "EIO: exit 1, reported as fio does" \
	sh -c "[ $rc -eq 1 ] && grep -q 'io_u error on file $T/data: Input/output error: read offset=36864, buflen=4096' eio.err"
check "EIO: the 9 reads before it are in the results, with error 5 (the failed one counted, as fio)" \
	sh -c "[ \$(jq '.jobs[0].read.total_ios' eio.json) -eq 10 ] && [ \$(jq '.jobs[0].read.io_bytes' eio.json) -eq 36864 ] && [ \$(jq '.jobs[0].error' eio.json) -eq 5 ]"
"$IOBENCH" --name=f --ioengine=faulty --fault_after=10 --rw=read --size=1m --filename="$T/data" \
	--continue_on_error=read --output-format=json >eio2.json 2>eio2.err
check "EIO with continue_on_error=read: the job goes on through all 256 reads" \
	sh -c "grep -q '247 I/O errors in all' eio2.err && [ \$(jq '.jobs[0].read.total_ios' eio2.json) -eq 256 ] && [ \$(jq '.jobs[0].read.io_bytes' eio2.json) -eq 36864 ]"

"$IOBENCH" --name=nulljob --ioengine=null --size=1g --rw=read --bs=128k --kb_base=1000 --unit_base=1 >u.txt
check "kb_base=1000 puts decimal units first: bs=(R) 131kB-131kB" grep -q 'bs=(R) 131kB-131kB, (W) 131kB-131kB' u.txt
check "unit_base=1 shows rates in bits: BW=...Gbit/s (...Gibit/s)(1074MB/" grep -qE 'BW=[0-9.]+Gbit/s \([0-9.]+Gibit/s\)\(1074MB/' u.txt
check "the group line follows: io=1074MB (1024MiB)" grep -qE 'READ: bw=[0-9.]+Gbit/s .*io=1074MB \(1024MiB\)' u.txt

# Short transfers are counted, reported and never taken as success.
"$IOBENCH" --name=s --ioengine=faulty --fault_after=10 --fault_short --rw=read --size=1m \
	--filename="$T/data" --output-format=json >short.json 2>short.err
rc=$?
check "short reads: counted in short_ios (247 of 256)" [ "$(jq '.jobs[0].read.short_ios' short.json)" -eq 247 ]
check "short reads: the first reported, with offset and bytes" \
	grep -q "short read on file $T/data: offset=36864, 2048 of 4096 bytes" short.err
check "short reads: exit status 1, error 5 in the JSON" sh -c "[ $rc -eq 1 ] && [ \$(jq '.jobs[0].error' short.json) -eq 5 ]"
