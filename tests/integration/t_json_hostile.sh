#!/bin/sh
# lane: timing (tests/run.sh: never beside another timing script)
# Issue 14 (part): --compare and --merge on hostile JSON. Every value they read is checked:
# a bad input exits 1 with one line on stderr naming the file (and the value), and nothing
# on stdout. Inputs are capped (1 GiB, regular files and pipes only), and a 100 MB result
# with 100,000 jobs takes seconds, not a nested scan of the jobs.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
"$IOBENCH" --name=a --ioengine=null --size=4m --rw=randread --name=b --size=4m --rw=randrw \
	--output-format=json+ >base.json
python3 - <<'PY'
import copy, json
base = json.load(open('base.json'))
text = json.dumps(base)


def put(name, doc):
    with open(name, 'w') as f:
        f.write(doc if isinstance(doc, str) else json.dumps(doc))


def edit(name, f):
    d = copy.deepcopy(base)
    f(d)
    put(name, d)


def clat(d):
    return d['jobs'][0]['read']['clat_ns']


def first_bin(d):
    return next(iter(clat(d)['bins']))


def before(key, extra):  # text with extra inserted before the first occurrence of key
    i = text.index(key)
    return text[:i] + extra + text[i:]


edit('job_num.json', lambda d: d['jobs'].__setitem__(1, 5))
edit('job_arr.json', lambda d: d['jobs'].__setitem__(1, [1, 2]))
edit('no_name.json', lambda d: d['jobs'][1].pop('jobname'))
edit('name_num.json', lambda d: d['jobs'][1].__setitem__('jobname', 7))
edit('dir_str.json', lambda d: d['jobs'][0].__setitem__('read', 'fast'))
edit('clat_arr.json', lambda d: d['jobs'][0]['read'].__setitem__('clat_ns', []))
edit('pct_arr.json', lambda d: clat(d).__setitem__('percentile', [1, 2]))
edit('pct_val.json', lambda d: clat(d)['percentile'].__setitem__('99.000000', 'x'))
edit('pct_key.json', lambda d: clat(d).__setitem__('percentile', {'abc': 1}))
edit('bins_arr.json', lambda d: clat(d).__setitem__('bins', [1, 2]))
edit('bins_str.json', lambda d: clat(d)['bins'].__setitem__(first_bin(d), 'x'))
edit('bins_key.json', lambda d: clat(d)['bins'].__setitem__('abc', 1))
edit('bins_huge.json', lambda d: clat(d)['bins'].__setitem__(first_bin(d), 1e19))
edit('bins_frac.json', lambda d: clat(d)['bins'].__setitem__(first_bin(d), 1.5))
edit('bins_2p63.json', lambda d: clat(d)['bins'].__setitem__(first_bin(d), 2 ** 63))
edit('neg.json', lambda d: d['jobs'][0]['read'].__setitem__('iops', -5))
edit('huge.json', lambda d: d['jobs'][0]['read'].__setitem__('iops', 1e308))
edit('ios_str.json', lambda d: d['jobs'][0]['read'].__setitem__('total_ios', '12'))
edit('tiny.json', lambda d: d['jobs'][0]['read'].__setitem__('iops', 5e-324))
edit('jobs_obj.json', lambda d: d.__setitem__('jobs', {}))
edit('no_jobs.json', lambda d: d.pop('jobs'))
iops = '"iops": ' + json.dumps(base['jobs'][0]['read']['iops'])
put('inf.json', text.replace(iops, '"iops": 1e999', 1))
put('dup.json', before('"iops"', '"iops": 1, '))
put('dup_same.json', before('"iops"', iops + ', '))
b = text.index('{', text.index('"bins"')) + 1
put('dup_bin.json', text[:b] + '"%s": 12345, ' % first_bin(base) + text[b:])
put('empty.json', '')
put('text.json', 'this is not JSON\n')
put('invalid.json', '{"jobs": [ }\n')
put('cut.json', text[:len(text) // 2])
put('deep.json', '{"jobs": [' + '[' * 10000 + ']' * 10000 + ']}')
PY
mkdir adir
truncate -s 2G sparse.json

verdict() { # description, expected text, exit status; $T/out and $T/err hold the output
	if [ "$3" -eq 1 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
		grep -q '^iobench: --\(compare\|merge\): ' "$T/err" && grep -qF -- "$2" "$T/err"; then
		ok "$1"
	else
		notok "$1"
		echo "#   exit $3, stdout $(wc -c <"$T/out") bytes, stderr: $(head -c 300 "$T/err")"
	fi
}
refused() { # description, expected text, iobench arguments...
	d=$1
	w=$2
	shift 2
	"$IOBENCH" "$@" >"$T/out" 2>"$T/err"
	verdict "$d" "$w" $?
}
both() { # description, expected text, input: refused by --compare and by --merge alike
	refused "--compare: $1" "$2" --compare base.json "$3"
	refused "--merge: $1" "$2" --merge base.json "$3"
}
accepted() { # description, iobench arguments...: exit 0, nothing on stderr
	d=$1
	shift
	"$IOBENCH" "$@" >"$T/out" 2>"$T/err"
	check "$d" sh -c "[ $? -eq 0 ] && [ -s '$T/out' ] && [ ! -s '$T/err' ]"
}

both "a job that is not an object" "'job_num.json': jobs[1] is not an object" job_num.json
both "a job that is an array" "'job_arr.json': jobs[1] is not an object" job_arr.json
both "a job without a jobname" "'no_name.json': jobs[1] has no jobname" no_name.json
both "a jobname that is not a string" "'name_num.json': jobs[1].jobname is not a string" name_num.json
both "a direction that is not an object" "'dir_str.json': jobs[0].read is not an object" dir_str.json
both "clat_ns that is an array" "'clat_arr.json': jobs[0].read.clat_ns is not an object" clat_arr.json
both "a percentile that is an array" "jobs[0].read.clat_ns.percentile is not an object" pct_arr.json
both "a negative number" "jobs[0].read.iops is out of range (-5;" neg.json
both "1e308" "jobs[0].read.iops is out of range (1e+308;" huge.json
both "1e999 (infinity to strtod)" "jobs[0].read.iops is out of range (inf;" inf.json
both "a number that is a string" "'ios_str.json': jobs[0].read.total_ios is not a number" ios_str.json
both "a key twice with two values" "'dup.json': jobs[0].read.iops appears twice" dup.json
both "jobs that is not an array" "'jobs_obj.json': jobs is not an array" jobs_obj.json
both "no jobs" "'no_jobs.json' is not a fio JSON result (no \"jobs\" array)" no_jobs.json
both "an empty file" "'empty.json' is empty" empty.json
both "a file that is not JSON" "'text.json' is not a fio JSON result (no line starts with '{')" text.json
both "invalid JSON" "'invalid.json' is not valid JSON (line 1)" invalid.json
both "a truncated document" "'cut.json' ends in the middle of its JSON document (truncated?)" cut.json
both "nesting 10000 deep" "'deep.json' nests deeper than 1000 levels" deep.json
both "a directory" "'adir' is a directory" adir
both "/dev/zero" "'/dev/zero' is not a regular file or a pipe" /dev/zero
both "a file over 1 GiB (not read)" "'sparse.json' is larger than 1 GiB" sparse.json
refused "--compare: a percentile that is not a number" \
	"jobs[0].read.clat_ns.percentile[\"99.000000\"] is not a number" --compare pct_val.json base.json
accepted "--merge: percentile values are not read (the bins are)" --merge pct_val.json base.json
refused "--merge: a percentile key that is not a percentage" \
	"jobs[0].read.clat_ns.percentile.abc has a key that is not a percentage" --merge pct_key.json
refused "--merge: bins that are an array" "jobs[0].read.clat_ns.bins is not an object" --merge bins_arr.json
accepted "--compare: bins are not read" --compare bins_arr.json base.json
refused "--merge: a bin count that is a string" "is not a number" --merge bins_str.json
refused "--merge: a bin key that is not a number" \
	"jobs[0].read.clat_ns.bins.abc has a key that is not a latency in ns" --merge bins_key.json
refused "--merge: a bin count above 2^63" "is out of range (1e+19;" --merge bins_huge.json
refused "--merge: a bin count that is not whole" "is not a whole number (1.5)" --merge bins_frac.json
refused "--merge: bin counts that add up past 2^64" "makes the bins of all clients add up past 2^64" \
	--merge bins_2p63.json bins_2p63.json
refused "--merge: a bin key twice with two counts" "appears twice" --merge dup_bin.json
accepted "a key twice with the same value is one value (--compare)" --compare dup_same.json base.json
accepted "a key twice with the same value is one value (--merge)" --merge dup_same.json base.json

# shellcheck disable=SC2002 # cat: stdin must be a pipe, not the file
cat /dev/zero | "$IOBENCH" --compare /dev/stdin base.json >"$T/out" 2>"$T/err"
verdict "a pipe of NUL bytes is refused at once" "'/dev/stdin' holds a NUL byte (it is not JSON text)" $?
start=$(ms)
yes | "$IOBENCH" --merge /dev/stdin >"$T/out" 2>"$T/err"
verdict "a pipe is read up to 1 GiB, no further ($(($(ms) - start)) ms)" "'/dev/stdin' is larger than 1 GiB" $?
# shellcheck disable=SC2002
cat base.json | "$IOBENCH" --compare /dev/stdin base.json >"$T/out" 2>"$T/err"
check "a pipe holding a result is read" sh -c "[ $? -eq 0 ] && grep -q '^a  *read  *iops' '$T/out'"

"$IOBENCH" --compare tiny.json base.json --output-format=json >tiny.out 2>tiny.err
check "a delta that is not finite is null in JSON (and the document parses)" sh -c \
	"[ $? -eq 0 ] && [ \"\$(jq -c '[.comparisons[] | select(.job == \"a\" and .metric == \"iops\") | .delta_pct]' tiny.out)\" = '[null]' ] && ! grep -qi 'nan\|inf' tiny.out"

# 100,000 jobs in about 110 MB, every name twice; the new input lists them sorted by name
# (the two of a name in the same order), so only matching by name and occurrence gives 0%.
python3 - <<'PY'
import random
pcts = ['1', '5', '10', '20', '30', '40', '50', '60', '70', '80', '90', '95', '99', '99.5', '99.9', '99.95', '99.99']
pct = ', '.join('"%f": %d' % (float(p), 1000 + 64 * (i % 12)) for i, p in enumerate(pcts))
bins = ', '.join('"%d": %d' % (1000 + 64 * k, 10 + k) for k in range(12))
job = ('{"jobname": "job%d", "groupid": 0, "error": 0, "read": {"io_bytes": 4096000, "io_kbytes": 4000, '
       '"bw_bytes": 4096000, "bw": 4000, "iops": %d.5, "runtime": 1000, "total_ios": 1000, "short_ios": 0, '
       '"drop_ios": 0, "clat_ns": {"min": 1000, "max": 1704, "mean": 1300.5, "stddev": 10.25, "N": 186, '
       '"percentile": {' + pct + '}, "bins": {' + bins + '}}}, "write": {"io_bytes": 0, "total_ios": 0, '
       '"iops": 0.0, "bw": 0, "clat_ns": {"N": 0}}, "job options": {"rw": "randread", "pad": "' + 'x' * 220 + '"}}')
n = 100000
jobs = [(i % (n // 2), job % (i % (n // 2), 1000 + i)) for i in range(n)]
for name, order in (('big.json', jobs), ('big_sorted.json', sorted(jobs, key=lambda j: str(j[0])))):
    with open(name, 'w') as f:
        f.write('{\n  "fio version" : "fio-3.33",\n  "jobs" : [\n    ')
        f.write(',\n    '.join(j for _, j in order))
        f.write('\n  ]\n}\n')
PY
echo "#   big.json: $(($(wc -c <big.json) >> 20)) MiB"
limit=30000 # ms; a sanitizer build (make asan test: BUILD=build-asan) is a few times slower
case "${BUILD:-}" in *san) limit=120000 ;; esac
start=$(ms)
"$IOBENCH" --compare big.json big_sorted.json >big.txt 2>big.err
rc=$?
took=$(($(ms) - start))
check "--compare of 100,000 jobs: exit 0 in $took ms (< $((limit / 1000)) s)" sh -c "[ $rc -eq 0 ] && [ $took -lt $limit ]"
check "--compare of 100,000 jobs: 600,000 rows, each +0.0% (matched by name and occurrence)" sh -c \
	"[ \$(grep -c ' +0\\.0%\$' big.txt) -eq 600000 ] && [ \$(wc -l <big.txt) -eq 600001 ]"
start=$(ms)
"$IOBENCH" --merge big.json >merged.json 2>merge.err
rc=$?
took=$(($(ms) - start))
check "--merge of 100,000 jobs: exit 0 in $took ms (< $((limit / 1000)) s)" sh -c "[ $rc -eq 0 ] && [ $took -lt $limit ]"
all=$(tail -n 120 merged.json | awk '/"All clients"/ { a = 1 } a && /"io_bytes"/ { sub(/,/, "", $3); print $3; exit }')
check "--merge of 100,000 jobs: 100,000 clients, All clients io_bytes is the sum ($all)" sh -c \
	"[ \$(grep -c '\"hostname\" : \"big\"' merged.json) -eq 100000 ] && [ '$all' = 409600000000 ]"
