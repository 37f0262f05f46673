#!/bin/sh
# Issue 17: the nbd engine (libnbd, loaded at run time) against a real NBD server: nbdkit's
# memory plugin on a unix socket under $T, started here and stopped by its pid file at the
# end. The same jobs through fio 3.33's nbd engine and iobench on the same server: io_bytes
# and total_ios per direction, JSON key paths and number types, option maps, a clean
# stdout; data written by one tool verified by the other; trims (fio's nbd engine trims:
# NBD_CMD_TRIM) leave zeros; fio's examples/nbd.fio runs; hostile setups (bad uri, no
# server, a region past the export) are one line, exit 1, in bounded time; a missing libnbd
# is one line naming libnbd0.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1

"$IOBENCH" --enghelp >eng.txt
check "--enghelp lists nbd" grep -qx '	nbd' eng.txt
check "--enghelp=nbd: fio's option uri" sh -c "[ \"\$('$IOBENCH' --enghelp=nbd | cut -d' ' -f1)\" = uri ]"
check "./iobench is not linked with libnbd (it is loaded when a job asks)" sh -c "! ldd '$IOBENCH' | grep -q libnbd"
check "engines/nbd.c builds without libnbd-dev (its own declarations), -Werror" \
	cc -std=gnu11 -Wall -Wextra -Wshadow -Wno-unused-parameter -Wformat=2 -Werror -I"$TOP" -D_GNU_SOURCE \
	-DIOBENCH_NO_NBD_HEADERS -c "$TOP/engines/nbd.c" -o "$T/nbd.o"

# One line on stderr equal to $2, nothing on stdout, exit 1, within 15 s.
refused() { # description, line, command...
	d=$1 want=$2
	shift 2
	t0=$(ms)
	timeout 60 "$@" >out.txt 2>err.txt
	rc=$? took=$(($(ms) - t0))
	if [ $rc -eq 1 ] && [ ! -s out.txt ] && [ "$(cat err.txt)" = "$want" ] && [ $took -lt 15000 ]; then
		ok "$d"
	else
		notok "$d (exit $rc, $took ms)"
		sed 's/^/#   /' err.txt | head -3
	fi
}
S=$T/nbd.sock
U="nbd+unix:///?socket=$S"
JOB="--name=j --ioengine=nbd --rw=randwrite --bs=4k --size=1m"
# shellcheck disable=SC2086
refused "nbd without libnbd: one line naming libnbd0, exit 1" \
	"iobench: job 'j': ioengine=nbd: libnbd.so.0 is not installed (install the Debian package libnbd0: apt-get install libnbd0)" \
	env IOBENCH_TEST_HIDE_LIBS=libnbd.so.0 "$IOBENCH" $JOB --uri="$U"
check "--parse-only takes uri= without loading libnbd" \
	env IOBENCH_TEST_HIDE_LIBS=libnbd.so.0 "$IOBENCH" --parse-only $JOB --uri="$U"
refused "an nbd option for another engine is refused" "iobench: job 'j': option 'uri' is for the nbd engine, not psync" \
	"$IOBENCH" --name=j --size=1m --uri="$U"

if ! have nbdkit || ! have fio || ! have python3 || ! ldconfig -p 2>/dev/null | grep -q 'libnbd\.so\.0 '; then
	skip "nbd against nbdkit and fio 3.33" "nbdkit, fio, python3 or libnbd0 is not installed (make test installs them as root)"
	exit 0
fi
# The server: 256 MiB of memory (sparse), shared by every connection; stopped at the end.
stop_server() { # [pid file]
	f=${1:-$T/nbdkit.pid}
	[ -s "$f" ] || return 0
	p=$(cat "$f")
	kill "$p" 2>/dev/null || return 0
	for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || return 0; sleep 0.1; done
	kill -9 "$p" 2>/dev/null
}
trap 'stop_server; stop_server "$T/ro.pid"; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP PIPE # a reader gone (| head) must not leave nbdkit running
if ! nbdkit -U "$S" -P "$T/nbdkit.pid" memory size=256M 2>nbdkit.err; then
	notok "nbdkit serves 256 MiB of memory on $S"
	sed 's/^/#   /' nbdkit.err | head -3
	exit 0
fi
for _ in $(seq 50); do [ -S "$S" ] && break; sleep 0.1; done
check "nbdkit serves 256 MiB of memory on a unix socket under \$T" [ -S "$S" ]

# Hostile setups: one line each, exit 1, in bounded time.
# shellcheck disable=SC2086
refused "a bad uri: libnbd's reason in one line, exit 1" \
	"iobench: job 'j': ioengine=nbd: uri 'foo://x': unknown NBD URI scheme: foo: Invalid argument" \
	"$IOBENCH" $JOB --uri=foo://x
# shellcheck disable=SC2086
refused "no uri: one line naming the option" \
	"iobench: job 'j': ioengine=nbd: uri: not given (the NBD server's URI: nbd://HOST[:PORT]/EXPORT or nbd+unix:///EXPORT?socket=PATH)" \
	"$IOBENCH" $JOB
# shellcheck disable=SC2086
refused "no server on the socket: one line, exit 1" \
	"iobench: job 'j': ioengine=nbd: uri 'nbd+unix:///?socket=$T/none.sock': connect: No such file or directory" \
	"$IOBENCH" $JOB --uri="nbd+unix:///?socket=$T/none.sock"
# shellcheck disable=SC2086
refused "no server on a loopback port: one line, exit 1" \
	"iobench: job 'j': ioengine=nbd: uri 'nbd://127.0.0.1:1': connect: 127.0.0.1:1: could not connect to remote host: Connection refused" \
	"$IOBENCH" $JOB --uri=nbd://127.0.0.1:1
refused "size beyond the export: one line, exit 1 (fio silently does the 256 MiB)" \
	"iobench: job 'j': offset + size (536870912 bytes) is beyond the end of the nbd target (268435456 bytes)" \
	"$IOBENCH" --name=j --ioengine=nbd --uri="$U" --rw=write --size=512m
refused "offset + size beyond the export: one line, exit 1" \
	"iobench: job 'j': offset + size (270532608 bytes) is beyond the end of the nbd target (268435456 bytes)" \
	"$IOBENCH" --name=j --ioengine=nbd --uri="$U" --rw=read --offset=250m --size=8m

if nbdkit -r -U "$T/ro.sock" -P "$T/ro.pid" memory size=16M 2>/dev/null; then
	refused "a read-only export (nbdkit -r) and a write job: one line, exit 1" \
		"iobench: job 'j': ioengine=nbd: uri 'nbd+unix:///?socket=$T/ro.sock': the export is read-only and rw=write writes" \
		"$IOBENCH" --name=j --ioengine=nbd --uri="nbd+unix:///?socket=$T/ro.sock" --rw=write
	check "and a read job on it runs (16 MiB read)" sh -c "[ \$('$IOBENCH' --name=j --ioengine=nbd \
		--uri='nbd+unix:///?socket=$T/ro.sock' --rw=read --bs=64k --output-format=json | jq '.jobs[0].read.io_bytes') -eq 16777216 ]"
	stop_server "$T/ro.pid"
fi

# The same jobs through both tools on the same server.
export U FIO_DIFF_IGNORE_TOP=disk_util
EX=""
for d in "$TOP/../shared/fio-examples" "$TOP/../../shared/fio-examples"; do [ -f "$d/nbd.fio" ] && EX=$d; done
# fio's example, with 1 s instead of 60 (time_based: the work differs), and bounded by size.
if [ -n "$EX" ]; then
	sed 's/^runtime=60/runtime=1/' "$EX/nbd.fio" >"$T/nbd-1s.fio"
	sed -e '/^time_based/d' -e '/^runtime=/d' -e 's/^iodepth=64/iodepth=16\nsize=4m/' "$EX/nbd.fio" >"$T/nbd-4m.fio"
	check "fio's examples/nbd.fio parses" env unixsocket=1 "$IOBENCH" --parse-only "$EX/nbd.fio"
fi
{
	cat <<'EOF'
nbd-randwrite | --name=w --ioengine=nbd --uri=$U --rw=randwrite --bs=4k --iodepth=16 --size=8m | jobs,ios,keys,opts,clean,files
nbd-read-whole | --name=r --ioengine=nbd --uri=$U --rw=read --bs=1m --iodepth=4 | jobs,ios,keys,clean
nbd-randread-offset | --name=r --ioengine=nbd --uri=$U --rw=randread --bs=8k --iodepth=8 --offset=32m --size=8m | jobs,ios,keys,clean
nbd-randrw | --name=m --ioengine=nbd --uri=$U --rw=randrw --bs=16k --iodepth=8 --size=16m | jobs,split,keys,clean
nbd-randtrim | --name=t --ioengine=nbd --uri=$U --rw=randtrim --bs=64k --iodepth=4 --size=8m | jobs,ios,keys,clean
nbd-trimwrite | --name=t --ioengine=nbd --uri=$U --rw=trimwrite --bs=64k --iodepth=4 --size=4m | jobs,ios,keys,clean
nbd-numjobs | --name=n --ioengine=nbd --uri=$U --rw=randwrite --bs=4k --iodepth=8 --size=4m --numjobs=2 --group_reporting | jobs,ios,keys,clean
nbd-verify | --name=v --ioengine=nbd --uri=$U --rw=randwrite --bs=64k --iodepth=8 --size=8m --verify=crc32c | jobs,ios,keys,clean
nbd-fsync | --name=f --ioengine=nbd --uri=$U --rw=write --bs=64k --iodepth=4 --size=4m --end_fsync=1 | jobs,ios,clean
EOF
	if [ -n "$EX" ]; then
		echo "nbd-example-1s | $T/nbd-1s.fio | jobs,keys,opts,clean"
		echo "nbd-example-4m | $T/nbd-4m.fio | jobs,split,keys,opts,clean"
	fi
} >cases
unixsocket=$S python3 "$TOP/tests/tools/fio_diff.py" "$IOBENCH" "$T/work" <cases
[ -n "$EX" ] || skip "fio's examples/nbd.fio" "the fio-examples folder is not there"

# Data: written by one tool, verified by the other; trimmed blocks read back as zeros.
W="--name=d --ioengine=nbd --uri=$U --rw=write --bs=64k --iodepth=8 --size=8m --offset=64m --verify=crc32c"
# shellcheck disable=SC2086
"$IOBENCH" $W --do_verify=0 --output-format=json >iw.json 2>iw.err
# shellcheck disable=SC2086
fio $W --verify_only --output-format=json 2>fv.err | sed -n '/^{/,$p' >fv.json
check "iobench writes 8 MiB with crc32c headers, fio --verify_only reads all 128 blocks back and passes" \
	sh -c "[ \$(jq '.jobs[0].write.io_bytes' iw.json) -eq 8388608 ] && [ \$(jq '.jobs[0].error' fv.json) -eq 0 ] && [ \$(jq '.jobs[0].read.total_ios' fv.json) -eq 128 ]"
W2=$(echo "$W" | sed 's/offset=64m/offset=96m/; s/crc32c/md5/')
# shellcheck disable=SC2086
fio $W2 --do_verify=0 --output-format=json >/dev/null 2>fw.err
# shellcheck disable=SC2086
"$IOBENCH" $W2 --verify_only --output-format=json >iv.json 2>iv.err
check "fio writes 8 MiB with md5 headers, iobench --verify_only reads all 128 blocks back and passes" \
	sh -c "[ \$(jq '.jobs[0].error' iv.json) -eq 0 ] && [ \$(jq '.jobs[0].read.total_ios' iv.json) -eq 128 ] && [ ! -s iv.err ]"
"$IOBENCH" --name=t --ioengine=nbd --uri="$U" --rw=trim --bs=64k --size=8m --offset=64m --output-format=json >it.json 2>it.err
# shellcheck disable=SC2086
fio $W --verify_only --output-format=json >/dev/null 2>&1
check "after iobench trims those 8 MiB, fio's verify of them fails" [ $? -ne 0 ]
check "and both tools read them back as zeros (verify=pattern, verify_pattern=0)" \
	sh -c "fio --name=z --ioengine=nbd --uri='$U' --rw=read --bs=64k --size=8m --offset=64m --verify=pattern \
		--verify_pattern=0 >/dev/null 2>&1 && '$IOBENCH' --name=z --ioengine=nbd --uri='$U' --rw=read --bs=64k \
		--size=8m --offset=64m --verify=pattern --verify_pattern=0 >/dev/null"
check "trim counted: 128 trims, 8 MiB" sh -c "[ \$(jq '.jobs[0].trim.total_ios' it.json) -eq 128 ] && [ \$(jq '.jobs[0].trim.io_bytes' it.json) -eq 8388608 ]"

# The server going away while the job runs: the job fails, in one line, in bounded time.
"$IOBENCH" --name=gone --ioengine=nbd --uri="$U" --rw=randread --bs=4k --iodepth=8 --time_based --runtime=30 \
	--output-format=json >gone.json 2>gone.err &
job=$!
sleep 1
t0=$(ms)
stop_server
wait $job
rc=$? took=$(($(ms) - t0))
check "nbdkit stopped under a running job: iobench exits 1 within 10 s ($took ms)" sh -c "[ $rc -eq 1 ] && [ $took -lt 10000 ]"
check "and says why on stderr (the connection is gone: ESHUTDOWN)" grep -q "Cannot send after transport endpoint shutdown" gone.err
sed 's/^/#   /' gone.err | head -3
check "no nbdkit of this test is left" sh -c "! kill -0 \$(cat '$T/nbdkit.pid') 2>/dev/null && ! kill -0 \$(cat '$T/ro.pid') 2>/dev/null"
