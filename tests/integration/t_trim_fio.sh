#!/bin/sh
# Issue 16 (trim) against fio 3.33: the same jobs through both, compared. The null engine
# (trim, randtrim, trimwrite, randtrimwrite; their passes with several block sizes;
# trim_percentage with verify and fio's trim_backlog rule) and a loop device made under $T
# (BLKDISCARD through psync, libaio, io_uring, posixaio, pvsync2): io_bytes and total_ios per
# direction incl. trim, the JSON trim block's key paths and types, option maps; the data the
# device keeps after each; normal and terse output; the ETA line; regular files (fio fails
# them with ENOTTY: docs/differences.md) and a trim job's missing file (laid out as fio).
# The null engine's cases and the loop device's run side by side (fio mostly waits).
. "$(dirname "$0")/../lib.sh"
if ! have fio || ! have python3; then
	skip "trims against fio 3.33" "fio or python3 is not installed"
	exit 0
fi
cd "$T" || exit 1

dirs() { # "read write trim error" of the first job: io_bytes/total_ios
	python3 -c '
import json, sys
s = open(sys.argv[1]).read()
j = json.loads(s[s.index("{"):])["jobs"][0]
print(" ".join("%d/%d" % (j[d]["io_bytes"], j[d]["total_ios"]) for d in ("read", "write", "trim")), j["error"])
' "$1"
}
blocks() { # KiB of data (not holes) in a file or an image, by SEEK_DATA/SEEK_HOLE
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
alloc() { sync "$1" && echo "$(stat -c %s "$1") $(($(stat -c '%b * %B' "$1") / 1024))"; } # size, KiB allocated

# ---- the null engine (in the background; its lines are printed after the loop's) ----
null_cases() {
	python3 "$TOP/tests/tools/fio_diff.py" "$IOBENCH" "$T/null" <<EOF
null-trim | --name=t --rw=trim --bs=4k --size=4m --ioengine=null | jobs,ios,keys,opts,clean
null-randtrim | --name=t --rw=randtrim --bs=8k --size=4m --ioengine=null --iodepth=8 | jobs,ios,keys,opts,clean
null-trimwrite | --name=t --rw=trimwrite --bs=4k --size=4m --ioengine=null | jobs,ios,keys,opts,clean
null-randtrimwrite-plus | --output-format=json+ --name=t --rw=randtrimwrite --size=4m --ioengine=null --numjobs=2 | jobs,ios,keys,opts,clean
null-trim-unified | --name=t --rw=trimwrite --size=4m --ioengine=null --unified_rw_reporting=both | jobs,ios,keys,opts,clean
null-trimwrite-number_ios | --name=t --rw=trimwrite --size=4m --ioengine=null --number_ios=5 | jobs,ios
null-trimwrite-files | --name=t --rw=trimwrite --size=1m --ioengine=null --nrfiles=3 | jobs,ios
null-trimwrite-bigger-trims | --name=t --rw=trimwrite --bs=4k,8k,16k --size=64k --ioengine=null | jobs,ios
null-trimwrite-bigger-writes | --name=t --rw=trimwrite --bs=4k,16k,8k --size=64k --io_size=128k --ioengine=null | jobs,ios
null-trimwrite-io_size | --name=t --rw=trimwrite --bs=8k --size=32k --io_size=64k --ioengine=null | jobs,ios
null-trimwrite-loops | --name=t --rw=trimwrite --bs=8k --size=32k --loops=2 --ioengine=null | jobs,ios
null-randtrimwrite-mirror | --name=t --rw=randtrimwrite --bs=4k,8k,16k --size=64k --ioengine=null | jobs,ios
null-tp-backlog | --name=t --rw=trimwrite --bs=4k --size=256k --ioengine=null --verify=md5 --trim_percentage=100 --trim_backlog=4 | jobs,ios,keys,opts,clean
null-tp-randtrimwrite-batch | --name=t --rw=randtrimwrite --bs=4k --size=256k --ioengine=null --verify=crc32c --trim_percentage=100 --trim_backlog=4 --trim_backlog_batch=2 | jobs,ios
null-tp-verify_zero-0 | --name=t --rw=trimwrite --bs=4k --size=256k --ioengine=null --verify=md5 --trim_percentage=100 --trim_backlog=4 --trim_verify_zero=0 | jobs,ios
null-tp-verify_backlog | --name=t --rw=trimwrite --bs=4k --size=256k --ioengine=null --verify=md5 --trim_percentage=100 --trim_backlog=4 --verify_backlog=8 | jobs,ios
null-tp-loops | --name=t --rw=trimwrite --bs=4k --size=64k --loops=2 --ioengine=null --verify=md5 --trim_percentage=100 --trim_backlog=4 | jobs,ios
null-tp-numjobs | --name=t --rw=trimwrite --bs=4k --size=64k --numjobs=2 --ioengine=null --verify=md5 --trim_percentage=100 --trim_backlog=2 | jobs,ios
null-tp-no-verify | --name=t --rw=write --bs=4k --size=256k --ioengine=null --trim_percentage=100 --trim_backlog=4 | jobs,ios,clean
null-tp-no-verify-trimwrite | --name=t --rw=trimwrite --bs=4k --size=256k --ioengine=null --trim_percentage=50 --trim_backlog=4 | jobs,ios
null-tp-do_verify-0 | --name=t --rw=trimwrite --bs=4k --size=256k --ioengine=null --verify=md5 --do_verify=0 --trim_percentage=100 --trim_backlog=4 | jobs,ios
EOF
	# Where fio leaves chosen blocks untrimmed ("N trim entries leaked?"), iobench trims them
	# when the writes are done (docs/differences.md): here fio trims 127 of 128, iobench all.
	j="--name=t --rw=trimwrite --bs=4k --size=256k --ioengine=null --verify=md5 --trim_percentage=100"
	# shellcheck disable=SC2086
	fio $j --trim_backlog=3 --trim_backlog_batch=8 --output-format=json >leak.fio 2>leak.fio.err
	# shellcheck disable=SC2086
	"$IOBENCH" $j --trim_backlog=3 --trim_backlog_batch=8 --output-format=json >leak.iob 2>leak.iob.err
	check "trim_backlog=3, trim_backlog_batch=8: fio leaks a chosen block (127 trims of 128), iobench trims it" \
		sh -c "[ '$(dirs leak.fio)' = '262144/64 262144/64 520192/127 0' ] && grep -q '1 trim entries leaked' leak.fio.err &&
			[ '$(dirs leak.iob)' = '262144/64 262144/64 524288/128 0' ] && [ ! -s leak.iob.err ]"

	# The ETA line, four jobs at once for 3 s: fio's letters (D, d; trimwrite is W, w) and
	# the directions its rates name. fio draws it on stdout, iobench on stderr.
	for rw in trim randtrim trimwrite randtrimwrite; do
		e="--name=t --ioengine=null --rw=$rw --bs=4k --size=64m --rate_iops=500 --time_based --runtime=3 --eta=always --eta-newline=1"
		# shellcheck disable=SC2086
		fio $e >eta.fio.$rw 2>&1 &
		# shellcheck disable=SC2086
		"$IOBENCH" $e --output-format=json >/dev/null 2>eta.iob.$rw &
	done
	wait
	for rw in trim randtrim trimwrite randtrimwrite; do
		f=$(eta_shape eta.fio.$rw) i=$(eta_shape eta.iob.$rw)
		check "rw=$rw: the ETA line's letter and rates as fio's ($i)" sh -c "[ -n '$f' ] && [ '$f' = '$i' ]"
	done
}
# "D(1) t t": the letter(s) and the rates' directions of the last ETA line with rates of a
# running job (fio's "Jobs: 1 (f=1), 0-500 IOPS: [...]" and iobench's "Jobs: 1 (f=1): [...]")
eta_shape() {
	tr '\r' '\n' <"$1" | grep -aE '^Jobs: [1-9].*IOPS\]\[eta' | tail -1 |
		sed -E 's/^Jobs: [0-9]+ \(f=[0-9]+\)[^:]*: \[([^]]*)\]\[[^]]*\]\[([^]]*)\]\[([^]]*) IOPS\].*/\1 \2 \3/; s/=[^, ]*//g'
}
null_cases >null.tap 2>&1 &
nullpid=$!

# ---- regular files: fio sends BLKDISCARD and fails with ENOTTY, iobench punches holes ----
dd if=/dev/urandom of=ff bs=64k count=4 2>/dev/null
fio --name=t --filename=ff --rw=trim --bs=4k --size=256k --ioengine=psync --output-format=json >ff.json 2>&1
check "fio 3.33 fails a trim of a regular file with ENOTTY (err 25) and leaves its data (docs/differences.md)" \
	[ "$(dirs ff.json) $(blocks ff)" = "0/0 0/0 0/1 25 256" ]
# A trim job's missing files: laid out first by both (fallocate: the size, the blocks).
# trimwrite rewrites what it trims, so iobench's files end as fio's (whose first trim fails).
for tool in fio "$IOBENCH"; do
	mkdir -p "lay.$(basename "$tool")"
	(cd "lay.$(basename "$tool")" && "$tool" --name=t --rw=trimwrite --bs=4k --nrfiles=2 --filesize=128k \
		--size=256k --output-format=json >out.json 2>out.err)
done
check "trimwrite on two missing files: both laid out as fio lays them out (size and KiB allocated)" \
	sh -c "[ '$(alloc lay.fio/t.0.0) $(alloc lay.fio/t.0.1)' = '$(alloc lay.iobench/t.0.0) $(alloc lay.iobench/t.0.1)' ] &&
		[ '$(alloc lay.fio/t.0.0)' = '131072 128' ]"
check "... iobench's job did all of it: 64 trims and 64 writes, no message" \
	sh -c "[ '$(dirs lay.iobench/out.json)' = '0/0 262144/64 262144/64 0' ] && [ ! -s lay.iobench/out.err ]"

# ---- a loop device: real discards (BLKDISCARD) ----
loop_done() {
	wait $nullpid
	cat null.tap
	exit 0
}
if [ "$(id -u)" != 0 ] || ! have losetup; then
	skip "trims on a loop device against fio" "needs root and losetup"
	loop_done
fi
truncate -s 16m img
LOOP=$(losetup -f --show img 2>/dev/null)
if [ -z "$LOOP" ]; then
	skip "trims on a loop device against fio" "no free loop device"
	loop_done
fi
trap 'losetup -d "$LOOP" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
if [ "$(cat /sys/block/"${LOOP#/dev/}"/queue/discard_max_bytes 2>/dev/null || echo 0)" = 0 ]; then
	skip "trims on a loop device against fio" "$LOOP does not discard (lsblk -D)"
	loop_done
fi
python3 "$TOP/tests/tools/fio_diff.py" "$IOBENCH" "$T/work" <<EOF
loop-psync-trim | --name=t --filename=$LOOP --rw=trim --bs=4k --size=256k --ioengine=psync | jobs,ios,keys,opts,clean
loop-psync-randtrim | --name=t --filename=$LOOP --rw=randtrim --bs=4k --size=256k --ioengine=psync | jobs,ios,keys
loop-psync-trimwrite | --name=t --filename=$LOOP --rw=trimwrite --bs=4k --size=256k --ioengine=psync | jobs,ios,keys
loop-psync-randtrimwrite | --name=t --filename=$LOOP --rw=randtrimwrite --bs=4k --size=256k --ioengine=psync | jobs,ios,keys
loop-libaio-randtrim | --name=t --filename=$LOOP --rw=randtrim --bs=4k --size=256k --ioengine=libaio --iodepth=8 | jobs,ios,keys,clean
loop-libaio-trimwrite | --name=t --filename=$LOOP --rw=trimwrite --bs=4k --size=256k --ioengine=libaio --iodepth=8 | jobs,ios,keys
loop-io_uring-trim | --name=t --filename=$LOOP --rw=trim --bs=4k --size=256k --ioengine=io_uring --iodepth=8 | jobs,ios,keys,clean
loop-io_uring-randtrimwrite | --output-format=json+ --name=t --filename=$LOOP --rw=randtrimwrite --bs=4k --size=256k --ioengine=io_uring --iodepth=8 | jobs,ios,keys
loop-posixaio-trimwrite | --name=t --filename=$LOOP --rw=trimwrite --bs=4k --size=256k --ioengine=posixaio --iodepth=4 | jobs,ios
loop-pvsync2-randtrim | --name=t --filename=$LOOP --rw=randtrim --bs=64k --size=1m --ioengine=pvsync2 | jobs,ios
EOF

# The data the device's image keeps after each: the same holes punched.
for rw in trim randtrim trimwrite randtrimwrite; do
	f=0 i=0
	for tool in fio "$IOBENCH"; do
		dd if=/dev/urandom of="$LOOP" bs=64k count=8 oflag=direct 2>/dev/null
		"$tool" --name=t --filename="$LOOP" --rw=$rw --bs=4k --size=256k --ioengine=psync --output-format=json \
			>/dev/null 2>&1
		if [ "$tool" = fio ]; then f=$(blocks img); else i=$(blocks img); fi
	done
	check "$rw on $LOOP: the image keeps the same data after fio and iobench ($f, $i KiB)" [ "$f" -eq "$i" ]
done

# trim_percentage with verify: every written block chosen, fio's trim_backlog rule; the
# verify reads check them as zeros. Reads, writes, trims, error and the data left as fio's.
for args in "--rw=trimwrite --trim_backlog=4" "--rw=randtrimwrite --trim_backlog=4 --trim_backlog_batch=2" \
	"--rw=trimwrite --trim_backlog=4 --verify_backlog=8 --ioengine=libaio --iodepth=8"; do
	r=""
	for tool in fio "$IOBENCH"; do
		dd if=/dev/urandom of="$LOOP" bs=64k count=2 oflag=direct 2>/dev/null
		# shellcheck disable=SC2086
		"$tool" --name=t --filename="$LOOP" --size=64k --bs=4k --verify=md5 --trim_percentage=100 $args \
			--output-format=json >tp.json 2>tp.err
		r="$r|$(dirs tp.json) $(blocks img)"
	done
	check "trim_percentage=100 $args: as fio (${r#|})" [ "${r#|*|}" = "$(echo "${r#|}" | cut -d'|' -f1)" ]
done
check "... the last: 16 verify reads, 16 writes, 26 trims (16 of the pairs, 10 chosen)" \
	[ "$(echo "${r#|*|}" | cut -d' ' -f1-4)" = "65536/16 65536/16 106496/26 0" ]

# Normal and terse output of a trim job: the same lines and fields as fio's.
for f in normal terse; do
	for tool in fio "$IOBENCH"; do
		"$tool" --name=t --filename="$LOOP" --rw=trimwrite --bs=4k --size=256k --ioengine=psync --output-format=$f \
			>"$f.$(basename "$tool")" 2>/dev/null
	done
done
# (the rates' units follow the speed, which is the machine's: one unit for both; bw/iops
# sample lines come with a run long enough to take samples: set aside)
for t in fio iobench; do
	sed 's|\([0-9.]\)[KG]iB/s|\1MiB/s|g; s|\([0-9.]\)[kG]B/s|\1MB/s|g' normal.$t | grep -vE '^ +(bw|iops) +[:(]' >normal.$t.u
done
check "normal output: the same lines as fio's, by shape (trim:, TRIM:, issued rwts)" \
	python3 "$TOP/tests/tools/normal_shape.py" normal.fio.u normal.iobench.u
check "terse (v3): the same number and kinds of fields as fio's" python3 "$TOP/tests/tools/terse_shape.py" terse.fio terse.iobench
for v in 4 5; do
	for tool in fio "$IOBENCH"; do
		"$tool" --name=t --filename="$LOOP" --rw=trim --bs=4k --size=256k --ioengine=psync --output-format=terse \
			--terse-version=$v >"tv$v.$(basename "$tool")" 2>/dev/null
	done
	n=$([ $v = 5 ] && echo 47 || echo 41)
	check "terse v$v: the same fields as fio's, and its trim KiB (256)" sh -c "python3 '$TOP/tests/tools/terse_shape.py' tv$v.fio tv$v.iobench &&
		[ \"\$(cut -d';' -f$((6 + 2 * n)) tv$v.fio)\" = 256 ] && [ \"\$(cut -d';' -f$((6 + 2 * n)) tv$v.iobench)\" = 256 ]"
done
loop_done
