#!/bin/sh
# Issues 2 and 3: iobench and fio 3.33 run the same jobs; compare jobs, groups, bytes,
# I/O counts, files created (names and sizes), JSON shapes and option maps.
. "$(dirname "$0")/../lib.sh"
if ! have fio || ! have python3; then
	skip "differential tests against fio" "fio or python3 is not installed"
	exit 0
fi
D=--direct=1
direct_ok || D=--direct=0
export QD=4 JOBS="$TOP/tests/jobs" PRE="$T/pre" OD="$T/od"
# Existing files for size=N%, offset=N% and opendir.
dd if=/dev/urandom of="$PRE" bs=1M count=8 2>/dev/null
mkdir -p "$OD/sub"
dd if=/dev/zero of="$OD/f1" bs=1M count=2 2>/dev/null
dd if=/dev/zero of="$OD/sub/f2" bs=1M count=3 2>/dev/null
python3 "$TOP/tests/tools/fio_diff.py" "$IOBENCH" "$T/work" <<EOF2
# name | args | checks
# -- engines: exactly size/bs I/Os, as fio
psync-read | --name=r --rw=read --bs=4k --size=8m --ioengine=psync $D | jobs,ios,keys,opts,files
description | --name=r --description=my_test --rw=read --bs=4k --size=1m --ioengine=null | jobs,ios,keys,opts
psync-randwrite | --name=w --rw=randwrite --bs=16k --size=8m --ioengine=psync $D | jobs,ios,files
libaio-randread | --name=r --rw=randread --bs=4k --size=8m --ioengine=libaio --iodepth=16 $D | jobs,ios,keys,files
libaio-write | --name=w --rw=write --bs=64k --size=8m --ioengine=libaio --iodepth=8 $D | jobs,ios,files
io_uring-read | --name=r --rw=read --bs=8k --size=8m --ioengine=io_uring --iodepth=32 $D | jobs,ios,keys,files
io_uring-randwrite | --name=w --rw=randwrite --bs=4k --size=8m --ioengine=io_uring --iodepth=4 $D | jobs,ios,files
null-read | --name=n --rw=read --bs=128k --size=1g --ioengine=null | jobs,ios,keys,files
null-randrw | --name=n --rw=randrw --bs=4k --size=64m --ioengine=null --iodepth=8 | jobs,split,keys
sync | --name=m --rw=randrw --size=2m --ioengine=sync | jobs,split,files
pvsync | --name=m --rw=randwrite --size=2m --ioengine=pvsync | jobs,ios,files
pvsync2 | --name=m --rw=randread --size=2m --ioengine=pvsync2 | jobs,ios,files
mmap | --name=m --rw=randwrite --size=2m --ioengine=mmap | jobs,ios,files
posixaio | --name=m --rw=randread --size=2m --ioengine=posixaio --iodepth=4 | jobs,ios,files
# -- shape
libaio-rw | --name=m --rw=rw --bs=4k --size=8m --ioengine=libaio --iodepth=4 $D | jobs,split,keys
randrw-70 | --name=m --rw=randrw --rwmixread=70 --bs=4k --size=8m --ioengine=libaio --iodepth=4 $D | jobs,split
rwmixwrite | --name=m --rw=randrw --rwmixwrite=80 --size=8m --ioengine=psync | jobs,split
bs-per-dir | --name=m --rw=rw --bs=4k,64k --size=8m --ioengine=psync | jobs,split,files
bsrange | --name=m --rw=randread --bsrange=4k-64k --size=8m --ioengine=psync | jobs,files
bssplit | --name=m --rw=randwrite --bssplit=4k/50:64k/50 --size=8m --ioengine=psync | jobs,files
size-pct | --name=m --rw=read --size=50% --filename=\$PRE --ioengine=psync | jobs,ios
filesize | --name=m --rw=write --filesize=2m --nrfiles=3 --ioengine=psync | jobs,ios,files
filesize-size | --name=m --rw=write --filesize=2m --nrfiles=3 --size=1m --ioengine=psync | jobs,ios,files
io_size | --name=m --rw=randread --size=4m --io_size=10m --ioengine=psync | jobs,ios,files
offset | --name=m --rw=write --size=2m --offset=1m --ioengine=psync | jobs,ios,files
offset-pct | --name=m --rw=read --offset=25% --filename=\$PRE --ioengine=psync | jobs,ios
offset_increment | --name=m --rw=write --size=1m --offset_increment=1m --numjobs=3 --filename=shared --ioengine=psync | jobs,ios,files
number_ios | --name=m --rw=randread --size=8m --number_ios=100 --ioengine=psync | jobs,ios,files
nrfiles | --name=m --rw=randwrite --size=8m --nrfiles=4 --ioengine=psync | jobs,ios,files
file_service_type | --name=m --rw=write --size=8m --nrfiles=4 --file_service_type=sequential --ioengine=psync | jobs,ios,files
filename-list | --name=m --rw=write --size=4m --filename=a:b --ioengine=psync | jobs,ios,files
filename_format | --name=m --rw=write --size=1m --numjobs=2 --nrfiles=2 --filename_format=f.\\\$jobnum.\\\$filenum --ioengine=psync | jobs,ios,files
opendir | --name=m --rw=read --opendir=\$OD --ioengine=psync | jobs,ios
unlink | --name=m --rw=write --size=1m --unlink=1 --ioengine=psync | jobs,ios,files
create_on_open | --name=m --rw=write --size=1m --create_on_open=1 --ioengine=psync | jobs,ios,files
fallocate-none | --name=m --rw=randwrite --size=2m --fallocate=none --ioengine=psync | jobs,ios,files
fallocate-keep | --name=m --rw=randwrite --size=2m --fallocate=keep --ioengine=psync | jobs,ios,files
kb_base-1000 | --name=m --rw=write --kb_base=1000 --size=1m --bs=4k --ioengine=psync | jobs,ios,files
# -- file-operation engines (issue 9): one I/O per block, one read clat per file
filecreate | --name=fc --ioengine=filecreate --nrfiles=3000 --numjobs=2 --filesize=4k | jobs,ios,clatn,files,keys
filestat | --name=fs --ioengine=filestat --nrfiles=300 --numjobs=2 --filesize=8k --bs=4k | jobs,ios,clatn,files
filestat-lstat | --name=fs --ioengine=filestat --stat_type=lstat --nrfiles=100 --filesize=4k | jobs,ios,clatn,files
filedelete | --name=fd --ioengine=filedelete --nrfiles=3000 --numjobs=2 --filesize=4k | jobs,ios,clatn,files
# -- pattern
rw-holes | --name=m --rw=write:4k --size=1m --ioengine=psync | jobs,ios,files
backwards | --name=m --rw=read:-8k --size=1m --ioengine=psync | jobs,ios,files
randread-8 | --name=m --rw=randread:8 --size=4m --ioengine=psync | jobs,ios,files
rw_sequencer | --name=m --rw=randread:4 --rw_sequencer=identical --size=4m --ioengine=psync | jobs,ios,files
percentage_random | --name=m --rw=randread --percentage_random=50 --size=4m --ioengine=psync | jobs,ios,files
randseed | --name=m --rw=randwrite --randseed=1234 --randrepeat=0 --size=2m --ioengine=psync | jobs,ios,files
random_generator | --name=m --rw=randwrite --random_generator=lfsr --size=2m --ioengine=psync | jobs,ios,files
zipf | --name=m --rw=randread --random_distribution=zipf:1.2 --size=4m --ioengine=psync | jobs,ios,files
pareto | --name=m --rw=randread --random_distribution=pareto:0.5 --size=4m --ioengine=psync | jobs,ios,files
normal | --name=m --rw=randread --random_distribution=normal:20 --size=4m --ioengine=psync | jobs,ios,files
zoned | --name=m --rw=randread --random_distribution=zoned:60/10:30/20:10/70 --size=4m --ioengine=psync | jobs,ios,files
zoned_abs | --name=m --rw=randread --random_distribution=zoned_abs:60/1m:40/3m --size=4m --ioengine=psync | jobs,ios,files
norandommap | --name=m --rw=randread --norandommap --size=4m --ioengine=psync | jobs,ios,files
# -- time (amounts; pacing itself is in t_pacing.sh)
loops | --name=m --rw=read --size=2m --loops=3 --ioengine=psync | jobs,ios,files
timed-jobs | --name=t --rw=randread --bs=4k --size=4m --runtime=1 --time_based --ioengine=libaio --iodepth=4 $D | jobs,keys,opts
ramp_time | --name=m --rw=randread --size=2m --ramp_time=1 --runtime=1 --time_based --ioengine=null | jobs
# -- sync and cache
fsync | --name=m --rw=write --fsync=8 --size=1m --ioengine=psync | jobs,ios,files
fdatasync | --name=m --rw=randwrite --fdatasync=4 --end_fsync=1 --size=1m --ioengine=psync | jobs,ios,files
sync-dsync | --name=m --rw=write --sync=dsync --size=1m --ioengine=psync | jobs,ios,files
fsync_on_close | --name=m --rw=write --fsync_on_close=1 --size=1m --ioengine=psync | jobs,ios,files
fadvise_hint | --name=m --rw=randread --fadvise_hint=random --size=2m --ioengine=psync | jobs,ios,files
invalidate0 | --name=m --rw=read --invalidate=0 --size=2m --ioengine=psync | jobs,ios,files
buffered0 | --name=m --rw=randread --buffered=0 --size=4m --ioengine=libaio --iodepth=8 | jobs,ios,files
# -- engines' batching and placement
iodepth_batch | --name=m --rw=randread --size=4m --ioengine=libaio --iodepth=16 --iodepth_batch_submit=8 --iodepth_batch_complete_min=4 --iodepth_batch_complete_max=8 $D | jobs,ios,files
iodepth_low | --name=m --rw=randread --size=4m --ioengine=io_uring --iodepth=16 --iodepth_low=4 $D | jobs,ios,files
cpus_allowed | --name=m --rw=randread --size=2m --ioengine=psync --numjobs=2 --cpus_allowed=0 --cpus_allowed_policy=split | jobs,ios,files
# -- groups
numjobs2 | --name=c --rw=randread --bs=4k --size=4m --numjobs=2 --ioengine=libaio --iodepth=4 $D | jobs,ios,keys,opts,files
numjobs2-group | --name=c --rw=write --bs=4k --size=4m --numjobs=2 --group_reporting --ioengine=libaio $D | jobs,ios,keys,opts,files
new_group | --size=1m --ioengine=psync --name=a --rw=write --name=b --rw=read --new_group | jobs,ios,files
stonewall-groups | --size=1m --ioengine=null --name=a --name=b --stonewall --name=c --name=d --new_group | jobs,ios
global-vs-job | --size=4m --ioengine=io_uring $D --bs=4k --name=reader --rw=randread --iodepth=8 --name=writer --rw=randwrite --iodepth=2 | jobs,ios,keys,opts,files
wait_for | \$JOBS/waitfor.fio | jobs,ios,opts
# -- output shapes (issue 4): every key path of fio's with the same type; clean stdout/stderr
shape-read | --name=r --rw=randread --size=4m --ioengine=libaio --iodepth=4 $D | jobs,keys,opts,clean
shape-rw-nj2 | --name=m --rw=randrw --size=4m --ioengine=libaio --iodepth=4 --numjobs=2 $D | jobs,split,keys,opts,clean
shape-rw-nj2-group | --name=m --rw=randrw --size=4m --ioengine=libaio --iodepth=4 --numjobs=2 --group_reporting $D | jobs,keys,opts,clean
shape-jsonplus | --output-format=json+ --name=m --rw=randrw --size=4m --ioengine=libaio --iodepth=4 --numjobs=2 $D | jobs,split,keys,opts,clean
shape-jsonplus-group | --output-format=json+ --name=m --rw=randrw --size=4m --ioengine=libaio --iodepth=4 --numjobs=2 --group_reporting $D | jobs,keys,opts,clean
shape-stonewall | --output-format=json+ \$JOBS/two-groups.fio | jobs,ios,keys,opts,clean
unified-mixed | --name=m --rw=randrw --size=4m --ioengine=io_uring --iodepth=4 --unified_rw_reporting=mixed | jobs,keys,opts,clean
unified-both | --name=m --rw=randrw --size=4m --ioengine=io_uring --iodepth=4 --unified_rw_reporting=both | jobs,keys,opts,clean
percentiles | --name=m --rw=randread --size=4m --ioengine=io_uring --percentile_list=50:90:99:99.9:99.99 --lat_percentiles=1 --slat_percentiles=1 | jobs,ios,keys,opts,clean
no-clat-percentiles | --name=m --rw=randread --size=4m --ioengine=psync --clat_percentiles=0 | jobs,ios,keys
gtod_reduce | --name=m --rw=randread --size=4m --ioengine=psync --gtod_reduce=1 | jobs,ios,keys
disable-lat | --name=m --rw=randread --size=4m --ioengine=libaio --disable_lat=1 --disable_slat=1 --disable_clat=1 | jobs,ios,keys
fsync-json | --name=m --rw=write --size=4m --bs=64k --ioengine=io_uring --iodepth=8 --fsync=16 --end_fsync=1 | jobs,ios,keys,clean
# -- job files
jobfile-two-groups | \$JOBS/two-groups.fio | jobs,ios,keys,opts,files
two-jobfiles | \$JOBS/sections.fio \$JOBS/second.fio | jobs,ios,files
include | \$JOBS/include-main.fio | jobs,ios,opts,files
section | --section=heavy \$JOBS/sections.fio | jobs,ios,files
keywords | \$JOBS/keywords.fio | jobs,ios
cmdline-precedence | --bs=8k \$JOBS/sections.fio | jobs,ios,files
global-prefix | \$JOBS/globalfoo.fio | jobs,ios,opts
EOF2
