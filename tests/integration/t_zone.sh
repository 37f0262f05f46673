#!/bin/sh
# Issue 16: fio 3.33's zone modes. zonemode=strided and zonemode=zbd (zones emulated over a
# regular file and over an ordinary block device, as fio does) run side by side with fio:
# the same I/Os at the same offsets (fio's --write_iolog against iobench's --debug=io), the
# same io_bytes and total_ios per direction, the same "N zone resets", the same JSON key
# paths and types, the same files left. Hostile zone options are refused with one line
# naming the option, exit 1 and nothing on stdout. A real zoned device is used only when
# IOBENCH_ZBD_DEV names one that may be overwritten (the kernel here has none).
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
F="$T/f"

# ---- refusals: one line naming the option, exit 1, stdout empty ----
refused() { # description, the option named, args...
	d=$1 what=$2
	shift 2
	truncate -s 256k "$F"
	"$IOBENCH" --name=z --filename="$F" --size=256k --bs=4k --output-format=json "$@" >out 2>err
	rc=$?
	if [ $rc -eq 1 ] && [ ! -s out ] && [ "$(wc -l <err)" -eq 1 ] && grep -q "^iobench: .*$what" err; then
		ok "refused: $d"
	else
		notok "refused: $d (exit $rc, stdout $(wc -c <out) bytes)"
		sed 's/^/#   /' err | head -3
	fi
}
refused "zonemode=zbd without zonesize" "zonesize must be given" --rw=write --zonemode=zbd
refused "zonesize=0 (zbd)" "zonesize must be given" --rw=write --zonemode=zbd --zonesize=0
refused "zonesize=0 (strided)" "zonesize must be given" --rw=write --zonemode=strided --zonesize=0
refused "zonesize without a zone mode (as fio 3.33)" "zonesize: needs zonemode" --rw=write --zonesize=16k
refused "zonesize larger than the file (zbd)" "smaller than zonesize" --rw=write --zonemode=zbd --zonesize=512k
refused "zonecapacity over zonesize" "zonecapacity: .* more than zonesize" --rw=write --zonemode=zbd \
	--zonesize=64k --zonecapacity=128k
refused "zonemode=zbd with a zoneskip not of whole zones" "zoneskip: .* not a multiple of zonesize" \
	--rw=write --zonemode=zbd --zonesize=64k --zoneskip=32k
refused "zonesize under 512 (zbd)" "zonesize: 256 bytes" --rw=write --zonemode=zbd --zonesize=256
refused "writes larger than a zone" "bs: writes of 131072 bytes do not fit a zone" --rw=write --bs=128k \
	--zonemode=zbd --zonesize=64k
refused "zonecapacity under the block size" "zonecapacity: 2048 bytes" --rw=write --zonemode=zbd \
	--zonesize=64k --zonecapacity=2k
refused "job_max_open_zones without max_open_zones" "job_max_open_zones needs max_open_zones" --rw=write \
	--zonemode=zbd --zonesize=64k --job_max_open_zones=2
refused "max_open_zones over fio's 4096" "max_open_zones: '5000' is out of range" --rw=write --zonemode=zbd \
	--zonesize=64k --max_open_zones=5000
refused "zone_reset_threshold over 1" "zone_reset_threshold: '1.5' is not a number from 0 to 1" --rw=write \
	--zonemode=zbd --zonesize=64k --zone_reset_threshold=1.5
refused "zbd trims of less than a zone" "bs: trims in zonemode=zbd reset whole zones: the trim block size .4096. must be zonesize" \
	--rw=trim --zonemode=zbd --zonesize=64k
refused "trim+write pairs in strided zones" "zonemode=strided: rw=trimwrite" --rw=trimwrite --zonemode=strided \
	--zonesize=64k
refused "zone_reset_frequency with verify" "zone_reset_frequency: resetting zones" --rw=write --zonemode=zbd \
	--zonesize=64k --zone_reset_frequency=1 --verify=crc32c
refused "an unknown zone mode" "zonemode: unknown value 'bogus'" --rw=write --zonemode=bogus
refused "a size in zones without a zone mode" "offset: 1z counts zones" --rw=write --offset=1z
refused "a region holding no whole zone" "holds no whole zone" --rw=write --zonemode=zbd --zonesize=64k \
	--offset=192k --size=32k
refused "a zbd file that does not exist" "does not exist" --rw=write --zonemode=zbd --zonesize=64k \
	--filename="$T/missing"
check "... and nothing was made for the missing file" test ! -e "$T/missing"
# zonesize larger than the file is no problem in strided mode (fio's too): zone 0 over again
truncate -s 256k "$F"
"$IOBENCH" --name=z --filename="$F" --size=256k --bs=4k --rw=write --zonemode=strided --zonesize=512k \
	--output-format=json >big.json 2>big.err
check "strided zonesize larger than the file: runs, 64 writes" \
	sh -c "[ \$(jq '.jobs[0].write.total_ios' big.json) -eq 64 ] && [ ! -s big.err ]"

# In a job file the line names the file and the option's line
printf '[global]\nzonemode=zbd\nzonesize=64k\n[a]\nfilename=%s\nzonecapacity=128k\n' "$F" >bad.fio
"$IOBENCH" bad.fio >out 2>err
rc=$?
check "a job file's zone option refused at its file:line" \
	sh -c "[ $rc -eq 1 ] && grep -q '^iobench: bad.fio:6: job .a.: zonecapacity: ' err && [ ! -s out ]"
# time_based runs the zones over and over for its runtime
truncate -s 256k "$F"
"$IOBENCH" --name=z --filename="$F" --bs=4k --rw=write --zonemode=zbd --zonesize=64k --time_based \
	--runtime=300ms --output-format=json,normal >tb.out 2>tb.err
check "zbd time_based: runs its runtime, rewriting (and resetting) zones" \
	sh -c "grep -q ' zone resets' tb.out && [ \$(sed -n 's/.*; \\([0-9]*\\) zone resets/\\1/p' tb.out) -gt 4 ] && [ ! -s tb.err ]"

# Clones sharing an open-zone limit do what they were asked (fio's stop early, by chance)
truncate -s 1m "$F"
"$IOBENCH" --name=z --filename="$F" --bs=4k --rw=randwrite --zonemode=zbd --zonesize=64k --io_size=8m \
	--numjobs=4 --ioengine=io_uring --iodepth=16 --max_open_zones=3 --job_max_open_zones=2 --group_reporting \
	--output-format=json >open.json 2>open.err
check "4 clones under max_open_zones=3, job_max_open_zones=2: 32 MiB written" \
	sh -c "[ \$(jq '.jobs[0].write.io_bytes' open.json) -eq 33554432 ] && [ \$(jq '.jobs[0].error' open.json) -eq 0 ]"

if ! have fio || ! have python3; then
	skip "zone modes against fio" "fio or python3 is not installed"
	exit 0
fi
DIFF="python3 $TOP/tests/tools/zone_diff.py $IOBENCH $T/w"

# ---- strided: the same offsets ----
$DIFF <<'EOF'
strided 16k of 64k | 256k | --name=a --filename={F} --size=256k --bs=4k --rw=write --zonemode=strided --zonesize=16k --zonerange=64k | err,ios,seq,resets,keys,files
strided zoneskip | 256k | --name=a --filename={F} --size=256k --bs=4k --rw=write --zonemode=strided --zonesize=16k --zoneskip=32k | err,ios,seq
strided wraps at the file's end | 1m | --name=a --filename={F} --size=256k --bs=4k --rw=write --zonemode=strided --zonesize=16k --zoneskip=32k | err,ios,seq
strided zonesize over zonerange | 256k | --name=a --filename={F} --size=256k --bs=4k --rw=write --zonemode=strided --zonesize=32k --zonerange=16k | err,ios,seq
strided offset | 256k | --name=a --filename={F} --size=128k --offset=64k --bs=4k --rw=write --zonemode=strided --zonesize=16k --zoneskip=16k | err,ios,seq
strided pass ends at the file's end | 256k | --name=a --filename={F} --size=256k --bs=4k --rw=write --zonemode=strided --zonesize=40k --zoneskip=8k | err,ios,seq
strided io_size over a short pass | 256k | --name=a --filename={F} --size=256k --io_size=384k --bs=4k --rw=write --zonemode=strided --zonesize=40k --zoneskip=8k | err,ios,seq
strided loops | 1m | --name=a --filename={F} --size=256k --bs=4k --rw=write --zonemode=strided --zonesize=16k --zoneskip=32k --loops=2 | err,ios,seq
strided reads | 256k | --name=a --filename={F} --size=256k --bs=4k --rw=read --zonemode=strided --zonesize=16k --zonerange=64k --zoneskip=64k | err,ios,seq
strided random | 256k | --name=a --filename={F} --size=256k --bs=4k --rw=randwrite --zonemode=strided --zonesize=16k --zonerange=64k | err,ios,zones=64k
strided random norandommap | 256k | --name=a --filename={F} --size=256k --bs=4k --rw=randread --zonemode=strided --zonesize=64k --zonerange=32k --norandommap | err,ios,zones=32k
strided new file | - | --name=a --filename={F} --size=256k --bs=4k --rw=write --zonemode=strided --zonesize=16k --zonerange=32k | rc,ios,seq,files
zonerange and zoneskip without a zone mode: ignored, as fio | 256k | --name=a --filename={F} --size=256k --bs=4k --rw=write --zonerange=64k --zoneskip=16k | err,ios,seq
strided Nz | 256k | --name=a --filename={F} --size=2z --offset=1z --bs=4k --rw=write --zonemode=strided --zonesize=64k | err,ios,seq
EOF

# ---- zbd over a regular file: write pointers, resets, capacity, reads below them ----
# Jobs sharing a file share its zones (fio's too), in one group or the next: a write job, then
# reads of what it wrote; verify, which resets the zones first and never after; the reset
# threshold over the job's own zones only; random trims reset only the zones that hold data,
# so the writes after them reset none. One run of each tool for all of them. (Two clones
# writing one file at once reset and fill zones as their writes interleave, 4 or 5 resets and
# 127 or 128 writes in either tool: that case is compared on its exit status alone, below.)
for n in 1 2 3 4 5; do truncate -s 256k "$T/s$n"; done
cat >shared.fio <<EOF
[global]
zonemode=zbd
zonesize=64k
bs=4k
[w]
filename=$T/s1
rw=write
size=128k
io_size=100k
[r]
stonewall
filename=$T/s1
rw=read
bs=8k
[r12]
stonewall
filename=$T/s1
rw=read
bs=12k
offset=64k
[vw]
stonewall
filename=$T/s2
rw=write
size=128k
[v]
stonewall
filename=$T/s2
rw=write
verify=crc32c
[gw]
stonewall
filename=$T/s4
rw=write
size=128k
[gw2]
stonewall
filename=$T/s4
rw=write
bs=16k
offset=128k
size=128k
zone_reset_threshold=0.5
zone_reset_frequency=1
[tw]
stonewall
filename=$T/s5
rw=write
size=128k
[tt]
stonewall
filename=$T/s5
rw=randtrim
bs=64k
[tw2]
stonewall
filename=$T/s5
rw=write
EOF
$DIFF <<EOF
zbd write | 256k | --name=a --filename={F} --size=256k --bs=4k --rw=write --zonemode=zbd --zonesize=64k | err,ios,seq,resets,keys,files
zbd rewrite resets full zones | 256k | --name=a --filename={F} --size=256k --io_size=1m --bs=4k --rw=write --zonemode=zbd --zonesize=64k | err,ios,seq,resets
zbd capacity ends the pass | 256k | --name=a --filename={F} --size=256k --bs=4k --rw=write --zonemode=zbd --zonesize=64k --zonecapacity=40k | err,ios,seq,resets
zbd capacity with io_size | 256k | --name=a --filename={F} --size=256k --io_size=512k --bs=4k --rw=write --zonemode=zbd --zonesize=64k --zonecapacity=40k | err,ios,seq,resets
zbd capacity short of a block | 256k | --name=a --filename={F} --size=256k --bs=16k --rw=write --zonemode=zbd --zonesize=64k --zonecapacity=40k | err,ios,seq,resets
zbd zones smaller than two blocks | 256k | --name=a --filename={F} --size=256k --bs=4k --rw=write --zonemode=zbd --zonesize=6k | err,ios,seq,resets
zbd reset threshold and frequency | 256k | --name=a --filename={F} --size=256k --bs=16k --rw=write --zonemode=zbd --zonesize=64k --zone_reset_threshold=0.5 --zone_reset_frequency=0.25 | err,ios,seq,resets
zbd reset frequency alone | 256k | --name=a --filename={F} --size=256k --bs=16k --rw=write --zonemode=zbd --zonesize=64k --zone_reset_frequency=0.5 | err,ios,seq,resets
zbd region rounded to zones | 256k | --name=a --filename={F} --size=128k --offset=8k --bs=4k --rw=write --zonemode=zbd --zonesize=64k | err,ios,seq,resets
zbd reads of empty zones: none | 256k | --name=a --filename={F} --size=256k --bs=4k --rw=read --zonemode=zbd --zonesize=64k | err,ios,keys
zbd read_beyond_wp | 256k | --name=a --filename={F} --size=256k --bs=4k --rw=read --zonemode=zbd --zonesize=64k --read_beyond_wp=1 | err,ios,seq
zbd random writes, two passes | 256k | --name=a --filename={F} --size=256k --io_size=512k --bs=4k --rw=randwrite --zonemode=zbd --zonesize=64k | err,ios,resets,set
zbd random writes, capacity | 256k | --name=a --filename={F} --size=256k --io_size=1m --bs=4k --rw=randwrite --zonemode=zbd --zonesize=64k --zonecapacity=32k | err,ios,resets
zbd random writes, rounded region | 256k | --name=a --filename={F} --size=128k --offset=8k --bs=4k --rw=randwrite --zonemode=zbd --zonesize=64k | err,ios,resets,set
zbd zoneskip | 256k | --name=a --filename={F} --size=256k --bs=4k --rw=write --zonemode=zbd --zonesize=64k --zoneskip=64k | err,ios,seq,resets
zbd loops | 256k | --name=a --filename={F} --size=256k --bs=4k --rw=write --zonemode=zbd --zonesize=64k --loops=2 --zonecapacity=40k | err,ios,seq,resets
zbd max_open_zones | 256k | --name=a --filename={F} --size=256k --bs=4k --rw=randwrite --zonemode=zbd --zonesize=64k --max_open_zones=2 | err,ios
zbd trims reset zones | 256k | --name=a --filename={F} --size=256k --bs=64k --rw=trim --zonemode=zbd --zonesize=64k | err,ios,seq
zbd trimwrite | 256k | --name=a --filename={F} --size=256k --bs=64k --rw=trimwrite --zonemode=zbd --zonesize=64k | err,ios,seq,resets
zbd trimwrite over again | 256k | --name=a --filename={F} --size=256k --io_size=1m --bs=64k --rw=trimwrite --zonemode=zbd --zonesize=64k | err,ios,seq,resets
zbd random trims of empty zones: none | 256k | --name=a --filename={F} --size=256k --bs=64k --rw=randtrim --zonemode=zbd --zonesize=64k | err,ios
zbd Nz | 256k | --name=a --filename={F} --size=2z --offset=1z --bs=4k --rw=write --zonemode=zbd --zonesize=64k | err,ios,seq
zbd libaio at depth 8 | 256k | --name=a --filename={F} --size=256k --bs=4k --rw=write --zonemode=zbd --zonesize=64k --ioengine=libaio --iodepth=8 --direct=1 | err,ios,seq,resets
zbd io_uring random at depth 8 | 256k | --name=a --filename={F} --size=256k --io_size=1m --bs=4k --rw=randwrite --zonemode=zbd --zonesize=64k --ioengine=io_uring --iodepth=8 | err,ios,resets
zbd a missing file | - | --name=a --filename={F} --size=256k --bs=4k --rw=write --zonemode=zbd --zonesize=64k | rc,files
zbd jobs sharing files | - | $T/shared.fio | rc,ios,resets
zbd two clones sharing a file | 256k | --name=two --filename={F} --size=256k --bs=4k --rw=write --zonemode=zbd --zonesize=64k --numjobs=2 --group_reporting | rc
EOF

# ---- zbd over an ordinary block device (a loop device): emulated too, as fio ----
if [ "$(id -u)" = 0 ] && have losetup && truncate -s 1m "$T/loop.img" &&
	LOOP=$(losetup -f --show "$T/loop.img" 2>/dev/null) && [ -n "$LOOP" ]; then
	$DIFF <<EOF
loop zbd write, rewrite | dev:$LOOP | --name=a --filename={F} --size=256k --io_size=512k --bs=4k --rw=write --zonemode=zbd --zonesize=64k --direct=1 | rc,ios,seq,resets
loop zbd random, max_open_zones | dev:$LOOP | --name=a --filename={F} --bs=4k --rw=randwrite --zonemode=zbd --zonesize=64k --max_open_zones=2 | rc,ios
EOF
	losetup -d "$LOOP"
else
	skip "zbd over a block device" "needs root, losetup and a free loop device"
fi

# ---- a real zoned device ----
zoned=$(grep -l -E 'host-(managed|aware)' /sys/block/*/queue/zoned 2>/dev/null | head -1)
if [ -n "${IOBENCH_ZBD_DEV:-}" ]; then
	$DIFF <<EOF
zoned device sequential write | dev:$IOBENCH_ZBD_DEV | --name=a --filename={F} --size=4z --bs=64k --rw=write --zonemode=zbd --direct=1 | rc,ios,seq,resets
zoned device random write | dev:$IOBENCH_ZBD_DEV | --name=a --filename={F} --size=4z --io_size=8z --bs=64k --rw=randwrite --zonemode=zbd --direct=1 | rc,ios,resets
zoned device read | dev:$IOBENCH_ZBD_DEV | --name=a --filename={F} --size=4z --bs=64k --rw=read --zonemode=zbd --direct=1 | rc,ios,seq
EOF
elif [ -n "$zoned" ]; then
	skip "zbd on a zoned device" "$(dirname "$(dirname "$zoned")") is zoned; set IOBENCH_ZBD_DEV to it if it may be overwritten"
else
	skip "zbd on a zoned device" "no zoned block device here (every /sys/block/*/queue/zoned says none; this kernel has no null_blk or scsi_debug to make one)"
fi
