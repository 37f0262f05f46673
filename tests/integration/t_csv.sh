#!/bin/sh
# Issue 6 (first part): --output-format=csv, one header and a row per reported job, RFC 4180.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
# c is a group of its own: in a's group, group_reporting would report c's clones with a (as fio).
"$IOBENCH" --output-format=csv --ioengine=null --size=16m --name='a,"b"' --rw=randrw --bs=4k \
	--name=c --rw=read --bs=64k --numjobs=2 --group_reporting --new_group >out.csv 2>err.txt
check "csv: a header and one row per reported job (3 lines)" [ "$(wc -l <out.csv)" -eq 3 ]
check "csv: nothing on stderr" [ ! -s err.txt ]
check "csv: the named columns" sh -c "head -1 out.csv | grep -q '^jobname,groupid,rw,bs,iodepth,numjobs,ioengine,direct,runtime_ms,read_iops,read_bw_kib,read_io_bytes,read_clat_mean_us,read_clat_p50_us,read_clat_p90_us,read_clat_p99_us,read_clat_p99.9_us,read_lat_mean_us,write_iops,'"
check "csv: RFC 4180 quoting of a name with a comma and quotes" grep -q '^"a,""b""",0,randrw,4k,' out.csv
python3 - out.csv <<'PY' && ok "csv: parses, and the numbers add up (bytes, iops x bs = bw, group of 2)" || notok "csv: parses, and the numbers add up"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
a, c = rows
assert int(a['read_io_bytes']) + int(a['write_io_bytes']) == 16 << 20
assert c['numjobs'] == '2' and int(c['read_io_bytes']) == 32 << 20 and c['bs'] == '64k'
iops, bw = float(c['read_iops']), int(c['read_bw_kib'])
assert abs(iops * 64 - bw) <= max(1, bw * 0.001), (iops, bw)
PY
