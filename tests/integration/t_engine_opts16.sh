#!/bin/sh
# Issue 16: the engine options of fio 3.33 that iobench lacked. pvsync2's hipri_percentage and
# nowait, libaio's and io_uring's nowait, io_uring's force_async, seen from outside (strace's
# preadv2 flags, the kernel's io-wq workers, EAGAIN) side by side with fio; fio's engines that
# iobench does not carry out refused in one line, their options parsed as fio's.
. "$(dirname "$0")/../lib.sh"
# A compound condition for check (check runs one command): holds 'cond && cond'.
holds() { eval "$1"; }
F="$T/f"
head -c 262144 /dev/urandom >"$F"
sync "$F" # written back: invalidate=1 can drop clean pages only

# A read job's error and read total_ios from JSON ("err ios"). fio prints its error line on
# stdout before the JSON document: read from the first brace.
err_ios() { # tool args...
	"$@" --output-format=json 2>/dev/null | python3 -c '
import json, sys
s = sys.stdin.read()
j = json.loads(s[s.index("{"):])["jobs"][0]
print(j["error"], j["read"]["total_ios"])'
}
BASE="--name=x --size=256k --filename=$F --rw=read"

if have strace; then
	hipri_count() { # tool pct
		# shellcheck disable=SC2086
		strace -f -qq -e trace=preadv2 -o "$T/st" "$1" $BASE --ioengine=pvsync2 --hipri --hipri_percentage="$2" \
			>/dev/null 2>&1
		grep -c RWF_HIPRI "$T/st" || true
	}
	fio_or() { # what to print without fio, tool args...
		d=$1
		shift
		if have fio; then "$@"; else echo "$d"; fi
	}
	for pct in 0 100; do
		i=$(hipri_count "$IOBENCH" $pct)
		f=$(fio_or "$((64 * pct / 100))" hipri_count fio $pct)
		check "pvsync2 hipri_percentage=$pct: $i of 64 reads carry RWF_HIPRI (fio: $f)" holds '[ "$i" = "$f" ] && [ "$i" = "$((64 * pct / 100))" ]'
	done
	i=$(hipri_count "$IOBENCH" 50)
	f=$(fio_or 32 hipri_count fio 50)
	check "pvsync2 hipri_percentage=50: $i of 64 reads carry RWF_HIPRI at random (fio: $f), between 16 and 48" \
		holds '[ "$i" -ge 16 ] && [ "$i" -le 48 ] && [ "$f" -ge 16 ] && [ "$f" -le 48 ]'
	cat "$F" >/dev/null # cached (a proactive reclaimer such as DAMON's may have taken it since)
	# shellcheck disable=SC2086
	strace -f -qq -e trace=preadv2 -o "$T/st" "$IOBENCH" $BASE --ioengine=pvsync2 --nowait=1 --invalidate=0 >/dev/null 2>&1
	check "pvsync2 nowait=1: every preadv2 carries RWF_NOWAIT ($(grep -c RWF_NOWAIT "$T/st") of 64)" \
		[ "$(grep -c 'RWF_NOWAIT' "$T/st")" -ge 64 ]
else
	skip "pvsync2 flags seen by strace" "no strace"
fi

# nowait: an uncached file, the first read would block: EAGAIN (11) ends the job after it,
# as in fio; from a cached file every read goes through. Whether a read "would block" is a
# race the kernel runs: the read starts the page's I/O, and returns EAGAIN only if that
# I/O has not finished when it looks again (on this VM's virtio disk it sometimes has: fio
# then reads all 64, or 5). So each tool gets up to 8 tries, each on a new file written
# with O_DIRECT (never cached), and must show the EAGAIN end ('11 1') in one of them;
# every try ends with EAGAIN or with all 64 reads, never anything else.
uncached() {
	rm -f "$F"
	dd if=/dev/urandom of="$F" bs=262144 count=1 oflag=direct 2>/dev/null || {
		head -c 262144 /dev/urandom >"$F"
		sync "$F"
	}
}
nowait_tries() { # tool engine: the results of the tries, up to the first '11 1'
	n=0 all=
	while [ $n -lt 8 ]; do
		n=$((n + 1))
		uncached
		# shellcheck disable=SC2086
		r=$(err_ios "$1" $BASE --ioengine="$2" --nowait=1)
		all="$all${all:+, }$r"
		[ "$r" = "11 1" ] && break
	done
	echo "$all"
}
for eng in pvsync2 libaio io_uring; do
	i=$(nowait_tries "$IOBENCH" $eng)
	if have fio; then f=$(nowait_tries fio $eng); else f="11 1"; fi
	check "$eng nowait=1 on an uncached file: error and reads '$i' (fio: '$f')" \
		holds 'case "$i" in *"11 1") ;; *) false ;; esac && case "$f" in *"11 1") ;; *) false ;; esac &&
			! echo "$i, $f" | tr , "\n" | grep -Evq "^ *(11 [0-9]+|0 64)$"'
	cat "$F" >/dev/null
	# shellcheck disable=SC2086
	i=$(err_ios "$IOBENCH" $BASE --ioengine=$eng --nowait=1 --invalidate=0)
	check "$eng nowait=1 on a cached file: '$i' (all 64 reads)" [ "$i" = "0 64" ]
done

# force_async=1: every request goes to the kernel's io-wq workers (iou-wrk threads of the
# job's process); without it, cached reads complete inline and none appears.
workers() { # tool force_async
	"$1" --name=x --thread --ioengine=io_uring --force_async="$2" --size=256k --filename="$F" --rw=read \
		--invalidate=0 --time_based --runtime=2 --output-format=json >/dev/null 2>&1 &
	p=$!
	sleep 1
	n=$(cat /proc/$p/task/*/comm 2>/dev/null | grep -c iou-wrk)
	wait $p
	echo "$n"
}
cat "$F" >/dev/null
i0=$(workers "$IOBENCH" 0)
i1=$(workers "$IOBENCH" 1)
if have fio; then f0=$(workers fio 0) f1=$(workers fio 1); else f0=0 f1=1; fi
check "io_uring force_async=0: $i0 io-wq workers (fio: $f0); force_async=1: $i1 (fio: $f1)" \
	holds '[ "$i0" -eq 0 ] && [ "$f0" -eq 0 ] && [ "$i1" -ge 1 ] && [ "$f1" -ge 1 ]'
check "io_uring takes cmd_type=nvme (io_uring_cmd's) as fio does" \
	"$IOBENCH" $BASE --ioengine=io_uring --cmd_type=nvme --output-format=json -o "$T/o.json"
check "cmd_type=scsi is refused in one line" sh -c \
	"! '$IOBENCH' $BASE --ioengine=io_uring --cmd_type=scsi >'$T/out' 2>'$T/err' && [ \$(wc -l <'$T/err') -eq 1 ] && [ ! -s '$T/out' ]"

# fio's engines iobench does not have: their options parse; their jobs are refused in one line.
for spec in "sg --readfua=1 --writefua=1 --sg_write_mode=write_same --stream_id=3 --hipri" \
	"rdma --verb=read --bindname=lo --port=4420 --hostname=h" "libhdfs --namenode=n --port=9000 --hdfsdirectory=/d --chunk_size=1m --single_instance=0 --hdfs_use_direct=1" \
	"dfs --pool=p --cont=c --chunk_size=1m --object_class=SX --svcl=0" "mtd --skip_bad=1" "nfs --nfs_url=nfs://h/e" \
	"libcufile --gpu_dev_ids=0:1 --cuda_io=posix" "xnvme --xnvme_async=io_uring --xnvme_sync=nvme --xnvme_admin=nvme --xnvme_dev_nsid=1 --xnvme_iovec=1" \
	"io_uring_cmd --cmd_type=nvme --force_async=2 --nowait=1" "librpma_gpspm_server --serverip=1.2.3.4 --port=7204 --busy_wait_polling=0 --direct_write_to_pmem=1"; do
	eng=${spec%% *}
	# shellcheck disable=SC2086
	"$IOBENCH" --parse-only --name=x --ioengine=$spec >"$T/out" 2>"$T/err"
	rc=$?
	check "ioengine=$eng and its options pass --parse-only" holds '[ $rc -eq 0 ] && [ ! -s "$T/err" ]'
	# shellcheck disable=SC2086
	"$IOBENCH" --name=x --filename="$F" --size=4k --ioengine=$spec >"$T/out" 2>"$T/err"
	rc=$?
	check "ioengine=$eng is refused in one line naming it (exit $rc)" holds '[ $rc -eq 1 ] && [ ! -s "$T/out" ] &&
		[ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "ioengine=$eng is one of fio.s engines that iobench does not carry out" "$T/err"'
done
"$IOBENCH" --name=x --ioengine=psync --readfua=1 --size=4k --filename="$F" >"$T/out" 2>"$T/err"
rc=$?
check "an sg option with psync is refused as fio refuses it (exit $rc: $(cat "$T/err"))" holds '[ $rc -eq 1 ] &&
	grep -q "option .readfua. is for the sg engine, not psync" "$T/err"'
