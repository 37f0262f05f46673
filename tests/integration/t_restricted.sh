#!/bin/sh
# Issue 14: engines in restricted environments. io_uring refused by a seccomp filter (as a
# container runtime's default profile does) or kernel.io_uring_disabled: one line that says
# why and suggests libaio. An mmap job whose file is truncated under it: that I/O fails,
# the job ends with its results, no SIGBUS death. libaio past fs.aio-max-nr, fixedbufs past
# RLIMIT_MEMLOCK: one line naming the limit.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
dd if=/dev/zero of=data bs=1M count=1 2>/dev/null

# ---- io_uring under a seccomp filter ----
if ! cc -O2 -o "$T/seccomp_deny" "$TOP/tests/tools/seccomp_deny.c" 2>cc.log ||
	! "$T/seccomp_deny" ENOSYS true 2>>cc.log; then
	skip "io_uring under seccomp" "cannot build or install a seccomp filter: $(head -1 cc.log)"
else
	for e in ENOSYS EPERM; do
		[ $e = ENOSYS ] && n=38 || n=1
		U="--name=u --ioengine=io_uring --filename=$T/data --size=1m --rw=randread"
		"$T/seccomp_deny" $e "$IOBENCH" $U >out.txt 2>err.txt
		rc=$?
		check "seccomp $e: io_uring job exits 1 (exit $rc)" [ $rc -eq 1 ]
		check "seccomp $e: one stderr line naming seccomp and libaio ($(cat err.txt))" sh -c \
			"[ \$(wc -l <err.txt) -eq 1 ] && grep -q 'cannot start: .*seccomp.*ioengine=libaio' err.txt"
		check "seccomp $e: stdout is the report alone, err=$n" sh -c \
			"! grep -q 'iobench:' out.txt && grep -q 'err= *$n:' out.txt"
		"$T/seccomp_deny" $e "$IOBENCH" $U --output-format=json >out.json 2>err.txt
		check "seccomp $e, json: one valid document, .jobs[0].error=$n, no I/O" sh -c \
			"[ \$(jq -s length out.json) -eq 1 ] && [ \$(jq '.jobs[0].error' out.json) -eq $n ] &&
			[ \$(jq '.jobs[0].read.total_ios' out.json) -eq 0 ]"
	done
	"$T/seccomp_deny" ENOSYS "$IOBENCH" --name=a --ioengine=libaio --filename="$T/data" --size=1m \
		--rw=randread --output-format=json >out.json 2>err.txt
	rc=$?
	check "seccomp: the same job with ioengine=libaio runs (exit $rc)" sh -c \
		"[ $rc -eq 0 ] && [ \$(jq '.jobs[0].read.total_ios' out.json) -eq 256 ] && [ ! -s err.txt ]"
	# kernel.io_uring_disabled is system-wide: a fake value bind-mounted over it in a private
	# mount namespace, with the filter's EPERM standing in for the kernel's refusal.
	if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
		echo 2 >fake
		unshare -m sh -c "mount --bind '$T/fake' /proc/sys/kernel/io_uring_disabled &&
			'$T/seccomp_deny' EPERM '$IOBENCH' $U >/dev/null 2>err.txt"
		check "io_uring_disabled=2: the line names the sysctl and its value ($(cat err.txt))" sh -c \
			"[ \$(wc -l <err.txt) -eq 1 ] && grep -q 'kernel.io_uring_disabled sysctl (value 2.*ioengine=libaio' err.txt"
	else
		skip "io_uring_disabled" "needs root and unshare -m"
	fi
fi

# ---- mmap: the file truncated under the map ----
for rw in randread randwrite; do
	dd if=/dev/zero of=big bs=1M count=64 2>/dev/null
	t0=$(ms)
	"$IOBENCH" --name=m --ioengine=mmap --filename="$T/big" --rw=$rw --bs=4k --time_based --runtime=5 \
		--output-format=json >out.json 2>err.txt &
	pid=$!
	sleep 1
	truncate -s 4k big
	wait $pid
	rc=$?
	t1=$(ms)
	check "mmap $rw, file truncated: exit 1, not SIGBUS (exit $rc)" [ $rc -eq 1 ]
	check "mmap $rw: ended at the fault, not the runtime ($((t1 - t0)) ms)" [ $((t1 - t0)) -lt 4000 ]
	check "mmap $rw: one valid JSON document with .jobs[0].error=5 (EIO)" sh -c \
		"[ \$(jq -s length out.json) -eq 1 ] && [ \$(jq '.jobs[0].error' out.json) -eq 5 ]"
	check "mmap $rw: stderr has the io_u error line" grep -q "io_u error on file $T/big: Input/output error" err.txt
done

# ---- libaio: io_setup past fs.aio-max-nr ----
# Two clones, each asking for more than half of fs.aio-max-nr (system-wide, not namespaced):
# one at least is refused, whatever other processes hold; for 1 s the others keep about half.
max=$(cat /proc/sys/fs/aio-max-nr 2>/dev/null || echo 0)
depth=$((max / 2 + 1))
if [ "$depth" -gt 1 ] && [ "$depth" -le 65536 ]; then
	"$IOBENCH" --name=a --ioengine=libaio --filename="$T/data" --bs=512 --iodepth=$depth --numjobs=2 \
		--rw=randread --time_based --runtime=1 --output-format=json >out.json 2>err.txt
	rc=$?
	check "libaio past fs.aio-max-nr: exit 1, one clone refused, JSON error=11 (exit $rc)" sh -c \
		"[ $rc -eq 1 ] && [ \$(jq -s length out.json) -eq 1 ] && jq -e '[.jobs[].error] | index(11)' out.json >/dev/null"
	check "libaio: the line names fs.aio-max-nr and iodepth=$depth ($(head -1 err.txt))" \
		grep -q "cannot start: .*iodepth=$depth exceeds fs.aio-max-nr ($max" err.txt
else
	skip "libaio past fs.aio-max-nr" "fs.aio-max-nr=$max needs iodepth > 65536"
fi

# ---- io_uring fixedbufs=1 past RLIMIT_MEMLOCK (root: without CAP_IPC_LOCK) ----
F="--name=f --ioengine=io_uring --filename=$T/data --size=1m --rw=randread --iodepth=32 --fixedbufs=1"
drop=
[ "$(id -u)" = 0 ] && drop="setpriv --bounding-set=-ipc_lock"
if [ -n "$drop" ] && ! have setpriv; then
	skip "fixedbufs past RLIMIT_MEMLOCK" "needs setpriv to drop CAP_IPC_LOCK"
elif ! "$IOBENCH" --name=p --ioengine=io_uring --filename="$T/data" --size=4k >/dev/null 2>&1; then
	skip "fixedbufs past RLIMIT_MEMLOCK" "io_uring is not available here"
else
	$drop sh -c "ulimit -l 64 && exec '$IOBENCH' $F" >/dev/null 2>err.txt
	rc=$?
	check "fixedbufs=1 past RLIMIT_MEMLOCK: exit 1, one line with the limit ($(cat err.txt))" sh -c \
		"[ $rc -eq 1 ] && [ \$(wc -l <err.txt) -eq 1 ] && grep -q 'fixedbufs=1: 128 KiB of buffers to pin and RLIMIT_MEMLOCK is 64 KiB' err.txt"
fi
