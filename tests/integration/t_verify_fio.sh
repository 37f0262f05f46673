#!/bin/sh
# Issue 16: verify in fio's format and counted as fio counts it. Data fio writes passes
# iobench's verify_only and the other way round, for every type; a corrupted block is found
# either way, at its offset; verify reads are reads in the job's statistics (the same
# io_bytes and total_ios per direction as fio); verify_dump's files; verify state files.
. "$(dirname "$0")/../lib.sh"
if ! have fio || ! have python3 || ! have jq; then
	skip "verify against fio" "fio, python3 or jq is not installed"
	exit 0
fi
cd "$T" || exit 1
# ---- the format, both ways, every type: one job per type, each on its own file ----
TYPES="crc32c md5 sha256 meta pattern crc32c-intel crc64 crc32 crc16 crc7 sha1 sha512 sha3-224 sha3-256 sha3-384 sha3-512 xxhash"
jobfile() { # prefix of the files
	printf '[global]\nrw=randwrite\nbs=4k\nsize=128k\n'
	for t in $TYPES; do
		printf '[%s]\nverify=%s\nfilename=%s.%s\n' "$t" "$t" "$1" "$t"
		[ "$t" = pattern ] && printf 'verify_pattern=0x5a5aa5a5\n'
	done
}
jobfile f >f.fio
jobfile i >i.fio
fio f.fio >/dev/null 2>fw.err
"$IOBENCH" f.fio --verify_only --output-format=json >vo.json 2>vo.err
"$IOBENCH" i.fio --output-format=json >/dev/null 2>iw.err
fio i.fio --verify_only --output-format=json 2>fo.err | sed -n '/^{/,$p' >fo.json
for t in $TYPES; do
	check "verify=$t: fio writes, iobench verify_only passes (32 blocks read back)" \
		sh -c "[ \$(jq '.jobs[] | select(.jobname == \"$t\") | .read.total_ios' vo.json) -eq 32 ] && [ \$(jq '.jobs[] | select(.jobname == \"$t\") | .error' vo.json) -eq 0 ]"
	check "verify=$t: iobench writes, fio --verify_only passes" \
		sh -c "[ \$(jq '.jobs[] | select(.jobname == \"$t\") | .read.total_ios' fo.json) -eq 32 ] && [ \$(jq '.jobs[] | select(.jobname == \"$t\") | .error' fo.json) -eq 0 ]"
done
check "... and no tool complained" sh -c "[ ! -s vo.err ] && [ ! -s iw.err ] && ! grep -q verify fo.err"
J="--name=v --rw=randwrite --bs=4k --size=128k"

# ---- a corrupted block is found either way, naming its offset ----
flip() { # file, byte offset: one byte that surely changes (0x00 where fio's pattern is 0x5a...)
	printf '\000' | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
# One job per type, a block each corrupted: meta checks only the header (and the pattern),
# so its change hits the header's offset field.
BAD="crc32c md5 sha256 meta pattern"
badfile() { # prefix
	printf '[global]\nrw=write\nbs=4k\nsize=64k\nverify_pattern=0x5a5aa5a5\n'
	for t in $BAD; do
		printf '[%s]\nverify=%s\nfilename=%s.%s\n' "$t" "$t" "$1" "$t"
	done
}
badfile f >fb.fio
badfile i >ib.fio
fio fb.fio >/dev/null 2>&1
"$IOBENCH" ib.fio --output-format=json >/dev/null 2>&1
for t in $BAD; do
	at=$((5 * 4096 + 1000))
	[ "$t" = meta ] && at=$((5 * 4096 + 17))
	flip f.$t $at
	flip i.$t $at
done
"$IOBENCH" fb.fio --verify_only --output-format=json >vb.json 2>vb.err
fio ib.fio --verify_only >/dev/null 2>fb.err
for t in $BAD; do
	check "verify=$t: a byte changed in fio's data: iobench fails (error 84) at offset 20480" \
		sh -c "[ \$(jq '.jobs[] | select(.jobname == \"$t\") | .error' vb.json) -eq 84 ] && grep -q 'verify failed: file f.$t, offset 20480' vb.err"
	check "verify=$t: a byte changed in iobench's data: fio fails at offset 20480" \
		grep -q "at file i.$t offset 20480" fb.err
done

# verify_interval and verify_offset: fio's layout inside the block
rm -f f.dat i.dat
fio $J --verify=crc32c --verify_interval=1k --verify_offset=512 --filename=f.dat >/dev/null 2>&1
"$IOBENCH" $J --verify=crc32c --verify_interval=1k --verify_offset=512 --filename=f.dat --verify_only \
	--output-format=json >/dev/null 2>vo.err
check "verify_interval=1k, verify_offset=512: fio's blocks pass iobench" sh -c "[ $? -eq 0 ] && [ ! -s vo.err ]"
"$IOBENCH" $J --verify=crc32c --verify_interval=1k --verify_offset=512 --filename=i.dat --output-format=json >/dev/null
fio $J --verify=crc32c --verify_interval=1k --verify_offset=512 --filename=i.dat --verify_only >/dev/null 2>fo.err
check "... and iobench's pass fio" sh -c "! grep -q verify fo.err"
flip i.dat $((7 * 4096 + 2 * 1024 + 900))
fio $J --verify=crc32c --verify_interval=1k --verify_offset=512 --filename=i.dat --verify_only >/dev/null 2>fo.err
check "... a bad 1k interval of iobench's is pinned by fio to its offset (30720)" \
	grep -q "verify failed at file i.dat offset 30720, length 1024" fo.err
"$IOBENCH" $J --verify=sha256 --verify_interval=1k --verify_offset=100 --filename=o.dat --output-format=json \
	>/dev/null 2>ov.err
check "verify_offset that overlaps the header it moves is refused (fio then fails its own blocks)" \
	sh -c "[ $? -eq 1 ] && grep -q 'verify_offset=100 overlaps the 104-byte sha256 header' ov.err"

# ---- verify reads are reads: the same io_bytes and total_ios as fio, and the same files ----
python3 "$TOP/tests/tools/fio_diff.py" "$IOBENCH" "$T/work" <<EOF2
write-verify | --name=v --filename=d.dat --rw=write --bs=4k --size=256k --verify=crc32c | ios,files
write-noverify | --name=v --filename=d.dat --rw=write --bs=4k --size=1m --verify=crc32c --do_verify=0 | ios,files
randwrite-verify | --name=v --filename=d.dat --rw=randwrite --bs=4k --size=256k --verify=md5 | ios,files
backlog | --name=v --filename=d.dat --rw=write --bs=4k --size=256k --verify=crc32c --verify_backlog=16 | ios,files
backlog-batch | --name=v --filename=d.dat --rw=write --bs=4k --size=256k --verify=crc32c --verify_backlog=16 --verify_backlog_batch=4 | ios,files
backlog-libaio | --name=v --filename=d.dat --rw=randwrite --bs=4k --size=256k --verify=xxhash --verify_backlog=10 --verify_backlog_batch=3 --ioengine=libaio --iodepth=8 | ios,files
backlog-dov0 | --name=v --filename=d.dat --rw=write --bs=4k --size=256k --verify=crc32c --verify_backlog=16 --do_verify=0 | ios,files
loops | --name=v --filename=d.dat --rw=write --bs=4k --size=128k --verify=crc32c --loops=2 | ios,files
libaio | --name=v --filename=d.dat --rw=write --bs=16k --size=256k --verify=sha1 --ioengine=libaio --iodepth=16 | ios,files
null-type | --name=v --filename=d.dat --rw=write --bs=4k --size=128k --verify=null | ios,files
null-engine | --name=v --filename=d.dat --rw=write --bs=4k --size=1m --verify=crc32c --ioengine=null | ios,files
two-files | --name=v --rw=write --bs=4k --size=256k --nrfiles=2 --verify=crc32c | ios,files
EOF2

# rw=readwrite: the workload's reads plus a read of every write: 1 MiB read in all, as fio
# (the read/write split itself is drawn at random by each tool)
for tool in fio "$IOBENCH"; do
	rm -f m.dat
	"$tool" --name=v --filename=m.dat --rw=readwrite --bs=4k --size=1m --verify=crc32c --output-format=json 2>/dev/null |
		sed -n '/^{/,$p' >rw.json
	r=$(jq '.jobs[0].read.io_bytes' rw.json)
	n=$(jq '.jobs[0].read.total_ios' rw.json)
	w=$(jq '.jobs[0].write.total_ios' rw.json)
	check "rw=readwrite + do_verify ($(basename "$tool")): 1 MiB read, 256 reads (workload and verify), writes all read back" \
		sh -c "[ $r -eq 1048576 ] && [ $n -eq 256 ] && [ $w -gt 64 ] && [ $w -lt 192 ]"
done

# verify_only: fio's dry run counts the writes it does not do; both tools report the same
rm -f vo.dat
fio --name=v --filename=vo.dat --rw=randwrite --bs=4k --size=512k --verify=crc32c >/dev/null 2>&1
fio --name=v --filename=vo.dat --rw=randwrite --bs=4k --size=512k --verify=crc32c --verify_only --output-format=json \
	2>/dev/null | sed -n '/^{/,$p' | jq -c '.jobs[0] | [.read.io_bytes, .read.total_ios, .write.io_bytes, .write.total_ios]' >f.ios
"$IOBENCH" --name=v --filename=vo.dat --rw=randwrite --bs=4k --size=512k --verify=crc32c --verify_only \
	--output-format=json | jq -c '.jobs[0] | [.read.io_bytes, .read.total_ios, .write.io_bytes, .write.total_ios]' >i.ios
check "verify_only: the same read and (dry-run) write io_bytes and total_ios as fio ($(cat f.ios))" \
	sh -c "[ \"\$(cat f.ios)\" = '[524288,128,524288,128]' ] && cmp -s f.ios i.ios"
"$IOBENCH" --name=v --filename=vo.dat --rw=read --bs=4k --size=512k --verify=crc32c --output-format=json >rd.json 2>rd.err
check "rw=read with verify: every read is checked (128 reads, clean)" \
	sh -c "[ \$(jq '.jobs[0].read.total_ios' rd.json) -eq 128 ] && [ ! -s rd.err ]"
flip vo.dat $((9 * 4096 + 77))
"$IOBENCH" --name=v --filename=vo.dat --rw=read --bs=4k --size=512k --verify=crc32c --output-format=json >rd.json 2>rd.err
check "... and a changed byte fails the read job at its block (36864), error 84" \
	sh -c "[ \$(jq '.jobs[0].error' rd.json) -eq 84 ] && grep -q 'offset 36864' rd.err"

# A failure stops the job (fio's default); continue_on_error=verify goes on; verify_fatal stops even then
rm -f c.dat
"$IOBENCH" --name=v --filename=c.dat --rw=write --bs=4k --size=256k --verify=md5 --output-format=json >/dev/null
flip c.dat 5000
flip c.dat 50000
V="--name=v --filename=c.dat --rw=write --bs=4k --size=256k --verify=md5 --verify_only --output-format=json"
"$IOBENCH" $V >/dev/null 2>c1.err
check "two bad blocks: the job stops at the first, as fio" [ "$(grep -c 'verify failed' c1.err)" -eq 1 ]
"$IOBENCH" $V --continue_on_error=verify >c2.json 2>c2.err
check "continue_on_error=verify: both reported, all 64 blocks read, the job still fails (84)" \
	sh -c "[ \$(grep -c 'verify failed' c2.err) -eq 2 ] && [ \$(jq '.jobs[0].read.total_ios' c2.json) -eq 64 ] && [ \$(jq '.jobs[0].error' c2.json) -eq 84 ]"
"$IOBENCH" $V --continue_on_error=verify --verify_fatal=1 >/dev/null 2>c3.err
check "verify_fatal=1 stops at the first even so" [ "$(grep -c 'verify failed' c3.err)" -eq 1 ]

# ---- verify_dump: fio's names, in the current directory ----
mkdir -p dump/fio dump/iob sub
rm -f sub/d.dat
"$IOBENCH" --name=v --filename="$T/sub/d.dat" --rw=write --bs=4k --size=64k --verify=md5 --output-format=json >/dev/null
flip sub/d.dat $((3 * 4096 + 123))
(cd dump/fio && fio --name=v --filename="$T/sub/d.dat" --rw=write --bs=4k --size=64k --verify=md5 --verify_only \
	--verify_dump=1 >/dev/null 2>&1)
(cd dump/iob && "$IOBENCH" --name=v --filename="$T/sub/d.dat" --rw=write --bs=4k --size=64k --verify=md5 \
	--verify_only --verify_dump=1 --output-format=json >/dev/null 2>"$T/d.err")
check "verify_dump: the same files as fio's (d.dat.12288.received, .expected)" \
	sh -c "[ \"\$(ls dump/iob | grep -v state)\" = \"\$(ls dump/fio | grep -v state)\" ] && [ -f dump/iob/d.dat.12288.received ] && [ -f dump/iob/d.dat.12288.expected ]"
dd if=sub/d.dat bs=4096 skip=3 count=1 2>/dev/null >blk
check "... received is the block as read" cmp -s blk dump/iob/d.dat.12288.received
check "... expected differs from it in the changed byte only (123)" \
	sh -c "[ \"\$(cmp -l dump/iob/d.dat.12288.received dump/iob/d.dat.12288.expected | awk '{print \$1}')\" = 124 ]"
check "... and the job says where they are" grep -q 'verify_dump: received data in d.dat.12288.received, expected data in d.dat.12288.expected' d.err

# ---- verify state: an interrupted write; a later verify_only checks only what was written ----
mkdir -p st && cd st || exit 1
S="--name=st --filename=s.dat --rw=write --bs=4k --size=1m --verify=crc32c"
"$IOBENCH" $S --rate=400k --output-format=json >w.json 2>/dev/null &
pid=$!
sleep 1
kill -INT $pid
wait $pid
n=$(jq '.jobs[0].write.total_ios' w.json)
check "an interrupted write leaves local-st-0-verify.state ($n of 256 writes done)" \
	sh -c "[ -f local-st-0-verify.state ] && [ $n -gt 10 ] && [ $n -lt 256 ]"
"$IOBENCH" $S --verify_only --output-format=json >/dev/null 2>nl.err
check "verify_only without the state checks all 256 blocks and fails on the unwritten ones" grep -q 'verify failed' nl.err
"$IOBENCH" $S --verify_only --verify_state_load=1 --output-format=json >l.json 2>l.err
check "verify_state_load=1: only the $n written blocks are read back, clean" \
	sh -c "[ $? -eq 0 ] && [ ! -s l.err ] && [ \$(jq '.jobs[0].read.total_ios' l.json) -eq $n ]"
fio $S --verify_only --verify_state_load=1 --output-format=json 2>fl.err | sed -n '/^{/,$p' >fl.json
check "fio loads iobench's state: the same $n blocks, clean" \
	sh -c "[ \$(jq '.jobs[0].read.total_ios' fl.json) -eq $n ] && [ \$(jq '.jobs[0].error' fl.json) -eq 0 ]"
rm -f s.dat local-st-0-verify.state
fio $S --rate=400k --output-format=json >/dev/null 2>&1 &
pid=$!
sleep 1
kill -INT $pid
wait $pid
"$IOBENCH" $S --verify_only --verify_state_load=1 --output-format=json >l2.json 2>l2.err
rc=$?
fio $S --verify_only --verify_state_load=1 --output-format=json 2>/dev/null | sed -n '/^{/,$p' >f2.json
check "iobench loads fio's state: as many blocks as fio reads back, clean" \
	sh -c "[ $rc -eq 0 ] && [ ! -s l2.err ] && [ \$(jq '.jobs[0].read.total_ios' l2.json) -eq \$(jq '.jobs[0].read.total_ios' f2.json) ] && [ \$(jq '.jobs[0].read.total_ios' l2.json) -gt 10 ]"
rm -f local-st-0-verify.state
"$IOBENCH" $S --verify_only --verify_state_load=1 --output-format=json >/dev/null 2>m.err
check "verify_state_load without a state file: exit 1, one line naming it" \
	sh -c "[ $? -eq 1 ] && grep -q 'verify_state_load: local-st-0-verify.state: No such file' m.err"
"$IOBENCH" $S --verify_state_save=0 --output-format=json >/dev/null
check "verify_state_save=0 leaves no state file" [ ! -e local-st-0-verify.state ]
cd .. || exit 1

# ---- verify_pattern's %o (the I/O's offset, 8 bytes, in every repetition) and decimals ----
# (a decimal takes as few bytes as its value needs, 3 for 70000; a negative one four)
n=0
for p in '%o' '0xff%o"abcd"-12' '70000' '-300' '"x"%o%o'; do
	n=$((n + 1))
	fio --name=p --filename=pf.$n --size=64k --bs=8k --rw=randwrite --verify=pattern --verify_pattern="$p" \
		--do_verify=0 >/dev/null 2>&1
	"$IOBENCH" --name=p --filename=pi.$n --size=64k --bs=8k --rw=randwrite --verify=pattern --verify_pattern="$p" \
		--do_verify=0 >/dev/null 2>&1
	check "verify_pattern=$p: the file iobench writes is byte for byte fio's" cmp -s pf.$n pi.$n
done
PJ="--name=p --size=64k --bs=8k --rw=randwrite --verify=crc32c --verify_interval=4k --verify_pattern=0xab%o"
fio $PJ --filename=pcf --do_verify=0 >/dev/null 2>&1
"$IOBENCH" $PJ --filename=pcf --verify_only=1 --output-format=json >pcf.json 2>pcf.err
"$IOBENCH" $PJ --filename=pci --do_verify=0 >/dev/null 2>&1
fio $PJ --filename=pci --verify_only=1 --output-format=json 2>/dev/null | sed -n '/^{/,$p' >pci.json
check "verify_pattern with %o and crc32c headers: fio writes, iobench verifies (64k read, no error)" \
	[ "$(jq -c '[.jobs[0].error, .jobs[0].read.io_bytes]' pcf.json)" = "[0,65536]" ]
check "... iobench writes, fio verifies" [ "$(jq -c '[.jobs[0].error, .jobs[0].read.io_bytes]' pci.json)" = "[0,65536]" ]
# A block copied to the place of another holds the wrong offset: found, at its offset.
dd if=pi.1 of=pi.1 bs=8k count=1 seek=3 conv=notrunc 2>/dev/null
"$IOBENCH" --name=p --filename=pi.1 --size=64k --bs=8k --rw=randwrite --verify=pattern --verify_pattern=%o \
	--verify_only=1 >/dev/null 2>pm.err
check "verify_pattern=%o: a block moved to another offset fails the check there (exit 1, offset 24576)" \
	sh -c "[ $? -eq 1 ] && grep -q 'pattern mismatch at byte 2457[6-9]' pm.err"
refuse_pat() { # what, option value, stderr pattern
	"$IOBENCH" --name=p --filename=pr --size=8k --rw=write "$2" >/dev/null 2>pr.err
	check "$1: refused in one line, exit 1" sh -c "[ $? -eq 1 ] && [ \$(wc -l <pr.err) -eq 1 ] && grep -q '$3' pr.err"
}
refuse_pat "buffer_pattern=%o (fio refuses it too)" --buffer_pattern=%o "format only"
refuse_pat "verify_pattern=5000000000 (fio refuses it too)" --verify_pattern=5000000000 "fits in 32 bits"
refuse_pat "verify_pattern with 17 %o" --verify_pattern=%o%o%o%o%o%o%o%o%o%o%o%o%o%o%o%o%o "16 %o at most"
