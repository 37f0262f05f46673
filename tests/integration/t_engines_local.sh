#!/bin/sh
# Issue 17: fio's engines that need no server (net, netsplice, splice, cpuio, exec, falloc,
# ftruncate, e4defrag) against fio 3.33 on the same jobs: bytes and I/O counts per
# direction, files left, JSON key paths and types; the network jobs over loopback only;
# refused jobs; fio's example job files that use these engines.
# shellcheck disable=SC2086,SC2016 # $R and $S are split on purpose; '$' in sed and printf is literal
. "$(dirname "$0")/../lib.sh"
if ! have fio || ! have python3; then
	skip "fio's local engines against fio" "fio or python3 is not installed"
	exit 0
fi
H="python3 $TOP/tests/tools/h_engines_local.py"
get() { $H get "$@" 2>/dev/null; }
# pair NAME ARGS...: fio's and iobench's runs of the same job, side by side, in $T/NAME/fio
# and $T/NAME/iobench (PORT in ARGS: a free port for each).
pair() {
	n=$1
	shift
	$H pair "$n" "$T" "$IOBENCH" "$@"
}
rc_of() { cat "$T/$1/rc" 2>/dev/null || echo none; }
same_keys() { $H keys "$T/$1/fio/out.json" "$T/$1/iobench/out.json"; }
figures() { get "$1" "' '.join('%s:%d/%d:%d/%d' % (x['jobname'], x['read']['io_bytes'], x['read']['total_ios'], x['write']['io_bytes'], x['write']['total_ios']) for x in j)"; }
errors() { get "$1" "sum(x['error'] for x in j)"; }
# The engines' option lists: fio's names, in fio's order.
opt_names() { "$1" --enghelp="$2" 2>&1 | awk '{print $1}' | tr '\n' ' '; }

# fio's example job files; shrink FILE SED-EXPRESSIONS... writes one, made small, in $T/ex.
# (In a git worktree elsewhere, ../shared is the main checkout's: next to its .git.)
EX="${FIO_EXAMPLES:-$TOP/../shared/fio-examples}"
if [ ! -d "$EX" ] && [ -z "${FIO_EXAMPLES:-}" ]; then
	common=$(git -C "$TOP" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)
	[ -n "$common" ] && EX="$(dirname "$common")/../shared/fio-examples"
fi
EXAMPLES="cpuio.fio e4defrag.fio e4defrag2.fio exec.fio falloc.fio ftruncate.fio netio.fio netio_multicast.fio"
mkdir -p "$T/ex"
shrink() {
	shrunk=$1
	shift
	sed "$@" "$EX/$shrunk" >"$T/ex/$shrunk"
}
# The loop-mounted ext4 of the e4defrag section goes before $T does.
trap 'umount "$T/e4" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
PIDS="" BG=""

for e in net netsplice splice cpuio exec falloc ftruncate e4defrag; do
	check "--enghelp lists $e" sh -c "'$IOBENCH' --enghelp | grep -qx '	$e'"
done
for e in net netsplice cpuio exec e4defrag; do
	check "--enghelp=$e: fio's options, in fio's order ($(opt_names "$IOBENCH" $e))" \
		[ "$(opt_names "$IOBENCH" $e)" = "$(opt_names fio $e)" ]
done

# Trims (falloc punches holes) run once the core issues trims; until then iobench refuses rw=trim.
TRIMS=
"$IOBENCH" --name=p --ioengine=null --rw=trim --size=64k >/dev/null 2>&1 && TRIMS=1

# ---- falloc, ftruncate, splice: files, exact counts (tests/tools/fio_diff.py); in the background ----
files_section() {
	python3 "$TOP/tests/tools/fio_diff.py" "$IOBENCH" "$T/work" <<'EOF'
falloc-write | --name=j --ioengine=falloc --size=1m --bs=64k --rw=write | jobs,ios,files,keys,clean
falloc-read | --name=j --ioengine=falloc --size=1m --bs=64k --rw=read | jobs,ios,files
falloc-randwrite | --name=j --ioengine=falloc --size=1m --bs=4k --rw=randwrite | jobs,ios,files
falloc-randrw | --name=j --ioengine=falloc --size=4m --bs=4k --rw=randrw | jobs,split,files
ftruncate-write | --name=j --ioengine=ftruncate --size=1m --bs=64k --rw=write | jobs,ios,files,keys,clean
ftruncate-randwrite | --name=j --ioengine=ftruncate --size=1m --bs=4k --rw=randwrite --norandommap | jobs,ios
splice-write | --name=j --ioengine=splice --size=1m --bs=128k --rw=write | jobs,ios,files,keys,clean
splice-read | --name=j --ioengine=splice --size=1m --bs=128k --rw=read | jobs,ios,files
splice-randrw | --name=j --ioengine=splice --size=2m --bs=4k --rw=randrw | jobs,split,files
splice-big-blocks | --name=j --ioengine=splice --size=4m --bs=1m --rw=randread | jobs,ios,files
EOF
	# ftruncate: the file ends at the last write's offset, as fio's.
	$H run "$IOBENCH" "$T/ft" --name=g --ioengine=ftruncate --rw=write --size=1m --bs=64k --filename=f
	check "ftruncate: sequential writes leave the file at the last write's offset (960 KiB)" [ "$(stat -c %s "$T/ft/f")" = 983040 ]
	if [ -n "$TRIMS" ]; then
		python3 "$TOP/tests/tools/fio_diff.py" "$IOBENCH" "$T/work" <<'EOF'
falloc-trim | --name=j --ioengine=falloc --size=1m --bs=64k --rw=trim | jobs,ios,files
falloc-randtrim | --name=j --ioengine=falloc --size=1m --bs=4k --rw=randtrim | jobs,ios,files
EOF
	else
		skip "falloc trims against fio" "iobench does not run rw=trim yet"
	fi
}
files_section >"$T/files.tap" 2>&1 & BG="$BG $!"

# ---- e4defrag: on an ext4 file system of its own; in the background ----
e4_section() {
	if [ "$(stat -f -c %T "$T")" != ext2/ext3 ]; then
		"$IOBENCH" --name=x --ioengine=e4defrag --donorname=d --rw=write --size=64k --filename="$T/e4f" \
			>/dev/null 2>"$T/e4.err"
		rc=$?
		check "e4defrag: files elsewhere than on ext4 fail with the reason" sh -c \
			"[ $rc -eq 1 ] && grep -q 'not on ext4' '$T/e4.err'"
	fi
	if [ "$(id -u)" != 0 ] || ! have mkfs.ext4; then
		skip "e4defrag against fio" "needs root and mkfs.ext4 (a loop-mounted ext4)"
		return
	fi
	if ! truncate -s 96m "$T/e4.img" || ! mkfs.ext4 -q -F "$T/e4.img" || ! mkdir -p "$T/e4" ||
		! mount -o loop "$T/e4.img" "$T/e4" 2>/dev/null; then
		skip "e4defrag against fio" "cannot loop-mount an ext4 image here"
		return
	fi
	python3 "$TOP/tests/tools/fio_diff.py" "$IOBENCH" "$T/e4/work" <<'EOF'
e4defrag-write | --name=j --ioengine=e4defrag --filename=f --donorname=f.def --filesize=1m --bs=64k --rw=write | jobs,ios,files,keys,clean
e4defrag-randwrite | --name=j --ioengine=e4defrag --filename=f --donorname=f.def --filesize=1m --bs=16k --rw=randwrite | jobs,ios,files
e4defrag-inplace | --name=j --ioengine=e4defrag --filename=f --donorname=f.def --inplace=1 --filesize=1m --bs=64k --rw=write | jobs,ios,files
e4defrag-inplace-rand | --name=j --ioengine=e4defrag --filename=f --donorname=f.def --inplace=1 --filesize=512k --bs=4k --rw=randwrite | jobs,ios,files
EOF
	$H run "$IOBENCH" "$T/e4/size" --name=j --ioengine=e4defrag --filename=f --donorname=f.def --size=1m --bs=64k --rw=write
	check "e4defrag: inplace=0 allocates the donor to the file's size from size= too (fio fails such a job: err=22)" \
		[ "$(stat -c %s "$T/e4/size/f.def")" = 1048576 ]
	if [ -d "$EX" ]; then
		# examples/e4defrag.fio: defragmenting while libaio jobs write and verify the same file.
		mkdir -p "$T/e4/ex"
		shrink e4defrag.fio -e "s|^directory=.*|directory=$T/e4/ex|" -e 's/^filesize=.*/filesize=8m/' \
			-e 's/^size=.*/size=8m/' -e 's/^runtime=.*/runtime=1/'
		$H run "$IOBENCH" "$T/e4/ex-run" "$T/ex/e4defrag.fio"
		check "examples/e4defrag.fio: the lone defrag moves 8 MiB, then runs beside 4 verifying libaio jobs, no errors" \
			[ "$(get "$T/e4/ex-run/out.json" "(j[0]['write']['io_bytes'], j[0]['write']['total_ios'], sum(x['error'] for x in j), len(j))")" = \
			"(8388608, 256, 0, 6)" ]
		skip "examples/e4defrag2.fio runs" "its header warns that it can trigger a kernel panic: parsed only"
	fi
	umount "$T/e4"
}
e4_section >"$T/e4.tap" 2>&1 & BG="$BG $!"

# ---- refused jobs: one line naming the option, exit 1, nothing on stdout ----
refused() { # description, what the line says, args...
	d=$1 want=$2
	shift 2
	"$IOBENCH" --output-format=json "$@" >"$T/r.out" 2>"$T/r.err"
	rc=$?
	if [ $rc -eq 1 ] && [ ! -s "$T/r.out" ] && [ "$(wc -l <"$T/r.err")" -eq 1 ] && grep -q -- "$want" "$T/r.err"; then
		ok "$d"
	else
		notok "$d (exit $rc)"
		sed 's/^/#   /' "$T/r.err" | head -3
	fi
}
cd "$T" || exit 1
refused "ftruncate refuses reads" "rw=read: the ftruncate engine only writes" --name=x --ioengine=ftruncate --size=64k
refused "e4defrag refuses reads" "rw=randread: the e4defrag engine only writes" --name=x --ioengine=e4defrag \
	--donorname=d --rw=randread --size=64k
refused "e4defrag needs donorname" "donorname: the e4defrag engine needs a donor file" --name=x --ioengine=e4defrag \
	--rw=write --size=64k
refused "cpuio needs cpuload" "cpuload: the cpuio engine needs" --name=x --ioengine=cpuio --runtime=1
refused "cpuio: cpuload above 100" "cpuload: '150' is out of range" --name=x --ioengine=cpuio --cpuload=150
refused "cpuio: a bad cpumode" "cpumode: unknown value 'spin' (noop, qsort)" --name=x --ioengine=cpuio --cpuload=5 \
	--cpumode=spin
refused "exec needs a program" "program: the exec engine needs a program" --name=x --ioengine=exec --runtime=1
refused "exec: a program that is not there" "program: '$T/nothing' is not an executable file" --name=x \
	--ioengine=exec --program="$T/nothing" --runtime=1
refused "exec: a program not in PATH" "program: 'no-such-program-here' is not found in PATH" --name=x \
	--ioengine=exec --program=no-such-program-here --runtime=1
check "exec: --parse-only does not look for the program" "$IOBENCH" --parse-only --name=x --ioengine=exec \
	--program=no-such-program-here
refused "net needs a port" "port: the net engine needs a port for protocol=tcp" --name=x --ioengine=net \
	--rw=write --hostname=127.0.0.1 --size=64k
refused "net: a port out of range" "port: '65536' is out of range (1 to 65535)" --name=x --ioengine=net \
	--port=65536 --listen --size=64k
refused "net: a port that is no number" "port: cannot parse 'http' as an integer" --name=x --ioengine=net \
	--port=http --listen --size=64k
refused "net: a bad protocol" "protocol: unknown value 'sctp' (tcp, tcpv6, udp, udpv6, unix)" --name=x \
	--ioengine=net --protocol=sctp --port=9 --listen --size=64k
refused "net: a job goes one way" "rw=rw: a net job either sends" --name=x --ioengine=net --port=9 --listen --rw=rw \
	--size=64k
refused "net: no random offsets, as fio" "rw=randwrite: a net job moves a stream" --name=x --ioengine=net --port=9 \
	--hostname=127.0.0.1 --rw=randwrite --size=64k
refused "net: a listener takes no hostname" "hostname: a listening job" --name=x --ioengine=net --port=9 --listen \
	--hostname=127.0.0.1 --size=64k
refused "net: only TCP listens" "listen: only TCP listens" --name=x --ioengine=net --protocol=udp --port=9 --listen \
	--size=64k
refused "net: no port for unix sockets" "port: not used with protocol=unix" --name=x --ioengine=net --protocol=unix \
	--port=9 --filename=s --rw=write --size=64k
refused "net: a writer needs a host" "hostname: a writing job needs the host" --name=x --ioengine=netsplice \
	--protocol=udp --port=9 --rw=write --size=64k
refused "net needs a size" "size: the net engine needs size=" --name=x --ioengine=net --port=9 --listen
refused "engine options of another engine are refused" "option 'port' is for the net netsplice engine, not psync" \
	--name=x --ioengine=psync --port=9 --size=64k
refused "an engine's option under another engine" "option 'cpuload' is for the cpuio engine, not net" --name=x \
	--ioengine=net --port=9 --listen --size=64k --cpuload=5
printf '[x]\nioengine=net\nport=9\nlisten\nsize=64k\nwindow_sz=64k\n' >"$T/bad.fio"
refused "an unknown option in a job file: its file and line" "bad.fio:6: job 'x': unknown option 'window_sz'" "$T/bad.fio"
PORT=$($H port)
"$IOBENCH" --name=x --ioengine=net --port="$PORT" --hostname=127.0.0.1 --rw=write --size=64k >/dev/null 2>"$T/r.err"
check "net: a writer with nobody listening fails with the reason" grep -q "nothing listens at 127.0.0.1 port $PORT" "$T/r.err"

# ---- net and netsplice: a reader and a writer in one job file, over loopback ----
# A writer's bytes and I/Os are fio's exactly. iobench's reader gets every byte its writer
# sent (fio's TCP reader counts short recv()s as I/Os and loses some bytes: compared as shape).
# The cases run side by side (each pair on ports of its own), with the crossed ones below, then
# are checked.
netcheck() { # name
	n=$1
	frc=$(rc_of "$n/fio") irc=$(rc_of "$n/iobench")
	# fio 3.33's unix-socket jobs fail with EISCONN once the data has gone (exit 2).
	case $n in *unix*) fio_fails=1 ;; *) fio_fails= ;; esac
	if [ "$irc" != 0 ] || { [ "$frc" != 0 ] && [ -z "$fio_fails" ]; } || [ ! -s "$T/$n/fio/out.json" ]; then
		notok "$n: fio and iobench run (exit $frc and $irc)"
		sed 's/^/#   /' "$T/$n/fio/err" "$T/$n/iobench/err" 2>/dev/null | head -4
		return
	fi
	ok "$n: fio and iobench run"
	$H net "$n" "$T/$n/fio/out.json" "$T/$n/iobench/out.json"
}
# The TCP readers' size is larger than the writers': they end with the stream. (fio's TCP
# reader, counting short reads as whole blocks, would otherwise stop early and reset the
# writer's connection now and then. fio's netsplice and unix-socket readers never end at
# the end of the stream: equal sizes there, as with pingpong.)
R="--name=receiver --rw=read --size=64m"
S="--name=sender --rw=write --startdelay=300ms"
pair net-tcp --ioengine=net --port=PORT --bs=4k --size=1m $R --listen $S --hostname=127.0.0.1 & PIDS="$PIDS $!"
pair net-udp --ioengine=net --protocol=udp --port=PORT --bs=4k --size=64k $R $S --hostname=127.0.0.1 & PIDS="$PIDS $!"
pair net-tcp-pingpong --ioengine=net --port=PORT --bs=512 --size=64k --pingpong=1 --name=receiver --rw=read \
	--listen $S --hostname=127.0.0.1 & PIDS="$PIDS $!"
pair net-udp-pingpong --ioengine=net --protocol=udp --port=PORT --bs=512 --size=64k --pingpong --name=receiver \
	--rw=read $S --hostname=127.0.0.1 & PIDS="$PIDS $!"
pair net-listener-sends --ioengine=net --port=PORT --bs=8k --size=256k --nodelay=1 --window_size=64k --mss=1400 \
	--name=server --rw=write --listen --name=client --rw=read --size=64m --startdelay=300ms --hostname=127.0.0.1 & PIDS="$PIDS $!"
pair net-numjobs2 --ioengine=net --port=PORT --bs=4k --size=128k --numjobs=2 $R --listen $S --hostname=127.0.0.1 & PIDS="$PIDS $!"
pair net-tcpv6 --ioengine=net --protocol=tcpv6 --port=PORT --bs=4k --size=256k $R --listen $S --hostname=::1 & PIDS="$PIDS $!"
pair netsplice-tcp --ioengine=netsplice --port=PORT --bs=16k --size=1m --name=receiver --rw=read --listen $S \
	--hostname=127.0.0.1 & PIDS="$PIDS $!"
pair net-unix --ioengine=net --protocol=unix --filename=sock --bs=4k --size=1m --name=receiver --rw=read $S & PIDS="$PIDS $!"
pair net-unix-hostname --ioengine=net --protocol=unix --hostname=hsock --bs=4k --size=64k --name=receiver \
	--rw=read $S & PIDS="$PIDS $!"
pair netsplice-unix-pingpong --ioengine=netsplice --protocol=unix --filename=sock --bs=4k --size=256k --pingpong \
	--name=receiver --rw=read $S & PIDS="$PIDS $!"
# fio and iobench on the two ends of one connection: the same wire protocol (UDP's hello and
# goodbye messages included).
crossrun() { # name, the receiving program, the sending program, the receiver's own option, args of both
	n=$1 rp=$2 sp=$3 rx=$4
	shift 4
	P=$($H port)
	# shellcheck disable=SC2086
	$H run "$rp" "$T/$n/r" --name=receiver --rw=read "$@" --port="$P" $rx &
	# The sender starts once the receiver's socket is bound (a UDP hello sent before is lost).
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
		ss -Htuln "sport = :$P" | grep -q . && break
		sleep 0.1
	done
	$H run "$sp" "$T/$n/s" --name=sender --rw=write "$@" --port="$P" --hostname=127.0.0.1
	wait
}
crosscheck() { # name
	r=$(get "$T/$1/r/out.json" "(j[0]['read']['io_bytes'], j[0]['read']['total_ios'], j[0]['error'])")
	s=$(get "$T/$1/s/out.json" "(j[0]['write']['io_bytes'], j[0]['write']['total_ios'], j[0]['error'])")
	check "$1: every block crosses ($r)" [ -n "$r" -a "$r" = "$s" ]
}
# (fio takes an engine's options only after its ioengine=.)
crossrun "fio sends TCP, iobench receives" "$IOBENCH" fio --listen --ioengine=net --bs=4k --size=512k & PIDS="$PIDS $!"
crossrun "fio sends UDP, iobench receives" "$IOBENCH" fio "" --ioengine=net --protocol=udp --bs=4k --size=64k & PIDS="$PIDS $!"
crossrun "iobench sends TCP pingpong, fio receives" fio "$IOBENCH" --listen --ioengine=net --bs=1k --size=64k \
	--pingpong & PIDS="$PIDS $!"
crossrun "iobench sends UDP pingpong, fio receives" fio "$IOBENCH" "" --ioengine=net --protocol=udp --bs=1k \
	--size=64k --pingpong & PIDS="$PIDS $!"
wait $PIDS; PIDS=
for n in net-tcp net-udp net-tcp-pingpong net-udp-pingpong net-listener-sends net-numjobs2 net-tcpv6 netsplice-tcp \
	net-unix net-unix-hostname netsplice-unix-pingpong; do
	netcheck $n
done
check "net-unix: fio leaves its socket file, iobench removes it" sh -c "[ -S '$T/net-unix/fio/sock' ] && [ ! -e '$T/net-unix/iobench/sock' ]"
crosscheck "fio sends TCP, iobench receives"
crosscheck "fio sends UDP, iobench receives"
crosscheck "iobench sends TCP pingpong, fio receives"
crosscheck "iobench sends UDP pingpong, fio receives"

# ---- cpuio (bursts of cpuchunks, thinktime to make cpuload; reads of no bytes) and exec
# (a program during the job; reads of no bytes, 50 ms waits and 50 ms pauses) ----
# The exec runs wait on their programs: side by side, with the one cpuio pair whose bursts
# are counted. The other cpuio runs burn more: after, beside the normal format's pairs.
pair cpuio --name=burn --ioengine=cpuio --cpuload=50 --cpuchunks=10000 --runtime=600ms --time_based & PIDS="$PIDS $!"
printf '#!/bin/sh\necho "$@"\n' >"$T/args.sh"
printf '#!/bin/sh\necho $$ >"$0.pid"\ntrap "" TERM\nwhile :; do sleep 0.1; done\n' >"$T/stubborn.sh"
chmod +x "$T/args.sh" "$T/stubborn.sh"
# The exec runs wait on their programs: side by side.
pair exec --name=sleeper --ioengine=exec --program=/bin/sleep --arguments=%r --runtime=1 --time_based --grace_time=0 & PIDS="$PIDS $!"
pair exec-args --name=echoer --ioengine=exec --program="$T/args.sh" --arguments="%n %r end" --runtime=300ms \
	--time_based & PIDS="$PIDS $!"
(
	t0=$(ms)
	$H run "$IOBENCH" "$T/grace" --name=stubborn --ioengine=exec --program="$T/stubborn.sh" --runtime=300ms \
		--time_based --grace_time=1
	echo $(($(ms) - t0)) >"$T/grace.ms"
) & PIDS="$PIDS $!"
$H run "$IOBENCH" "$T/noredir" --name=loud --ioengine=exec --program="$T/args.sh" --arguments=hello --std_redirect=0 \
	--runtime=300ms --time_based & PIDS="$PIDS $!"
(
	t0=$(ms)
	$H run "$IOBENCH" "$T/noruntime" --name=t --ioengine=exec --program=/bin/true
	rc=$?
	echo "$rc $(($(ms) - t0))" >"$T/noruntime.rc"
) & PIDS="$PIDS $!"
wait $PIDS; PIDS=
fi_=$(get "$T/cpuio/fio/out.json" "j[0]['read']['total_ios']")
ii=$(get "$T/cpuio/iobench/out.json" "j[0]['read']['total_ios']")
# 600 ms of 10 ms bursts and 10 ms pauses: 30 at most (60 without the pauses); fewer when
# other work takes the CPU from a burst (fio's too: 20 or so here with the suite running).
check "cpuio: bursts of cpuchunks with pauses as long at 50%: 30 at most, 5 at least (fio $fi_, iobench $ii)" \
	[ "$ii" -le 31 -a "$ii" -ge 5 ]
check "cpuio: no bytes, as fio" [ "$(get "$T/cpuio/iobench/out.json" "j[0]['read']['io_bytes'] + j[0]['write']['io_bytes']")" = 0 ]
# (9.9 ms: the bursts are timed on CLOCK_MONOTONIC, the latencies on the calibrated TSC.)
check "cpuio: each burst lasts cpuchunks (clat min >= 9.9 ms)" \
	[ "$(get "$T/cpuio/iobench/out.json" "int(j[0]['read']['clat_ns']['min'] >= 9.9e6)")" = 1 ]
check "cpuio: same JSON key paths, order and number types" same_keys cpuio
fi_=$(get "$T/exec/fio/out.json" "j[0]['read']['total_ios']")
ii=$(get "$T/exec/iobench/out.json" "j[0]['read']['total_ios']")
check "exec: one I/O per 100 ms, as fio (fio $fi_, iobench $ii)" within "$ii" "$fi_" 30
check "exec: same JSON key paths, order and number types" same_keys exec
check "exec: the same output files as fio's (JOBNAME.stdout, JOBNAME.stderr)" [ "$(cd "$T/exec/fio" && ls)" = \
	"$(cd "$T/exec/iobench" && ls)" ]
check "exec: %n and %r (whole seconds) expand as fio's ($(cat "$T/exec-args/iobench/echoer.stdout"))" \
	cmp -s "$T/exec-args/fio/echoer.stdout" "$T/exec-args/iobench/echoer.stdout"
t=$(cat "$T/grace.ms")
check "exec: a program ignoring SIGTERM is killed after grace_time ($t ms)" [ "$t" -ge 1250 -a "$t" -lt 10000 ]
check "exec: and is gone" sh -c "[ -s '$T/stubborn.sh.pid' ] && ! kill -0 \$(cat '$T/stubborn.sh.pid') 2>/dev/null"
check "exec: std_redirect=0 sends its output to stderr, never into the JSON" sh -c \
	"grep -qx hello '$T/noredir/err' && $H get '$T/noredir/out.json' 'len(j)' >/dev/null && ! ls '$T/noredir' | grep -q std"
read -r rc t <"$T/noruntime.rc"
check "exec: without a runtime the job ends with its program ($t ms; fio never ends)" [ "$rc" -eq 0 -a "$t" -lt 10000 ]

# ---- the normal format: fio's lines in fio's order (tests/tools/normal_shape.py); cpuio's other runs ----
# cpuio and exec say what they do instead of the job's header line, and show no direction
# without bytes; fio's "fio: waiting for connection" (on its stdout) is not iobench's.
$H run "$IOBENCH" "$T/qsort" --name=q --ioengine=cpuio --cpuload=100 --cpuchunks=10ms --cpumode=qsort --runtime=300ms \
	--time_based & PIDS="$PIDS $!"
pair cpuio-exit --name=burn --ioengine=cpuio --cpuload=10 --cpuchunks=5000 --exit_on_io_done=1 --name=io --ioengine=null \
	--size=4m --rate=8m & PIDS="$PIDS $!"
pair normal-cpuio --output-format=normal --name=burn --ioengine=cpuio --cpuload=50 --cpuchunks=10000 --numjobs=2 \
	--runtime=300ms --time_based & PIDS="$PIDS $!"
pair normal-exec --output-format=normal --name=e --ioengine=exec --program=/bin/echo "--arguments=a %n" \
	--runtime=300ms --time_based & PIDS="$PIDS $!"
pair normal-net --output-format=normal --ioengine=net --port=PORT --bs=4k --size=256k --name=receiver --rw=read --listen \
	--size=64m $S --hostname=127.0.0.1 & PIDS="$PIDS $!"
wait $PIDS; PIDS=
check "cpuio: cpumode=qsort burns user time" [ "$(get "$T/qsort/out.json" "int(j[0]['read']['total_ios'] > 5 and j[0]['usr_cpu'] > 0)")" = 1 ]
t=$(get "$T/cpuio-exit/iobench/out.json" "(j[0]['job_runtime'], j[1]['job_runtime'])")
tf=$(get "$T/cpuio-exit/fio/out.json" "(j[0]['job_runtime'], j[1]['job_runtime'])")
check "cpuio: exit_on_io_done=1 ends with the I/O job, as fio's (fio $tf, iobench $t ms)" \
	[ "$(get "$T/cpuio-exit/iobench/out.json" "int(abs(j[0]['job_runtime'] - j[1]['job_runtime']) < 400)")" = 1 ]

for n in cpuio exec net; do
	grep -v '^fio: waiting for connection' "$T/normal-$n/fio/out.txt" >"$T/normal-$n/fio.txt"
	check "normal format, $n: fio's lines in fio's order" python3 "$TOP/tests/tools/normal_shape.py" "$T/normal-$n/fio.txt" \
		"$T/normal-$n/iobench/out.txt"
done
check "normal format, cpuio: its own line for each clone, as fio's" [ "$(grep -c '^burn (noop): ioengine=cpuio, cpuload=50, cpucycle=10000$' "$T/normal-cpuio/iobench/out.txt")" = 2 ]

# ---- fio's example job files that use these engines ----
# Each parses (t_examples.sh parses them all); the runnable ones run, made small (a runtime
# of a second or less, sizes of a few MiB, a directory under $T, a free port), side by side.
if [ ! -d "$EX" ]; then
	skip "fio's example job files for these engines" "$EX is not there (FIO_EXAMPLES names another place)"
else
	check "the examples using these engines are the ones listed ($EXAMPLES)" [ "$(cd "$EX" &&
		grep -l -E '^ioengine=(net|netsplice|splice|cpuio|exec|falloc|ftruncate|e4defrag)$' ./*.fio |
		sed 's|^\./||' | tr '\n' ' ')" = "$EXAMPLES " ]
	for f in $EXAMPLES; do
		check "examples/$f parses" "$IOBENCH" --parse-only "$EX/$f"
	done
	if have turbostat; then
		skip "examples/exec.fio: turbostat missing is refused" "turbostat is installed"
	else
		refused "examples/exec.fio: its turbostat is not there: refused in one line" \
			"program: '/usr/sbin/turbostat' is not an executable file" "$EX/exec.fio"
	fi
	shrink cpuio.fio -e 's/^runtime=.*/runtime=500ms/'
	$H run "$IOBENCH" "$T/ex/cpuio" "$T/ex/cpuio.fio" & PIDS="$PIDS $!"
	shrink exec.fio -e 's|^program=/usr/sbin/turbostat|program=/bin/sleep|' -e 's/^arguments=-c.*/arguments=%r/' \
		-e 's/^runtime=.*/runtime=500ms/' -e 's/^numjobs=.*/numjobs=1/'
	$H run "$IOBENCH" "$T/ex/exec" "$T/ex/exec.fio" & PIDS="$PIDS $!"
	shrink ftruncate.fio -e "s|^directory=.*|directory=$T/ex/ftruncate|" -e 's/^runtime=.*/runtime=300ms/'
	mkdir -p "$T/ex/ftruncate"
	$H run "$IOBENCH" "$T/ex/ft-run" "$T/ex/ftruncate.fio" & PIDS="$PIDS $!"
	shrink falloc.fio -e "s|^directory=.*|directory=$T/ex/falloc|" -e 's/^size=.*/size=8m/' -e 's/^filesize=.*/filesize=8m/' \
		-e 's/^runtime=.*/runtime=300ms/'
	mkdir -p "$T/ex/falloc"
	[ -n "$TRIMS" ] && { $H run "$IOBENCH" "$T/ex/fa-run" "$T/ex/falloc.fio" & PIDS="$PIDS $!"; }
	shrink netio.fio -e 's/^port=.*/port=PORT/' -e 's/^size=.*/size=1m/' -e 's/^startdelay=.*/startdelay=200ms/'
	pair ex-netio "$T/ex/netio.fio" & PIDS="$PIDS $!"
	# Multicast on the loopback interface (interface=127.0.0.1).
	shrink netio_multicast.fio -e 's/^port=.*/port=PORT/' -e 's/^size=.*/size=64k/' -e 's/^startdelay=.*/startdelay=300ms/' \
		-e 's/^#interface=.*/interface=127.0.0.1/'
	pair ex-mcast "$T/ex/netio_multicast.fio" & PIDS="$PIDS $!"
	wait $PIDS; PIDS=
	check "examples/cpuio.fio: 2 x 2 jobs in 2 groups burn in bursts, no bytes ($(figures "$T/ex/cpuio/out.json"))" \
		[ "$(get "$T/ex/cpuio/out.json" "[(x['groupid'], x['error'], x['read']['total_ios'] >= 1, x['read']['io_bytes']) for x in j]")" = \
		"[(0, 0, True, 0), (0, 0, True, 0), (1, 0, True, 0), (1, 0, True, 0)]" ]
	check "examples/exec.fio (sleep for turbostat, one cpuio job each): 5 jobs, 3 groups, no errors ($(figures "$T/ex/exec/out.json"))" \
		[ "$(get "$T/ex/exec/out.json" "[(x['groupid'], x['error'], x['read']['total_ios'] >= 2) for x in j]")" = \
		"[(0, 0, True), (0, 0, True), (1, 0, True), (2, 0, True), (2, 0, True)]" ]
	check "examples/ftruncate.fio: both jobs truncate, no errors ($(figures "$T/ex/ft-run/out.json"))" \
		[ "$(get "$T/ex/ft-run/out.json" "[(x['error'], x['write']['total_ios'] > 10) for x in j]")" = "[(0, True), (0, True)]" ]
	check "examples/ftruncate.fio: the file is no larger than size=" \
		[ "$(stat -c %s "$T/ex/ftruncate/truncate")" -le $((102404 * 1024)) ]
	if [ -n "$TRIMS" ]; then
		check "examples/falloc.fio: fragments a file and reads it back, no errors ($(figures "$T/ex/fa-run/out.json"))" \
			[ "$(errors "$T/ex/fa-run/out.json")" = 0 ]
	else
		refused "examples/falloc.fio: its punch hole job is refused until trims run" "rw=randtrim" "$T/ex/falloc.fio"
	fi
	check "examples/netio.fio: the receiver gets the sender's 1 MiB, as fio's ($(figures "$T/ex-netio/fio/out.json"))" \
		[ "$(figures "$T/ex-netio/iobench/out.json")" = "receiver:1048576/256:0/0 sender:0/0:1048576/256" ]
	check "examples/netio_multicast.fio: both readers of the group get what the writer sends ($(figures "$T/ex-mcast/iobench/out.json"))" \
		[ "$(figures "$T/ex-mcast/iobench/out.json")" = "pingpong_reader:65536/1024:0/0 normal_reader:65536/1024:0/0 pingpong_writer:0/0:65536/1024" ]
	# (fio's pingpong writer now and then counts one block fewer than its readers got.)
	readers() { get "$1" "[(x['jobname'], x['read']['io_bytes'], x['read']['total_ios'], x['error']) for x in j[:2]]"; }
	# fio's UDP readers wait for ever for a datagram lost on a loaded machine: the helper
	# stops it after its timeout (exit 124, no output), and there is nothing to compare.
	if [ "$(rc_of ex-mcast/fio)" = 124 ]; then
		skip "examples/netio_multicast.fio: the readers' figures are fio's" \
			"fio timed out ($(head -1 "$T/ex-mcast/fio/err"))"
	else
		check "examples/netio_multicast.fio: the readers' figures are fio's ($(figures "$T/ex-mcast/fio/out.json"))" \
			[ "$(readers "$T/ex-mcast/iobench/out.json")" = "$(readers "$T/ex-mcast/fio/out.json")" ]
	fi
fi

# The background sections' results.
wait $BG
cat "$T/files.tap" "$T/e4.tap"
