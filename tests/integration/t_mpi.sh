#!/bin/sh
# lane: timing (tests/run.sh: never beside another timing script)
# Issue 8: `make mpi` and `mpirun -np 4 ./iobench-mpi`: global job numbers (file per process,
# single shared file with offset_increment), barriers at stonewall, rank 0's client report.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
if ! have mpirun || ! have mpicc; then
	skip "MPI" "Open MPI (openmpi-bin, libopenmpi-dev) is not installed"
	exit 0
fi
make_target mpi "make mpi builds ./iobench-mpi" || exit 0
MPI="$TOP/iobench-mpi"
run4() { mpirun --allow-run-as-root --oversubscribe -np 4 "$MPI" "$@"; }

mkdir fpp && cd fpp || exit 1
run4 --name=fpp --rw=write --bs=64k --size=4m --ioengine=psync --output-format=json+ >../fpp.json 2>../fpp.err
check "file per process: exit 0, JSON on stdout" sh -c "[ $? -eq 0 ] && jq -e .client_stats ../fpp.json >/dev/null"
check "file per process: 4 distinct files fpp.0.0 .. fpp.3.0 of 4 MiB (global job numbers)" \
	sh -c "[ \"\$(ls | tr '\n' ' ')\" = 'fpp.0.0 fpp.1.0 fpp.2.0 fpp.3.0 ' ] && [ \$(cat fpp.* | wc -c) -eq $((16 << 20)) ]"
cd .. || exit 1
check "client_stats: one entry per rank with a unique hostname and its port (rank), then All clients" python3 - fpp.json <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))['client_stats']
hosts = [e['hostname'] for e in c[:4]]
assert len(c) == 5 and len(set(hosts)) == 4, hosts
assert [e['port'] for e in c[:4]] == [0, 1, 2, 3]
assert all(h.endswith(':%d' % r) for r, h in enumerate(hosts)), hosts
assert c[4]['jobname'] == 'All clients' and all(e['jobname'] == 'fpp' for e in c[:4])
PY
check "All clients: io_bytes is the sum over ranks (16 MiB), total_ios too" python3 - fpp.json <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))['client_stats']
s = sum(e['write']['io_bytes'] for e in c[:4])
n = sum(e['write']['total_ios'] for e in c[:4])
print('#   ranks %s, All clients %d' % ([e['write']['io_bytes'] for e in c[:4]], c[4]['write']['io_bytes']))
sys.exit(0 if s == c[4]['write']['io_bytes'] == 16 << 20 and n == c[4]['write']['total_ios'] == 256 else 1)
PY
p99=$(jq '[.client_stats[:4][].write.clat_ns.bins]' fpp.json | python3 "$TOP/tests/tools/bins_pct.py" 99)
got=$(jq '.client_stats[4].write.clat_ns.percentile["99.000000"]' fpp.json)
echo "#   p99 of the ranks' merged bins $p99, All clients $got"
check "All clients: p99 is the p99 of the ranks' merged bins" [ "$got" -eq "$p99" ]
check "All clients: its json+ bins are the ranks' bins summed" python3 - fpp.json <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))['client_stats']
bins = {}
for e in c[:4]:
    for k, v in e['write']['clat_ns']['bins'].items():
        bins[k] = bins.get(k, 0) + v
sys.exit(0 if c[4]['write']['clat_ns']['bins'] == bins else 1)
PY

mkdir ssf && cd ssf || exit 1
run4 --name=ssf --filename=shared --rw=write --bs=64k --size=4m --offset_increment=4m --verify=crc32c --verify_state_save=0 \
	--output-format=json >../ssf.json 2>../ssf.err
check "single shared file: exit 0, each rank's verify clean" \
	sh -c "[ $? -eq 0 ] && [ \$(jq '[.client_stats[].error] | add' ../ssf.json) -eq 0 ]"
check "single shared file: one file of 4 x 4 MiB" sh -c "[ \"\$(ls)\" = shared ] && [ \$(wc -c <shared) -eq $((16 << 20)) ]"
"$IOBENCH" --name=v --filename=shared --rw=read --bs=64k --size=16m --verify=crc32c --verify_only \
	--output-format=json >../v.json 2>../v.err
check "single shared file: a verify pass over the whole file succeeds (every block its own, no overlap)" \
	sh -c "[ $? -eq 0 ] && [ ! -s ../v.err ]"
cd .. || exit 1

mkdir sw && cd sw || exit 1
cat >sw.fio <<'EOF2'
[g1]
ioengine=psync
rw=write
bs=4k
size=64k
filename_format=g1.$jobnum
startdelay=${OMPI_COMM_WORLD_RANK}00ms

[g2]
stonewall
ioengine=filecreate
filesize=4k
filename_format=g2.$jobnum
EOF2
run4 sw.fio --output-format=normal >../sw.txt 2>../sw.err
check "stonewall job: exit 0" [ $? -eq 0 ]
check "no rank starts group 2 before every rank finished group 1 (rank r starts group 1 r x 100 ms late)" \
	python3 - <<'PY'
import glob, os, sys
g1 = max(os.stat(f).st_mtime_ns for f in glob.glob('g1.*'))
g2 = min(os.stat(f).st_mtime_ns for f in glob.glob('g2.*'))
print('#   last group-1 write %.3f ms before the first group-2 create' % ((g2 - g1) / 1e6))
sys.exit(0 if len(glob.glob('g1.*')) == 4 and len(glob.glob('g2.*')) == 4 and g2 >= g1 else 1)
PY
cd .. || exit 1
check "normal output: a block per rank under <host:rank>, then All clients per group" \
	sh -c "[ \$(grep -c '^<.*:[0-3]>\$' sw.txt) -eq 4 ] && [ \$(grep -c '^All clients: (groupid=[01], jobs=4)' sw.txt) -eq 2 ]"
run4 --name=c --ioengine=null --size=4m --output-format=csv >c.csv 2>c.err
check "CSV: a header with hostname, a row per rank and one for All clients" python3 - c.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
hosts = [r['hostname'] for r in rows]
print('#   ' + ' '.join(hosts))
sys.exit(0 if len(rows) == 5 and hosts[4] == 'All clients' and rows[4]['jobname'] == 'All clients'
         and int(rows[4]['read_io_bytes']) == 4 * int(rows[0]['read_io_bytes']) else 1)
PY
