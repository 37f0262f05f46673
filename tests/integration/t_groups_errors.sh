#!/bin/sh
# Issue 3: exitall, continue_on_error; kb_base/unit_base in the normal format.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1

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

# I/O errors from a full file system: a 1 MiB tmpfs, in a mount namespace of our own.
if unshare -m true 2>/dev/null; then
	mkdir -p mnt
	unshare -m sh -c "mount -t tmpfs -o size=1m tmpfs '$T/mnt' &&
		'$IOBENCH' --name=w --rw=write --bs=64k --size=4m --fallocate=none --filename='$T/mnt/f' \
			--output-format=json >stop.json 2>stop.err; echo \$? >stop.rc; rm -f '$T/mnt/f';
		'$IOBENCH' --name=w --rw=write --bs=64k --size=4m --fallocate=none --filename='$T/mnt/g' \
			--continue_on_error=write --output-format=json >cont.json 2>cont.err; echo \$? >cont.rc; rm -f '$T/mnt/g';
		start=\$(date +%s);
		'$IOBENCH' --output-format=json --name=long --ioengine=null --size=1g --runtime=20 --time_based \
			--name=full --rw=write --bs=64k --size=4m --fallocate=none --filename='$T/mnt/h' \
			--exitall_on_error >eoe.json 2>/dev/null; echo \$((\$(date +%s) - start)) >eoe.secs"
	check "ENOSPC stops the job: exit 1" [ "$(cat stop.rc)" -eq 1 ]
	check "ENOSPC is reported as fio does" grep -q "io_u error on file $T/mnt/f: No space left on device: write offset=1048576, buflen=65536" stop.err
	check "the results of what completed are printed (1 MiB written, error 28)" \
		sh -c "grep -q '\"error\" : 28' stop.json && grep -q '\"io_bytes\" : 1048576' stop.json"
	check "continue_on_error=write goes on: the other 48 writes fail and are counted" \
		grep -q '48 I/O errors in all (continue_on_error went on after them)' cont.err
	check "continue_on_error still exits non-zero" [ "$(cat cont.rc)" -eq 1 ]
	check "exitall_on_error: the failing job stops its 20 s neighbour (took $(cat eoe.secs) s)" [ "$(cat eoe.secs)" -lt 5 ]
else
	skip "I/O error handling" "cannot unshare a mount namespace (not root?)"
fi

"$IOBENCH" --name=nulljob --ioengine=null --size=1g --rw=read --bs=128k --kb_base=1000 --unit_base=1 >u.txt
check "kb_base=1000 puts decimal units first: bs=(R) 131kB-131kB" grep -q 'bs=(R) 131kB-131kB, (W) 131kB-131kB' u.txt
check "unit_base=1 shows rates in bits: BW=...Gbit/s (...Gibit/s)(1074MB/" grep -qE 'BW=[0-9.]+Gbit/s \([0-9.]+Gibit/s\)\(1074MB/' u.txt
check "the group line follows: io=1074MB (1024MiB)" grep -qE 'READ: bw=[0-9.]+Gbit/s .*io=1074MB \(1024MiB\)' u.txt
