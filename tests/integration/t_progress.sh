#!/bin/sh
# lane: timing (tests/run.sh: never beside another timing script)
# Issue 4: --status-interval (a full report every interval, as fio: concatenated JSON
# documents) and --eta (the progress line on stderr: auto = only on a terminal).
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
job="--name=e --ioengine=null --size=1g --rw=read --runtime=3 --time_based"
# shellcheck disable=SC2086
"$IOBENCH" $job --status-interval=1 --output-format=json >si.json 2>si.err
n=$(jq -s 'length' si.json)
check "--status-interval=1 over 3 s: interim documents then the final one ($n; fio printed 4)" \
	sh -c "[ $n -ge 3 ] && [ $n -le 4 ]"
check "the last document is the final report (runtime ~3000 ms)" \
	within "$(jq -s '.[-1].jobs[0].read.runtime' si.json)" 3000 10
check "interim reports are cumulative: runtime grows" \
	sh -c "[ \"\$(jq -c '.jobs[0].read.runtime' si.json | tr '\n' ' ')\" = \"\$(jq -c '.jobs[0].read.runtime' si.json | sort -n | tr '\n' ' ')\" ]"
check "--status-interval keeps stderr clean" [ ! -s si.err ]
# shellcheck disable=SC2086
"$IOBENCH" $job --status-interval=1 >si.txt
n=$(grep -c '^Run status group 0' si.txt)
check "--status-interval with the normal format repeats the report ($n times)" sh -c "[ $n -ge 3 ] && [ $n -le 4 ]"

# shellcheck disable=SC2086
"$IOBENCH" $job --eta=always --output-format=json >eta.json 2>eta.err
check "--eta=always draws fio's line on stderr" grep -q 'Jobs: 1 (f=1): \[R(1)\]\[[0-9.]*%\]\[r=[^]]*\]\[r=[^]]* IOPS\]\[eta 00m:0[0-9]s\]' eta.err
check "... and stdout is still one JSON document" sh -c "[ \"\$(jq -s length eta.json)\" -eq 1 ]"
# shellcheck disable=SC2086
"$IOBENCH" $job --output-format=json >auto.json 2>auto.err
check "--eta=auto (the default) draws nothing when stderr is not a terminal" [ ! -s auto.err ]
if have script; then
	# shellcheck disable=SC2086
	script -qec "'$IOBENCH' $job --runtime=2 --output-format=json --output=tty.json" /dev/null >tty.txt 2>&1
	check "--eta=auto draws the line on a terminal" grep -q 'Jobs: 1 (f=1)' tty.txt
else
	skip "--eta=auto on a terminal" "script (util-linux) is not installed"
fi
"$IOBENCH" $job --eta=sometimes >/dev/null 2>bad.err
check "--eta with a bad value is refused" grep -q "eta: 'sometimes' is not auto, always or never" bad.err
