#!/bin/sh
# lane: timing (tests/run.sh: never beside another timing script)
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

# Issue 14: a repeat from the same sender within a second (timeout(1) signals the process,
# then its group; kubectl and systemd too) must not cost the results.
"$IOBENCH" --name=two --ioengine=null --size=1g --runtime=60 --time_based --output-format=json >o2.json 2>e2.txt &
pid=$!
sleep 1
kill -INT $pid
kill -INT $pid
wait $pid
rc=$?
check "SIGINT twice from the same sender: the results are printed (exit $rc, valid JSON)" \
	sh -c "[ $rc -eq 130 ] && [ \$(jq -s length o2.json) -eq 1 ]"

# timeout -s TERM 2 on a 60 s job, 20 times (5 at a time): 20 valid JSON documents.
good=0
for batch in 1 2 3 4; do
	for k in 1 2 3 4 5; do
		timeout -s TERM 2 "$IOBENCH" --name=t --ioengine=null --size=1g --runtime=60 --time_based \
			--output-format=json >"to$batch$k.json" 2>/dev/null &
	done
	wait
	for k in 1 2 3 4 5; do
		[ "$(jq -s 'length' "to$batch$k.json" 2>/dev/null)" = 1 ] &&
			[ "$(jq '.jobs[0].read.runtime > 1500' "to$batch$k.json")" = true ] && good=$((good + 1))
	done
done
check "timeout -s TERM 2 iobench <60 s job> --output-format=json: $good of 20 valid JSON results" [ $good -eq 20 ]

# SIGUSR1: the statistics so far (as fio), and the run goes on to its end.
"$IOBENCH" --name=u --ioengine=null --size=1g --runtime=2 --time_based --output-format=json >u.json 2>u.err &
pid=$!
sleep 1
kill -USR1 $pid
wait $pid
rc=$?
check "SIGUSR1 prints the results so far and the run goes on (exit $rc, 2 documents)" \
	sh -c "[ $rc -eq 0 ] && [ \$(jq -s length u.json) -eq 2 ] && [ \$(jq -s '.[1].jobs[0].read.runtime > .[0].jobs[0].read.runtime' u.json) = true ]"
check "... the first covers about the first second" \
	within "$(jq -s '.[0].jobs[0].read.runtime' u.json)" 1000 30

# A stray SIGUSR2 does not take Ctrl-C away.
"$IOBENCH" --name=v --ioengine=null --size=1g --runtime=60 --time_based --output-format=json >v.json 2>v.err &
pid=$!
sleep 0.5
kill -USR2 $pid
sleep 0.3
t0=$(ms)
kill -INT $pid
wait $pid
rc=$?
t1=$(ms)
check "SIGUSR2, then SIGINT: stopped ($((t1 - t0)) ms), results printed" \
	sh -c "[ $rc -eq 130 ] && [ $((t1 - t0)) -lt 1000 ] && [ \$(jq -s length v.json) -eq 1 ]"

# SIGPIPE: a reader that goes away. No crash, exit non-zero, one line naming stdout.
mkfifo pipe
("$IOBENCH" --name=p --ioengine=null --size=16m --runtime=1 --time_based --output-format=json >pipe 2>p.err; echo $? >p.rc) &
exec 3<pipe
exec 3<&-
wait
rc=$(cat p.rc)
check "the reader of stdout went away: exit $rc (1, not killed by SIGPIPE)" [ "$rc" -eq 1 ]
check "... with one line naming stdout and the broken pipe" \
	sh -c "[ \$(wc -l <p.err) -eq 1 ] && grep -q 'stdout: cannot write the report: Broken pipe' p.err"

# The watcher never makes the process unkillable: pacing and thinktime end on a stop.
for args in "--rate=1" "--thinktime=100s" "--rate_iops=1 --rate_process=poisson" "--startdelay=100"; do
	# shellcheck disable=SC2086
	"$IOBENCH" --name=w --ioengine=null --size=1g --runtime=60 --time_based $args --output-format=json >w.json 2>/dev/null &
	pid=$!
	sleep 1
	t0=$(ms)
	kill -TERM $pid
	wait $pid
	rc=$?
	t1=$(ms)
	check "$args: SIGTERM stops it within 1 s ($((t1 - t0)) ms, exit $rc), valid JSON" \
		sh -c "[ $rc -eq 143 ] && [ $((t1 - t0)) -lt 1000 ] && [ \$(jq -s length w.json) -eq 1 ]"
done
t0=$(ms)
"$IOBENCH" --name=r --ioengine=null --size=1g --rate=1 --time_based --runtime=1 --output-format=json >r.json
rc=$?
t1=$(ms)
check "--rate=1 --time_based --runtime=1 ends after about a second ($((t1 - t0)) ms, exit $rc)" \
	sh -c "[ $rc -eq 0 ] && [ $((t1 - t0)) -lt 3000 ]"
t0=$(ms)
"$IOBENCH" --name=r --ioengine=null --size=1g --thinktime=100s --time_based --runtime=1 --output-format=json >r.json
t1=$(ms)
check "thinktime=100s with runtime=1: ends after about a second ($((t1 - t0)) ms)" [ $((t1 - t0)) -lt 3000 ]
