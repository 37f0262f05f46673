#!/bin/sh
# Issue 7: `make static` gives a statically linked ./iobench-static that runs in an empty
# root (what the scratch image holds) as UID 65532, in new mount and pid namespaces, with a
# loop-mounted ext4 "PVC" at /data and a cgroup CPU quota reported in its header.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
if [ "$(id -u)" != 0 ]; then
	skip "static build" "needs root (apt-get source, deb-src entry)"
	exit 0
fi
make_target static "make static" || exit 0
check "file says statically linked" sh -c "file '$TOP/iobench-static' | grep -q 'statically linked'"

# The image's root: the binary, the jobs, /data; nothing else (no libc, no /etc, no shell).
mkdir -p root/bin root/jobs root/data root/proc root/sys
cp "$TOP/iobench-static" root/bin/iobench
cp "$TOP"/jobs/*.fio root/jobs/
chmod 755 "$T" root root/bin root/jobs
chown 65532:65532 root/data
check "the scratch root holds no shared library" sh -c "! find root -name '*.so*' | grep -q ."
chroot --userspec=65532:65532 root /bin/iobench --name=img --filename=/data/f --size=4m --bs=64k \
	--rw=write --verify=crc32c --verify_state_save=0 --ioengine=io_uring --output-format=json >img.json 2>img.err
check "in the empty root as 65532: write and verify (ISA-L crc32c), JSON on stdout" \
	sh -c "[ \$(jq '.jobs[0].write.io_bytes' img.json) -eq 4194304 ] && [ \$(jq '.jobs[0].error' img.json) -eq 0 ] && [ ! -s img.err ]"
chroot --userspec=65532:65532 root /bin/iobench --name=img --filename=/data/f --size=4m --bs=64k \
	--rw=write --verify=sha256 --verify_state_save=0 --output-format=json >/dev/null 2>&1
chroot --userspec=65532:65532 root /bin/iobench --name=img --filename=/data/f --size=4m --bs=64k \
	--rw=read --verify=sha256 --do_verify=1 --verify_only --output-format=json >img2.json 2>img2.err
check "sha256 verify-only (OpenSSL) in the empty root" sh -c "[ \$(jq '.jobs[0].error' img2.json) -eq 0 ] && [ ! -s img2.err ]"
rm -f root/data/f

# A pod's cpuset smaller than the machine: cpus_allowed outside it degrades to a note.
CS=/sys/fs/cgroup/cpuset/iobench-test-$$
if [ -f /sys/fs/cgroup/cpuset/cpuset.cpus ] && [ "$(nproc)" -ge 2 ] && mkdir "$CS" 2>/dev/null; then
	echo 0 >"$CS/cpuset.cpus"
	cat /sys/fs/cgroup/cpuset/cpuset.mems >"$CS/cpuset.mems"
	sh -c "echo \$\$ > '$CS/tasks'; exec '$IOBENCH' --name=a --ioengine=null --size=1m --cpus_allowed=1 \
		--output-format=normal,json" >aff.out 2>aff.err
	rc=$?
	rmdir "$CS"
	check "cpus_allowed outside the cgroup's cpuset: exit 0, all the I/O, one note on stderr" \
		sh -c "[ $rc -eq 0 ] && [ \$(sed -n '/^{/,/^}/p' aff.out | jq '.jobs[0].read.io_bytes') -eq 1048576 ] && [ \$(wc -l <aff.err) -eq 1 ] && grep -q 'cpus_allowed: outside this process.s CPU set' aff.err"
	check "the header names the restricted CPU set" grep -q "^CPU set: 0 (1 of $(nproc) online CPUs)" aff.out
else
	skip "cpus_allowed outside a cpuset" "no cgroup v1 cpuset hierarchy or one CPU"
fi

CG=""
trap 'pvc_cleanup; [ -n "$CG" ] && rmdir "$CG" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
pvc_setup 96m "static binary in the pod sandbox" || exit 0
chown 65532:65532 host
# A CPU quota of 1.5 CPUs, as a pod's limits give (cgroup v1 cpu controller or v2 cpu.max).
quota=""
if [ -d /sys/fs/cgroup/cpu ] && [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
	CG=/sys/fs/cgroup/cpu/iobench-test-$$
	mkdir "$CG" && echo 100000 >"$CG/cpu.cfs_period_us" && echo 150000 >"$CG/cpu.cfs_quota_us" && quota=v1
elif grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	CG=/sys/fs/cgroup/iobench-test-$$
	mkdir "$CG" && echo "150000 100000" >"$CG/cpu.max" && quota=v2
fi
job="--name=Sequ_Read_Testing --rw=read --bs=1m --size=32m --ioengine=libaio --iodepth=8 --direct=1"
# shellcheck disable=SC2086
"$IOBENCH" $job --filename="$T/host/testfile" --output-format=json >host.json 2>host.err
chown 65532:65532 host/testfile
unshare -m -p -f --mount-proc sh -c "
	[ -n '$CG' ] && echo \$\$ > '$CG/cgroup.procs'
	mount --make-rprivate /
	mount --bind '$T/host' '$T/root/data'
	mount -t proc proc '$T/root/proc'
	mount --rbind /sys '$T/root/sys'
	chroot --userspec=65532:65532 '$T/root' /bin/iobench $job --filename=/data/testfile \
		--output-format=normal,json >'$T/pod.out' 2>'$T/pod.err'
	echo \$? >'$T/pod.rc'
"
check "pod: static binary as 65532 on /data (own /proc, host /sys), exit 0, nothing on stderr" \
	sh -c "[ \"\$(cat pod.rc)\" -eq 0 ] && [ ! -s pod.err ]"
sed -n '/^{/,/^}/p' pod.out >pod.json
check "pod and host read the same 32 MiB" \
	sh -c "[ \$(jq '.jobs[0].read.io_bytes' pod.json) -eq 33554432 ] && [ \$(jq '.jobs[0].read.io_bytes' host.json) -eq 33554432 ]"
"$IOBENCH" --compare host.json pod.json >cmp.txt
check "--compare host.json pod.json succeeds" sh -c "[ $? -eq 0 ] && grep -q '^Sequ_Read_Testing' cmp.txt"
if [ -n "$quota" ]; then
	check "the header names the cgroup CPU quota ($quota, 1.50 CPUs)" \
		grep -q "^cgroup CPU limit: 1.50 CPUs (cgroup $quota quota 150000us per 100000us" pod.out
	check "the host run (no quota) has no such line" sh -c "! '$IOBENCH' --name=h --ioengine=null --size=1m | grep -q 'cgroup CPU limit'"
else
	skip "cgroup CPU quota in the header" "no cgroup cpu controller to set a quota in"
fi
