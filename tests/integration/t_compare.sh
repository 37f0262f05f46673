#!/bin/sh
# Issue 6 (part): --compare BASE.json NEW.json and the --compare-threshold gate.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
"$IOBENCH" --name=cmp --ioengine=null --size=64m --rw=randread --output-format=json >base.json
python3 - <<'PY'
import json
d = json.load(open('base.json'))
r = d['jobs'][0]['read']
r['iops'] *= 0.8
r['bw'] = int(r['bw'] * 0.8)
json.dump(d, open('new.json', 'w'))
PY
"$IOBENCH" --compare base.json new.json >cmp.txt
rc=$?
check "a 20% IOPS drop shows as -20.0%" grep -qE '^cmp +read +iops +[0-9.]+ +[0-9.]+ +-20\.0%' cmp.txt
check "without a threshold the exit status is 0" [ $rc -eq 0 ]
"$IOBENCH" --compare base.json new.json --compare-threshold=10 >/dev/null 2>gate.err
check "--compare-threshold=10 exits 2 on it, naming the metrics" sh -c "[ $? -eq 2 ] && grep -q 'past the 10.0% threshold' gate.err"
"$IOBENCH" --compare base.json base.json --compare-threshold=10 >/dev/null
check "identical inputs: exit 0" [ $? -eq 0 ]
"$IOBENCH" --compare base.json new.json --output-format=json >cmp.json
check "--output-format=json gives the same as JSON" \
	sh -c "[ \"\$(jq -r '.comparisons[] | select(.metric == \"iops\") | .delta_pct | floor' cmp.json)\" = -20 ]"
if have fio; then
	fio --name=cmp --ioengine=null --size=64m --rw=randread --output-format=json >fio.json 2>/dev/null
	"$IOBENCH" --compare fio.json base.json >fb.txt
	check "fio's JSON compares with ours" grep -qE '^cmp +read +iops' fb.txt
fi
"$IOBENCH" --compare base.json missing.json >/dev/null 2>miss.err
check "a missing input: exit 1, named" sh -c "[ $? -eq 1 ] && grep -q \"cannot open 'missing.json'\" miss.err"
