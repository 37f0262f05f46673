#!/bin/sh
# Issue 6 (part): --sweep runs the cross product; CSV has one header and a row per combination,
# JSON one document holding every run, normal output a heading per run, progress on stderr.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
if ! direct_ok; then
	skip "sweep" "no O_DIRECT on $T"
	exit 0
fi
args="-filename=$T/test -direct=1 -iodepth=32 -ioengine=libaio -size=2M -numjobs=8 -runtime=30 -name=sweep --group_reporting"
# shellcheck disable=SC2086
"$IOBENCH" --sweep=bs=4k,8k,16k,64k,1m --sweep=rw=write,randwrite,read,randread $args --output-format=csv >sweep.csv 2>progress.txt
check "the sweep gives a header and 20 rows" [ "$(wc -l <sweep.csv)" -eq 21 ]
check "one column per swept option, at the end" sh -c "head -1 sweep.csv | grep -q ',usr_cpu,sys_cpu,cpu_limit,memory_limit_bytes,cpuset,bs,rw$'"
check "progress lines [n/20] on stderr" sh -c "grep -q '^\[1/20\] bs=4k rw=write$' progress.txt && grep -q '^\[20/20\] bs=1m rw=randread$' progress.txt"
# The same numbers as the jq loop over separate runs: bytes exact. Rates are timings of a shared
# machine (one run's 16k write was 7x another's in CI), so a row's IOPS is checked against its own
# bytes and runtime rather than against another run; speed comparisons live in bench/.
: >loop.csv
for BS in 4k 8k 16k 64k 1m; do
	for RW in write randwrite read randread; do
		# shellcheck disable=SC2086
		"$IOBENCH" -filename="$T/test" -direct=1 -iodepth=32 -rw=$RW -ioengine=libaio -bs=$BS -size=2M \
			-numjobs=8 -runtime=30 -name=32-$RW-$BS --group_reporting --output-format=json |
			jq -cr '[.jobs[0].read.io_bytes, .jobs[0].write.io_bytes, .jobs[0].read.iops, .jobs[0].write.iops]|@csv' >>loop.csv
	done
done
check "every sweep row matches the jq loop's run: bytes exact, IOPS consistent with its bytes and runtime" python3 - sweep.csv loop.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
loop = [l.strip().split(',') for l in open(sys.argv[2])]
bad = 0
for r, (rb, wb, ri, wi) in zip(rows, loop):
    if (int(r['read_io_bytes']), int(r['write_io_bytes'])) != (int(rb), int(wb)):
        print('#   bytes differ:', r['bs'], r['rw'], r['read_io_bytes'], r['write_io_bytes'], rb, wb); bad += 1
    a, b = float(r['read_iops']) + float(r['write_iops']), float(ri) + float(wi)
    bs = {'4k': 4096, '8k': 8192, '16k': 16384, '64k': 65536, '1m': 1 << 20}[r['bs']]
    ios = (int(r['read_io_bytes']) + int(r['write_io_bytes'])) / bs
    ms = int(r['runtime_ms'])
    if not (a > 0 and b > 0 and ms > 0 and 0.5 < a * ms / 1000 / ios < 2):
        print('#   iops inconsistent:', r['bs'], r['rw'], a, b, ios, ms); bad += 1
sys.exit(1 if bad or len(rows) != 20 else 0)
PY
# shellcheck disable=SC2086
"$IOBENCH" --sweep=bs=4k,64k --sweep=rw=read,write $args --output-format=json >sweep.json 2>/dev/null
check "JSON: one valid document holding every run with its swept values" \
	sh -c "[ \"\$(jq -c '[.\"iobench sweep\"[] | [.values.bs, .values.rw, .result.jobs[0].jobname]]' sweep.json)\" = '[[\"4k\",\"read\",\"sweep\"],[\"4k\",\"write\",\"sweep\"],[\"64k\",\"read\",\"sweep\"],[\"64k\",\"write\",\"sweep\"]]' ]"
# shellcheck disable=SC2086
"$IOBENCH" --sweep=bs=4k,64k $args --rw=read >sweep.txt 2>/dev/null
check "normal output: each run under a heading" sh -c "[ \$(grep -c '^=== sweep [12]/2: bs=' sweep.txt) -eq 2 ] && [ \$(grep -c '^Run status group 0' sweep.txt) -eq 2 ]"
# shellcheck disable=SC2086
"$IOBENCH" --sweep=bs=4k,zz $args >bad.out 2>bad.err
check "a bad swept value stops the sweep before any run" sh -c "[ $? -eq 1 ] && [ ! -s bad.out ] && grep -q \"bs: cannot parse 'zz'\" bad.err"
