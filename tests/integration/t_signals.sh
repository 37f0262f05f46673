#!/bin/sh
# Issue 5: SIGINT/SIGTERM stop all jobs within 1 s, the results for the time run are
# printed (one valid JSON document on stdout, the notice on stderr); exit status 128+N.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
sig_run() { # signal, then args: a 60 s run stopped after 2 s
	s=$1
	shift
	"$IOBENCH" "$@" >out.json 2>err.txt &
	pid=$!
	sleep 2
	t0=$(ms)
	kill -"$s" $pid
	wait $pid
	rc=$?
	t1=$(ms)
}
sig_run INT --name=long --ioengine=null --size=1g --rw=randread --runtime=60 --time_based --output-format=json
check "SIGINT: stopped within 1 s ($((t1 - t0)) ms)" [ $((t1 - t0)) -lt 1000 ]
check "SIGINT: exit status 130 (128 + 2)" [ "$rc" -eq 130 ]
check "SIGINT: stdout is one valid JSON document" sh -c "[ \$(jq -s length out.json) -eq 1 ]"
v=$(jq '.jobs[0].read.runtime' out.json)
check "SIGINT: the results cover the ~2 s that ran ($v ms)" within "$v" 2000 15
check "SIGINT: the notice went to stderr" grep -q 'signal 2: stopping jobs' err.txt

D=--direct=1
direct_ok || D=--direct=0
dd if=/dev/zero of=data bs=1M count=16 2>/dev/null
sig_run TERM --name=aio --filename="$T/data" --rw=randread --ioengine=libaio --iodepth=16 $D \
	--runtime=60 --time_based --numjobs=2 --group_reporting --output-format=json
check "SIGTERM on a libaio job with I/O in flight: stopped within 1 s ($((t1 - t0)) ms)" [ $((t1 - t0)) -lt 1000 ]
check "SIGTERM: exit status 143 (128 + 15), valid JSON" sh -c "[ $rc -eq 143 ] && [ \$(jq -s length out.json) -eq 1 ]"

"$IOBENCH" --name=two --ioengine=null --size=1g --runtime=60 --time_based --output-format=json >o2.json 2>e2.txt &
pid=$!
sleep 1
t0=$(ms)
kill -INT $pid
kill -INT $pid
wait $pid
rc=$?
t1=$(ms)
check "a second SIGINT exits at once ($((t1 - t0)) ms, exit $rc)" sh -c "[ $((t1 - t0)) -lt 1000 ] && [ $rc -ge 128 ]"
