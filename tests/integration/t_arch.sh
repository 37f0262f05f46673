#!/bin/sh
# Issues 15 and 25: docs/architecture.md's rules (tests/tools/arch_check.py): folders are
# layers used in one direction, no circle between files, headers by folder, report/ seeing
# only core/stats/results.h, engines/ only engines/engine.h, no function over 80 lines nor a
# file over 600; and an engine's options live in its file.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
python3 "$TOP/tests/tools/arch_check.py" >arch.txt 2>&1
check "the folders' direction holds, no circle, report/ and engines/ keep to their doors, no function over 80 lines nor file over 600" [ $? -eq 0 ]
sed 's/^/#   /' arch.txt
check "no engine-specific field left in struct job_opts" \
	sh -c "! grep -nE '\\b(fixedbufs|registerfiles|hipri|sqthread_poll|userspace_reap|nonvectored|fault_after|fault_errno|fault_short|stat_type)\\b' '$TOP/core/job/job.h'"
check "nothing in core/ names an engine's option" \
	sh -c "! grep -nE '\\b(fixedbufs|registerfiles|hipri|sqthread_poll|userspace_reap|nonvectored|fault_after|fault_errno|fault_short|stat_type)\\b' '$TOP'/core/*/*.c"
check "the registry is the only list of engines (no engine but the default named in core/)" \
	sh -c "! grep -nE '\"(pvsync|pvsync2|libaio|io_uring|posixaio|mmap|faulty|file(create|stat|delete)|dir(create|stat|delete))\"' '$TOP'/core/*/*.c"

# The check catches what it claims to: each breach below, made in a copy of the sources, fails
# it with its own line; the copy as it is passes.
mkdir -p src/tests/tools src/docs
cp -R "$TOP/core" "$TOP/engines" "$TOP/report" src/
cp "$TOP/tests/tools/arch_check.py" src/tests/tools/
cp "$TOP/docs/architecture.md" src/docs/
breach() { # description, expected line (grep -E), shell code run in the copy
	rm -rf b && cp -R src b && (cd b && sh -c "$3") &&
		python3 b/tests/tools/arch_check.py >b.txt 2>&1
	rc=$?
	check "make check fails on $1" sh -c "[ $rc -eq 1 ] && grep -qE '$2' b.txt"
	grep -qE "$2" b.txt || sed 's/^/#   /' b.txt
}
python3 src/tests/tools/arch_check.py >b.txt 2>&1
check "the unchanged copy passes the check" [ $? -eq 0 ]
breach "an include against the direction (lib -> run)" \
	'against the direction: core/lib/clock.c \(core/lib\) -> core/run/run.h' \
	'printf "#include \"core/run/run.h\"\n" >>core/lib/clock.c'
breach "a call against the direction (job -> worker)" \
	'against the direction: core/job/parse.c \(core/job\) -> core/worker/worker_life.c.*uses worker_run' \
	'printf "int parse_breach(void *w)\n{\n\treturn worker_run(w);\n}\n" >>core/job/parse.c'
breach "a use between the side-by-side folders (plan -> stats)" \
	'against the direction: core/plan/files.c \(core/plan\) -> core/stats/stats.c' \
	'printf "void files_breach(void *a, void *b)\n{\n\tthread_stats_merge(a, b, 0);\n}\n" >>core/plan/files.c'
breach "a circle of two files" 'circle: core/lib/ba.c core/lib/bb.c' \
	'printf "int ba(void)\n{\n\treturn bb();\n}\n" >core/lib/ba.c; printf "int bb(void)\n{\n\treturn ba();\n}\n" >core/lib/bb.c'
breach "a circle of three files" 'circle: core/lib/ca.c core/lib/cb.c core/lib/cc.c' \
	'printf "int ca(void)\n{\n\treturn cb();\n}\n" >core/lib/ca.c; printf "int cb(void)\n{\n\treturn cc();\n}\n" >core/lib/cb.c; printf "int cc(void)\n{\n\treturn ca();\n}\n" >core/lib/cc.c'
breach "a header declaring another folder's function" \
	'core/lib/clock.h declares worker_run, which core/worker/worker_life.c defines' \
	'sed -i "s|^#endif|int worker_run(void *w);\n#endif|" core/lib/clock.h'
breach "an engine including more than engines/engine.h" \
	'engines/null.c includes core/run/run.h' \
	'sed -i "0,/#include \"engines\/engine.h\"/s||#include \"engines/engine.h\"\n#include \"core/run/run.h\"|" engines/null.c'
breach "a printer including core/run/" 'report/csv.c includes core/run/run.h' \
	'sed -i "0,/#include \"report\/report.h\"/s||#include \"report/report.h\"\n#include \"core/run/run.h\"|" report/csv.c'
breach "a function over 80 lines" 'core/lib/longfn.c: 82 lines: int longfn' \
	'{ printf "int longfn(void)\n{\n\tint x = 0;\n"; i=0; while [ $i -lt 78 ]; do printf "\tx++;\n"; i=$((i+1)); done; printf "\treturn x;\n}\n"; } >core/lib/longfn.c'
breach "a file over 600 lines" 'core/lib/longfile.c: 601 lines' \
	'i=0; while [ $i -lt 601 ]; do echo "/* $i */"; i=$((i+1)); done >core/lib/longfile.c'
