#!/bin/sh
# Issue 24, point 5: values are exact or refused (times whose nanoseconds do not fit, sizes
# past a file's, through the command line: tests/unit/test_values.c walks every option's
# table), and out of memory while setting up says what in one line (t_oom_setup.sh fails each
# allocation in turn).
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
NULLJOB="--name=j --ioengine=null --size=1m"
jqe() { jq -e "$@" >/dev/null 2>&1; }

# ---- 5. times: a think time of 2^64 - 1 us was no think time at all ----
refused "thinktime=2^64-1 (us) is refused, not a job without pauses" \
	"thinktime: '18446744073709551615' is too long a time \(9223372036854775us" \
	"$IOBENCH" $NULLJOB --thinktime=18446744073709551615
refused "thinktime=2^63 is refused" "thinktime: '9223372036854775808' is too long a time" \
	"$IOBENCH" $NULLJOB --thinktime=9223372036854775808
refused "runtime=2^64-1us is refused, not a run of 0 s" "runtime: '18446744073709551615us' is too long a time" \
	"$IOBENCH" $NULLJOB --time_based --runtime=18446744073709551615us
refused "ramp_time past 292 years is refused" "ramp_time: '106752d' is too long a time" \
	"$IOBENCH" $NULLJOB --ramp_time=106752d
refused "startdelay past 292 years is refused, not a job started at once" \
	"startdelay: '0-18446744073709551us' is too long a time" \
	"$IOBENCH" $NULLJOB --startdelay=0-18446744073709551us
refused "latency_target=2^64-1 is refused" "latency_target: '18446744073709551615' is too long a time" \
	"$IOBENCH" $NULLJOB --latency_target=18446744073709551615
refused "cpuio: cpuchunks whose pauses pass 292 years at cpuload=1 is refused" "cpuchunks: .* makes pauses longer" \
	"$IOBENCH" --name=c --ioengine=cpuio --cpuload=1 --cpuchunks=9223372036854775 --time_based --runtime=1
refused "a fraction with more digits than can be carried out is refused" "size: cannot parse '1.0000000000000000001k'" \
	"$IOBENCH" --name=j --ioengine=null --size=1.0000000000000000001k
refused "zoned_abs with a zone of 2^64-1 bytes is refused (it was read as 100 bytes)" "random_distribution: cannot parse" \
	"$IOBENCH" $NULLJOB --rw=randread --random_distribution=zoned_abs:100/18446744073709551615
timeout 20 "$IOBENCH" $NULLJOB --thinktime=106751d --parse-only >out.txt 2>err.txt
check "thinktime=106751d (just below the limit) is taken" sh -c "[ $? -eq 0 ] && [ ! -s err.txt ]"
timeout 20 "$IOBENCH" --name=j --ioengine=null --size=8191.999999999999999999p --io_size=1m --parse-only >out.txt 2>err.txt
check "size=8191.999999999999999999p (just below 2^63) is taken" sh -c "[ $? -eq 0 ] && [ ! -s err.txt ]"

# ---- 5. out of memory while setting up: one line naming what and for which job ----
# 65536 clones need 18 GiB of statistics: with 1 GB of address space the set-up fails. ASan
# reserves terabytes of shadow memory (no ulimit -v for it): there allocations past 4 MiB
# fail instead, the 14 MiB table of the clones first (the run's, no job's), and ASan's own
# warning lines (==N==) are not counted.
if nm -D "$IOBENCH" 2>/dev/null | grep -q __asan_init; then
	limited() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:max_allocation_size_mb=4" "$@"; }
	WHAT="table of the clones" JOB=""
else
	limited() { sh -c 'ulimit -v 1000000 && exec "$@"' sh "$@"; }
	WHAT="statistics of a clone" JOB="job 'many': "
fi
limited "$IOBENCH" --name=many --ioengine=null --size=1m --numjobs=65536 --output-format=json >oom.out 2>oom.all
rc=$?
grep -v '^==' oom.all >oom.err
check "numjobs=65536 out of memory: exit 1, nothing on stdout" sh -c "[ $rc -eq 1 ] && [ ! -s oom.out ]"
check "... and one line: ${JOB}out of memory: cannot allocate ... for the $WHAT (it said nothing)" \
	sh -c "[ \$(wc -l <oom.err) -eq 1 ] && grep -q \"^iobench: ${JOB}out of memory: cannot allocate [0-9.]* [KM]iB ([0-9]* bytes) for the $WHAT\" oom.err"
sed 's/^/#   /' oom.err | head -3
# The same in a job file: the job is named by its section.
printf '[global]\nioengine=null\nsize=1m\n[lots]\nnumjobs=65536\n' >many.fio
limited "$IOBENCH" many.fio --output-format=terse >oom.out 2>oom.all
rc=$?
grep -v '^==' oom.all >oom.err
check "a job file's job of 65536 clones out of memory: exit 1, one line${JOB:+ naming job 'lots'}" \
	sh -c "[ $rc -eq 1 ] && [ ! -s oom.out ] && [ \$(wc -l <oom.err) -eq 1 ] && grep -q \"${JOB:+job 'lots': }out of memory: cannot allocate\" oom.err"
