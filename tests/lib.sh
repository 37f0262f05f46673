# Helpers for integration tests (POSIX sh). Source it; each check prints a TAP line.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
IOBENCH="$TOP/iobench"
T=$(mktemp -d "${TMPDIR:-/tmp}/iobench-test.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }
skip() { echo "ok - $1 # SKIP $2"; }
check() { # description, command...: passes when the command succeeds
	d=$1
	shift
	if "$@"; then ok "$d"; else notok "$d"; fi
}
# Does the test directory take O_DIRECT? (tmpfs before Linux 6.6 does not.)
direct_ok() {
	dd if=/dev/zero of="$T/.direct-probe" bs=4096 count=1 oflag=direct 2>/dev/null
	r=$?
	rm -f "$T/.direct-probe"
	return $r
}
have() { command -v "$1" >/dev/null 2>&1; }
# Is value within percent of target?
within() {
	awk -v v="$1" -v t="$2" -v p="$3" 'BEGIN { d = v - t; if (d < 0) d = -d; exit !(d <= t * p / 100) }'
}
# A paced rate (rate_iops, thinktime...): never above the target by more than 5%, and at least
# 60% of it. A loaded machine only makes a paced job slower (sleeps overshoot), so the upper
# bound is what the option promises; the lower one still catches a pause applied twice.
paced() { # value, target
	awk -v v="$1" -v t="$2" 'BEGIN { exit !(v <= t * 1.05 && v >= t * 0.6) }'
}
# A duration (runtime, startdelay...): never short of the target by more than 2%, and at
# most 50% over it (a loaded machine makes it later, never earlier).
lasts() { # value, target
	awk -v v="$1" -v t="$2" 'BEGIN { exit !(v >= t * 0.98 && v <= t * 1.5) }'
}
# Milliseconds since the epoch.
ms() { echo $(($(date +%s%N) / 1000000)); }
# Build a make target of the project (SANITIZE=none: a sanitizer run of the suite must not
# make it a sanitizer build). Prints ok, or not ok with the build's last lines; fails then.
make_target() { # target, description
	if (cd "$TOP" && make --no-print-directory "$1" SANITIZE=none) >"$T/make-$1.log" 2>&1; then
		ok "$2"
	else
		notok "$2"
		sed 's/^/#   /' "$T/make-$1.log" | tail -20
		return 1
	fi
}
# A pod sandbox's "PVC": an ext4 image of SIZE on a loop device, mounted at $T/host.
# Prints a skip line naming WHAT and fails when the machine cannot (not root, no tools, no
# loop device, no namespaces). Sets LOOP; pvc_cleanup unmounts and detaches it.
pvc_setup() { # size, what
	if [ "$(id -u)" != 0 ] || ! have losetup || ! have mkfs.ext4 || ! have setpriv ||
		! unshare -m -p -f --mount-proc true 2>/dev/null; then
		skip "$2" "needs root, losetup, mkfs.ext4, setpriv and unshare"
		return 1
	fi
	truncate -s "$1" "$T/pvc.img"
	LOOP=$(losetup -f --show "$T/pvc.img" 2>/dev/null)
	if [ -z "$LOOP" ]; then
		skip "$2" "no free loop device"
		return 1
	fi
	mkfs.ext4 -q "$LOOP" && mkdir -p "$T/host" && mount "$LOOP" "$T/host"
}
pvc_cleanup() {
	umount "$T/host" 2>/dev/null
	[ -n "${LOOP:-}" ] && losetup -d "$LOOP" 2>/dev/null
}
# refused DESCRIPTION WANT COMMAND...: exit 1 within 20 s, one stderr line matching the
# extended regex WANT, stdout empty.
refused() { # in the cwd: out.txt, err.txt
	d=$1 want=$2
	shift 2
	timeout 20 "$@" >out.txt 2>err.txt
	rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <err.txt)" -eq 1 ] && [ ! -s out.txt ] && grep -qE -- "$want" err.txt; then
		ok "$d"
	else
		notok "$d (exit $rc)"
		{ head -c 300 err.txt; echo; } | sed 's/^/#   /'
		{ head -c 200 out.txt; echo; } | sed 's/^/#   out: /'
	fi
}
