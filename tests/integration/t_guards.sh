#!/bin/sh
# Issue 5: a mounted block device is never written without allow_mounted_write=1, also
# through a symlink; its contents are unchanged afterwards. --readonly refuses writes.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
if [ "$(id -u)" != 0 ] || ! have losetup || ! have mkfs.ext4 || ! unshare -m true 2>/dev/null; then
	skip "write guards on a mounted loop device" "needs root, losetup, mkfs.ext4 and unshare"
	exit 0
fi
truncate -s 64m img
LOOP=$(losetup -f --show img 2>/dev/null)
if [ -z "$LOOP" ]; then
	skip "write guards on a mounted loop device" "no free loop device"
	exit 0
fi
trap 'losetup -d "$LOOP" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
mkfs.ext4 -q "$LOOP"
ln -s "$LOOP" link
mkdir mnt
unshare -m sh -c "
	mount -o ro,noload '$LOOP' '$T/mnt' || exit 1
	md5sum <'$LOOP' >before.md5
	'$IOBENCH' --name=w --rw=write --bs=64k --size=1m --filename='$LOOP' --output-format=json >w.out 2>w.err; echo \$? >w.rc
	'$IOBENCH' --name=w --rw=randwrite --bs=4k --size=1m --filename='$T/link' --ioengine=libaio >l.out 2>l.err; echo \$? >l.rc
	'$IOBENCH' --name=r --rw=read --bs=64k --size=1m --filename='$LOOP' --output-format=json >r.out 2>r.err; echo \$? >r.rc
	'$IOBENCH' --name=w --rw=write --bs=64k --size=1m --filename='$LOOP' --readonly --allow_mounted_write=1 >ro.out 2>ro.err; echo \$? >ro.rc
	md5sum <'$LOOP' >after.md5
	umount '$T/mnt'
"
check "a write job on a mounted device is refused: exit 1" [ "$(cat w.rc)" -eq 1 ]
check "... with a message naming the device and the mount" grep -q "refusing to write to '$LOOP': the device is mounted on $T/mnt" w.err
check "... and nothing on stdout" [ ! -s w.out ]
check "through a symlink too" sh -c "[ \"\$(cat l.rc)\" -eq 1 ] && grep -q 'the device is mounted on' l.err"
check "a read job on the mounted device runs" sh -c "[ \"\$(cat r.rc)\" -eq 0 ] && grep -q '\"io_bytes\" : 1048576' r.out"
check "--readonly refuses even with allow_mounted_write=1" sh -c "[ \"\$(cat ro.rc)\" -eq 1 ] && grep -q 'readonly' ro.err"
check "the device's contents are unchanged (mounted read-only, so only iobench could change them)" \
	cmp -s before.md5 after.md5
# Not mounted: the same write goes through.
"$IOBENCH" --name=w --rw=write --bs=64k --size=1m --filename="$LOOP" --output-format=json >u.out 2>u.err
check "an unmounted device can be written" sh -c "[ $? -eq 0 ] && grep -q '\"io_bytes\" : 1048576' u.out"
# The mmap engine maps a block device by its size (st_size is 0 for one), as fio does.
"$IOBENCH" --name=m --rw=read --ioengine=mmap --size=256k --filename="$LOOP" --output-format=json >m.json 2>m.err
check "ioengine=mmap on a block device: 256 KiB read, no error (as fio)" \
	sh -c "[ \"\$(jq -c '[.jobs[0].read.io_bytes, .jobs[0].error]' m.json)\" = '[262144,0]' ]"

# Issue 14: mounted only inside another mount namespace (a container's): not in our mount
# table, but the kernel holds the device; the exclusive-open probe sees it.
mkdir -p nsmnt
mkfs.ext4 -q "$LOOP" # the write above went through the old file system
unshare -m --propagation private sh -c "mount -o ro,noload '$LOOP' '$T/nsmnt' && touch '$T/ns.up' && sleep 30" &
nspid=$!
for _ in $(seq 50); do [ -e ns.up ] && break; sleep 0.1; done
check "the device is mounted in the other namespace" [ -e ns.up ]
md5sum <"$LOOP" >ns-before.md5
grep -q "$T/nsmnt" /proc/self/mountinfo && notok "the namespace's mount leaked into ours"
"$IOBENCH" --name=w --rw=write --bs=64k --size=1m --filename="$LOOP" --output-format=json >ns.out 2>ns.err
rc=$?
md5sum <"$LOOP" >ns-after.md5
check "a write job on a device mounted only in another mount namespace is refused (exit $rc)" [ $rc -eq 1 ]
check "... naming the exclusive open the kernel refused, and another mount namespace" \
	grep -q "refusing to write to '$LOOP': the device is in use: the kernel refuses an exclusive open (mounted, perhaps in another mount namespace" ns.err
check "... one line on stderr, nothing on stdout" sh -c "[ \$(wc -l <ns.err) -eq 1 ] && [ ! -s ns.out ]"
check "... the device is unchanged" cmp -s ns-before.md5 ns-after.md5
"$IOBENCH" --name=r --rw=read --bs=64k --size=1m --filename="$LOOP" --output-format=json >nsr.out 2>nsr.err
check "a read job on it still runs" sh -c "[ $? -eq 0 ] && grep -q '\"io_bytes\" : 1048576' nsr.out"
kill $nspid 2>/dev/null
wait $nspid 2>/dev/null

# A disk that holds a mounted partition is not written either.
if have sfdisk; then
	truncate -s 64m disk.img
	echo 'start=2048, type=83' | sfdisk -q disk.img >/dev/null 2>&1
	DISK=$(losetup -f --show -P disk.img 2>/dev/null)
	if [ -n "$DISK" ] && [ -b "${DISK}p1" ]; then
		mkfs.ext4 -q "${DISK}p1"
		unshare -m sh -c "
			mount -o ro,noload '${DISK}p1' '$T/mnt' || exit 1
			'$IOBENCH' --name=w --rw=write --bs=64k --size=1m --filename='$DISK' >pw.out 2>pw.err; echo \$? >pw.rc
			umount '$T/mnt'
		"
		check "a disk holding a mounted partition is refused" \
			sh -c "[ \"\$(cat pw.rc)\" -eq 1 ] && grep -q 'busy: $(basename "$DISK")p1 is mounted on $T/mnt' pw.err"
	else
		skip "mounted partition guard" "no partitioned loop device"
	fi
	[ -n "$DISK" ] && losetup -d "$DISK"
else
	skip "mounted partition guard" "sfdisk is not installed"
fi
