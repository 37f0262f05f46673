#!/bin/sh
# lane: timing (tests/run.sh: never beside another timing script)
# Issue 7 (part): a pod imitated without a container runtime: a loop-mounted ext4 image plays
# the PVC; iobench runs as nobody in new mount and pid namespaces with the volume
# bind-mounted at /mnt, and again on the host mount of the same filesystem.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
trap 'pvc_cleanup; rm -rf "$T"' EXIT INT TERM
pvc_setup 160m "pod sandbox" || exit 0
chmod 777 host
job="--name=Sequ_Read_Testing --rw=read --bs=1m --size=64m --ioengine=libaio --iodepth=8 --direct=1"
# shellcheck disable=SC2086
"$IOBENCH" $job --filename="$T/host/testfile" --output-format=json >host.json 2>host.err
chmod 666 host/testfile
cp "$IOBENCH" "$T/iobench"
chmod 755 "$T" "$T/iobench"
# pod_run N: the job in the pod, its JSON in pod$N.json (pod.json for the first)
pod_run() {
	unshare -m -p -f --mount-proc sh -c "
	mount --make-rprivate /
	mount --bind '$T/host' /mnt
	setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
		'$T/iobench' $job --filename=/mnt/testfile --output-format=json >'$T/pod$1.json' 2>'$T/pod.err'
	echo \$? >'$T/pod.rc'
	[ \"\$(cat /proc/1/comm)\" = sh ] && echo pid-ns >'$T/pod.ns'
"
}
pod_run ""
check "in the pod: exit 0 as nobody, nothing on stderr" sh -c "[ \"\$(cat pod.rc)\" -eq 0 ] && [ ! -s pod.err ]"
check "the pod ran in its own pid namespace" [ -s pod.ns ]
check "pod and host read the same bytes (64 MiB)" \
	sh -c "[ \$(jq '.jobs[0].read.io_bytes' pod.json) -eq 67108864 ] && [ \$(jq '.jobs[0].read.io_bytes' host.json) -eq 67108864 ]"
# Two more pairs, alternating: the best of three each side (a 50 ms run, one moment of another
# test's load on the machine decides a single pair).
for n in 2 3; do
	# shellcheck disable=SC2086
	"$IOBENCH" $job --filename="$T/host/testfile" --output-format=json >host$n.json 2>/dev/null
	pod_run $n
done
check "bandwidth within noise (a factor of 3, best of 3 alternating runs each)" python3 - <<'PY'
import json
best = lambda side: max(json.load(open('%s%s.json' % (side, n)))['jobs'][0]['read']['bw'] for n in ('', '2', '3'))
h, p = best('host'), best('pod')
print('#   host %d KiB/s, pod %d KiB/s' % (h, p))
raise SystemExit(0 if h > 0 and p > 0 and 1 / 3 < h / p < 3 else 1)
PY
"$IOBENCH" --compare host.json pod.json >cmp.txt
check "--compare host.json pod.json succeeds" sh -c "[ $? -eq 0 ] && grep -q '^Sequ_Read_Testing' cmp.txt"
