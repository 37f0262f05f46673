#!/bin/sh
# Issue 17: engines whose libraries are optional (rbd: librbd, rados: librados; nbd and
# gfapi have their own scripts, t_nbd.sh and t_gfapi.sh, and their static lines here). The dynamic
# ./iobench lists them and loads the library only when a job asks for one; a missing library
# is one line naming the Debian package, exit 1 (simulated with IOBENCH_TEST_HIDE_LIBS where
# the library is installed); the engines build without librbd-dev/librados-dev; the static
# binary compiles them out and says so. Jobs against a real cluster: make test-ceph.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1

"$IOBENCH" --enghelp >eng.txt
check "--enghelp lists rbd and rados" sh -c "grep -qx '	rbd' eng.txt && grep -qx '	rados' eng.txt"
"$IOBENCH" --enghelp=rbd >rbd.txt
check "--enghelp=rbd: fio's options clustername, rbdname, pool, clientname, busy_poll" \
	sh -c "[ \"\$(cut -d' ' -f1 rbd.txt | tr '\n' ' ')\" = 'clustername rbdname pool clientname busy_poll ' ]"
"$IOBENCH" --enghelp=rados >rados.txt
check "--enghelp=rados: clustername, pool, clientname, conf, busy_poll, touch_objects" \
	sh -c "[ \"\$(cut -d' ' -f1 rados.txt | tr '\n' ' ')\" = 'clustername pool clientname conf busy_poll touch_objects ' ]"
check "./iobench is not linked with librbd or librados (they are loaded when a job asks)" \
	sh -c "! ldd '$IOBENCH' | grep -q -e librbd -e librados"

# One line on stderr equal to $2, nothing on stdout, exit 1.
refused() { # description, line, command...
	d=$1 want=$2
	shift 2
	"$@" >out.txt 2>err.txt
	rc=$?
	if [ $rc -eq 1 ] && [ ! -s out.txt ] && [ "$(cat err.txt)" = "$want" ]; then
		ok "$d"
	else
		notok "$d (exit $rc)"
		sed 's/^/#   /' err.txt | head -3
	fi
}
RBDJOB="--name=j --ioengine=rbd --pool=rbd --rbdname=img --rw=randread --bs=4k"
RADOSJOB="--name=j --ioengine=rados --pool=rados --rw=write --size=1m"
MSG_RBD="iobench: job 'j': ioengine=rbd: librbd.so.1 is not installed (install the Debian package librbd1: apt-get install librbd1)"
MSG_RADOS="iobench: job 'j': ioengine=%s: librados.so.2 is not installed (install the Debian package librados2: apt-get install librados2)"
# shellcheck disable=SC2086
refused "rbd without librbd: one line naming librbd1, exit 1" "$MSG_RBD" \
	env IOBENCH_TEST_HIDE_LIBS=librbd.so.1 "$IOBENCH" $RBDJOB
# shellcheck disable=SC2086,SC2059
refused "rbd without librados: one line naming librados2, exit 1" "$(printf "$MSG_RADOS" rbd)" \
	env IOBENCH_TEST_HIDE_LIBS=librados.so.2 "$IOBENCH" $RBDJOB
# shellcheck disable=SC2086,SC2059
refused "rados without librados: one line naming librados2, exit 1" "$(printf "$MSG_RADOS" rados)" \
	env IOBENCH_TEST_HIDE_LIBS="librbd.so.1 librados.so.2" "$IOBENCH" $RADOSJOB
if ! ldconfig -p 2>/dev/null | grep -q 'librbd\.so\.1 '; then
	# shellcheck disable=SC2086
	refused "rbd on this machine, where librbd1 is not installed: the same line" "$MSG_RBD" "$IOBENCH" $RBDJOB
fi
# shellcheck disable=SC2086
check "the missing library is found out before any other engine's job runs (no output file)" \
	sh -c "IOBENCH_TEST_HIDE_LIBS=librbd.so.1 '$IOBENCH' --name=a --ioengine=null --size=1m --output=o.json --name=b $RBDJOB 2>/dev/null; [ \$? -eq 1 ] && [ ! -s o.json ]"
# shellcheck disable=SC2086
refused "rbd without pool=: one line" "iobench: job 'j': ioengine=rbd: pool: not given (the Ceph pool holding the image)" \
	"$IOBENCH" --name=j --ioengine=rbd --rbdname=img --rw=read
refused "rados without size=: one line" \
	"iobench: job 'j': ioengine=rados: size: not given (objects have no size of their own: size= is the job's, split over its nrfiles objects)" \
	"$IOBENCH" --name=j --ioengine=rados --pool=rados --rw=write
refused "an rbd option for another engine is refused, naming the engines that have it" \
	"iobench: job 'j': option 'pool' is for the rbd rados engine, not psync" \
	"$IOBENCH" --name=j --size=1m --pool=rbd
refused "--readonly refuses a rados job (it creates and removes objects)" \
	"iobench: job 'j': ioengine=rados creates or removes files, and --readonly is set" \
	"$IOBENCH" --readonly --name=j --ioengine=rados --pool=rados --rw=read --size=1m
check "--parse-only takes fio's rbd and rados options without loading anything" \
	env IOBENCH_TEST_HIDE_LIBS="librbd.so.1 librados.so.2" "$IOBENCH" --parse-only $RBDJOB --clientname=admin \
	--clustername=ceph --busy_poll=1 --name=k --ioengine=rados --pool=p --conf=/etc/ceph/ceph.conf --touch_objects=0 \
	--clientname=admin
for d in "$TOP/../shared/fio-examples" "$TOP/../../shared/fio-examples"; do
	[ -f "$d/rbd.fio" ] || continue
	check "fio's examples rbd.fio and rados.fio parse" "$IOBENCH" --parse-only "$d/rbd.fio" "$d/rados.fio"
	break
done

# Without Debian's librbd-dev and librados-dev: the engines declare what they use.
for e in rbd rados ceph; do
	check "engines/$e.c builds without the Ceph headers (declarations of its own or engines/ceph.h's), -Werror" \
		cc -std=gnu11 -Wall -Wextra -Wshadow -Wno-unused-parameter -Wformat=2 -Werror -I"$TOP" -D_GNU_SOURCE \
		-DIOBENCH_NO_CEPH_HEADERS -c "$TOP/engines/$e.c" -o "$T/$e.o"
done

# The static binary: compiled out, and says so.
if [ "$(id -u)" != 0 ] && [ ! -x "$TOP/iobench-static" ]; then
	skip "the static binary names rbd and rados as compiled out" "make static needs root here"
	exit 0
fi
make_target static "make static" || exit 0
S=$TOP/iobench-static
"$S" --enghelp >seng.txt
check "iobench-static --enghelp: rbd and rados (compiled out of this static binary)" \
	sh -c "grep -qx '	rbd (compiled out of this static binary)' seng.txt && grep -qx '	rados (compiled out of this static binary)' seng.txt"
check "iobench-static --enghelp=rbd says it is compiled out and lists its options" \
	sh -c "'$S' --enghelp=rbd | head -1 | grep -q '^rbd: compiled out of this static binary (it needs librbd.so.1, ' && '$S' --enghelp=rbd | grep -q '^rbdname '"
# shellcheck disable=SC2086
refused "iobench-static: an rbd job is refused in one line naming the dynamic iobench" \
	"iobench: job 'j': ioengine=rbd is compiled out of this static binary (librbd.so.1 can be neither linked statically nor loaded by a static program); use the dynamically linked iobench" \
	"$S" $RBDJOB
# shellcheck disable=SC2086
check "iobench-static --parse-only still accepts rbd and rados jobs" "$S" --parse-only $RBDJOB --name=k $RADOSJOB
check "iobench-static holds no librbd or librados code (no rbd_aio_ / rados_aio_ names)" \
	sh -c "! grep -q -a -e rbd_aio_write -e rados_aio_write '$S'"
# nbd (libnbd) and gfapi, gfapi_async (libgfapi): compiled out the same way.
for e in nbd gfapi gfapi_async; do
	check "iobench-static --enghelp: $e (compiled out of this static binary)" grep -qx "	$e (compiled out of this static binary)" seng.txt
done
refused "iobench-static: an nbd job is refused in one line naming the dynamic iobench" \
	"iobench: job 'j': ioengine=nbd is compiled out of this static binary (libnbd.so.0 can be neither linked statically nor loaded by a static program); use the dynamically linked iobench" \
	"$S" --name=j --ioengine=nbd --uri=nbd://127.0.0.1 --rw=read
refused "iobench-static: a gfapi_async job is refused in one line naming the dynamic iobench" \
	"iobench: job 'j': ioengine=gfapi_async is compiled out of this static binary (libgfapi.so.0 can be neither linked statically nor loaded by a static program); use the dynamically linked iobench" \
	"$S" --name=j --ioengine=gfapi_async --volume=v --brick=h --size=1m
check "iobench-static --parse-only still accepts nbd and gfapi jobs" "$S" --parse-only --name=j --ioengine=nbd \
	--uri=nbd://127.0.0.1 --name=k --ioengine=gfapi --volume=v --brick=h --size=1m
check "iobench-static holds no libnbd or libgfapi code (no nbd_aio_pwrite / glfs_pwrite_async names)" \
	sh -c "! grep -q -a -e nbd_aio_pwrite -e glfs_pwrite_async '$S'"
