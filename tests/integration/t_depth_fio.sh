#!/bin/sh
# lane: timing
# The queue at iodepth as fio keeps it: completions reaped iodepth_batch_complete_min at a
# time unless iodepth_batch_complete_max says more (fio's default), so a full queue is
# topped up after each completion and the mean latency is what Little's law gives for the
# depth (depth / IOPS); the IO depths map records each I/O at the depth it was submitted at.
# Against fio 3.33 on the same file, libaio and io_uring.
. "$(dirname "$0")/../lib.sh"
if ! have fio || ! have jq; then
	skip "queue depth against fio" "fio or jq is not installed"
	exit 0
fi
cd "$T" || exit 1
D=
direct_ok && D=--direct=1
dd if=/dev/zero of=f bs=1M count=64 2>/dev/null
J="--name=q --filename=f $D --rw=randread --bs=4k --iodepth=16 --norandommap --time_based --runtime=1 --output-format=json"
# Little's law: mean lat (us) x IOPS / 1e6 is the mean number in flight: 16 for a full queue
# (14.4 at least: the end-of-run drain and the timestamps' granularity).
inflight() { jq '.jobs[0].read | .lat_ns.mean * .iops / 1e9' "$1"; }
for e in libaio io_uring; do
	"$IOBENCH" $J --ioengine=$e >i.$e.json 2>i.$e.err
	fio $J --ioengine=$e 2>/dev/null | sed -n '/^{/,$p' >f.$e.json
	iv=$(inflight i.$e.json)
	fv=$(inflight f.$e.json)
	echo "# $e QD16: mean in flight (lat x IOPS): iobench $iv, fio $fv"
	check "$e QD16: iobench keeps the queue full as fio does (lat x IOPS = $iv of 16; fio $fv)" \
		awk -v v="$iv" 'BEGIN { exit !(v >= 14.4 && v <= 16.5) }'
	check "$e QD16: completions reaped one at a time by default, as fio (iodepth_complete 1-4 bucket)" \
		sh -c "[ \$(jq '.jobs[0].iodepth_complete[\"4\"] >= 99.9' i.$e.json) = true ] && [ \$(jq '.jobs[0].iodepth_complete[\"4\"] >= 99.9' f.$e.json) = true ]"
	check "$e QD16: the IO depths map has fio's buckets in use (the queue filling at 1, 2, 4, 8, then 16)" \
		sh -c "[ \"\$(jq -c '.jobs[0].iodepth_level | with_entries(select(.value > 0)) | keys' i.$e.json)\" = \"\$(jq -c '.jobs[0].iodepth_level | with_entries(select(.value > 0)) | keys' f.$e.json)\" ]"
	check "$e QD16: nothing on stderr" test ! -s i.$e.err
done
# iodepth_batch_complete_max raises the batch: up to the whole queue per reap when asked.
"$IOBENCH" $J --ioengine=libaio --iodepth_batch_complete_max=16 >m.json 2>m.err
check "iodepth_batch_complete_max=16: accepted, I/O done, no error" \
	sh -c "[ \$(jq '.jobs[0].read.total_ios > 0 and .jobs[0].error == 0' m.json) = true ] && [ ! -s m.err ]"
check "iodepth_batch_complete_min=4 (max defaults to it): reaps of 4 at most, the queue still full" \
	sh -c "\"$IOBENCH\" $J --ioengine=libaio --iodepth_batch_complete_min=4 >n.json 2>&1 && [ \$(jq '.jobs[0].iodepth_complete | .[\"8\"] + .[\"16\"] + .[\"32\"] < 0.2' n.json) = true ]"
# io_uring under DEFER_TASKRUN posts completions only inside the reaping thread's own calls, so
# what is reaped from the ring without waiting takes the time read after the last call (no
# second clock read): every I/O still has a completion time after its issue time (clat > 0,
# also where reads complete inside the submit call: buffered, cached), and one time per
# I/O (lat = slat + clat, in the means).
for mode in "$D" --direct=0; do
	"$IOBENCH" --name=c --filename=f $mode --rw=randread --bs=4k --iodepth=16 --norandommap --size=32m \
		--ioengine=io_uring --output-format=json >c.json 2>c.err
	check "io_uring ${mode:-buffered}: every I/O's clat > 0, lat = slat + clat, all 8192 I/Os" \
		sh -c "[ \$(jq '.jobs[0].read | .total_ios == 8192 and .clat_ns.min > 0 and .slat_ns.min > 0 and
			((.lat_ns.mean - .slat_ns.mean - .clat_ns.mean) | fabs) < 0.01 * .lat_ns.mean and
			.lat_ns.min >= .clat_ns.min' c.json) = true ] && [ ! -s c.err ]"
done
