#!/bin/sh
# Issue 24: reports survive. SIGHUP (a closed ssh session) stops the run as SIGTERM does:
# the results so far in the --output file, exit 129; under nohup the run goes on. kill -9
# at 17 moments of a run leaves the old report untouched or the complete new one, and no
# stray file beside it (an O_TMPFILE linked into place; tests/tools/report_survive.py).
. "$(dirname "$0")/../lib.sh"
if ! have python3; then
	skip "reports survive SIGHUP and kill -9" "python3 is not installed"
	exit 0
fi
python3 "$TOP/tests/tools/report_survive.py" "$IOBENCH" "$T"
