#!/bin/sh
# Issue 3: what write buffers hold: buffer_compress_percentage, zero_buffers,
# refill_buffers, scramble_buffers, buffer_pattern, dedupe_percentage.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
w() { # file, args...: 4 MiB of sequential 64 KiB writes
	f=$1
	shift
	"$IOBENCH" --name=b --rw=write --bs=64k --size=4m --ioengine=psync --filename="$f" \
		--output-format=json "$@" >/dev/null
}
blocks_unique() { # distinct 64 KiB blocks in a file
	split -b 65536 -a 4 "$1" "$1.blk."
	n=$(md5sum "$1".blk.* | awk '{ print $1 }' | sort -u | wc -l)
	rm -f "$1".blk.*
	echo "$n"
}
size=4194304

w c50 --buffer_compress_percentage=50
z=$(gzip -c c50 | wc -c)
check "buffer_compress_percentage=50: gzip leaves about half ($z of $size bytes)" \
	awk -v z="$z" -v s=$size 'BEGIN { exit !(z > s * 0.42 && z < s * 0.60) }'
w c80 --buffer_compress_percentage=80 --buffer_compress_chunk=4k
z=$(gzip -c c80 | wc -c)
check "buffer_compress_percentage=80: gzip leaves about a fifth ($z bytes)" \
	awk -v z="$z" -v s=$size 'BEGIN { exit !(z > s * 0.15 && z < s * 0.30) }'
w rnd
z=$(gzip -c rnd | wc -c)
check "default data does not compress ($z bytes)" awk -v z="$z" -v s=$size 'BEGIN { exit !(z > s * 0.99) }'

w zero --zero_buffers
check "zero_buffers writes only zeros" cmp -s -n $size zero /dev/zero

w refill --refill_buffers
check "refill_buffers: every write differs (64 of 64 blocks distinct)" [ "$(blocks_unique refill)" -eq 64 ]
w same --scramble_buffers=0
check "without refill or scramble, every write repeats one buffer (1 distinct block)" [ "$(blocks_unique same)" -eq 1 ]
w scr
check "scramble_buffers (the default): every write differs" [ "$(blocks_unique scr)" -eq 64 ]

w pat --buffer_pattern=0xdeadbeef
check "buffer_pattern=0xdeadbeef fills the data with it" \
	sh -c "[ \"\$(od -An -tx1 -v pat | tr -d ' \n' | sed 's/deadbeef//g')\" = '' ]"
w str '--buffer_pattern="abc"'
check 'buffer_pattern="abc" fills the data with the text' sh -c "head -c 9 str | grep -qx abcabcabc"
# 'name' is a file whose contents are the pattern (its first 512 bytes), as fio 3.33 reads it
printf 'XYZ' >pat.txt
head -c 1000 /dev/urandom >pat.big
w pfile "--buffer_pattern=0x01'pat.txt'\"s\""
check "buffer_pattern=0x01'pat.txt'\"s\": the byte, the file's contents, the text" \
	sh -c "[ \"\$(head -c 10 pfile | od -An -tx1 | tr -d ' \n')\" = 0158595a730158595a73 ]"
w pbig "--buffer_pattern='pat.big'"
check "buffer_pattern='FILE' of 1000 bytes: its first 512, repeated" sh -c "cmp -s -n 512 pbig pat.big && cmp -s -n 512 -i 512:0 pbig pat.big"
if have fio; then
	fio --name=b --rw=write --bs=64k --size=64k --ioengine=psync --filename=fpfile "--buffer_pattern=0x01'pat.txt'\"s\"" \
		--output-format=terse >/dev/null 2>&1
	check "... the same bytes as fio's" cmp -s -n 65536 fpfile pfile
fi

w dd --dedupe_percentage=50 --refill_buffers
u=$(blocks_unique dd)
check "dedupe_percentage=50: about half the blocks repeat ($u of 64 distinct)" [ "$u" -ge 20 ] && [ "$u" -le 44 ]

# invalidate (the default): the file's cached pages are dropped before the job, even
# dirty ones from a write phase just before; invalidate=0 leaves them.
if have fincore; then
	"$IOBENCH" --name=w --rw=write --bs=1m --size=8m --ioengine=psync --filename=cached --output-format=json >/dev/null
	cat cached >/dev/null
	"$IOBENCH" --name=r --rw=read --filename=cached --number_ios=1 --ioengine=psync --invalidate=0 --output-format=json >/dev/null
	kept=$(fincore -bno RES cached)
	"$IOBENCH" --name=r --rw=read --filename=cached --number_ios=1 --ioengine=psync --output-format=json >/dev/null
	left=$(fincore -bno RES cached)
	check "invalidate=0 keeps the page cache ($kept bytes cached)" [ "$kept" -ge 8000000 ]
	check "invalidate=1 drops it before the job ($left bytes cached after one 4 KiB read)" [ "$left" -lt 1048576 ]
else
	skip "invalidate" "fincore (util-linux) is not installed"
fi
