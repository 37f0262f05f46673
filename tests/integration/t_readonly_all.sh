#!/bin/sh
# Issue 24: --readonly is a promise. Every row of the option tables (--dump-options=tsv),
# with values of its type, and every engine with each rw mode and with unlink,
# unlink_each_loop, nrfiles and a larger size, run as a read job under --readonly on an
# existing file: refused or run, never a byte, size or time of a file changed, a file
# created or removed (tests/tools/readonly_walk.py; about 30 s, two runs at a time).
. "$(dirname "$0")/../lib.sh"
if ! have python3; then
	skip "--readonly over the option table" "python3 is not installed"
	exit 0
fi
python3 "$TOP/tests/tools/readonly_walk.py" "$IOBENCH" "$T"
