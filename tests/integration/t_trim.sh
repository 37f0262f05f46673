#!/bin/sh
# Issue 16 (trim): rw=trim, randtrim, trimwrite and randtrimwrite through the engines, on
# regular files (punched holes) and on a loop device (BLKDISCARD) against fio 3.33: I/O
# counts and bytes per direction, blocks left in the files, the JSON trim block's key paths
# and types, terse, normal output, CSV, logs; trim_percentage with its backlog; the guards.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1

# "read write trim": io_bytes/total_ios of each direction of the first job in a JSON result.
dirs() {
	python3 -c '
import json, sys
s = open(sys.argv[1]).read()
j = json.loads(s[s.index("{"):])["jobs"][0]
print(" ".join("%d/%d" % (j[d]["io_bytes"], j[d]["total_ios"]) for d in ("read", "write", "trim")), j["error"])
' "$1"
}
# KiB of data (not holes) in a file, by SEEK_DATA/SEEK_HOLE: what trims free, without the
# file system's own blocks (extent trees) that st_blocks also counts.
blocks() {
	python3 -c '
import os, sys
fd, n, off = os.open(sys.argv[1], os.O_RDONLY), 0, 0
end = os.fstat(fd).st_size
while off < end:
    try:
        off = os.lseek(fd, off, os.SEEK_DATA)
    except OSError:
        break
    hole = os.lseek(fd, off, os.SEEK_HOLE)
    n, off = n + hole - off, hole
print(n // 1024)' "$1"
}
data() { dd if=/dev/urandom of="$1" bs=1M count="$2" conv=fsync 2>/dev/null; }

# -- regular files: a trim punches a hole (fio 3.33 fails these with ENOTTY, err=25)
data probe 1
if ! fallocate -p -o 0 -l 4096 probe 2>/dev/null; then
	skip "trims on regular files" "the scratch file system cannot punch holes"
else
	for e in psync sync pvsync pvsync2 libaio io_uring posixaio mmap; do
		data f.$e 1
		"$IOBENCH" --name=t --filename=f.$e --rw=trim --bs=4k --size=1m --ioengine=$e --iodepth=8 \
			--output-format=json >$e.json 2>$e.err
		check "$e: rw=trim on a 1 MiB file: 256 trims of 1048576 bytes, no reads or writes" \
			[ "$(dirs $e.json)" = "0/0 0/0 1048576/256 0" ]
		check "$e: ... the file keeps its size and has no data left" \
			[ "$(stat -c %s f.$e) $(blocks f.$e)" = "1048576 0" ]
	done
	data r 1
	"$IOBENCH" --name=t --filename=r --rw=randtrim --bs=4k --size=512k --ioengine=libaio --iodepth=4 \
		--output-format=json >r.json
	check "randtrim of the first half: 128 trims, the second half's data left (512 KiB)" \
		[ "$(dirs r.json) $(blocks r)" = "0/0 0/0 524288/128 0 512" ]
	for rw in trimwrite randtrimwrite; do
		data $rw 1
		"$IOBENCH" --name=t --filename=$rw --rw=$rw --bs=4k --size=1m --ioengine=io_uring --iodepth=4 \
			--output-format=json >$rw.json
		check "$rw: 256 trims and 256 writes of the same blocks; the file is whole again" \
			[ "$(dirs $rw.json) $(blocks $rw)" = "0/0 1048576/256 1048576/256 0 1024" ]
	done
	if have fio; then
		data ff 1
		fio --name=t --filename=ff --rw=trim --bs=4k --size=1m --ioengine=psync --output-format=json >ff.json 2>&1
		check "fio 3.33 fails a trim of a regular file with ENOTTY (docs/differences.md), iobench punches it" \
			[ "$(dirs ff.json) $(blocks ff)" = "0/0 0/0 0/1 25 1024" ]
	fi
fi

# -- trim_percentage on a file (psync: the order is fixed). The chosen blocks are verify's:
# fio's trim_backlog rule trims them (a batch each time the writes not yet read back are a
# multiple of trim_backlog), the rest when the writes are done; the verify reads check them
# as zeros. A block verify_backlog reads back first is read as data and not trimmed (fio).
tp() { # expected "reads writes trims error KiB-of-data-left stderr-bytes", args...
	want=$1
	shift
	rm -f tp
	# shellcheck disable=SC2068
	"$IOBENCH" --name=t --filename=tp --rw=write --bs=4k --size=256k --trim_percentage=100 $@ \
		--output-format=json >tp.json 2>tp.err
	check "rw=write, trim_percentage=100 $*: $want" [ "$(dirs tp.json) $(blocks tp) $(wc -c <tp.err)" = "$want" ]
}
tp "262144/64 262144/64 262144/64 0 0 0" --verify=md5 --trim_backlog=4
tp "262144/64 262144/64 262144/64 0 0 0" --verify=md5
tp "262144/64 262144/64 163840/40 0 96 0" --verify=md5 --trim_backlog=3 --trim_backlog_batch=2 --verify_backlog=5
tp "0/0 262144/64 262144/64 0 0 0" --verify=crc32c --trim_backlog=4 --trim_verify_zero=0
tp "0/0 262144/64 0/0 0 256 0" --trim_backlog=4
tp "0/0 262144/64 0/0 0 256 0" --verify=md5 --do_verify=0 --trim_backlog=4
"$IOBENCH" --name=t --filename=tp --rw=randwrite --bs=4k --size=256k --verify=md5 --trim_percentage=25 \
	--output-format=json >tp.json 2>tp.err
check "trim_percentage=25 without trim_backlog: about a quarter trimmed when the writes are done, all read back" \
	python3 -c '
import json, sys
j = json.load(open("tp.json"))["jobs"][0]
sys.exit(not (j["error"] == 0 and j["write"]["total_ios"] == 64 and j["read"]["total_ios"] == 64
              and 4 <= j["trim"]["total_ios"] <= 32))'
# (a trimmed block that does not read back as zeros: test_trim.c, test_verify_trimmed)

# -- the outputs of a trim job (null engine: counted, no file)
"$IOBENCH" --name=t --rw=trimwrite --bs=4k --size=1m --ioengine=null >normal.txt 2>&1
check "normal output: a trim: line with IOPS and BW" grep -q '^  trim: IOPS=256k, BW=1000MiB/s (1049MB/s)(1024KiB/1msec)$' normal.txt
check "... clat and lat, and clat percentiles for trims" sh -c "grep -A4 '^  trim:' normal.txt | grep -q 'clat percentiles'"
check "... issued rwts counts the trims" grep -q 'issued rwts: total=0,256,256,0 short=0,0,0,0' normal.txt
check "... the group line TRIM: bw=" grep -q '^   TRIM: bw=.*io=1024KiB (1049kB), run=' normal.txt
"$IOBENCH" --name=t --rw=randtrim --bs=4k --size=1m --ioengine=null --output-format=csv >trim.csv
check "CSV: trim_io_bytes and trim_iops of the row" python3 -c '
import csv, sys
r = next(csv.DictReader(open("trim.csv")))
sys.exit(not (r["trim_io_bytes"] == "1048576" and float(r["trim_iops"]) > 0 and r["write_io_bytes"] == "0"))'
"$IOBENCH" --name=t --rw=trimwrite --bs=4k --size=64k --ioengine=null --write_lat_log=tl --write_bw_log=tl \
	--output-format=json >/dev/null
check "logs: 16 trim rows (ddir 2) and 16 write rows in the clat log" \
	[ "$(awk -F', ' '{n[$3]++} END {print n[1] "/" n[2]}' tl_clat.1.log)" = "16/16" ]
for v in 4 5; do
	"$IOBENCH" --name=t --rw=trim --bs=4k --size=1m --ioengine=null --output-format=terse --terse-version=$v >t$v.txt
	n=$([ $v = 5 ] && echo 47 || echo 41)
	check "terse v$v: the trim fields (total KiB, IOPS) after read's and write's" \
		[ "$(awk -F';' -v n=$n '{print $(6 + 2 * n) ";" $(8 + 2 * n) ";" $6}' t$v.txt)" = "1024;256000;0" ]
done

# -- --readonly: trims are writes
data ro 1
for rw in trim randtrim trimwrite randtrimwrite; do
	"$IOBENCH" --readonly --name=t --filename=ro --rw=$rw --size=1m --output-format=json >ro.out 2>ro.err
	check "--readonly refuses rw=$rw: exit 1, one line, nothing on stdout, the file untouched" \
		sh -c "[ $? -eq 1 ] && grep -q 'readonly' ro.err && [ \$(wc -l <ro.err) -eq 1 ] && [ ! -s ro.out ] && [ $(blocks ro) -eq 1024 ]"
done
"$IOBENCH" --readonly --name=t --filename=ro --rw=write --trim_percentage=50 --size=1m >/dev/null 2>ro.err
check "--readonly refuses trim_percentage's job too (it writes)" grep -q readonly ro.err

if ! have fio; then
	skip "trims against fio 3.33" "fio is not installed"
	exit 0
fi

# -- against fio on the null engine: counts, JSON shapes, option maps
python3 "$TOP/tests/fio_diff.py" "$IOBENCH" "$T/work" <<EOF
null-trim | --name=t --rw=trim --bs=4k --size=4m --ioengine=null | jobs,ios,keys,opts,clean
null-randtrim | --name=t --rw=randtrim --bs=8k --size=4m --ioengine=null --iodepth=8 | jobs,ios,keys,opts,clean
null-trimwrite | --name=t --rw=trimwrite --bs=4k --size=4m --ioengine=null | jobs,ios,keys,opts,clean
null-randtrimwrite-plus | --output-format=json+ --name=t --rw=randtrimwrite --size=4m --ioengine=null --numjobs=2 | jobs,ios,keys,opts,clean
null-trim-unified | --name=t --rw=trimwrite --size=4m --ioengine=null --unified_rw_reporting=both | jobs,ios,keys,opts,clean
null-trimwrite-number_ios | --name=t --rw=trimwrite --size=4m --ioengine=null --number_ios=5 | jobs,ios
null-trimwrite-files | --name=t --rw=trimwrite --size=1m --ioengine=null --nrfiles=3 | jobs,ios
EOF

# -- a loop device: real discards (BLKDISCARD), against fio
if [ "$(id -u)" != 0 ] || ! have losetup; then
	skip "trims on a loop device" "needs root and losetup"
	exit 0
fi
truncate -s 16m img
LOOP=$(losetup -f --show img 2>/dev/null)
if [ -z "$LOOP" ]; then
	skip "trims on a loop device" "no free loop device"
	exit 0
fi
trap 'losetup -d "$LOOP" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
if [ "$(cat /sys/block/"${LOOP#/dev/}"/queue/discard_max_bytes 2>/dev/null || echo 0)" = 0 ]; then
	skip "trims on a loop device" "$LOOP does not discard (lsblk -D)"
	exit 0
fi
python3 "$TOP/tests/fio_diff.py" "$IOBENCH" "$T/work" <<EOF
loop-psync-trim | --name=t --filename=$LOOP --rw=trim --bs=4k --size=2m --ioengine=psync | jobs,ios,keys,opts,clean
loop-psync-randtrim | --name=t --filename=$LOOP --rw=randtrim --bs=4k --size=2m --ioengine=psync | jobs,ios,keys
loop-psync-trimwrite | --name=t --filename=$LOOP --rw=trimwrite --bs=4k --size=2m --ioengine=psync | jobs,ios,keys
loop-psync-randtrimwrite | --name=t --filename=$LOOP --rw=randtrimwrite --bs=4k --size=2m --ioengine=psync | jobs,ios,keys
loop-libaio-randtrim | --name=t --filename=$LOOP --rw=randtrim --bs=4k --size=2m --ioengine=libaio --iodepth=8 | jobs,ios,keys,clean
loop-libaio-trimwrite | --name=t --filename=$LOOP --rw=trimwrite --bs=4k --size=2m --ioengine=libaio --iodepth=8 | jobs,ios,keys
loop-io_uring-trim | --name=t --filename=$LOOP --rw=trim --bs=4k --size=2m --ioengine=io_uring --iodepth=8 | jobs,ios,keys,clean
loop-io_uring-randtrimwrite | --output-format=json+ --name=t --filename=$LOOP --rw=randtrimwrite --bs=4k --size=2m --ioengine=io_uring --iodepth=8 | jobs,ios,keys
loop-posixaio-trimwrite | --name=t --filename=$LOOP --rw=trimwrite --bs=4k --size=1m --ioengine=posixaio --iodepth=4 | jobs,ios
loop-trimwrite-bigger-trims | --name=t --filename=$LOOP --rw=trimwrite --bs=4k,8k,16k --size=64k --ioengine=psync | jobs,ios
loop-trimwrite-bigger-writes | --name=t --filename=$LOOP --rw=trimwrite --bs=4k,16k,8k --size=64k --io_size=128k --ioengine=psync | jobs,ios
loop-trimwrite-io_size | --name=t --filename=$LOOP --rw=trimwrite --bs=8k --size=32k --io_size=64k --ioengine=psync | jobs,ios
loop-trimwrite-loops | --name=t --filename=$LOOP --rw=trimwrite --bs=8k --size=32k --loops=2 --ioengine=psync | jobs,ios
loop-randtrimwrite-mirror | --name=t --filename=$LOOP --rw=randtrimwrite --bs=4k,8k,16k --size=64k --ioengine=psync | jobs,ios
EOF

# Blocks the loop device's image keeps after each: the discards punched the same holes.
for rw in trim randtrim trimwrite randtrimwrite; do
	f=0 i=0
	for tool in fio "$IOBENCH"; do
		dd if=/dev/urandom of="$LOOP" bs=1M count=4 oflag=direct 2>/dev/null
		"$tool" --name=t --filename="$LOOP" --rw=$rw --bs=4k --size=2m --ioengine=psync --output-format=json \
			>/dev/null 2>&1
		if [ "$tool" = fio ]; then f=$(blocks img); else i=$(blocks img); fi
	done
	check "$rw on $LOOP: the image keeps the same data after fio and iobench ($f, $i KiB)" [ "$f" -eq "$i" ]
done

# trim_percentage: every written block chosen, trimmed every 4 written; the verify phase
# reads them back as zeros. Trims and writes as fio (reads differ: iobench's verify reads
# are not in the statistics, docs/differences.md).
for args in "--rw=trimwrite --trim_backlog=4" "--rw=randtrimwrite --trim_backlog=4 --trim_backlog_batch=2" \
	"--rw=trimwrite --trim_backlog=3 --trim_backlog_batch=8"; do
	r=""
	for tool in fio "$IOBENCH"; do
		dd if=/dev/urandom of="$LOOP" bs=1M count=1 oflag=direct 2>/dev/null
		# shellcheck disable=SC2086
		"$tool" --name=t --filename="$LOOP" --size=64k --bs=4k --verify=md5 --trim_percentage=100 $args \
			--output-format=json >tp.json 2>tp.err
		r="$r|$(dirs tp.json | cut -d' ' -f2-) $(blocks img)"
	done
	check "trim_percentage=100 $args: trims, writes, error and data left as fio (${r#|})" \
		[ "${r#|*|}" = "$(echo "${r#|}" | cut -d'|' -f1)" ]
done
check "... 32 trims: 16 of the pairs and 16 of the written blocks" [ "${r#|*|}" = "65536/16 131072/32 0 $(blocks img)" ]

# normal and terse output of a trim job: the same lines and fields as fio's
for f in normal terse; do
	for tool in fio "$IOBENCH"; do
		"$tool" --name=t --filename="$LOOP" --rw=trimwrite --bs=4k --size=1m --ioengine=psync --output-format=$f --disable_bw_measurement=1 \
			>"$f.$(basename "$tool")" 2>/dev/null
	done
done
# (the rates' units follow the speed, which is the machine's: one unit for both)
for t in fio iobench; do sed 's|\([0-9.]\)[KG]iB/s|\1MiB/s|g; s|\([0-9.]\)[kG]B/s|\1MB/s|g' normal.$t >normal.$t.u; done
check "normal output: the same lines as fio's, by shape (trim:, TRIM:, issued rwts)" \
	python3 "$TOP/tests/normal_shape.py" normal.fio.u normal.iobench.u
check "terse (v3): the same number and kinds of fields as fio's" python3 "$TOP/tests/terse_shape.py" terse.fio terse.iobench
for v in 4 5; do
	for tool in fio "$IOBENCH"; do
		"$tool" --name=t --filename="$LOOP" --rw=trim --bs=4k --size=1m --ioengine=psync --output-format=terse \
			--terse-version=$v >"tv$v.$(basename "$tool")" 2>/dev/null
	done
	n=$([ $v = 5 ] && echo 47 || echo 41)
	check "terse v$v: the same fields as fio's, and its trim KiB (1024)" sh -c "python3 '$TOP/tests/terse_shape.py' tv$v.fio tv$v.iobench &&
		[ \"\$(cut -d';' -f$((6 + 2 * n)) tv$v.fio)\" = 1024 ] && [ \"\$(cut -d';' -f$((6 + 2 * n)) tv$v.iobench)\" = 1024 ]"
done

# -- a mounted device: trims are refused as writes are, unless allow_mounted_write=1
if have mkfs.ext4 && unshare -m true 2>/dev/null; then
	mkfs.ext4 -q "$LOOP"
	mkdir mnt
	unshare -m sh -c "
		mount -o ro,noload '$LOOP' '$T/mnt' || exit 1
		md5sum <'$LOOP' >before.md5
		for rw in trim randtrimwrite; do
			'$IOBENCH' --name=t --rw=\$rw --bs=64k --size=1m --filename='$LOOP' --output-format=json >m.\$rw.out 2>m.\$rw.err
			echo \$? >m.\$rw.rc
		done
		md5sum <'$LOOP' >after.md5
		'$IOBENCH' --name=t --rw=trim --bs=64k --size=1m --offset=8m --filename='$LOOP' --allow_mounted_write=1 \
			--output-format=json >a.out 2>a.err
		echo \$? >a.rc
		umount '$T/mnt'
	"
	for rw in trim randtrimwrite; do
		check "rw=$rw on a mounted device is refused: exit 1, the mount named, nothing on stdout" \
			sh -c "[ \"\$(cat m.$rw.rc)\" -eq 1 ] && grep -q 'the device is mounted on $T/mnt' m.$rw.err && [ ! -s m.$rw.out ]"
	done
	check "... the device is unchanged" cmp -s before.md5 after.md5
	check "allow_mounted_write=1 lets the trims through (16 of 64 KiB, past the file system's data)" \
		[ "$(cat a.rc) $(dirs a.out)" = "0 0/0 0/0 1048576/16 0" ]
else
	skip "trims on a mounted device" "needs mkfs.ext4 and unshare"
fi
