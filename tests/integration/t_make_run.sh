#!/bin/sh
# Issue 2: `make run` on a fresh clone, as a new user would type it, prints fio-style
# results of the default profile and leaves no test file behind.
. "$(dirname "$0")/../lib.sh"
if ! git -C "$TOP" rev-parse HEAD >/dev/null 2>&1; then
	skip "make run on a fresh clone" "$TOP is not a git checkout"
	exit 0
fi
git clone -q "$TOP" "$T/clone" || { notok "git clone"; exit 0; }
cd "$T/clone" || exit 1
if ! direct_ok; then
	skip "make run on a fresh clone" "no O_DIRECT on $T (the default profile uses direct=1)"
	exit 0
fi
make run >out.txt 2>err.txt
rc=$?
check "make run exits 0" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/#   /' err.txt | tail -5
has() { grep -qE "$1" out.txt || { echo "# missing: $1"; return 1; }; }
check "job header of the first job" has '^seq-read-1m: \(g=0\): rw=read, bs=\(R\) 1024KiB-1024KiB, .*ioengine=libaio, iodepth=8$'
check "Starting 4 threads" has '^Starting 4 threads$'
check "sequential read results" has '^  read: IOPS=[0-9.k]+, BW='
check "sequential write results" has '^  write: IOPS=[0-9.k]+, BW=.*; 0 zone resets$'
check "four run status groups" [ "$(grep -c '^Run status group [0-3] (all jobs):$' out.txt)" -eq 4 ]
check "random jobs at QD32" has '^rand-read-4k: \(g=2\): rw=randread, bs=\(R\) 4096B-4096B, .*iodepth=32$'
check "the profile's file is removed" [ ! -e iobench-default.tmp ]
