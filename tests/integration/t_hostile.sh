#!/bin/sh
# lane: timing (tests/run.sh: never beside another timing script)
# Issue 14: the hostile-input table (tests/hostile/cases.py). Every case runs on the
# ASan+UBSan build and is checked for its exit status, one clear line on stderr, valid
# stdout, nothing created or changed outside its scratch directory, and bounded time;
# tests/hostile/run.py prints a TAP line per case (docs/testing.md says how to add one).
. "$(dirname "$0")/../lib.sh"
if ! have python3; then
	skip "hostile-input table" "python3 is not installed"
	exit 0
fi
# Quick when up to date (`make asan test` has built it already).
if ! make -C "$TOP" --no-print-directory SANITIZE=asan build-asan/iobench >"$T/make-asan.log" 2>&1; then
	notok "hostile-input table: cannot build build-asan/iobench"
	sed 's/^/#   /' "$T/make-asan.log" | tail -20
	exit 1
fi
# As root, in a private mount namespace: whatever happens, the cases' mounts go with it.
wrap=
if [ "$(id -u)" = 0 ] && have unshare && unshare -m --propagation private true 2>/dev/null; then
	wrap="unshare -m --propagation private"
fi
# First the harness's checks of itself (tests/hostile/selfcheck.py), then the table.
mkdir "$T/self" "$T/table"
$wrap python3 "$TOP/tests/hostile/run.py" --selfcheck --bin "$TOP/build-asan/iobench" --work "$T/self"
$wrap python3 "$TOP/tests/hostile/run.py" --bin "$TOP/build-asan/iobench" --work "$T/table"
