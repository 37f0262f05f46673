#!/bin/sh
# Build the static archives Debian does not ship, for `make static`:
#   libcjson.a from Debian's cjson source package, and libisal.a (its crc unit, the only part
#   iobench uses) from Debian's libisal source package.
# Sources come from `apt-get source` (a deb-src entry for the configured mirror is added when
# there is none, as root); nothing is copied into the repository. Output: $1/include, $1/lib.
set -eu
out=${1:?usage: static-libs.sh OUTDIR}
mkdir -p "$out/src" "$out/include/cjson" "$out/include/isa-l" "$out/lib"
out=$(cd "$out" && pwd)
[ -f "$out/lib/libcjson.a" ] && [ -f "$out/lib/libisal.a" ] && exit 0

have_src() { apt-cache showsrc "$1" 2>/dev/null | grep -q '^Package:'; }
if ! have_src cjson || ! have_src libisal; then
	if [ "$(id -u)" != 0 ]; then
		echo "iobench: make static needs deb-src entries (run as root once, or add them by hand)" >&2
		exit 1
	fi
	# Same mirror and suites as the binary entries, as a deb822 source entry.
	f=/etc/apt/sources.list.d/iobench-deb-src.sources
	uri=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
	suite=$(sed -n 's/^Suites: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
	# a root made by debootstrap has a one-line sources.list instead: "deb URI SUITE main"
	[ -n "$uri" ] || uri=$(sed -n 's/^deb  *\(\[[^]]*\]  *\)\{0,1\}\([^ ]*\) .*/\2/p' /etc/apt/sources.list 2>/dev/null | head -1)
	[ -n "$suite" ] || suite=$(sed -n 's/^deb  *\(\[[^]]*\]  *\)\{0,1\}[^ ]*  *\([^ ]*\).*/\2/p' /etc/apt/sources.list 2>/dev/null | head -1)
	[ -n "$uri" ] || uri=http://deb.debian.org/debian
	[ -n "$suite" ] || suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
	printf 'Types: deb-src\nURIs: %s\nSuites: %s %s-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$uri" "$suite" "$suite" > "$f"
	echo "iobench: added $f" >&2
	if command -v flock >/dev/null 2>&1; then
		flock /tmp/iobench-apt.lock apt-get -o DPkg::Lock::Timeout=300 update -qq >/dev/null
	else
		apt-get -o DPkg::Lock::Timeout=300 update -qq >/dev/null
	fi
fi

# apt-get warns when root downloads into a folder _apt cannot write; that is not a failure.
fetch() {
	apt-get source -qq --download-only "$1" >/dev/null 2>"$out/src/apt.err" || { cat "$out/src/apt.err" >&2; exit 1; }
}
cd "$out/src"
if [ ! -d cjson ]; then
	fetch cjson
	dpkg-source -x -q cjson_*.dsc cjson >/dev/null
fi
if [ ! -d isal ]; then
	fetch libisal
	dpkg-source -x -q libisal_*.dsc isal >/dev/null
fi

CC=${CC:-cc}
echo "  CC    cjson (static)"
"$CC" -O2 -fno-strict-aliasing -c -o cjson/cJSON.o cjson/cJSON.c
ar rcs "$out/lib/libcjson.a" cjson/cJSON.o
cp cjson/cJSON.h "$out/include/cjson/"

echo "  AS    isa-l crc (static)"
make -s -C isal -f Makefile.unx units=crc bin/isa-l.a >/dev/null
cp isal/bin/isa-l.a "$out/lib/libisal.a"
cp isal/include/crc.h isal/include/crc64.h "$out/include/isa-l/"
