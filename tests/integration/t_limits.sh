#!/bin/sh
# Issue 18: the container's limits (cgroup CPU quota, memory limit, CPU set) in every output:
# the JSON's top-level "iobench container" object, the normal header, the CSV columns. Made
# here with a cgroup v1 hierarchy (cpu, memory, cpuset controllers) or cgroup v2 where that is
# what the machine mounts; the v2 files are read by the unit tests (tests/unit/test_sysinfo.c).
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
[ "$(id -u)" -eq 0 ] || { skip "container limits" "needs root to make cgroups"; exit 0; }
CPU="" MEM="" SET="" V=""
cleanup() { for d in $CPU $MEM $SET; do rmdir "$d" 2>/dev/null; done; rm -rf "$T"; }
trap cleanup EXIT INT TERM
if [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ] && [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
	V=v1
	CPU=/sys/fs/cgroup/cpu/iobench-limits-$$ MEM=/sys/fs/cgroup/memory/iobench-limits-$$
	mkdir "$CPU" "$MEM" || exit 1
	echo 100000 >"$CPU/cpu.cfs_period_us" && echo 150000 >"$CPU/cpu.cfs_quota_us"
	echo 268435456 >"$MEM/memory.limit_in_bytes"
	if [ -f /sys/fs/cgroup/cpuset/cpuset.cpus ] && [ "$(nproc)" -ge 2 ]; then
		SET=/sys/fs/cgroup/cpuset/iobench-limits-$$
		mkdir "$SET" && echo 0 >"$SET/cpuset.cpus" && cat /sys/fs/cgroup/cpuset/cpuset.mems >"$SET/cpuset.mems"
	fi
elif grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null &&
	grep -qw memory /sys/fs/cgroup/cgroup.subtree_control; then
	V=v2
	CPU=/sys/fs/cgroup/iobench-limits-$$
	mkdir "$CPU" || exit 1
	echo "150000 100000" >"$CPU/cpu.max" && echo 268435456 >"$CPU/memory.max"
	grep -qw cpuset /sys/fs/cgroup/cgroup.subtree_control && [ "$(nproc)" -ge 2 ] && echo 0 >"$CPU/cpuset.cpus" && SET=$CPU
else
	skip "container limits" "no cgroup cpu and memory controllers to set limits in"
	exit 0
fi
# Run iobench inside the cgroups (a subshell joins them, then execs).
inside() {
	sh -c "for d in $CPU $MEM $SET; do echo \$\$ >\"\$d/cgroup.procs\"; done; exec \"\$@\"" sh "$@"
}
job="--name=lim --ioengine=null --size=4m --bs=4k"
# shellcheck disable=SC2086
inside "$IOBENCH" $job --output-format=json >in.json 2>in.err
check "JSON ($V): \"iobench container\" holds cpu_limit 1.5 (a float) and memory_limit_bytes 268435456" \
	sh -c "[ \"\$(jq -c '.\"iobench container\" | [.cpu_limit, .memory_limit_bytes, (.cpu_limit|type)]' in.json)\" = '[1.5,268435456,\"number\"]' ]"
check "JSON: the quota's figures and cgroup version are there too" \
	sh -c "[ \"\$(jq -c '.\"iobench container\" | [.cpu_quota_us, .cpu_period_us, .cpu_cgroup_version, .memory_cgroup_version]' in.json)\" = '[150000,100000,${V#v},${V#v}]' ]"
if [ -n "$SET" ]; then
	check "JSON: the CPU set (cpu 0 of $(nproc))" \
		sh -c "[ \"\$(jq -c '.\"iobench container\" | [.cpuset, .cpuset_cpus, .online_cpus]' in.json)\" = '[\"0\",1,$(nproc)]' ]"
else
	skip "CPU set in the JSON" "no cpuset controller or one CPU"
fi
check "JSON: fio's keys are untouched (the same top-level keys as a run outside, plus the object)" \
	sh -c "[ \"\$('$IOBENCH' $job --output-format=json | jq -c 'keys')\" = \"\$(jq -c 'keys - [\"iobench container\"]' in.json)\" ]"
check "outside the cgroups: no \"iobench container\" object" \
	sh -c "[ \"\$('$IOBENCH' $job --output-format=json | jq -c '.\"iobench container\"')\" = null ]"
# shellcheck disable=SC2086
inside "$IOBENCH" $job >in.txt 2>&1
check "normal header: cgroup memory limit: 256 MiB ($V)" grep -q "^cgroup memory limit: 256 MiB (cgroup $V, " in.txt
check "normal header: cgroup CPU limit: 1.50 CPUs" grep -q "^cgroup CPU limit: 1.50 CPUs (cgroup $V quota 150000us per 100000us" in.txt
# shellcheck disable=SC2086
inside "$IOBENCH" $job --output-format=csv >in.csv 2>/dev/null
# shellcheck disable=SC2086
"$IOBENCH" $job --output-format=csv >out.csv 2>/dev/null
check "CSV: cpu_limit, memory_limit_bytes and cpuset columns filled inside" python3 - in.csv "$SET" <<'PY'
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))[0]
want_set = '0' if sys.argv[2] else ''
sys.exit(0 if (r['cpu_limit'], r['memory_limit_bytes'], r['cpuset']) == ('1.50', '268435456', want_set) else 1)
PY
check "CSV: the same columns empty outside" python3 - out.csv <<'PY'
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))[0]
sys.exit(0 if (r['cpu_limit'], r['memory_limit_bytes'], r['cpuset']) == ('', '', '') else 1)
PY
# Disk stats where the runtime hides /sys/dev/block (podman) or /sys/block as well: the same
# disk is reported, from /sys/block or from /proc/diskstats.
if have unshare && unshare -m true 2>/dev/null; then
	djob="--name=d --filename=$T/d.dat --size=4m --rw=read --output-format=json"
	# shellcheck disable=SC2086
	"$IOBENCH" $djob >d0.json 2>/dev/null
	# shellcheck disable=SC2086
	unshare -m sh -c "mount -t tmpfs none /sys/dev/block && exec '$IOBENCH' $djob" >d1.json 2>/dev/null
	# shellcheck disable=SC2086
	unshare -m sh -c "mount -t tmpfs none /sys/dev/block && mount -t tmpfs none /sys/block && exec '$IOBENCH' $djob" >d2.json 2>/dev/null
	d0=$(jq -r '.disk_util[0].name // empty' d0.json)
fi
if [ -z "${d0:-}" ]; then
	skip "disk stats with /sys/dev/block hidden" "no unshare -m, or no disk behind $T"
else
	check "disk stats with /sys/dev/block hidden: the same disk ($d0), from /sys/block" \
		sh -c "[ -n '$d0' ] && [ '$d0' != null ] && [ \"\$(jq -r '.disk_util[0].name' d1.json)\" = '$d0' ] && [ \$(jq '.disk_util[0].read_ios' d1.json) -ge 0 ]"
	check "... and with /sys/block hidden too: the same disk, from /proc/diskstats" \
		sh -c "[ \"\$(jq -r '.disk_util[0].name' d2.json)\" = '$d0' ]"
fi
