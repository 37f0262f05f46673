#!/bin/sh
# Issue 24: every file iobench writes goes through one door (core/lib/outfile.c) with the data
# files' guard: --output (json, html, csv, terse), --plot, --bandwidth-log, --merge/--compare
# --output, --daemonize's pid file, each option row marked "output" (logs, write_iolog,
# verify states and dumps, merge_blktrace_file, exec_prerun/postrun, exec's std_redirect,
# e4defrag's donor), pointed at a mounted loop device or a name linked to it, and the
# backing file of a mounted loop device: refused in one line naming the path and the mount,
# the device unchanged (tests/tools/guards_out.py).
. "$(dirname "$0")/../lib.sh"
if [ "$(id -u)" != 0 ] || ! have losetup || ! have mkfs.ext4 || ! have python3 ||
	! unshare -m --propagation private true 2>/dev/null; then
	skip "outputs on a mounted loop device" "needs root, losetup, mkfs.ext4, python3 and unshare"
	exit 0
fi
# In a private mount namespace: the mount goes with it whatever happens.
unshare -m --propagation private python3 "$TOP/tests/tools/guards_out.py" "$IOBENCH" "$T"
