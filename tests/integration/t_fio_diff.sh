#!/bin/sh
# Issue 2: iobench and fio 3.33 run the same jobs; compare shapes, byte counts, semantics.
. "$(dirname "$0")/../lib.sh"
if ! have fio || ! have python3; then
	skip "differential tests against fio" "fio or python3 is not installed"
	exit 0
fi
D=--direct=1
direct_ok || D=--direct=0
export QD=4 JOBS="$TOP/tests/jobs"
python3 "$TOP/tests/fio_diff.py" "$IOBENCH" "$T" <<EOF2
# name | args | checks
psync-read | --name=r --rw=read --bs=4k --size=8m --ioengine=psync $D | jobs,ios,keys,opts,files
psync-randwrite | --name=w --rw=randwrite --bs=16k --size=8m --ioengine=psync $D | jobs,ios,files
libaio-randread | --name=r --rw=randread --bs=4k --size=8m --ioengine=libaio --iodepth=16 $D | jobs,ios,keys,files
libaio-write | --name=w --rw=write --bs=64k --size=8m --ioengine=libaio --iodepth=8 $D | jobs,ios,files
io_uring-read | --name=r --rw=read --bs=8k --size=8m --ioengine=io_uring --iodepth=32 $D | jobs,ios,keys,files
io_uring-randwrite | --name=w --rw=randwrite --bs=4k --size=8m --ioengine=io_uring --iodepth=4 $D | jobs,ios,files
null-read | --name=n --rw=read --bs=128k --size=1g --ioengine=null | jobs,ios,keys,files
null-randrw | --name=n --rw=randrw --bs=4k --size=64m --ioengine=null --iodepth=8 | jobs,split,keys
libaio-rw | --name=m --rw=rw --bs=4k --size=8m --ioengine=libaio --iodepth=4 $D | jobs,split,keys
libaio-randrw-70 | --name=m --rw=randrw --rwmixread=70 --bs=4k --size=8m --ioengine=libaio --iodepth=4 $D | jobs,split
numjobs2 | --name=c --rw=randread --bs=4k --size=4m --numjobs=2 --ioengine=libaio --iodepth=4 $D | jobs,ios,keys,opts,files
numjobs2-group | --name=c --rw=write --bs=4k --size=4m --numjobs=2 --group_reporting --ioengine=libaio $D | jobs,ios,keys,opts,files
global-vs-job | --size=4m --ioengine=io_uring $D --bs=4k --name=reader --rw=randread --iodepth=8 --name=writer --rw=randwrite --iodepth=2 | jobs,ios,keys,opts,files
jobfile-two-groups | \$JOBS/two-groups.fio | jobs,ios,keys,opts,files
timed-jobs | --name=t --rw=randread --bs=4k --size=4m --runtime=1 --time_based --ioengine=libaio --iodepth=4 $D | jobs,keys,opts
EOF2
