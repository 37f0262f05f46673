#!/bin/sh
# Install the Debian packages named as arguments that are not installed yet.
# As root this runs apt-get; as another user it only says, in one line, what is missing
# and how to install it, and exits 1. --for WHAT names what needs them (make test).
what="iobench"
if [ "${1:-}" = "--for" ]; then
	what="$2"
	shift 2
fi
if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "iobench: $what needs these Debian packages (or your system's equivalents), and dpkg-query is not here to check them: $*" >&2
	exit 1
fi
missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	how="apt-get install$missing"
	command -v sudo >/dev/null 2>&1 && how="sudo $how"
	echo "iobench: $what needs Debian packages that are not installed:$missing; install them with '$how' (as root, make installs them itself)" >&2
	exit 1
fi
echo "iobench: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# Two test scripts may install at once (tests/run.sh runs two lanes): one apt at a time, and
# wait for any other apt or dpkg rather than fail on its lock.
if command -v flock >/dev/null 2>&1; then
	exec 9>/tmp/iobench-apt.lock
	flock 9
fi
apt-get -o DPkg::Lock::Timeout=300 update -qq >/dev/null || exit 1
# shellcheck disable=SC2086
apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends $missing >/dev/null || exit 1
