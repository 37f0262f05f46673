# Sourced by inner.sh once the volume gv0 is started and FUSE-mounted at $T/gmnt: the gfapi
# and gfapi_async engines (libgfapi, no FUSE) against fio 3.33's on the same volume. The
# same jobs (write, read, randrw, numjobs, verify, end_fsync) through both tools, one after
# the other, the volume emptied between them: io_bytes and total_ios per direction, JSON key
# paths and number types, the files left on the volume (names and sizes, seen through the
# FUSE mount); data written by one tool verified by the other; fio's examples/gfapi.fio;
# hostile setups; and the figures of both tools on the same jobs. Every libgfapi client
# spends up to 10 s in glfs_fini as it ends (GlusterFS 10, fio alike), so the gfapi cases
# and the gfapi_async ones run side by side, on files of their own (job names s-*, a-*).
# Uses inner.sh's ok/notok/check (its counters) and $T, $IOBENCH, $TOP.
G="--volume=gv0 --brick=iobench-gluster"
M=$T/gmnt
gf_tap() { # count fio_diff.py's TAP lines (file) in inner.sh's totals, and show them
	while IFS= read -r l; do
		case $l in
		"ok - "*) ok "${l#ok - }" ;;
		"not ok - "*) notok "${l#not ok - }" ;;
		*) echo "$l" ;;
		esac
	done <"$1"
}
gf_json() { sed -n '/^{/,$p' "$1"; } # fio prints "notes" before its JSON

gfapi_tests() {
# fio and iobench leave verify state files (local-x-0-verify.state) where they run: not in
# the source tree.
cd "$T/out" || return 1
check "--enghelp lists gfapi and gfapi_async" \
	sh -c "'$IOBENCH' --enghelp | grep -qx '	gfapi' && '$IOBENCH' --enghelp | grep -qx '	gfapi_async'"

cat >"$T/out/gf-s.cases" <<'EOF'
gfapi-write | --name=s-w --ioengine=gfapi $G --rw=write --bs=64k --size=8m | jobs,ios,keys,opts,clean,files
gfapi-read | --name=s-r --ioengine=gfapi $G --rw=read --bs=64k --size=8m | jobs,ios,keys,clean,files
gfapi-randrw-numjobs | --name=s-m --ioengine=gfapi $G --rw=randrw --bs=16k --size=4m --numjobs=2 | jobs,split,keys,clean,files
gfapi-verify | --name=s-v --ioengine=gfapi $G --rw=randwrite --bs=16k --size=4m --verify=crc32c | jobs,ios,keys,clean,files
gfapi-example | $T/out/gfapi.fio | jobs,ios,keys,opts,clean
EOF
cat >"$T/out/gf-a.cases" <<'EOF'
gfapi_async-randwrite | --name=a-w --ioengine=gfapi_async $G --rw=randwrite --bs=4k --iodepth=8 --size=4m | jobs,ios,keys,opts,clean,files
gfapi_async-read-numjobs | --name=a-r --ioengine=gfapi_async $G --rw=read --bs=64k --iodepth=4 --size=8m --numjobs=2 --group_reporting | jobs,ios,keys,clean,files
gfapi_async-randrw-numjobs | --name=a-m --ioengine=gfapi_async $G --rw=randrw --bs=16k --iodepth=8 --size=4m --numjobs=2 | jobs,split,keys,clean,files
gfapi_async-write-fsync | --name=a-f --ioengine=gfapi_async $G --rw=write --bs=64k --iodepth=4 --size=4m --end_fsync=1 | jobs,ios,clean,files
EOF
# fio's example against this volume (its brick=localhost is this machine already).
EX=""
for d in "$TOP/../shared/fio-examples" "$TOP/../../shared/fio-examples"; do [ -f "$d/gfapi.fio" ] && EX=$d; done
if [ -n "$EX" ]; then
	sed 's/^volume=vol$/volume=gv0/' "$EX/gfapi.fio" >"$T/out/gfapi.fio"
	check "fio's examples/gfapi.fio parses" "$IOBENCH" --parse-only "$EX/gfapi.fio"
else
	sed -i '/^gfapi-example/d' "$T/out/gf-s.cases"
	ok "fio's examples/gfapi.fio # SKIP the fio-examples folder is not there"
fi
export G T
for lane in s a; do
	FIO_DIFF_PRE="rm -f $M/$lane-* $M/reopen_test.*" FIO_DIFF_FILES="$M/$lane-*" \
		python3 "$TOP/tests/tools/fio_diff.py" "$IOBENCH" "$T/gfwork-$lane" <"$T/out/gf-$lane.cases" \
		>"$T/out/gf-$lane.tap" 2>&1 &
	eval "gf_pid_$lane=\$!"
done
# shellcheck disable=SC2154
wait "$gf_pid_s" "$gf_pid_a"
gf_tap "$T/out/gf-s.tap"
gf_tap "$T/out/gf-a.tap"
if [ -n "$EX" ]; then
	# fio's gfapi engine does every file's I/O through the last file it opened (one fd per
	# thread): the same 64 KiB, spread 4096/4096/4096/53248. iobench's is the example's.
	sizes=$(for i in 0 1 2 3; do stat -c %s "$M/reopen_test.$i" 2>/dev/null || echo none; done | tr '\n' ' ')
	check "examples/gfapi.fio: iobench leaves reopen_test.0..3 of 16 KiB each ($sizes)" \
		[ "$sizes" = "16384 16384 16384 16384 " ]
fi

# Data across the tools: written by one, read back and checked by the other (two pairs side
# by side), then a block corrupted through the FUSE mount is found.
X="--bs=64k --size=4m --verify=md5"
Y="--bs=4k --size=1m --verify=crc32c"
rm -f "$M"/x.* "$M"/y.*
# shellcheck disable=SC2086
("$IOBENCH" --name=x --ioengine=gfapi_async $G $X --iodepth=4 --rw=write --do_verify=0 --output-format=json \
	>"$T/out/gf-xw.json" 2>"$T/out/gf-xw.err"
	fio --name=x --ioengine=gfapi $G $X --rw=write --verify_only --output-format=json 2>/dev/null >"$T/out/gf-xv.raw") &
# shellcheck disable=SC2086
(fio --name=y --ioengine=gfapi $G $Y --rw=randwrite --do_verify=0 --output-format=json >/dev/null 2>&1
	"$IOBENCH" --name=y --ioengine=gfapi_async $G $Y --iodepth=8 --rw=randwrite --verify_only --output-format=json \
		>"$T/out/gf-yv.json" 2>"$T/out/gf-yv.err") &
wait
gf_json "$T/out/gf-xv.raw" >"$T/out/gf-xv.json"
check "iobench's gfapi_async writes 4 MiB (md5 headers); fio's gfapi --verify_only reads the 64 blocks back, no error" \
	sh -c "[ \$(jq '.jobs[0].write.io_bytes' '$T/out/gf-xw.json') -eq 4194304 ] && [ \$(jq '.jobs[0].error' '$T/out/gf-xv.json') -eq 0 ] && [ \$(jq '.jobs[0].read.total_ios' '$T/out/gf-xv.json') -eq 64 ]"
check "fio's gfapi writes 1 MiB at random (crc32c); iobench's gfapi_async --verify_only reads 256 blocks, no error" \
	sh -c "[ \$(jq '.jobs[0].error' '$T/out/gf-yv.json') -eq 0 ] && [ \$(jq '.jobs[0].read.total_ios' '$T/out/gf-yv.json') -eq 256 ] && [ ! -s '$T/out/gf-yv.err' ]"
printf 'corrupt' | dd of="$M/x.0.0" bs=1 seek=70000 conv=notrunc 2>/dev/null
# shellcheck disable=SC2086
"$IOBENCH" --name=x --ioengine=gfapi $G $X --rw=read --verify_only --output-format=json >"$T/out/gf-xc.json" 2>"$T/out/gf-xc.err"
rc=$?
check "a block corrupted through the FUSE mount: iobench's verify through libgfapi finds it (exit $rc, md5 named)" \
	sh -c "[ $rc -ne 0 ] && grep -q md5 '$T/out/gf-xc.err'"
rm -f "$M"/x.* "$M"/y.*

# Hostile setups.
"$IOBENCH" --name=h --ioengine=gfapi --volume=nope --brick=iobench-gluster --size=1m --output-format=json \
	>"$T/out/gf-h1.json" 2>"$T/out/gf-h1.err"
rc=$?
check "volume=nope: exit 1, one line naming the volume (no such volume, or not started)" \
	sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$T/out/gf-h1.err') -eq 1 ] && grep -q \"volume 'nope' on brick 'iobench-gluster': no such volume\" '$T/out/gf-h1.err'"
"$IOBENCH" --name=h --ioengine=gfapi --volume=gv0 --brick=nohost.invalid --size=1m >"$T/out/gf-h2.out" 2>"$T/out/gf-h2.err"
rc=$?
check "brick=nohost.invalid: one line, exit 1, nothing on stdout" \
	sh -c "[ $rc -eq 1 ] && [ ! -s '$T/out/gf-h2.out' ] && [ \$(wc -l <'$T/out/gf-h2.err') -eq 1 ] && grep -q \"brick 'nohost.invalid'\" '$T/out/gf-h2.err'"

# Figures: the same jobs through both tools, one at a time (3 s each).
gf_fig() { # tool, engine, args...: bw KiB/s and IOPS of the job's direction
	t=$1 e=$2
	shift 2
	"$t" --name=fig --ioengine="$e" $G "$@" --time_based --runtime=3 --output-format=json 2>/dev/null |
		sed -n '/^{/,$p' | jq -r '.jobs[0] | [(.read.bw + .write.bw), (.read.iops + .write.iops | floor),
			((.read.clat_ns.percentile["50.000000"] // 0) + (.write.clat_ns.percentile["50.000000"] // 0)) / 1000 | floor] | @tsv'
}
echo
echo "| job (gfapi volume, 1 brick, xfs loop) | fio MiB/s | fio IOPS | fio p50 us | iobench MiB/s | iobench IOPS | iobench p50 us |"
echo "|---|---|---|---|---|---|---|"
for job in "gfapi_async randread 4k QD16|gfapi_async|--rw=randread --bs=4k --iodepth=16 --size=64m" \
	"gfapi randread 4k QD1|gfapi|--rw=randread --bs=4k --size=64m" \
	"gfapi_async write 1m QD4|gfapi_async|--rw=write --bs=1m --iodepth=4 --size=256m"; do
	name=${job%%|*} rest=${job#*|}
	e=${rest%%|*} args=${rest#*|}
	rm -f "$M"/fig.*
	# shellcheck disable=SC2086
	f=$(gf_fig fio "$e" $args)
	rm -f "$M"/fig.*
	# shellcheck disable=SC2086
	i=$(gf_fig "$IOBENCH" "$e" $args)
	echo "$f $i" | awk -v n="$name" '{ printf "| %s | %d | %d | %d | %d | %d | %d |\n", n, $1 / 1024, $2, $3, $4 / 1024, $5, $6 }'
done
rm -f "$M"/fig.*
echo
cd "$TOP" || return 1
}
# The ASan lane (make asan test-gluster). ASan's runtime intercepts the XDR functions glibc
# used to carry (xdr_int, ...) and looks each real one up once, as the program starts.
# libtirpc, which has them now, comes in only with libgfapi, loaded by dlopen when a job asks:
# too late, and gluster's first RPC calls through a null pointer (SEGV, pc 0, under
# xdr_gf_getspec_req). Not iobench's bug: tests/gluster/asan_xdr.c shows it with no iobench
# (the same mechanism as llvm-project #59007, libresolv's dn_expand). Here an ASan iobench runs
# with libtirpc loaded from the start (LD_PRELOAD, after ASan's runtime), so that the gfapi
# engines are still checked under ASan (LeakSanitizer ignoring what libglusterfs itself leaks);
# where that cannot be done, the gfapi part is skipped.
gf_asan_lane() { # 0: $IOBENCH is not an ASan build, or is now wrapped; 1: skip the gfapi part
	asan=$(ldd "$IOBENCH" 2>/dev/null | awk '/libasan/ { print $3; exit }')
	[ -n "$asan" ] || return 0
	echo "# asan lane: libtirpc.so.3 preloaded for the gfapi engines (ASan binds its xdr_* interceptors at start-up; see tests/gluster/asan_xdr.c)"
	tirpc=$(ldconfig -p | awk '/libtirpc\.so\.3 / { print $NF; exit }')
	if [ -z "$tirpc" ] || ! cc -fsanitize=address -o "$T/asan_xdr" "$TOP/tests/gluster/asan_xdr.c" 2>"$T/out/asan_xdr.err"; then
		echo "# asan lane: no libtirpc.so.3 or no ASan compiler: the gfapi part is skipped"
		return 1
	fi
	"$T/asan_xdr" >"$T/out/asan_xdr.out" 2>&1
	rc=$?
	check "asan lane: an ASan program with no iobench that dlopens libgfxdr dies in its first xdr call (exit $rc, SEGV at pc 0)" \
		sh -c "[ $rc -ne 0 ] && grep -q 'SEGV on unknown address 0x000000000000' '$T/out/asan_xdr.out'"
	check "asan lane: the same program with libtirpc preloaded encodes" \
		sh -c "LD_PRELOAD='$asan $tirpc' '$T/asan_xdr' | grep -qx encoded"
	# LeakSanitizer: GlusterFS's own leaks after glfs_fini are suppressed (tests/gluster/lsan-gluster.supp).
	# shellcheck disable=SC2016 # the wrapper expands them when it runs
	printf '#!/bin/sh\nLD_PRELOAD="%s %s${LD_PRELOAD:+ $LD_PRELOAD}" LSAN_OPTIONS="suppressions=%s:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}" exec "%s" "$@"\n' \
		"$asan" "$tirpc" "$TOP/tests/gluster/lsan-gluster.supp" "$IOBENCH" >"$T/iobench-asan"
	chmod 755 "$T/iobench-asan"
	IOBENCH=$T/iobench-asan
}
GF_IOBENCH=$IOBENCH
if ! fio --enghelp 2>/dev/null | grep -qx '	gfapi_async'; then
	ok "gfapi engines against fio's # SKIP this fio has no gfapi engine"
elif gf_asan_lane; then
	gfapi_tests
else
	ok "gfapi engines against fio's # SKIP asan lane: ASan's xdr_* interceptors need libtirpc loaded at start-up (tests/gluster/asan_xdr.c)"
fi
IOBENCH=$GF_IOBENCH
