#!/bin/sh
# Issue 16: steady state (ss, ss_dur, ss_ramp, ss_interval) and latency_target (with
# latency_window, latency_percentile, latency_run), each job run by fio 3.33 and iobench:
# the JSON "steadystate" block and the latency_* keys with fio's key paths and types, the
# normal-output lines, a job that attains steady state stops early in both, one that does
# not runs its whole runtime, and the depth search ends where fio's does. The null engine at
# a fixed rate makes the figures steady; runs last 1-3 s.
# lane: timing (rate-limited samples, runtimes and attained windows are timed)
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
FIO=no
have fio && FIO=yes

# run TOOL NAME ARGS...: NAME.json (the JSON), NAME.txt (the normal output), NAME.err, NAME.rc
run() {
	tool=$1 name=$2
	shift 2
	"$tool" --output-format=json,normal "$@" >"$name.all" 2>"$name.err"
	echo $? >"$name.rc"
	python3 - "$name" <<'EOF'
import sys
name = sys.argv[1]
lines = open(name + '.all').read().split('\n')
start = lines.index('{') if '{' in lines else len(lines)
end = lines.index('}', start) if '}' in lines[start:] else start - 1
open(name + '.json', 'w').write('\n'.join(lines[start:end + 1]) + '\n')
open(name + '.txt', 'w').write('\n'.join(lines[:start] + lines[end + 1:]))
EOF
}
# both NAME ARGS...: fio into f-NAME.*, iobench into i-NAME.*, one after the other
both() {
	n=$1
	shift
	[ $FIO = yes ] && run fio "f-$n" "$@"
	run "$IOBENCH" "i-$n" "$@"
}
# side NAME ARGS...: the same, side by side (rate-limited jobs: a little CPU each)
side() {
	n=$1
	shift
	[ $FIO = yes ] && run fio "f-$n" "$@" &
	run "$IOBENCH" "i-$n" "$@"
	wait
}
# q FILE EXPR: a Python expression is true over d (the document), j (its first job), s (j's
# steadystate block), D (its data) and o (j's job options with the global ones, as fio-plot)
q() {
	python3 - "$1" "$2" <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
j = d['jobs'][0]
s = j.get('steadystate', {})
D = s.get('data', {})
o = dict(j['job options'], **d.get('global options', {}))
if eval(sys.argv[2]):
    sys.exit(0)
print('#   %s: %s' % (sys.argv[1], json.dumps({k: j.get(k) for k in ('error', 'job_runtime', 'steadystate', 'latency_depth')})[:600]))
sys.exit(1)
EOF
}
# fq NAME EXPR: q on fio's and iobench's output (iobench's alone without fio)
fq() {
	q "i-$1.json" "$2" || return 1
	[ $FIO = no ] || q "f-$1.json" "$2"
}
# same_types NAME PATH: the key paths and types under PATH ('' = the whole document) are fio's
same_types() {
	[ $FIO = yes ] || return 0
	PYTHONPATH="$TOP/tests/tools${PYTHONPATH:+:$PYTHONPATH}" python3 - "f-$1.json" "i-$1.json" "$2" <<'EOF'
import sys
sys.dont_write_bytecode = True  # no __pycache__ in the tree
import json, jsonshape
def block(doc, path):
    for k in [p for p in path.split('.') if p]:
        doc = doc[int(k)] if isinstance(doc, list) else doc[k]
    return doc
# a true or false anywhere fails the check (kind_no_bool raises): fio's JSON has none
fio, ours = (block(json.load(open(f)), sys.argv[3]) for f in sys.argv[1:3])
diff = jsonshape.diff(fio, ours, kind=jsonshape.kind_no_bool, order=True)
if diff:
    print('\n'.join('#   ' + x for x in diff))
    sys.exit(1)
EOF
}
# line NAME REGEX: the normal output of both has a line matching REGEX (extended)
line() {
	grep -Eq "$2" "i-$1.txt" || return 1
	[ $FIO = no ] || grep -Eq "$2" "f-$1.txt"
}
# shapes NAME: fio's and iobench's normal outputs line by line, by shape (tests/tools/normal_shape.py)
# (fio prints --debug's lines on stdout: set aside)
shapes() {
	[ $FIO = no ] && return 0
	grep -v '^rate \|set debug option' "f-$1.txt" >"f-$1.shape"
	python3 "$TOP/tests/tools/normal_shape.py" "f-$1.shape" "i-$1.txt"
}
rcs() { [ "$(cat "i-$1.rc")" = "$2" ] && { [ $FIO = no ] || [ "$(cat "f-$1.rc")" = "$2" ]; }; }
BY="fio 3.33 and iobench"
[ $FIO = yes ] || BY="iobench (fio is not installed: fio's half skipped)"
NULLJOB="--name=j --ioengine=null --size=1g --rw=read --bs=4k --time_based"
SSLINE='^  steadystate  : attained=(yes|no), bw=[0-9.]+[KMGT]?i?B/s \([0-9.]+[kMGT]?B/s\), iops=[0-9.]+[kM]?, (iops|bw)( mean dev| slope)=-?[0-9]+\.[0-9]{3}%?$'

# ---- steady state attained: the job stops early ----
side att $NULLJOB --rate_iops=1000 --runtime=6 --ss=iops:5% --ss_dur=2
check "ss=iops:5% ss_dur=2 at 1000 IOPS: $BY run it" rcs att 0
check "... the whole JSON document has fio's key paths, order and types" same_types att ''
check "... the steadystate block's keys and types are fio's (ss, duration, attained, criterion, max_deviation, slope, data{bw_mean, iops_mean, iops[], bw[]})" \
	same_types att jobs.0.steadystate
check "... both attain it and stop well before runtime=6 (read runtime under 5 s)" \
	fq att "s['attained'] == 1 and 1000 <= j['read']['runtime'] < 5000"
check "... iobench after two whole 1 s samples at least (fio's first sample is shorter: docs/differences.md)" \
	q i-att.json "j['read']['runtime'] >= 1995"
check "... ss, duration and the criterion's form as fio's: 'iops:5.000000%', 2, 'N.NNNNNN%'" \
	fq att "j['steadystate']['ss'] == 'iops:5.000000%' and j['steadystate']['duration'] == 2 and re.fullmatch(r'[0-9]+\.[0-9]{6}%', j['steadystate']['criterion'])"
check "... iobench's window: 2 samples of about 1000 IOPS and 4096 B per I/O of bandwidth, their means, a deviation under 5%" \
	q i-att.json "len(D['iops']) == 2 and all(900 <= v <= 1100 for v in D['iops']) and all(abs(v * 4096 - w) < 4096 * 5 for v, w in zip(D['iops'], D['bw'])) and D['iops_mean'] == sum(D['iops']) // 2 and D['bw_mean'] == sum(D['bw']) // 2 and float(s['criterion'][:-1]) < 5 and s['max_deviation'] == max(abs(v - sum(D['iops']) / 2) for v in D['iops'])"
check "... the normal output's steadystate line, in fio's form, in both" line att "$(echo "$SSLINE" | sed 's/(yes|no)/yes/')"
check "... the whole normal output has fio's line shapes" shapes att
check "... fio-plot's reading works: job options' steadystate, steadystate.attained, data.bw_mean and iops_mean" \
	fq att "o['steadystate'] == 'iops:5%' and isinstance(j['steadystate']['attained'], int) and isinstance(j['steadystate']['data']['bw_mean'], int) and isinstance(j['steadystate']['data']['iops_mean'], int)"

# ---- not attained: the window never fills, the job runs its whole runtime ----
side short $NULLJOB --rate_iops=1000 --runtime=1500ms --ss=iops_slope:0.01% --ss_dur=4
check "ss_dur=4 in a 1.5 s job: $BY run it" rcs short 0
check "... the block's keys and types are fio's" same_types short jobs.0.steadystate
check "... not attained, the whole runtime run (read runtime >= 1.45 s)" \
	fq short "s['attained'] == 0 and j['read']['runtime'] >= 1450"
check "... the window as fio shows it: 4 entries, the unfilled ones 0, the means over all 4" \
	fq short "len(D['iops']) == 4 and D['iops'][-1] == 0 and D['bw'][-1] == 0 and D['iops_mean'] == sum(D['iops']) // 4 and j['steadystate']['criterion'] == '0.000000%'"
check "... the normal line says attained=no" line short "$(echo "$SSLINE" | sed 's/(yes|no)/no/')"

# ---- not attained: the window fills but never meets a limit of 0 ----
side never $NULLJOB --rate_iops=1000 --runtime=1500ms --ss=bw:0 --ss_dur=1
check "ss=bw:0 (never met): $BY run the whole runtime, not attained, an absolute criterion ('N.NNNNNN', no %)" \
	fq never "s['attained'] == 0 and j['read']['runtime'] >= 1450 and s['ss'] == 'bw:0.000000' and re.fullmatch(r'[0-9]+\.[0-9]{6}', s['criterion'])"
check "... the block's keys and types are fio's" same_types never jobs.0.steadystate
check "... the normal line: bw mean dev without a %" line never 'attained=no, .*, bw mean dev=[0-9]+\.[0-9]{3}$'

# ---- group_reporting: the clones' figures summed, all of them stop together ----
side grp $NULLJOB --rate_iops=1000 --runtime=5 --ss=iops:10% --ss_dur=1 --numjobs=2 --group_reporting
check "numjobs=2 group_reporting: $BY report one job with one steadystate block" \
	fq grp "len(d['jobs']) == 1 and 'steadystate' in j"
check "... attained on the group's IOPS (about 2000 a sample), both clones stop early" \
	fq grp "s['attained'] == 1 and all(1800 <= v <= 2200 for v in D['iops']) and j['read']['runtime'] < 4000 and j['job_runtime'] < 8000"
check "... the block's keys and types are fio's" same_types grp jobs.0.steadystate
side clones $NULLJOB --rate_iops=1000 --runtime=5 --ss=iops:10% --ss_dur=1 --numjobs=2
check "numjobs=2 without group_reporting: a block per clone, each its own 1000 IOPS, both stop early" \
	fq clones "len(d['jobs']) == 2 and all(x['steadystate']['attained'] == 1 and x['read']['runtime'] < 4000 and all(900 <= v <= 1100 for v in x['steadystate']['data']['iops']) for x in d['jobs'])"

# ---- reads and writes summed; json+ ----
side mixed --output-format=json+ $NULLJOB --rw=randrw --rate_iops=500,500 --runtime=4 --ss=bw:10% --ss_dur=1
check "rw=randrw at 500+500 IOPS, json+: the window holds both directions (about 1000 IOPS, 4 MB/s), attained in both" \
	fq mixed "s['attained'] == 1 and all(900 <= v <= 1100 for v in D['iops']) and all(3.6e6 <= v <= 4.6e6 for v in D['bw']) and j['read']['runtime'] < 3500"
check "... the json+ document has fio's key paths, order and types" same_types mixed ''

# ---- a slope criterion ----
side slope $NULLJOB --rate_iops=1000 --runtime=5 --ss=iops_slope:2% --ss_dur=2
check "ss=iops_slope:2%: attained and stopped early in both; the slope is a float, max_deviation 0" \
	fq slope "s['attained'] == 1 and j['read']['runtime'] < 4500 and isinstance(s['slope'], float) and s['max_deviation'] == 0 and s['ss'] == 'iops_slope:2.000000%'"
check "... the normal line: iops slope=N.NNN%" line slope 'attained=yes, .*, iops slope=-?[0-9]+\.[0-9]{3}%$'

# ---- ss_ramp and ss_interval (fio 3.34's option: iobench only) ----
run "$IOBENCH" ramp $NULLJOB --rate_iops=1000 --runtime=5 --ss=iops:5% --ss_dur=1 --ss_ramp=500ms
check "ss_ramp=500ms ss_dur=1: the window starts after the ramp, attained after 1.5 s (and before runtime=5)" \
	q ramp.json "s['attained'] == 1 and 1495 <= j['read']['runtime'] < 4500"
run "$IOBENCH" ival $NULLJOB --rate_iops=1000 --runtime=5 --ss=iops:5% --ss_dur=1 --ss_interval=500ms
check "ss_interval=500ms ss_dur=1: a window of 2 samples, each in IOPS (about 1000), attained after 1 s (and before runtime=5)" \
	q ival.json "s['attained'] == 1 and len(s['data']['iops']) == 2 and all(900 <= v <= 1100 for v in D['iops']) and 995 <= j['read']['runtime'] < 4500"
"$IOBENCH" $NULLJOB --runtime=1 --ss=iops:5% --ss_dur=1500ms >bad.out 2>bad.err
rc=$?
check "ss_dur not a multiple of ss_interval: refused (exit $rc), one line naming both, stdout empty" \
	sh -c "[ $rc -eq 1 ] && [ ! -s bad.out ] && grep -q 'ss_dur .* is not a multiple of ss_interval' bad.err && [ \$(wc -l <bad.err) -eq 1 ]"
for v in iops iops:abc foo:5 iops:1k; do
	"$IOBENCH" $NULLJOB --runtime=1 --ss=$v --ss_dur=1 >bad.out 2>bad.err
	rc=$?
	frc=1
	[ $FIO = yes ] && { fio $NULLJOB --runtime=1 --ss=$v --ss_dur=1 >/dev/null 2>&1; frc=$?; }
	[ $v = iops:1k ] && frc=1 # fio takes it as 1 IOPS (its suffix is dropped); iobench refuses
	check "ss=$v: refused by both (exit $rc, fio $frc), one line naming ss" \
		sh -c "[ $rc -eq 1 ] && [ $frc -eq 1 ] && [ ! -s bad.out ] && grep -q \"^iobench: job 'j': ss: \" bad.err"
done
run "$IOBENCH" nodur $NULLJOB --rate_iops=1000 --runtime=300ms --ss=iops:5%
check "ss without ss_dur: no detection and no steadystate block (as fio)" q nodur.json "'steadystate' not in j"

# ---- latency_target: the depth search ----
side lat $NULLJOB --iodepth=8 --runtime=3 --latency_target=500ms --latency_window=200ms --debug=rate
check "latency_target=500ms latency_window=200ms iodepth=8: $BY run it" rcs lat 0
check "... the whole JSON document has fio's key paths, order and types" same_types lat ''
check "... latency_depth 8, latency_target 500000000 (ns), latency_window 200000 (us), latency_percentile 100.0" \
	fq lat "(j['latency_depth'], j['latency_target'], j['latency_window'], j['latency_percentile']) == (8, 500000000, 200000, 100.0) and isinstance(j['latency_percentile'], float)"
check "... the depth found, the statistics restart for one last window, then the job ends (runtime 0.15-0.6 s)" \
	fq lat "j['error'] == 0 and 150 <= j['read']['runtime'] <= 600"
check "... the normal output's latency line: target=500000000, window=200000, percentile=100.00%, depth=8" \
	line lat '^     latency   : target=500000000, window=200000, percentile=100.00%, depth=8$'
check "... the whole normal output has fio's line shapes" shapes lat
grep -ho 'Ramped up: [0-9 ]*\|Quiesce and final run\|We are done' i-lat.all i-lat.err >i-ramps.txt
[ $FIO = yes ] && grep -ho 'Ramped up: [0-9 ]*\|Quiesce and final run\|We are done' f-lat.all >f-ramps.txt
check "... --debug=rate: the search's lines (Ramped up: 1 2 8 ... We are done) are fio's, in fio's order" \
	sh -c "[ \"\$(tr '\n' '|' <i-ramps.txt)\" = 'Ramped up: 1 2 8|Ramped up: 2 4 8|Ramped up: 4 8 8|Ramped up: 8 8 8|Quiesce and final run|Ramped up: 8 8 8|We are done|' ] && { [ $FIO = no ] || cmp -s i-ramps.txt f-ramps.txt; }"
side latrun $NULLJOB --iodepth=4 --runtime=1 --latency_target=500ms --latency_window=200ms --latency_run=1
check "latency_run=1: the search goes on, the job runs its whole runtime at the depth found (4) in both" \
	fq latrun "j['latency_depth'] == 4 and j['read']['runtime'] >= 950 and j['error'] == 0"
side latpct $NULLJOB --iodepth=8 --runtime=3 --latency_target=500ms --latency_window=200ms --latency_percentile=99.9
check "latency_percentile=99.9: depth 8 found, latency_percentile 99.9 in both" \
	fq latpct "j['latency_depth'] == 8 and j['latency_percentile'] == 99.9 and j['read']['runtime'] <= 600"
side latsync $NULLJOB --iodepth=1 --runtime=3 --latency_target=500ms --latency_window=200ms
check "latency_target at iodepth=1: depth 1 from the start, one last window, done early in both" \
	fq latsync "j['latency_depth'] == 1 and 150 <= j['read']['runtime'] <= 600"
dd if=/dev/zero of=data.bin bs=1M count=8 2>/dev/null
both latfail --name=j --filename=data.bin --size=8m --bs=1m --rw=read --latency_target=1 --latency_window=100ms
check "latency_target=1us that depth 1 cannot meet (1 MiB reads): the job fails with ETIMEDOUT (error 110, exit 1) in both" \
	sh -c "[ \"\$(cat i-latfail.rc)\" = 1 ] && { [ $FIO = no ] || [ \"\$(cat f-latfail.rc)\" = 1 ]; }"
check "... error 110 in both JSON documents, and iobench's one line names the latency and the target" \
	sh -c "grep -q '\"error\" : 110' i-latfail.json && { [ $FIO = no ] || grep -q '\"error\" : 110' f-latfail.json; } && grep -q \"^iobench: job 'j': latency of [0-9]* nsec exceeds latency_target (1000 nsec) at queue depth 1\" i-latfail.err"
run "$IOBENCH" nolat $NULLJOB --iodepth=8 --runtime=300ms --rate_iops=1000
check "no latency_target: latency_depth is the job's depth (8), target and window 0, percentile 100.0" \
	q nolat.json "(j['latency_depth'], j['latency_target'], j['latency_window'], j['latency_percentile']) == (8, 0, 0, 100.0)"
