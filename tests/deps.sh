#!/bin/sh
# Install the Debian packages named as arguments that are not installed yet.
# As root this runs apt-get; as another user it only says what is missing.
missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "iobench: missing Debian packages:$missing (run as root, or: sudo apt-get install$missing)" >&2
	exit 1
fi
echo "iobench: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || exit 1
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null || exit 1
