#!/bin/sh
# Issue 6 (part): --merge of json+ runs: client_stats with every job and a hostname, and
# "All clients" whose amounts add up and whose p99 is the p99 of the summed bins.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
D=--direct=1
direct_ok || D=--direct=0
dd if=/dev/zero of=data bs=1M count=8 2>/dev/null
"$IOBENCH" --name=m --ioengine=null --size=16m --rw=randread --output-format=json+ >pod1.json
"$IOBENCH" --name=m --filename="$T/data" --size=8m --rw=randread --ioengine=libaio --iodepth=4 $D --output-format=json+ >pod2.json
"$IOBENCH" --name=m --filename="$T/data" --size=4m --rw=randread --ioengine=psync --output-format=json+ >pod3.json
"$IOBENCH" --merge pod1.json pod2.json pod3.json >merged.json 2>err.txt
check "--merge: exit 0, nothing on stderr" sh -c "[ $? -eq 0 ] && [ ! -s err.txt ]"
check "client_stats: the 3 jobs with their hostnames, then All clients" \
	sh -c "[ \"\$(jq -c '[.client_stats[] | .hostname // .jobname]' merged.json)\" = '[\"pod1\",\"pod2\",\"pod3\",\"All clients\"]' ]"
check "All clients: io_bytes add up (28 MiB)" [ "$(jq '.client_stats[3].read.io_bytes' merged.json)" -eq $((28 << 20)) ]
p99=$(jq -s '[.[].jobs[0].read.clat_ns.bins]' pod1.json pod2.json pod3.json | python3 "$TOP/tests/tools/bins_pct.py" 99)
got=$(jq '.client_stats[3].read.clat_ns.percentile["99.000000"]' merged.json)
echo "#   p99 from summed bins $p99, reported $got"
check "All clients: p99 is the p99 of the summed json+ bins" [ "$got" -eq "$p99" ]
if have fio; then
	fio --name=m --ioengine=null --size=16m --rw=randread --output-format=json+ >fio1.json 2>/dev/null
	"$IOBENCH" --merge fio1.json pod1.json >mixed.json
	check "fio's json+ merges with ours" [ "$(jq '.client_stats[2].read.io_bytes' mixed.json)" -eq $((32 << 20)) ]
fi
"$IOBENCH" --name=m --ioengine=null --size=1m --output-format=json >plain.json
"$IOBENCH" --merge plain.json pod1.json >/dev/null 2>plain.err
check "plain JSON (no bins) is refused, named" sh -c "[ $? -eq 1 ] && grep -q \"'plain.json' has no json+ bins\" plain.err"
