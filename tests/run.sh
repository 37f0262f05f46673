#!/bin/sh
# Runs every test and ends with one summary line: "N passed, N failed[, N skipped]".
# Unit tests are cmocka binaries (arguments), run with TAP output; integration tests are
# tests/integration/t_*.sh, which print TAP-style lines through tests/lib.sh.
# TESTS=pattern runs only the integration scripts whose name contains it; SUITE=container
# runs tests/container/t_*.sh instead (make test-container).
top=$(cd "$(dirname "$0")/.." && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT INT TERM

run_one() { # name, command...
	name=$1
	shift
	start=$(date +%s)
	"$@" >"$log.out" 2>&1
	rc=$?
	cat "$log.out"
	cat "$log.out" >>"$log"
	# A script that died before saying anything counts as a failure.
	if [ $rc -ne 0 ] && ! grep -q '^not ok' "$log.out"; then
		echo "not ok - $name exited with status $rc"
		echo "not ok - $name exited with status $rc" >>"$log"
	fi
	echo "# $name: $(($(date +%s) - start))s"
	rm -f "$log.out"
}

for bin in "$@"; do
	CMOCKA_MESSAGE_OUTPUT=TAP run_one "$(basename "$bin")" "$bin"
done
for t in "$top"/tests/${SUITE:-integration}/t_*.sh; do
	case "$(basename "$t")" in *"${TESTS:-}"*) ;; *) continue ;; esac # the name, not the path
	run_one "$(basename "$t")" sh "$t"
done

skipped=$(grep -c -E '^ok .*# (SKIP|skip)' "$log")
passed=$(($(grep -c -E '^ok' "$log") - skipped))
failed=$(grep -c -E '^not ok' "$log")
echo
if [ "$failed" -gt 0 ]; then
	echo "failed:"
	grep -E '^not ok' "$log" | sed 's/^/  /'
fi
if [ "$skipped" -gt 0 ]; then
	echo "skipped:"
	grep -E '^ok .*# (SKIP|skip)' "$log" | sed 's/^/  /'
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
