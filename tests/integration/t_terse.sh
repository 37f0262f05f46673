#!/bin/sh
# Issue 4: the terse line has fio's field count, order and kinds for the same job:
# --minimal, --output-format=terse, --terse-version=3/4/5, with disks, continue_on_error
# and a description.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
if ! have fio || ! have python3; then
	skip "terse shape against fio" "fio or python3 is not installed"
	exit 0
fi
D=--direct=1
direct_ok || D=--direct=0
dd if=/dev/urandom of=data bs=1M count=8 2>/dev/null
job="--name=randrw --filename=$T/data --size=8m --rw=randrw --bs=4k --ioengine=libaio --iodepth=4 $D --numjobs=2"
for v in "--minimal" "--output-format=terse" "--output-format=terse --terse-version=4" \
	"--output-format=terse --terse-version=5"; do
	# shellcheck disable=SC2086
	fio $v $job >fio.txt 2>/dev/null
	# shellcheck disable=SC2086
	"$IOBENCH" $v $job >ours.txt 2>err.txt
	check "terse $v: same lines, fields and field kinds as fio" python3 "$TOP/tests/tools/terse_shape.py" fio.txt ours.txt
	check "terse $v: nothing else on stdout or stderr" sh -c "[ ! -s err.txt ] && ! grep -qv '^[345];' ours.txt"
done
extra="--name=t --ioengine=null --size=8m --description=hello --continue_on_error=all"
# shellcheck disable=SC2086
fio --minimal $extra >fio2.txt 2>/dev/null
# shellcheck disable=SC2086
"$IOBENCH" --minimal $extra >ours2.txt
check "terse with continue_on_error and a description: fio's extra fields" python3 "$TOP/tests/tools/terse_shape.py" fio2.txt ours2.txt
check "the description closes the line" grep -q ';hello$' ours2.txt
fio --output-format=terse,json $extra >fio3.txt 2>/dev/null
"$IOBENCH" --output-format=terse,json $extra >ours3.txt
check "terse,json: the terse line comes first, then the JSON (as fio)" \
	sh -c "head -1 ours3.txt | grep -q '^3;' && sed -n 2p ours3.txt | grep -qx '{'"
