#!/bin/sh
# Issue 19's new code paths: the file-operation engines on 20,000 files in one directory
# (the plan's name arena, layout's hash table, the *at() calls), their counts against fio's
# at 2,000 files, files shared by the jobs of a group laid out once, and the normal
# format's percentile unit and line width (fio's rule) on a latency spread of ns to ms, and
# bench/floor.c (make bench's floor program) building clean and doing its I/O.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
H="python3 $TOP/tests/tools/h_engines_local.py"

# ---- 20,000 files in one directory: every one created, stat'ed, removed ----
mkdir big && cd big || exit 1
big="--nrfiles=20000 --filesize=1k --bs=1k --output-format=json"
n_of() { jq '.jobs[0].read.clat_ns.N' "$1"; }
# shellcheck disable=SC2086
"$IOBENCH" --name=m --ioengine=filecreate $big >../big-create.json 2>../big-create.err
check "filecreate, 20000 files: 20000 operations, 20000 empty files ($(n_of ../big-create.json))" \
	sh -c "[ \$(jq '.jobs[0].read.total_ios' ../big-create.json) -eq 20000 ] && [ $(n_of ../big-create.json) -eq 20000 ] &&
		[ \$(find . -maxdepth 1 -type f -name 'm.0.*' -size 0 | wc -l) -eq 20000 ]"
check "filecreate, 20000 files: each of m.0.0 .. m.0.19999 is there" \
	sh -c "seq 0 19999 | sed 's/^/m.0./' | sort >../want && ls | sort | cmp -s - ../want"
# shellcheck disable=SC2086
"$IOBENCH" --name=m --ioengine=filestat $big >../big-stat.json 2>../big-stat.err
check "filestat, 20000 files: 20000 stat calls, no error; every file laid out to 1 KiB and left ($(n_of ../big-stat.json))" \
	sh -c "[ $(n_of ../big-stat.json) -eq 20000 ] && [ \$(jq '.jobs[0].error' ../big-stat.json) -eq 0 ] &&
		[ \$(find . -maxdepth 1 -type f -size 1k | wc -l) -eq 20000 ] && ls | sort | cmp -s - ../want"
# shellcheck disable=SC2086
"$IOBENCH" --name=m --ioengine=filedelete $big >../big-delete.json 2>../big-delete.err
check "filedelete, 20000 files: 20000 unlink calls, none left ($(n_of ../big-delete.json))" \
	sh -c "[ $(n_of ../big-delete.json) -eq 20000 ] && [ \$(find . -type f | wc -l) -eq 0 ]"
cd .. || exit 1

# ---- the same three at 2,000 files (numjobs=2), side by side with fio ----
# figures: operations, clat samples, errors; then the files left and their sizes.
ops() { # tool, dir, engine
	(cd "$2" && "$1" --name=m --ioengine="$3" --nrfiles=2000 --numjobs=2 --filesize=4k \
		--output-format=json >"../$2-$3.json" 2>"../$2-$3.err")
	echo "$(jq -c '[([.jobs[].read.total_ios] | add), ([.jobs[].read.clat_ns.N] | add), ([.jobs[].error] | add)]' \
		"$2-$3.json") $(find "$2" -type f | wc -l) $(find "$2" -type f -size 4k | wc -l)"
}
if have fio; then
	mkdir fio ours
	for e in filecreate filestat filedelete; do
		f=$(ops fio fio $e)
		o=$(ops "$IOBENCH" ours $e)
		check "$e, 2 x 2000 files: operations, samples, errors, files left as fio's (fio $f, iobench $o)" [ "$f" = "$o" ]
	done
else
	skip "filecreate/filestat/filedelete at 2000 files against fio" "fio is not installed"
fi

# ---- files shared by the jobs of a group are laid out once ----
# 4 jobs, the same 300 names: one layout line, each file written once (300 writes of 4 KiB
# before the reads), and each job reads all 300.
mkdir shared && cd shared || exit 1
shared="--name=j --ioengine=psync --rw=read --numjobs=4 --nrfiles=300 --filesize=4k --filename_format=f.\$filenum"
if have strace; then
	# shellcheck disable=SC2086
	strace -f -qq -e trace=pwrite64,write -o ../shared.trace "$IOBENCH" $shared --output-format=json \
		>../shared.json 2>../shared.err
	w=$(grep -c ', 4096) *= 4096$\|, 4096, [0-9]*) *= 4096$' ../shared.trace)
	check "shared files: the 300 files of 4 jobs are written once each ($w writes of 4 KiB)" [ "$w" -eq 300 ]
else
	# shellcheck disable=SC2086
	"$IOBENCH" $shared --output-format=json >../shared.json 2>../shared.err
	skip "shared files: each written once" "strace is not installed"
fi
check "shared files: 300 files of 4 KiB, each job read 300 x 4 KiB" \
	sh -c "[ \$(find . -type f -size 4k | wc -l) -eq 300 ] &&
		[ \"\$(jq -c '[.jobs[].read.io_bytes]' ../shared.json)\" = '[1228800,1228800,1228800,1228800]' ]"
rm -f f.*
# shellcheck disable=SC2086
"$IOBENCH" $shared >../shared.txt 2>&1
l=$(grep -c 'Laying out IO file' ../shared.txt)
if have fio; then
	rm -f f.*
	# shellcheck disable=SC2086
	fio $shared >../shared-fio.txt 2>&1
	lf=$(grep -c 'Laying out IO file' ../shared-fio.txt)
	check "shared files: layout lines as fio's (fio $lf, iobench $l)" [ "$l" = "$lf" ]
else
	check "shared files: one layout line ($l)" [ "$l" = 1 ]
fi
cd .. || exit 1

# ---- the normal format's percentiles: fio's unit, width and values per line ----
# A receiver whose sender pauses 3 ms every 16 blocks: most reads take about a microsecond,
# a few milliseconds. fio keeps nsec unless every value is past 2 usec (and the largest has
# six digits or more), widens the values to the largest's digits and puts as many on a line
# as fit. The check reads the exact values from the JSON printed alongside.
P=$($H port)
"$IOBENCH" --output-format=normal,json --ioengine=net --port="$P" --bs=4k --size=256k --name=receiver --rw=read \
	--listen --name=sender --rw=write --startdelay=300ms --thinktime=3ms --thinktime_blocks=16 \
	--hostname=127.0.0.1 >pct.txt 2>pct.err
cat >pct_rule.py <<'EOF'
import json, re, sys
text = open(sys.argv[1]).read()
at = 0 if text.startswith('{') else text.index('\n{') + 1
doc = json.JSONDecoder().raw_decode(text[at:])[0]
blocks = re.findall(r'clat percentiles \((\w+)\):\n((?:     \|.*\n)+)', text)
for job, (unit, body) in zip(doc['jobs'], blocks):
    v = list(job['read' if job['jobname'] == 'receiver' else 'write']['clat_ns']['percentile'].values())
    lo, hi = min(v), max(v)
    div, want = (10**6, 'msec') if lo > 2000000 and hi > 99999999 else (1000, 'usec') if lo > 2000 and hi > 99999 else (1, 'nsec')
    width = max(5, len(str(-(-hi // div))))
    per = 73 // (12 + width)
    lines = body.rstrip('\n').split('\n')
    shown = [int(x) for x in re.findall(r'\[\s*(\d+)\]', body)]
    ok = unit == want and all(len(re.findall(r'th=', x)) == per for x in lines[:-1]) and \
        shown == [-(-x // div) for x in v] and all(len(m) == width for m in re.findall(r'\[( *\d+)\]', body))
    print('#', job['jobname'], unit, 'want', want, 'width', width, 'per line', per, 'min', lo, 'max', hi)
    if not ok:
        sys.exit(1)
sys.exit(0 if len(blocks) == 2 else 1)
EOF
check "normal format: percentile unit, width and values per line by fio's rule (3 a line past 6 digits)" \
	python3 pct_rule.py pct.txt

# ---- bench/floor.c (make bench's third run in each round): builds clean, does the I/O ----
# shellcheck disable=SC2046 # the library flags are words
if cc -std=gnu11 -O2 -Wall -Wextra -Werror -o floor "$TOP/bench/floor.c" -laio $(pkg-config --libs liburing) 2>floor.cc; then
	ok "bench/floor.c builds with -Wall -Wextra -Werror"
	if direct_ok; then
		dd if=/dev/zero of=ff bs=1M count=8 2>/dev/null
		for e in libaio io_uring; do
			./floor $e ff 8 0.2 >fl.$e.json 2>fl.$e.err
			check "floor $e: 0.2 s of QD8 O_DIRECT reads, JSON as the tools' (total_ios > 0, iops > 0)" \
				sh -c "[ \$(jq '.jobs[0].read | .total_ios > 0 and .iops > 0' fl.$e.json) = true ] && [ ! -s fl.$e.err ]"
		done
	else
		skip "floor libaio and io_uring reads" "the test directory takes no O_DIRECT"
	fi
	./floor io_uring ff 0 1 >fl.bad 2>fl.bad.err
	rc=$?
	check "floor with depth 0: one line on stderr, exit 1, nothing on stdout" \
		sh -c "[ $rc -eq 1 ] && [ \$(wc -l <fl.bad.err) -eq 1 ] && [ ! -s fl.bad ]"
else
	notok "bench/floor.c builds with -Wall -Wextra -Werror: $(head -3 floor.cc)"
fi
