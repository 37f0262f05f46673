#!/bin/sh
# Issue 16 (trim), iobench alone: rw=trim, randtrim, trimwrite and randtrimwrite through
# every engine on regular files (punched holes), a trim job's file laid out first, the
# outputs (normal, CSV, logs, terse), trim_percentage with verify, the ETA line's letters,
# --readonly and a mounted device. The comparisons with fio 3.33 are t_trim_fio.sh's.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1

# "read write trim error": io_bytes/total_ios of each direction of the first job in a JSON result.
dirs() {
	python3 -c '
import json, sys
s = open(sys.argv[1]).read()
j = json.loads(s[s.index("{"):])["jobs"][0]
print(" ".join("%d/%d" % (j[d]["io_bytes"], j[d]["total_ios"]) for d in ("read", "write", "trim")), j["error"])
' "$1"
}
# KiB of data (not holes) in a file, by SEEK_DATA/SEEK_HOLE: what trims free, without the
# file system's own blocks (extent trees) that st_blocks also counts. (Synced first: ext4
# shows a laid-out file's blocks as holes until they are written back.)
blocks() {
	sync "$1"
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
data() { dd if=/dev/urandom of="$1" bs=64k count="$2" 2>/dev/null; } # file, 64 KiB blocks

# -- regular files: a trim punches a hole (fio 3.33 fails these with ENOTTY: t_trim_fio.sh)
data probe 1
if ! fallocate -p -o 0 -l 4096 probe 2>/dev/null; then
	skip "trims on regular files" "the scratch file system cannot punch holes"
else
	for e in psync sync pvsync pvsync2 libaio io_uring posixaio mmap; do
		data f.$e 4
		"$IOBENCH" --name=t --filename=f.$e --rw=trim --bs=4k --size=256k --ioengine=$e --iodepth=8 \
			--output-format=json >$e.json 2>$e.err
		check "$e: rw=trim on a 256 KiB file: 64 trims of 262144 bytes, no reads or writes, the file's size kept, no data left" \
			[ "$(dirs $e.json) $(stat -c %s f.$e) $(blocks f.$e)" = "0/0 0/0 262144/64 0 262144 0" ]
	done
	data r 4
	"$IOBENCH" --name=t --filename=r --rw=randtrim --bs=4k --size=128k --ioengine=libaio --iodepth=4 \
		--output-format=json >r.json
	check "randtrim of the first half: 32 trims, the second half's data left (128 KiB)" \
		[ "$(dirs r.json) $(blocks r)" = "0/0 0/0 131072/32 0 128" ]
	for rw in trimwrite randtrimwrite; do
		data $rw 4
		"$IOBENCH" --name=t --filename=$rw --rw=$rw --bs=4k --size=256k --ioengine=io_uring --iodepth=4 \
			--output-format=json >$rw.json
		check "$rw: 64 trims and 64 writes of the same blocks; the file is whole again" \
			[ "$(dirs $rw.json) $(blocks $rw)" = "0/0 262144/64 262144/64 0 256" ]
	done
	# A trim job's missing file is laid out first, as fio 3.33 does ("Laying out IO file"):
	# allocated (fallocate, as fio: not written, so it reads as zeros), then trimmed.
	for rw in trim randtrim trimwrite; do
		"$IOBENCH" --name=t --filename=new.$rw --rw=$rw --bs=4k --size=256k --io_size=64k --output-format=json \
			>new.json 2>new.err
		sync new.$rw
		kib=$(($(stat -c '%b * %B' new.$rw) / 1024))
		lo=192 hi=255
		[ $rw = trimwrite ] && lo=256 hi=256
		check "rw=$rw on a missing file: laid out to 256 KiB, 64 KiB trimmed ($kib KiB allocated), no message" \
			sh -c "[ '$(stat -c %s new.$rw) $(dirs new.json | cut -d' ' -f3-)' = '262144 65536/16 0' ] && [ $kib -ge $lo ] && [ $kib -le $hi ] && [ ! -s new.err ]"
	done
fi

# -- trim_percentage on a file (psync: the order is fixed). The chosen blocks are verify's:
# fio's trim_backlog rule trims them (a batch each time the writes not yet read back are a
# multiple of trim_backlog), the rest when the writes are done; the verify reads check them
# as zeros. A block verify_backlog reads back first is read as data and not trimmed (fio).
tp() { # expected "reads writes trims error KiB-of-data-left stderr-bytes", args...
	want=$1
	shift
	rm -f tp
	"$IOBENCH" --name=t --filename=tp --rw=write --bs=4k --size=256k --trim_percentage=100 "$@" \
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
check "normal output: a trim: line with IOPS and BW" \
	grep -qE '^  trim: IOPS=[0-9.]+k?, BW=[0-9.]+[KMG]iB/s \([0-9.]+[kMG]B/s\)\(1024KiB/[0-9]+msec\)$' normal.txt
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
		[ "$(awk -F';' -v n=$n '{print $(6 + 2 * n) ";" ($(8 + 2 * n) > 0) ";" $6 ";" $(6 + n)}' t$v.txt)" = "1024;1;0;0" ]
done

# -- the ETA line: D/d for a job that only trims, W/w for trimwrite (as fio's letters); the
# rates name the directions that move. Four jobs at once, 2 s each.
for rw in trim randtrim trimwrite randtrimwrite; do
	"$IOBENCH" --name=t --ioengine=null --rw=$rw --bs=4k --size=64m --rate_iops=500 --time_based --runtime=2 \
		--eta=always --eta-newline=1 --output-format=json >eta.$rw.json 2>eta.$rw.err &
done
wait
# "D(1) t t": the letters and the rates' directions of the last ETA line that has rates
eta_shape() {
	tr '\r' '\n' <"$1" | grep -E '^Jobs: [1-9].*IOPS\]\[eta' | tail -1 |
		sed -E 's/^Jobs: [0-9]+ \(f=[0-9]+\)[^:]*: \[([^]]*)\]\[[^]]*\]\[([^]]*)\]\[([^]]*) IOPS\].*/\1 \2 \3/; s/=[^, ]*//g'
}
for rw in trim:"D(1) t t" randtrim:"d(1) t t" trimwrite:"W(1) w,t w,t" randtrimwrite:"w(1) w,t w,t"; do
	check "ETA line of rw=${rw%%:*}: [${rw#*:}] as fio's" [ "$(eta_shape eta.${rw%%:*}.err)" = "${rw#*:}" ]
done

# -- --readonly: trims change the data; refused in one line that says so
data ro 4
for rw in trim randtrim trimwrite randtrimwrite; do
	"$IOBENCH" --readonly --name=t --filename=ro --rw=$rw --size=256k --output-format=json >ro.out 2>ro.err
	check "--readonly refuses rw=$rw: exit 1, one line saying it trims, nothing on stdout, the file untouched" \
		sh -c "[ $? -eq 1 ] && grep -q 'rw=$rw trims (discards blocks).*--readonly is set' ro.err && [ \$(wc -l <ro.err) -eq 1 ] && [ ! -s ro.out ] && [ $(blocks ro) -eq 256 ]"
done
"$IOBENCH" --readonly --name=t --filename=ro --rw=write --verify=md5 --trim_percentage=50 --size=256k >/dev/null 2>ro.err
check "--readonly refuses trim_percentage's job too (it writes)" grep -q 'rw=write writes, and --readonly is set' ro.err

# -- a mounted device: trims are refused as writes are, unless allow_mounted_write=1
if [ "$(id -u)" != 0 ] || ! have losetup || ! have mkfs.ext4 || ! unshare -m true 2>/dev/null; then
	skip "trims on a mounted device" "needs root, losetup, mkfs.ext4 and unshare"
	exit 0
fi
truncate -s 16m img
LOOP=$(losetup -f --show img 2>/dev/null)
if [ -z "$LOOP" ]; then
	skip "trims on a mounted device" "no free loop device"
	exit 0
fi
trap 'losetup -d "$LOOP" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
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
