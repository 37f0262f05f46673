#!/bin/sh
# Issue 18: `make test-container` (not in `make test`): the image built from the Dockerfile
# with a real OCI runtime (podman with runc) and run the way a restricted pod runs it: a
# read-only root, all capabilities dropped, no-new-privileges, a non-root user, CPU and
# memory limits, a loop-mounted ext4 as the PVC at /data, the runtime's default seccomp
# profile. The build stage runs on debian:bookworm pulled, or else imported from a root made
# by debootstrap. Everything made here (containers, images, the volume, the loop device) is
# removed at the end, also when a check fails.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
if [ "$(id -u)" != 0 ] || ! have podman || ! have debootstrap || ! have losetup || ! have mkfs.ext4; then
	skip "containers" "needs root, podman, debootstrap, losetup and mkfs.ext4 (make test-container installs them)"
	exit 0
fi
VERSION=$(sed -n 's/^VERSION *:= *//p' "$TOP/Makefile")
IMG="localhost/iobench-test:$VERSION"
BASE_MADE=""
cleanup() {
	podman rm -f iobench-test-stop >/dev/null 2>&1
	podman rmi -f "$IMG" >/dev/null 2>&1
	[ -n "$BASE_MADE" ] && podman rmi -f "$BASE_MADE" >/dev/null 2>&1
	podman image prune -f >/dev/null 2>&1 # the build stage's layers
	umount "$T/pvc" 2>/dev/null
	[ -n "${LOOP:-}" ] && losetup -d "$LOOP" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

# The build stage's base: pulled where a registry answers, else made from debootstrap.
if ! podman image exists debian:bookworm && ! timeout 60 podman pull -q docker.io/library/debian:bookworm >/dev/null 2>&1; then
	if debootstrap --variant=minbase bookworm "$T/root" http://deb.debian.org/debian >debootstrap.log 2>&1 &&
		tar -C "$T/root" -c . | podman import -q - localhost/debian:bookworm >/dev/null; then
		BASE_MADE=localhost/debian:bookworm
		rm -rf "$T/root"
		ok "debian:bookworm for the build stage: imported from a debootstrap root (no registry here)"
	else
		notok "debian:bookworm for the build stage: neither pulled nor made by debootstrap"
		tail -5 debootstrap.log | sed 's/^/#   /'
		exit 0
	fi
else
	ok "debian:bookworm for the build stage: from a registry"
fi
t0=$(ms)
podman build --pull=never -q -t "$IMG" "$TOP" >build.log 2>&1
rc=$?
check "podman build of the Dockerfile: exit $rc ($(($(ms) - t0)) ms)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || { tail -20 build.log | sed 's/^/#   /'; exit 0; }
check "the image holds only /bin/iobench, /jobs and /data, and runs as 65532" \
	sh -c "[ \"\$(podman inspect '$IMG' --format '{{.Config.User}} {{.Config.WorkingDir}} {{index .Config.Entrypoint 0}}')\" = '65532:65532 /data /bin/iobench' ]"

# The PVC: a loop-mounted ext4, writable by the pod's user (what fsGroup does).
truncate -s 1g pvc.img
LOOP=$(losetup -f --show pvc.img) && mkfs.ext4 -q "$LOOP" && mkdir pvc && mount "$LOOP" pvc && chown 65532:65532 pvc || {
	notok "a loop ext4 as the PVC"
	exit 0
}
# This workplace's hard limits are lower than what podman asks for by default (nofile,
# nproc): pass ours. A cluster needs nothing of the kind.
LIMITS="--ulimit nofile=$(ulimit -Hn):$(ulimit -Hn) --ulimit nproc=4096:4096"
pod() { # the restricted pod: read-only root, no capabilities, no new privileges, 65532, limits
	# shellcheck disable=SC2086
	podman run --rm $LIMITS --read-only --cap-drop=ALL --security-opt=no-new-privileges --user 65532:65532 \
		--cpus=1.5 --memory=256m -v "$T/pvc:/data" "$@"
}
SEED="-direct=1 -iodepth=32 -rw=read -ioengine=libaio -bs=4m -size=128m -numjobs=1 -runtime=3 -group_reporting
	-filename=testfile --allow_mounted_write=1 -name=Sequ_Read_Testing"
# shellcheck disable=SC2086
pod "$IMG" $SEED --output-format=json >pod.json 2>pod.err
rc=$?
check "the seed command in the pod: exit $rc, one JSON document, nothing on stderr" \
	sh -c "[ $rc -eq 0 ] && [ \$(jq -s length pod.json) -eq 1 ] && [ ! -s pod.err ]"
check "... it read the 128 MiB" [ "$(jq '.jobs[0].read.io_bytes' pod.json)" = $((128 << 20)) ]
check "... the JSON carries the limits: 1.5 CPUs, 256 MiB" \
	sh -c "[ \"\$(jq -c '.\"iobench container\" | [.cpu_limit, .memory_limit_bytes]' pod.json)\" = '[1.5,268435456]' ]"
check "... disk stats present (the loop device)" sh -c "jq -e '.disk_util | length > 0' pod.json >/dev/null"
# shellcheck disable=SC2086
pod "$IMG" $SEED >pod.txt 2>&1
check "... the normal header names the CPU and memory limits" \
	sh -c "grep -q '^cgroup CPU limit: 1.50 CPUs' pod.txt && grep -q '^cgroup memory limit: 256 MiB' pod.txt"
(cd pvc && "$IOBENCH" $SEED --output-format=json >../host.json 2>/dev/null)
"$IOBENCH" --compare host.json pod.json >cmp.txt 2>cmp.err
check "--compare host.json pod.json: exit $? (0), a row per metric" \
	sh -c "[ $? -eq 0 ] && grep -qE '^Sequ_Read_Testing +read +iops' cmp.txt"

# The bs x rw sweep of the README, with jq, in the pod.
rows=0
for BS in 4k 64k; do
	for RW in write randwrite read randread; do
		pod "$IMG" --filename=/data/sweep -direct=1 -iodepth=8 -rw=$RW -ioengine=libaio -bs=$BS -size=16m -numjobs=2 \
			-runtime=1 -name=8-$RW-$BS --group_reporting --output-format=json 2>/dev/null |
			jq -cr '[."global options".iodepth,."global options".bs, ."global options".rw,
				.jobs[0].read.iops, .jobs[0].write.iops, .jobs[0].read.bw, .jobs[0].write.bw]|@csv' >>rows.csv
	done
done
rows=$(grep -c '^"8","' rows.csv)
check "the bs x rw sweep with jq in the pod: $rows of 8 rows" [ "$rows" -eq 8 ]

# podman stop (SIGTERM to the container's PID 1): the results so far are written.
podman run -d --name iobench-test-stop $LIMITS --read-only --cap-drop=ALL --security-opt=no-new-privileges \
	--user 65532:65532 -v "$T/pvc:/data" "$IMG" --name=s --ioengine=null --size=1g --time_based --runtime=60 \
	--output-format=json --output=/data/stop.json >/dev/null
sleep 3
podman stop -t 10 iobench-test-stop >/dev/null 2>&1
code=$(podman inspect iobench-test-stop --format '{{.State.ExitCode}}')
podman rm -f iobench-test-stop >/dev/null 2>&1
stop_ms=$(jq '.jobs[0].read.runtime' pvc/stop.json 2>/dev/null)
check "podman stop: exit $code (143), a valid JSON result on the volume covering ~3 s (${stop_ms:-none} ms)" \
	sh -c "[ '$code' = 143 ] && [ '${stop_ms:-0}' -ge 2000 ] && [ '${stop_ms:-0}' -le 6000 ]"

# io_uring: refused by the runtime's default seccomp profile, with a message that says so;
# allowed by deploy/seccomp-io_uring.py's profile (the default plus the three calls).
pod "$IMG" --name=u --ioengine=io_uring --filename=/data/testfile --size=16m --output-format=json >u.json 2>u.err
urc=$?
check "io_uring under the default seccomp profile: exit $urc (1), one line naming seccomp and suggesting libaio" \
	sh -c "[ $urc -eq 1 ] && [ \$(wc -l <u.err) -eq 1 ] && grep -q 'seccomp' u.err && grep -q 'ioengine=libaio' u.err"
DEFAULT_PROFILE=/usr/share/containers/seccomp.json
if [ -f "$DEFAULT_PROFILE" ]; then
	/usr/bin/python3 "$TOP/deploy/seccomp-io_uring.py" "$DEFAULT_PROFILE" >iou.json
	pod --security-opt seccomp="$T/iou.json" "$IMG" --name=u --ioengine=io_uring --filename=/data/testfile --size=16m \
		--output-format=json >u2.json 2>u2.err
	check "io_uring with deploy/seccomp-io_uring.py's profile: exit $?, 16 MiB read" \
		sh -c "[ \$(jq '.jobs[0].read.io_bytes' u2.json) -eq $((16 << 20)) ] && [ \$(jq '.jobs[0].error' u2.json) -eq 0 ]"
else
	skip "io_uring with the profile that allows it" "no default profile at $DEFAULT_PROFILE"
fi
