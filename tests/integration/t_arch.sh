#!/bin/sh
# Issue 15: the arrows docs/architecture.md says must never exist (tests/tools/arch_check.py):
# no two files calling each other, report/ seeing only core/stats/results.h, engines/ only
# engines/engine.h, no function over 80 lines; and an engine's options live in its file.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
python3 "$TOP/tests/tools/arch_check.py" >arch.txt 2>&1
check "no circles, report/ and engines/ keep to their doors, no function over 80 lines" [ $? -eq 0 ]
sed 's/^/#   /' arch.txt
check "no engine-specific field left in struct job_opts" \
	sh -c "! grep -nE '\\b(fixedbufs|registerfiles|hipri|sqthread_poll|userspace_reap|nonvectored|fault_after|fault_errno|fault_short|stat_type)\\b' '$TOP/core/job/job.h'"
check "nothing in core/ names an engine's option" \
	sh -c "! grep -nE '\\b(fixedbufs|registerfiles|hipri|sqthread_poll|userspace_reap|nonvectored|fault_after|fault_errno|fault_short|stat_type)\\b' '$TOP'/core/*/*.c"
check "the registry is the only list of engines (no engine but the default named in core/)" \
	sh -c "! grep -nE '\"(pvsync|pvsync2|libaio|io_uring|posixaio|mmap|faulty|file(create|stat|delete)|dir(create|stat|delete))\"' '$TOP'/core/*/*.c"
