#!/bin/sh
# Issue 25, point 4: CONTRIBUTING.md's recipes (an engine, a job option, an output format)
# followed to the letter in a copy of the repository. The code blocks CONTRIBUTING.md marks
# `<!-- recipe: NAME -->` are what this script writes into the copy, where the recipe's
# words say; the copy is built once (make -j2 at -O0; the new files again at -O2 with
# warnings fatal, as CI builds) and each recipe's promises are checked on the binary. Then
# the file itself: its links stay in the repository, and the paths and functions it names
# exist.
. "$(dirname "$0")/../lib.sh"
DOC=$TOP/CONTRIBUTING.md
C=$T/repo
TAB=$(printf '\t')
mkdir -p "$C"

# The repository's files as they are in the working tree (modified ones included), without
# build products.
if git -C "$TOP" ls-files -z >"$T/files" 2>/dev/null && [ -s "$T/files" ]; then
	tar -C "$TOP" -cf - --null -T "$T/files" --ignore-failed-read 2>/dev/null | tar -C "$C" -xf -
else
	tar -C "$TOP" -cf - --exclude='./build*' --exclude=./.git --exclude=./iobench . | tar -C "$C" -xf -
fi

# block NAME: the fenced block after `<!-- recipe: NAME -->`, without its indentation.
block() {
	awk -v name="$1" '
		index($0, "<!-- recipe: " name " -->") { want = 1; next }
		want && !inside && /^ *```/ { inside = 1; match($0, /^ */); ind = RLENGTH; next }
		inside && /^ *```/ { exit }
		inside { print substr($0, ind + 1) }
	' "$DOC" >"$T/block.$1"
	[ -s "$T/block.$1" ]
}
# edit FILE MODE START END NAME: after the first line matching START (ERE), the first line
# matching END (the START line included) gets block NAME after it (MODE after), before it
# (before), or the lines from START to it are replaced by the block (replace). PAD=1: with a
# blank line between the block and that line.
edit() {
	block "$5" || return 1
	B=$T/block.$5 S=$3 E=$4 PAD=${PAD:-} awk -v mode="$2" '
		BEGIN {
			while ((getline l < ENVIRON["B"]) > 0)
				blk = blk l "\n"
			if (ENVIRON["PAD"] != "")
				blk = mode == "after" ? "\n" blk : blk "\n"
		}
		!started && $0 ~ ENVIRON["S"] { started = 1 }
		started && !done && $0 ~ ENVIRON["E"] {
			done = 1
			if (mode == "after") { print; printf "%s", blk; next }
			if (mode == "before") { printf "%s", blk; print; next }
			printf "%s", blk
			next
		}
		started && !done && mode == "replace" { next }
		{ print }
		END { exit !done }
	' "$C/$1" >"$T/edited" && cat "$T/edited" >"$C/$1"
}
pad_edit() {
	PAD=1
	edit "$@"
	r=$?
	PAD=
	return $r
}
# before_last FILE RE NAME: block NAME, then a blank line, before the last line matching RE.
before_last() {
	block "$3" || return 1
	n=$(grep -n -E -- "$2" "$C/$1" | tail -1 | cut -d: -f1)
	[ -n "$n" ] || return 1
	awk -v n="$n" -v b="$T/block.$3" 'NR == n { while ((getline l < b) > 0) print l; print "" } { print }' \
		"$C/$1" >"$T/edited" && cat "$T/edited" >"$C/$1"
}
# new_file FILE NAME: the file is block NAME (and did not exist).
new_file() {
	block "$2" && [ ! -e "$C/$1" ] && cp "$T/block.$2" "$C/$1"
}
# in_line FILE TEXT NAME: in the first line holding TEXT, ", " and the one-line block NAME
# after TEXT (a row added to a table written on one line).
in_line() {
	block "$3" || return 1
	B=$T/block.$3 X=$2 awk '
		BEGIN { getline row < ENVIRON["B"] }
		!done && (i = index($0, ENVIRON["X"])) {
			i += length(ENVIRON["X"])
			$0 = substr($0, 1, i - 1) ", " row substr($0, i)
			done = 1
		}
		{ print }
		END { exit !done }
	' "$C/$1" >"$T/edited" && cat "$T/edited" >"$C/$1"
}
# step DESCRIPTION COMMAND...: a step of a recipe; recipe_done names those that failed.
failed=""
step() {
	d=$1
	shift
	"$@" || failed="$failed; $d"
}
recipe_done() { # what
	check "$1${failed:+ (could not: ${failed#; })}" [ -z "$failed" ]
	failed=""
}
copy_engine() {
	block engine-copy && (cd "$C" && sh "$T/block.engine-copy") && [ -s "$C/engines/nullwait.c" ]
}

INC='^#include "engines/engine.h"'
step "1 the copy" copy_engine
step "2 the options below the includes" pad_edit engines/nullwait.c after "$INC" "$INC" engine-options
step "3 queue in place of the copied one" edit engines/nullwait.c replace '^static int nullwait_queue\(' '^}' engine-queue
step "3 engine_ops in place of the copied one" \
	edit engines/nullwait.c replace '^const struct engine_ops nullwait_engine_ops = \{' '^};' engine-ops
NULLX='^extern const struct engine_ops null_engine_ops;$'
step "4 the declaration beside null's" edit engines/registry.c after "$NULLX" "$NULLX" registry-extern
NULLE="^$TAB&null_engine_ops,\$"
step "4 the entry beside null's" edit engines/registry.c after "$NULLE" "$NULLE" registry-entry
recipe_done "engine recipe: its code blocks go where its steps say"

step "1 the field last in struct job_opts" edit core/job/job.h before '^struct job_opts \{' '^};' option-field
step "2 the row last in option_table[]" \
	edit core/job/options_table.c before '^const struct option_def option_table\[\] = \{' "^$TAB\\{ NULL \\},\$" option-row
recipe_done "option recipe: its code blocks go where its steps say"

step "1 report/totals.c" new_file report/totals.c format-file
step "2 the declaration in report.h" before_last report/report.h '^#endif' format-decl
step "3 the bit in enum output_format" edit core/run/run.h before '^enum output_format \{' '^};' format-bit
step "4 the word in format_bit()'s table" in_line core/app/cli.c '{ "html", FMT_HTML }' format-word
step "5 the call in report_all() after the CSV's" \
	edit core/app/main.c after '^static int report_all\(' 'report_csv\(out, r, true\);' format-call
recipe_done "output format recipe: its code blocks go where its steps say"

# One build of the copy, at -O0 for speed (the recipes are about what compiles and runs; at -O0
# gcc warns of a truncation in core/job/job.c that -O2 rules out, so the warnings checked are
# the recipes' files'), and make docs; then the two new files alone as CI builds them (-O2,
# warnings fatal).
MK="env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CI make --no-print-directory -j2 SANITIZE=none"
if ! (cd "$C" && $MK BUILD=bld CFLAGS='-O0 -g0' iobench docs) >"$T/build.log" 2>&1; then
	notok "the copy with the three recipes builds (make -j2) and make docs runs"
	grep -E 'error' "$T/build.log" | head -20 | sed 's/^/#   /'
	tail -5 "$T/build.log" | sed 's/^/#   /'
	exit 0
fi
check "the copy with the three recipes builds (make -j2; nullwait.o and totals.o among its objects) and make docs runs" \
	test -s "$C/bld/engines/nullwait.o" -a -s "$C/bld/report/totals.o" -a -x "$C/iobench"
TOUCHED='(engines/nullwait\.c|engines/registry\.c|report/totals\.c|report/report\.h|core/run/run\.h|core/app/cli\.c|core/app/main\.c|core/job/job\.h|core/job/options_table\.c)'
grep -E "^$TOUCHED:[0-9]+(:[0-9]+)?: warning" "$T/build.log" >"$T/warnings"
check "no warning in the files the recipes wrote or changed" sh -c "! sed 's/^/#   /' '$T/warnings' | grep ."
check "engines/nullwait.c and report/totals.c compile as CI builds them (-O2, WERROR=1)" \
	sh -c "cd '$C' && $MK BUILD=bld-ci CFLAGS='-O2 -g' WERROR=1 bld-ci/engines/nullwait.o bld-ci/report/totals.o >'$T/ci.log' 2>&1 ||
		{ grep -E 'error|warning' '$T/ci.log' | head -10 | sed 's/^/#   /'; exit 1; }"
if have python3; then
	check "the copy passes tests/tools/arch_check.py (the new files keep to their doors)" \
		sh -c "python3 '$C/tests/tools/arch_check.py' >'$T/arch.txt' 2>&1 || { sed 's/^/#   /' '$T/arch.txt'; exit 1; }"
else
	skip "the copy passes tests/tools/arch_check.py" "python3 is not installed"
fi

B=$C/iobench
# jqt FILTER FILE: FILE is a JSON document for which FILTER is true (jq -e passes an empty file).
jqt() {
	[ -s "$2" ] && jq -e "$1" "$2" >/dev/null 2>&1
}
cd "$T" || exit 1
J="--name=x --size=1m --bs=4k --output-format=json"

# --- the engine
"$B" --enghelp >eng.txt 2>&1
check "engine: --enghelp lists nullwait" grep -q "^${TAB}nullwait\$" eng.txt
"$B" --enghelp=nullwait >eng1.txt 2>&1
check "engine: --enghelp=nullwait lists nullwait_us and its help" \
	grep -q '^nullwait_us *: How long each I/O pretends to take, in microseconds$' eng1.txt
"$B" --cmdhelp=nullwait_us >h1.txt 2>&1
check "engine: --cmdhelp=nullwait_us gives its default (0), range (0..1000000) and engine" \
	sh -c "grep -q 'default: 0\$' h1.txt && grep -q 'range: min=0, max=1000000' h1.txt && grep -q 'engines: nullwait\$' h1.txt"
if have jq; then
	# shellcheck disable=SC2086
	"$B" $J --ioengine=nullwait --nullwait_us=1000 --rw=read >w.json 2>w.err
	check "engine: ioengine=nullwait nullwait_us=1000 size=1m bs=4k reads 256 I/Os, 1 MiB, each at least 1 ms" \
		jqt '.jobs[0].read | .total_ios == 256 and .io_bytes == 1048576 and .lat_ns.min >= 1000000' w.json
	# shellcheck disable=SC2086
	"$B" $J --ioengine=nullwait --iodepth=8 --rw=randwrite >q.json 2>q.err
	check "engine: at iodepth=8 (queued, reaped by getevents) randwrite does 256 writes" \
		jqt '.jobs[0].write.total_ios == 256 and .jobs[0].read.total_ios == 0' q.json
else
	skip "engine: nullwait's I/O counts and latencies" "jq is not installed"
fi
# The refusal, word for word as CONTRIBUTING.md prints it.
want=$(tr '\n' ' ' <"$DOC" | tr -s ' ' | grep -o "iobench: job 'x': option 'nullwait_us' is for [^\`]*")
"$B" --name=x --ioengine=psync --size=1m --nullwait_us=5 >r.out 2>r.err
rc=$?
check "engine: nullwait_us for psync is refused with CONTRIBUTING.md's line ($want), exit 1, nothing on stdout" \
	sh -c "[ $rc -eq 1 ] && [ -n \"\$1\" ] && [ \"\$(cat r.err)\" = \"\$1\" ] && [ ! -s r.out ]" sh "$want"
"$B" --name=x --ioengine=nullwait --size=1m --nullwait_us=1000001 >r2.out 2>r2.err
rc=$?
check "engine: nullwait_us=1000001 is refused in one line (nullwait_us: ... out of range (0 to 1000000)), exit 1" \
	sh -c "[ $rc -eq 1 ] && [ \$(wc -l <r2.err) -eq 1 ] && grep -qF \"nullwait_us: '1000001' is out of range (0 to 1000000)\" r2.err && [ ! -s r2.out ]"

# --- the job option
"$B" --cmdhelp=example_pct >h2.txt 2>&1
check "option: --cmdhelp=example_pct gives its help, default (0) and range (0..100)" \
	sh -c "grep -q \"example_pct: CONTRIBUTING.md's example option\" h2.txt && grep -q 'default: 0\$' h2.txt && grep -q 'range: min=0, max=100\$' h2.txt"
"$B" --dump-options=tsv >opts.tsv 2>&1
check "option: --dump-options=tsv has the core row example_pct and the nullwait row nullwait_us" \
	sh -c "awk -F '\t' '\$1 == \"core\" && \$2 == \"example_pct\" { c = 1 } \$1 == \"nullwait\" && \$2 == \"nullwait_us\" { e = 1 } END { exit !(c && e) }' opts.tsv"
if have jq; then
	# shellcheck disable=SC2086
	"$B" $J --ioengine=null --example_pct=50 >o.json 2>o.err
	check "option: a job with example_pct=50 runs (256 reads) and lists it in its JSON job options" \
		jqt '.jobs[0].read.total_ios == 256 and .jobs[0]["job options"].example_pct == "50"' o.json
else
	skip "option: a job with example_pct=50 runs" "jq is not installed"
fi
"$B" --name=x --ioengine=null --size=1m --example_pct=101 >r3.out 2>r3.err
rc=$?
check "option: example_pct=101 is refused in one line (example_pct: ... out of range (0 to 100)), exit 1" \
	sh -c "[ $rc -eq 1 ] && [ \$(wc -l <r3.err) -eq 1 ] && grep -qF \"example_pct: '101' is out of range (0 to 100)\" r3.err && [ ! -s r3.out ]"
check "make docs: docs/options.md has example_pct's row and nullwait's table" \
	sh -c "grep -q '^| \`example_pct\` | integer | 0 |' '$C/docs/options.md' && grep -q '^## Engine \`nullwait\`' '$C/docs/options.md' && grep -q '^| \`nullwait_us\` |' '$C/docs/options.md'"
check "make docs: the man page has example_pct and nullwait_us" \
	sh -c "grep -q '^\.BI example_pct ' '$C/docs/iobench.1' && grep -q '^\.BI nullwait_us ' '$C/docs/iobench.1'"

# --- the output format
"$B" --name=x --ioengine=nullwait --size=1m --bs=4k --rw=write --output-format=totals >t.out 2>t.err
check "format: --output-format=totals prints its one line for the job" \
	[ "$(cat t.out)" = "x read_ios=0 read_bytes=0 write_ios=256 write_bytes=1048576 trim_ios=0 trim_bytes=0" ]
"$B" --name=x --ioengine=null --size=1m --bs=4k --output-format=terse,totals >t2.out 2>t2.err
check "format: with terse, the terse line first, then the totals line (report_all's order)" \
	sh -c "[ \$(wc -l <t2.out) -eq 2 ] && head -1 t2.out | grep -q '^3;' && tail -1 t2.out | grep -q '^x read_ios=256 read_bytes=1048576 '"

# --- CONTRIBUTING.md itself
grep -o '\]([^)]*)' "$DOC" | sed 's/^](//; s/)$//; s/#.*//' >links.txt
bad=$(while read -r l; do
	case $l in
	'' | /* | ../* | *://* | mailto:*) echo "$l" ;;
	*) [ -e "$TOP/$l" ] || echo "$l" ;;
	esac
done <links.txt | tr '\n' ' ')
check "CONTRIBUTING.md: its links ($(wc -l <links.txt)) are relative, to files of the repository${bad:+ (not: $bad)}" [ -z "$bad" ]
check "CONTRIBUTING.md: no path leaves the repository (../)" sh -c "! grep -n '\.\./' '$DOC'"
grep -oE '(core|engines|report|tests|docs|jobs|bench|deploy)/[A-Za-z0-9_./*<>-]*[A-Za-z0-9_]' "$DOC" |
	grep -v '[*<>]' | sort -u >paths.txt
bad=$(while read -r p; do [ -e "$C/$p" ] || [ -e "$TOP/$p" ] || echo "$p"; done <paths.txt | tr '\n' ' ')
check "CONTRIBUTING.md: the $(wc -l <paths.txt) repository paths it names exist (with the recipes' new files)${bad:+ (missing: $bad)}" \
	[ -z "$bad" ]
# shellcheck disable=SC2016 # backquotes, not an expansion
grep -oE '`[a-z_][a-z0-9_]*\(\)`' "$DOC" | tr -d '`()' | sort -u >funcs.txt
bad=$(while read -r f; do grep -rqw -- "$f" "$C/core" "$C/engines" "$C/report" || echo "$f"; done <funcs.txt | tr '\n' ' ')
check "CONTRIBUTING.md: the $(wc -l <funcs.txt) functions it names are in the code${bad:+ (missing: $bad)}" [ -z "$bad" ]
