#!/bin/sh
# Runs every test and ends with one summary line: "N passed, N failed[, N skipped]".
# Unit tests are cmocka binaries (arguments), run with TAP output; integration tests are
# tests/integration/t_*.sh, which print TAP-style lines through tests/lib.sh.
# TESTS=pattern runs only the integration scripts whose name contains it; SUITE=container
# runs tests/container/t_*.sh instead (make test-container).
#
# The integration scripts run in two lanes at once (the machine has two cores and most
# scripts wait on I/O, sleeps or fio): scripts that measure time (a line `# lane: timing` in
# the script) run one after another in one lane, every other script in the other, so no two
# timing scripts ever overlap. LANES=1 runs everything one after another. The timing lane
# runs in the foreground; the other is this script again (`--lane other`) started in the
# background through `env --default-signal`, because a background command of a shell script
# starts with SIGINT and SIGQUIT ignored, and the tests send those signals to iobench.
top=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = "--lane" ]; then
	log=$RUN_LOG lock=$RUN_LOCK
else
	log=$(mktemp)
	lock="$log.lock"
	trap 'rm -f "$log" "$log".*' EXIT INT TERM
fi

run_one() { # name, command...
	name=$1
	shift
	out=$(mktemp "$log.out.XXXXXX")
	start=$(date +%s)
	"$@" >"$out" 2>&1
	rc=$?
	# A script that died before saying anything counts as a failure.
	if [ $rc -ne 0 ] && ! grep -q '^not ok' "$out"; then
		echo "not ok - $name exited with status $rc" >>"$out"
	fi
	echo "# $name: $(($(date +%s) - start))s" >>"$out"
	# One script's lines stay together on the terminal and in the log.
	flock "$lock" sh -c 'cat "$1"; cat "$1" >>"$2"' sh "$out" "$log"
	rm -f "$out"
}

lane() { # timing|other
	for t in "$top"/tests/${SUITE:-integration}/t_*.sh; do
		case "$(basename "$t")" in *"${TESTS:-}"*) ;; *) continue ;; esac # the name, not the path
		if grep -q '^# lane: timing' "$t"; then kind=timing; else kind=other; fi
		[ "${LANES:-2}" -eq 1 ] || [ "$kind" = "$1" ] || continue
		run_one "$(basename "$t")" sh "$t"
	done
}

if [ "${1:-}" = "--lane" ]; then
	lane "$2"
	exit 0
fi
for bin in "$@"; do
	CMOCKA_MESSAGE_OUTPUT=TAP run_one "$(basename "$bin")" "$bin"
done
if [ "${LANES:-2}" -eq 1 ] || ! env --default-signal=INT,QUIT true 2>/dev/null; then
	LANES=1 lane all
else
	RUN_LOG=$log RUN_LOCK=$lock env --default-signal=INT,QUIT sh "$0" --lane other &
	lane timing
	wait
fi

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
