#!/bin/sh
# Issue 4: what reads fio's output reads ours: fio_jsonplus_clat2csv, fiologparser_hist.py,
# fio2gnuplot, kbench's jq selections, kubestr's number types; logs in fio's formats;
# percentiles within 2% of exact values from a per-I/O latency log of the same run.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
D=--direct=1
direct_ok || D=--direct=0
dd if=/dev/urandom of=data bs=1M count=16 2>/dev/null
job="--filename=$T/data --size=16m --rw=randrw --bs=4k --ioengine=libaio --iodepth=4 $D"

# json+ -> CSV
"$IOBENCH" --name=jp $job --runtime=1 --time_based --output-format=json+ >jp.json
if have fio_jsonplus_clat2csv; then
	fio_jsonplus_clat2csv jp.json clat.csv >/dev/null 2>err.txt
	check "fio_jsonplus_clat2csv reads our json+" sh -c "[ -s clat_job0.csv ] && [ ! -s err.txt ]"
	check "... and writes fio's header and rows" \
		sh -c "head -1 clat_job0.csv | grep -q '^nsec, read_slat_ns_count, read_slat_ns_cumulative' && [ \$(wc -l <clat_job0.csv) -gt 10 ]"
else
	skip "fio_jsonplus_clat2csv" "not installed (Debian package fio)"
fi

# logs: averaged bw/iops/lat and the clat histogram
"$IOBENCH" --name=logjob $job --runtime=2 --time_based --write_bw_log=logjob --write_lat_log=logjob \
	--write_iops_log=logjob --log_avg_msec=500 --write_hist_log=logjob --log_hist_msec=500 \
	--output-format=json >logjob.json
for f in bw iops slat clat lat clat_hist; do
	check "log file logjob_$f.1.log written" [ -s "logjob_$f.1.log" ]
done
check "averaged logs: 'time, value, ddir, 0, 0' rows every 500 ms" \
	sh -c "head -1 logjob_bw.1.log | grep -qE '^500, [0-9]+, 0, 0, 0$' && ! grep -vqE '^[0-9]+, [0-9]+, [01], 0, 0$' logjob_bw.1.log"
check "histogram log: time, ddir, bs and 1856 bucket counts" \
	sh -c "[ \"\$(awk -F, '{ print NF }' logjob_clat_hist.1.log | sort -u)\" = 1859 ]"
PARSER=/usr/share/doc/fio/fiologparser_hist.py.gz
if [ -r $PARSER ] && /usr/bin/python3 -c 'import pandas' 2>/dev/null; then
	zcat $PARSER | /usr/bin/python3 - logjob_clat_hist.1.log >hist.csv 2>err.txt
	check "fiologparser_hist.py reads our histogram log" \
		sh -c "head -1 hist.csv | grep -q '^end-time, samples, min, avg, median, 90%, 95%, 99%, max' && [ \$(wc -l <hist.csv) -ge 2 ]"
	zcat $PARSER | /usr/bin/python3 - --directions=rw --interval=500 logjob_clat_hist.1.log >hist-rw.csv 2>err.txt
	check "fiologparser_hist.py --directions=rw --interval=500 too" grep -q '^500, r, ' hist-rw.csv
else
	skip "fiologparser_hist.py" "needs /usr/share/doc/fio/fiologparser_hist.py.gz and python3-pandas"
fi
if have fio2gnuplot; then
	mkdir f2g && cp logjob_bw.1.log logjob_iops.1.log f2g/
	(cd f2g && fio2gnuplot -b -v >out.txt 2>&1)
	check "fio2gnuplot reads our bw and iops logs" sh -c "grep -q 'Generating rendering scripts' f2g/out.txt && [ -s f2g/mymath ]"
else
	skip "fio2gnuplot" "not installed (Debian package fio)"
fi

# per-I/O logs, log_offset, per_job_logs, numbering
"$IOBENCH" --name=raw --filename="$T/data" --size=16m --rw=randread --bs=4k --ioengine=psync --runtime=1 $D \
	--time_based --write_lat_log=raw --write_bw_log=raw --log_offset=1 --output-format=json >raw.json
n=$(jq '.jobs[0].read.total_ios' raw.json)
check "log_avg_msec=0: one clat row per I/O ($n)" [ "$(wc -l <raw_clat.1.log)" -eq "$n" ]
check "log_offset=1: 'time, value, ddir, bs, offset, prio' rows" \
	sh -c "! grep -vqE '^[0-9]+, [0-9]+, 0, 4096, [0-9]+, 0$' raw_clat.1.log"
check "a sync engine's slat log is empty (as fio's)" sh -c "[ -e raw_slat.1.log ] && [ ! -s raw_slat.1.log ]"
"$IOBENCH" --name=two --ioengine=null --size=1m --numjobs=2 --write_iops_log --output-format=json >/dev/null
check "a bare write_iops_log names the logs after the job, one per clone" sh -c "[ -s two_iops.1.log ] && [ -s two_iops.2.log ]"
"$IOBENCH" --name=one --ioengine=null --size=1m --write_bw_log=pj --per_job_logs=0 --output-format=json >/dev/null
check "per_job_logs=0: no clone number in the name" [ -s pj_bw.log ]

# percentiles against the exact values of the same run's per-I/O log
"$IOBENCH" --name=pct --filename="$T/data" --size=16m --rw=randread --bs=4k --ioengine=libaio --iodepth=8 $D \
	--runtime=2 --time_based --write_lat_log=pct --output-format=json >pct.json
check "p50/p90/p99 within 2% of exact values from the per-I/O latency log" python3 - pct.json pct_clat.1.log <<'PY'
import json, math, sys
doc = json.load(open(sys.argv[1]))
vals = sorted(int(line.split(',')[1]) for line in open(sys.argv[2]))
pct = doc['jobs'][0]['read']['clat_ns']['percentile']
bad = 0
for p in (50.0, 90.0, 99.0):
    exact = vals[max(0, math.ceil(p / 100 * len(vals)) - 1)]
    got = pct['%f' % p]
    ok = abs(got - exact) <= 0.02 * exact
    print('#   p%g: exact %d, reported %d%s' % (p, exact, got, '' if ok else '  <-- off'))
    bad += not ok
sys.exit(bad)
PY

# kbench: jq by position over four jobs; kubestr: integer types
"$IOBENCH" --output-format=json --ioengine=null --size=64m --bs=4k --runtime=1 --time_based \
	--name=rr --rw=randread --name=rw --rw=randwrite --stonewall --name=sr --rw=read --stonewall \
	--name=sw --rw=write --stonewall >kb.json
check "kbench's selections: .jobs[0..3] iops_mean, bw_mean, lat_ns.mean are numbers" sh -c \
	"jq -e '[.jobs[0].read.iops_mean, .jobs[1].write.iops_mean, .jobs[2].read.bw_mean, .jobs[3].write.bw_mean, .jobs[0].read.lat_ns.mean, .jobs[1].write.lat_ns.mean] | all(type == \"number\")' kb.json >/dev/null"
check "kubestr's types: bw, bw_min, bw_max int64 and iops_min, iops_max int32 (no decimals)" python3 - kb.json <<'PY'
import re, sys
text = open(sys.argv[1]).read()
bad = 0
for key in ('bw', 'bw_min', 'bw_max', 'iops_min', 'iops_max'):
    for v in re.findall(r'"%s" : ([^,\n]+)' % key, text):
        if not re.fullmatch(r'-?\d+', v) or (key.startswith('iops') and abs(int(v)) >= 2**31):
            print('#   %s = %s' % (key, v))
            bad += 1
sys.exit(bad)
PY
