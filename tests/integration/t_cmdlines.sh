#!/bin/sh
# Issue 2: the two fio command lines users paste today run unchanged (sizes scaled down).
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
if ! direct_ok; then
	skip "host-vs-pod sequential read" "no O_DIRECT on $T"
	skip "block-size sweep to CSV" "no O_DIRECT on $T"
	exit 0
fi

# (a) host-vs-pod sequential read, read by eye in the normal format (-size 10g -> 64m).
"$IOBENCH" -direct=1 -iodepth=32 -rw=read -ioengine=libaio -bs=4m -size=64m -numjobs=1 -runtime=1000 \
	-group_reporting -filename=testfile --allow_mounted_write=1 -name=Sequ_Read_Testing >out.txt 2>err.txt
check "(a) exits 0" [ $? -eq 0 ]
check "(a) nothing on stderr" [ ! -s err.txt ]
has() { grep -qE "$1" out.txt || { echo "# missing in normal output: $1"; return 1; }; }
check "(a) job header line" has '^Sequ_Read_Testing: \(g=0\): rw=read, bs=\(R\) 4096KiB-4096KiB, \(W\) 4096KiB-4096KiB, \(T\) 4096KiB-4096KiB, ioengine=libaio, iodepth=32$'
check "(a) Starting 1 thread" has '^Starting 1 thread$'
check "(a) job block line" has '^Sequ_Read_Testing: \(groupid=0, jobs=1\): err= 0: pid=[0-9]+: '
check "(a) read: IOPS= BW= line with 64.0MiB" has '^  read: IOPS=[0-9.k]+, BW=[0-9.]+[KMG]iB/s \([0-9.]+[kMG]B/s\)\(64\.0MiB/[0-9]+msec\)$'
check "(a) clat line" has '^    clat \((nsec|usec|msec)\): min=[0-9.k]+, max=[0-9.kM]+, avg=[ 0-9.]+, stdev=[ 0-9.]+$'
check "(a) slat line" has '^    slat \((nsec|usec|msec)\): min='
check "(a) lat line" has '^     lat \((nsec|usec|msec)\): min='
check "(a) clat percentile block" has '^    clat percentiles \((nsec|usec|msec)\):$'
check "(a) percentile rows" has '^     \|  1\.00th=\[ *[0-9]+\],  5\.00th=\[ *[0-9]+\], 10\.00th=\[ *[0-9]+\], 20\.00th=\[ *[0-9]+\],$'
check "(a) last percentile row" has '^     \| 99\.99th=\[ *[0-9]+\]$'
check "(a) cpu line" has '^  cpu          : usr=[0-9.]+%, sys=[0-9.]+%, ctx=[0-9]+, majf=[0-9]+, minf=[0-9]+$'
check "(a) IO depths line" has '^  IO depths    : 1=[0-9.]+%, 2=[0-9.]+%, 4=[0-9.]+%, 8=[0-9.]+%, 16=[0-9.]+%, 32=[0-9.]+%, >=64=[0-9.]+%$'
check "(a) submit line" has '^     submit    : 0=[0-9.]+%, 4='
check "(a) complete line" has '^     complete  : 0=[0-9.]+%, 4='
check "(a) issued rwts: 16 reads of 4m" has '^     issued rwts: total=16,0,0,0 short=0,0,0,0 dropped=0,0,0,0$'
check "(a) latency line" has '^     latency   : target=0, window=0, percentile=100\.00%, depth=32$'
check "(a) Run status group line" has '^Run status group 0 \(all jobs\):$'
check "(a) READ: line" has '^   READ: bw=[0-9.]+[KMG]iB/s \([0-9.]+[kMG]B/s\), [0-9.]+[KMG]iB/s-[0-9.]+[KMG]iB/s \([0-9.]+[kMG]B/s-[0-9.]+[kMG]B/s\), io=64\.0MiB \(67\.1MB\), run=[0-9]+-[0-9]+msec$'

# (b) the block-size x rw sweep, JSON to CSV with jq (size 1G -> 4M, 8 clones).
if ! have jq; then
	skip "block-size sweep to CSV" "jq is not installed"
	exit 0
fi
: >rows.csv
for BS in 4k 8k 16k 64k 1m; do
	for RW in write randwrite read randread; do
		"$IOBENCH" -filename="$T/test" -direct=1 -iodepth=32 -rw=$RW -ioengine=libaio -bs=$BS -size=4M \
			-numjobs=8 -runtime=30 -name=32-$RW-$BS --group_reporting --output-format=json 2>>err.txt |
			jq -cr '[."global options".iodepth,."global options".bs, ."global options".rw,
				.jobs[0].read.iops, .jobs[0].write.iops, .jobs[0].read.bw, .jobs[0].write.bw]|@csv' >>rows.csv
	done
done
check "(b) 20 CSV rows" [ "$(wc -l <rows.csv)" -eq 20 ]
check "(b) nothing on stderr" [ ! -s err.txt ]
check "(b) rows look like \"32\",\"4k\",\"write\",0,807.73655,0,3230" \
	sh -c "! grep -vE '^\"32\",\"[0-9]+[km]\",\"(rand)?(read|write)\",[0-9.e+]+,[0-9.e+]+,[0-9]+,[0-9]+\$' rows.csv"
# iops x bs must match bw (KiB/s) in the direction the row ran.
check "(b) iops x bs matches bw in every row" python3 - rows.csv <<'PY'
import csv, sys
mult = {'k': 1024, 'm': 1024 * 1024}
bad = 0
for qd, bs, rw, riops, wiops, rbw, wbw in csv.reader(open(sys.argv[1])):
    b = int(bs[:-1]) * mult[bs[-1]]
    iops, bw = (float(riops), int(rbw)) if 'read' in rw else (float(wiops), int(wbw))
    other = (float(wiops), int(wbw)) if 'read' in rw else (float(riops), int(rbw))
    if bw <= 0 or abs(iops * b / 1024 - bw) > max(1.0, bw * 0.001) or other != (0.0, 0):
        print('# bad row:', qd, bs, rw, riops, wiops, rbw, wbw)
        bad += 1
sys.exit(1 if bad else 0)
PY
