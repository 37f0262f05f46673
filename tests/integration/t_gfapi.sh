#!/bin/sh
# Issue 17: the gfapi and gfapi_async engines without a Gluster server (the jobs against a
# real volume and fio 3.33's gfapi engines are in `make test-gluster`, tests/gluster/gfapi.sh).
# Listed, fio's options, libgfapi loaded only when a job asks (a missing one is one line
# naming libgfapi0), built without headers (Debian ships none), fio's examples/gfapi.fio
# parses, and the setups refused before any I/O, each in one line.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1

"$IOBENCH" --enghelp >eng.txt
check "--enghelp lists gfapi and gfapi_async" sh -c "grep -qx '	gfapi' eng.txt && grep -qx '	gfapi_async' eng.txt"
for e in gfapi gfapi_async; do
	check "--enghelp=$e: fio's options volume, brick, single-instance" \
		sh -c "[ \"\$('$IOBENCH' --enghelp=$e | cut -d' ' -f1 | tr '\n' ' ')\" = 'volume brick single-instance ' ]"
done
check "./iobench is not linked with libgfapi (it is loaded when a job asks)" sh -c "! ldd '$IOBENCH' | grep -q libgfapi"
check "engines/gfapi.c builds with its own declarations (no libgfapi headers), -Werror" \
	cc -std=gnu11 -Wall -Wextra -Wshadow -Wno-unused-parameter -Wformat=2 -Werror -I"$TOP" -D_GNU_SOURCE \
	-c "$TOP/engines/gfapi.c" -o "$T/gfapi.o"

refused() { # description, line, command...: one line on stderr equal to $2, no stdout, exit 1
	d=$1 want=$2
	shift 2
	timeout 60 "$@" >out.txt 2>err.txt
	rc=$?
	if [ $rc -eq 1 ] && [ ! -s out.txt ] && [ "$(cat err.txt)" = "$want" ]; then
		ok "$d"
	else
		notok "$d (exit $rc)"
		sed 's/^/#   /' err.txt | head -3
	fi
}
G="--volume=gv0 --brick=127.0.0.1"
for e in gfapi gfapi_async; do
	# shellcheck disable=SC2086
	refused "$e without libgfapi: one line naming libgfapi0, exit 1" \
		"iobench: job 'j': ioengine=$e: libgfapi.so.0 is not installed (install the Debian package libgfapi0: apt-get install libgfapi0)" \
		env IOBENCH_TEST_HIDE_LIBS=libgfapi.so.0 "$IOBENCH" --name=j --ioengine=$e $G --rw=write --size=1m
done
# shellcheck disable=SC2086
check "--parse-only takes volume, brick and single-instance=0 without loading libgfapi" \
	env IOBENCH_TEST_HIDE_LIBS=libgfapi.so.0 "$IOBENCH" --parse-only --name=j --ioengine=gfapi $G --single-instance=0 \
	--size=1m --name=k --ioengine=gfapi_async $G --iodepth=8 --size=1m
refused "volume= missing: one line" "iobench: job 'j': ioengine=gfapi: volume: not given (the GlusterFS volume)" \
	"$IOBENCH" --name=j --ioengine=gfapi --brick=127.0.0.1 --size=1m
refused "brick= missing: one line" \
	"iobench: job 'j': ioengine=gfapi_async: brick: not given (the host of a server of the volume)" \
	"$IOBENCH" --name=j --ioengine=gfapi_async --volume=gv0 --size=1m
# shellcheck disable=SC2086
refused "size= missing: one line" \
	"iobench: job 'j': ioengine=gfapi: size: not given (the files on the volume are not sized beforehand: size= is the job's, split over its nrfiles files)" \
	"$IOBENCH" --name=j --ioengine=gfapi $G
# shellcheck disable=SC2086
refused "rw=trim: refused in one line (fio's gfapi engines cannot trim either)" \
	"iobench: job 'j': ioengine=gfapi cannot trim (rw=trim)" "$IOBENCH" --name=j --ioengine=gfapi $G --rw=trim --size=1m
# shellcheck disable=SC2086
refused "single-instance=1: refused in one line (not carried out)" \
	"iobench: job 'j': single-instance=1: one Gluster instance shared by the jobs is not carried out (each clone connects on its own; leave it at 0)" \
	"$IOBENCH" --name=j --ioengine=gfapi $G --single-instance=1 --size=1m
# shellcheck disable=SC2086
refused "--readonly refuses a gfapi job (it creates files on the volume)" \
	"iobench: job 'j': ioengine=gfapi creates or removes files, and --readonly is set" \
	"$IOBENCH" --readonly --name=j --ioengine=gfapi $G --rw=read --size=1m
if ldconfig -p 2>/dev/null | grep -q 'libgfapi\.so\.0 '; then
	# No glusterd on this machine's port 24007 (test-gluster's lives in its own namespace).
	if ! python3 -c 'import socket; socket.create_connection(("127.0.0.1", 24007), 1)' 2>/dev/null; then
		refused "no glusterd on the brick: one line, exit 1, in bounded time" \
			"iobench: job 'j': ioengine=gfapi: brick '127.0.0.1': no glusterd answers on port 24007: Connection refused" \
			"$IOBENCH" --name=j --ioengine=gfapi --volume=gv0 --brick=127.0.0.1 --size=1m
	fi
else
	skip "no glusterd on the brick" "libgfapi0 is not installed"
fi
for d in "$TOP/../shared/fio-examples" "$TOP/../../shared/fio-examples"; do
	[ -f "$d/gfapi.fio" ] || continue
	check "fio's examples/gfapi.fio parses" "$IOBENCH" --parse-only "$d/gfapi.fio"
	break
done
