#!/bin/sh
# lane: timing (tests/run.sh: never beside another timing script)
# runtime, time_based and ramp_time hold (within 10%), and samples follow the 500 ms clock.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
if ! have jq; then
	skip "timing checks" "jq is not installed"
	exit 0
fi
start=$(date +%s%N)
"$IOBENCH" --output-format=json --name=t --ioengine=null --size=1m --rw=randread --bs=4k \
	--runtime=2 --time_based >t.json
wall_ms=$((($(date +%s%N) - start) / 1000000))
run=$(jq '.jobs[0].read.runtime' t.json)
check "time_based runtime=2 runs 2000 ms (got $run)" within "$run" 2000 10
check "time_based loops over the 1 MiB region (io_bytes > size)" [ "$(jq '.jobs[0].read.io_bytes' t.json)" -gt 1048576 ]
check "3 bw samples in 2 s, as fio" [ "$(jq '.jobs[0].read.bw_samples' t.json)" -eq 3 ]
check "wall time about 2 s (got $wall_ms ms)" within "$wall_ms" 2000 25

start=$(date +%s%N)
"$IOBENCH" --output-format=json --name=t --ioengine=null --size=1m --rw=read --bs=4k \
	--runtime=1 --time_based --ramp_time=1 >r.json
wall_ms=$((($(date +%s%N) - start) / 1000000))
run=$(jq '.jobs[0].read.runtime' r.json)
check "ramp_time=1 is not measured: runtime 1000 ms (got $run)" within "$run" 1000 10
check "ramp_time=1 + runtime=1 take about 2 s of wall time (got $wall_ms ms)" within "$wall_ms" 2000 25

"$IOBENCH" --output-format=json --name=t --ioengine=null --size=16t --rw=read --bs=4k --runtime=1 >n.json
run=$(jq '.jobs[0].read.runtime' n.json)
check "runtime bounds a job that is not time_based (got $run ms)" within "$run" 1000 10
