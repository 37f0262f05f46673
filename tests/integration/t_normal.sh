#!/bin/sh
# Issue 4: the normal format has fio's lines in fio's order for the same jobs (compared
# by shape: numbers and units aside), and the greps of tools like dbench find their values.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
if ! have fio || ! have python3; then
	skip "normal format against fio" "fio or python3 is not installed"
	exit 0
fi
D=--direct=1
direct_ok || D=--direct=0
dd if=/dev/urandom of=data bs=1M count=16 2>/dev/null
n=0
while IFS='|' read -r name args; do
	[ -z "$name" ] && continue
	n=$((n + 1))
	# shellcheck disable=SC2086
	fio $args >fio.$n.txt 2>/dev/null
	# shellcheck disable=SC2086
	"$IOBENCH" $args >ours.$n.txt 2>err.$n.txt
	check "normal format, $name: fio's lines in fio's order" python3 "$TOP/tests/tools/normal_shape.py" fio.$n.txt ours.$n.txt
done <<EOF2
randrw numjobs=2|--name=randrw --filename=$T/data --size=16m --runtime=1 --time_based --rw=randrw --bs=4k --ioengine=libaio --iodepth=4 $D --numjobs=2
group_reporting|--name=randrw --filename=$T/data --size=16m --runtime=1 --time_based --rw=randrw --bs=4k --ioengine=libaio --iodepth=4 $D --numjobs=2 --group_reporting
percentiles|--name=pct --filename=$T/data --size=16m --runtime=1 --time_based --rw=randread --bs=4k --ioengine=io_uring --iodepth=4 $D --percentile_list=50:90:99:99.9:99.99 --lat_percentiles=1 --slat_percentiles=1
fsync|--name=seqw --filename=$T/z --size=16m --rw=write --bs=64k --ioengine=io_uring --iodepth=8 $D --fsync=16 --end_fsync=1
psync|--name=rawlog --filename=$T/data --size=16m --runtime=1 --time_based --rw=randread --bs=4k --ioengine=psync $D
description|--name=d --description=hello --ioengine=null --size=64m --rw=read --runtime=1 --time_based
EOF2
# dbench greps the normal output for these.
out=ours.1.txt
check "dbench's greps: IOPS=, BW=, avg=, READ:, WRITE:" \
	sh -c "grep -q 'IOPS=' $out && grep -q 'BW=' $out && grep -q 'avg=' $out && grep -q 'READ:' $out && grep -q 'WRITE:' $out"
check "no stderr for clean runs" sh -c "! cat err.*.txt | grep -q ."

# several formats at once, in fio's order (terse, JSON, normal), and significant_figures
"$IOBENCH" --name=nj --ioengine=null --size=64m --output-format=normal,json >both.txt
line() { grep -n "$1" both.txt | head -1 | cut -d: -f1; }
check "--output-format=normal,json: job lines, then the JSON document, then the results (as fio)" \
	sh -c "[ $(line '^Starting') -lt $(line '^{$') ] && [ $(line '^{$') -lt $(line '^}$') ] && \
	       [ $(line '^}$') -lt $(line '^nj: (groupid=0') ]"
"$IOBENCH" --name=sf --ioengine=null --size=1g --significant_figures=6 >sf.txt
check "significant_figures=6: sizes with six digits (io 1024.0MiB (1073.7MB))" grep -q 'io=1024.0MiB (1073.7MB)' sf.txt

# percentile_list: the labels have as many decimals as the most the list was typed with
# (fio: "50.5th", " 50th", "99.9999th"), and as many go on a line as fit: against fio.
labels() { sed -n '/clat percentiles/,/lat (nsec)/p' | grep '|' | sed 's/\[ *[0-9]*\]/[]/g'; }
for l in 50:99.9999 50.5:90 10.1234:20:30:40:50:60:70:80:90:95 10:20:30:40:50:60:70:80:90:95 5.25:99.5:99.999; do
	"$IOBENCH" --name=p --ioengine=null --size=4m --bs=4k --percentile_list=$l 2>/dev/null | labels >pl.i
	fio --name=p --ioengine=null --size=4m --bs=4k --percentile_list=$l 2>/dev/null | labels >pl.f
	check "percentile_list=$l: fio's labels, decimals and rows ($(head -1 pl.f | cut -c1-40)...)" \
		sh -c "[ -s pl.f ] && cmp -s pl.i pl.f"
done
