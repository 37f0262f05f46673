#!/bin/sh
# Issue 5: verify. Every type writes and verifies clean; a block corrupted with dd is
# found by verify_only, its offset and checksums reported, exit status non-zero.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
for t in md5 crc32c crc32c-intel crc64 crc16 crc32 xxhash sha1 sha224 sha256 sha384 sha512 sha3-256 sha3-512 meta pattern; do
	"$IOBENCH" --name=v --rw=randwrite --bs=4k --size=1m --filename="$T/v.$t" --verify=$t \
		--verify_pattern=0xdeadbeef --output-format=json >out.json 2>err.txt
	rc=$?
	"$IOBENCH" --name=v --rw=randwrite --bs=4k --size=1m --filename="$T/v.$t" --verify=$t \
		--verify_pattern=0xdeadbeef --verify_only --output-format=json >/dev/null 2>err2.txt
	rc2=$?
	check "verify=$t: written data verifies clean, then again with verify_only" \
		sh -c "[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ ! -s err.txt ] && [ ! -s err2.txt ]"
done

corrupt() { # file, byte offset, length
	dd if=/dev/urandom of="$1" bs=1 seek="$2" count="$3" conv=notrunc 2>/dev/null
}
"$IOBENCH" --name=v --rw=write --bs=4k --size=1m --filename="$T/c.dat" --verify=md5 --output-format=json >/dev/null
corrupt c.dat $((7 * 4096 + 1000)) 100
"$IOBENCH" --name=v --rw=write --bs=4k --size=1m --filename="$T/c.dat" --verify=md5 --verify_only \
	--output-format=json >vo.json 2>vo.err
rc=$?
check "a corrupted block: verify_only exits 1" [ $rc -eq 1 ]
check "... naming the file, the offset (28672) and both checksums" \
	grep -qE "verify failed: file $T/c.dat, offset 28672, length 4096: bad md5 checksum: expected [0-9a-f]{32}, received [0-9a-f]{32}" vo.err
check "... and only that block" [ "$(grep -c 'verify failed' vo.err)" -eq 1 ]
check "... with stdout still one JSON document" sh -c "[ \$(jq -s length vo.json) -eq 1 ]"

corrupt c.dat $((100 * 4096 + 10)) 4
"$IOBENCH" --name=v --rw=write --bs=4k --size=1m --filename="$T/c.dat" --verify=md5 --verify_only \
	--verify_fatal=1 --output-format=json >/dev/null 2>vf.err
check "verify_fatal=1 stops at the first of two bad blocks" [ "$(grep -c 'verify failed' vf.err)" -eq 1 ]
"$IOBENCH" --name=v --rw=write --bs=4k --size=1m --filename="$T/c.dat" --verify=md5 --verify_only \
	--output-format=json >/dev/null 2>v2.err
check "without verify_fatal the job also stops at the first bad block, as fio" [ "$(grep -c 'verify failed' v2.err)" -eq 1 ]
"$IOBENCH" --name=v --rw=write --bs=4k --size=1m --filename="$T/c.dat" --verify=md5 --verify_only \
	--continue_on_error=verify --output-format=json >/dev/null 2>v3.err
check "with continue_on_error=verify both bad blocks are reported" [ "$(grep -c 'verify failed' v3.err)" -eq 2 ]

"$IOBENCH" --name=v --rw=write --bs=4k --size=1m --filename="$T/p.dat" --verify=pattern \
	--verify_pattern=0xdeadbeef --output-format=json >/dev/null
# One byte that surely differs from the pattern's (0xde 0xad 0xbe 0xef): a random byte would
# equal it one time in 256.
printf '\000' | dd of=p.dat bs=1 seek=5000 conv=notrunc 2>/dev/null
"$IOBENCH" --name=v --rw=write --bs=4k --size=1m --filename="$T/p.dat" --verify=pattern \
	--verify_pattern=0xdeadbeef --verify_only --output-format=json >/dev/null 2>p.err
check "verify=pattern finds the changed byte (5000)" grep -q 'pattern mismatch at byte 5000' p.err

"$IOBENCH" --name=v --rw=randwrite --bs=8k --size=2m --filename="$T/i.dat" --verify=crc32c \
	--verify_interval=1k --verify_offset=512 --output-format=json >/dev/null 2>i.err
rc=$?
check "verify_interval=1k, verify_offset=512: clean" sh -c "[ $rc -eq 0 ] && [ ! -s i.err ]"
corrupt i.dat $((3 * 1024 + 700)) 8
"$IOBENCH" --name=v --rw=randwrite --bs=8k --size=2m --filename="$T/i.dat" --verify=crc32c \
	--verify_interval=1k --verify_offset=512 --verify_only --output-format=json >/dev/null 2>i2.err
check "... and a bad 1k interval is pinned to its offset (3072)" grep -q 'offset 3072, length 1024: bad crc32c' i2.err

"$IOBENCH" --name=v --rw=randwrite --bs=4k --size=2m --filename="$T/b.dat" --verify=xxhash --verify_backlog=16 \
	--ioengine=libaio --iodepth=8 --output-format=json >/dev/null 2>b.err
rc=$?
check "verify_backlog=16 with libaio: clean" sh -c "[ $rc -eq 0 ] && [ ! -s b.err ]"
if direct_ok; then
	"$IOBENCH" --name=v --rw=randwrite --bs=4k --size=2m --filename="$T/d.dat" --verify=sha256 --direct=1 \
		--ioengine=io_uring --iodepth=16 --output-format=json >/dev/null 2>d.err
	rc=$?
	check "verify with O_DIRECT and io_uring: clean" sh -c "[ $rc -eq 0 ] && [ ! -s d.err ]"
fi
"$IOBENCH" --name=v --rw=write --bs=4k --size=1m --filename="$T/n.dat" --verify=md5 --do_verify=0 \
	--output-format=json >/dev/null
corrupt n.dat 100 10
"$IOBENCH" --name=v --rw=write --bs=4k --size=1m --filename="$T/n.dat" --verify=md5 --do_verify=0 \
	--output-format=json >/dev/null 2>n.err
check "do_verify=0 writes without reading back" sh -c "[ $? -eq 0 ] && [ ! -s n.err ]"
