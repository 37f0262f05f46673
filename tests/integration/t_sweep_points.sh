#!/bin/sh
# Issue 24, point 6: a sweep refuses what would run nothing (an empty value list, more
# combinations than 32 bits counted), frees what it took when it refuses (the hostile table
# runs these on the ASan build), and keeps its JSON document valid when a point fails: the
# point is a member saying why.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
NULLJOB="--name=j --ioengine=null --size=1m"
jqe() { jq -e "$@" >/dev/null 2>&1; }

refused "--sweep=bs=, (no value) is refused; it ran nothing and exited 0" "--sweep=bs: value 1 is empty" \
	"$IOBENCH" --sweep=bs=, $NULLJOB
refused "--sweep=bs=4k,,8k (an empty value) is refused" "--sweep=bs: value 2 is empty" \
	"$IOBENCH" --sweep=bs=4k,,8k $NULLJOB
refused "--sweep=bs=4k, (a trailing comma) is refused" "--sweep=bs: value 2 is empty" \
	"$IOBENCH" --sweep=bs=4k, $NULLJOB
V64=$(seq -s, 1 64)
refused "six sweeps of 64 values (2^36 runs, 0 in 32 bits: it ran nothing, exit 0) are refused" \
	"--sweep=[a-z_]+: the sweeps make [0-9]+ runs \(4096 at most\)" \
	"$IOBENCH" --sweep=nrfiles=$V64 --sweep=loops=$V64 --sweep=iodepth=$V64 --sweep=numjobs=$V64 \
	--sweep=thinktime=$V64 --sweep=iodepth_low=$V64 $NULLJOB
refused "65 values are refused" "--sweep=bs: 64 values at most" "$IOBENCH" --sweep=bs=$V64,65 $NULLJOB

# A point that cannot be prepared (rdma: an engine iobench does not carry out) first and last.
timeout 60 "$IOBENCH" --sweep=ioengine=rdma,null,rdma $NULLJOB --rw=write --output-format=json >sw.json 2>sw.err
rc=$?
check "a sweep whose first point fails: exit 1, the other points run" sh -c "[ $rc -eq 1 ] && grep -q '^\[2/3\] ioengine=null' sw.err"
check "... its JSON document is valid (it began with a comma)" jqe . sw.json
check "... the failed points are members naming why: exit_status 1 and the line printed" jqe '
	(."iobench sweep" | length == 3) and
	(."iobench sweep"[0] | .values.ioengine == "rdma" and .exit_status == 1 and (.error | test("rdma")) and (has("result") | not)) and
	(."iobench sweep"[1] | .values.ioengine == "null" and .result.jobs[0].jobname == "j" and (has("exit_status") | not)) and
	(."iobench sweep"[2] | .exit_status == 1 and (.error | test("^iobench: job .j.: ioengine=rdma")))' sw.json
timeout 60 "$IOBENCH" --sweep=ioengine=rdma,null $NULLJOB --rw=write --output-format=csv >sw.csv 2>/dev/null
check "CSV: a first point that fails leaves the header to the next" sh -c "head -1 sw.csv | grep -q '^jobname,groupid,' && [ \$(wc -l <sw.csv) -eq 2 ]"
# Values are JSON strings, escaped.
timeout 60 "$IOBENCH" '--sweep=description=a"b\c,d' $NULLJOB --output-format=json >sw2.json 2>/dev/null
check "swept values with quotes and backslashes are escaped in the document" \
	jqe '[."iobench sweep"[].values.description] == ["a\"b\\c", "d"]' sw2.json
