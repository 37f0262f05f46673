#!/bin/sh
# Issue 16: I/O logs with fio 3.33's semantics. write_iolog records what fio records (version
# 3, the same (file, action, offset, length) lines); logs recorded by fio replay in iobench
# and logs recorded by iobench replay in fio, issuing the same I/O in the same order with the
# same io_bytes/total_ios per direction; version 2 logs with waits; replay_scale,
# replay_align, replay_redirect, replay_skip, replay_no_stall and replay_time_scale; logs for
# several clones and jobs; blktrace files made by hand (struct blk_io_trace) replayed as fio
# replays them; merge_blktrace_file and --merge-blktrace-only; hostile logs (one line naming
# the file and the line, exit 1, nothing on stdout, nothing written); and a replayed write
# onto a mounted block device refused as other writes are.
# lane: timing (replay_time_scale and replay_no_stall are timed)
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
if ! have fio || ! have python3 || ! have jq; then
	skip "I/O logs against fio" "fio, python3 or jq is not installed"
	exit 0
fi
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3 # no version manager's shim to start each time (fast)

# cmp.py MODE A B: the I/O of A and B is the same: MODE seq (in order) or set (as multisets).
# A and B are log:FILE (an iolog's read/write/trim lines) or queue:FILE (--debug=io's queue
# lines, fio's and iobench's alike).
cat >cmp.py <<'EOF'
import collections, re, sys
def log_ios(path):
    out = []
    for line in open(path, errors='replace'):
        f = line.split()
        if len(f) >= 4 and f[-3] in ('read', 'write', 'trim'):
            out.append((f[-4], f[-3], int(f[-2]), int(f[-1])))
    return out
def queue_ios(path):
    out, names = [], {'0': 'read', '1': 'write', '2': 'trim'}
    for line in open(path, errors='replace'):
        m = re.search(r'queue: io_u \S+ off=0x([0-9a-f]+),len=0x([0-9a-f]+),ddir=(\d),file=(\S+)', line)
        if m and m.group(3) in names:  # fio's syncs are ddir 3 and 4; compared by count elsewhere
            out.append((m.group(4), names[m.group(3)], int(m.group(1), 16), int(m.group(2), 16)))
    return out
def get(spec):
    kind, path = spec.split(':', 1)
    return log_ios(path) if kind == 'log' else queue_ios(path)
mode, a, b = sys.argv[1], get(sys.argv[2]), get(sys.argv[3])
same = a == b if mode == 'seq' else collections.Counter(a) == collections.Counter(b)
if not same or not a:
    print('# differ (%d vs %d I/Os): %s ... vs %s ...' % (len(a), len(b), a[:4], b[:4]))
    sys.exit(1)
EOF
# totals FILE: read and write io_bytes, total_ios and the error of every job, sorted.
totals() {
	sed -n '/^{/,/^}/p' "$1" | jq -c '[.jobs[] | [.read.io_bytes, .read.total_ios, .write.io_bytes, .write.total_ios, .error]] | sort'
}
# all 'TEST' 'TEST'...: every shell test holds (for check, which runs one command)
all() {
	for c; do
		eval "$c" || return 1
	done
}
same_totals() { # fio-output iobench-output
	[ -n "$(totals "$1")" ] && [ "$(totals "$1")" = "$(totals "$2")" ]
}
# lines LOG ACTION: how many lines of that action
lines() { awk -v a="$2" '$(NF-2) == a || $NF == a { n++ } END { print n + 0 }' "$1"; }

# ---- write_iolog: what fio records, iobench records ----
J="--directory=$T --nrfiles=2 --size=64k --bs=4k"
fio --name=w $J --rw=write --write_iolog=fw.log >/dev/null 2>&1
rm -f w.0.*
"$IOBENCH" --name=w $J --rw=write --write_iolog=iw.log >/dev/null 2>iw.err
check "write_iolog: version 3, as fio 3.33 writes it" sh -c "[ \"\$(head -1 fw.log)\" = 'fio version 3 iolog' ] && [ \"\$(head -1 iw.log)\" = 'fio version 3 iolog' ]"
check "write_iolog, rw=write, 2 files: the same (file, action, offset, length) lines as fio's (16)" $PY cmp.py set log:fw.log log:iw.log
file_lines() { # LOG: each of the 2 files added, opened and closed once; every line timestamped
	[ "$(lines "$1" add)$(lines "$1" open)$(lines "$1" close)" = 222 ] && ! grep -qv '^[0-9][0-9]* \|^fio version 3 iolog$' "$1"
}
both_file_lines() { file_lines fw.log && file_lines iw.log; }
check "... each file added, opened and closed once, every line timestamped, as in fio's" both_file_lines
fio --name=r $J --rw=randread --write_iolog=fr.log >/dev/null 2>&1
"$IOBENCH" --name=r $J --rw=randread --write_iolog=ir.log >/dev/null 2>&1
check "write_iolog, rw=randread: every block once, as fio's log" $PY cmp.py set log:fr.log log:ir.log
"$IOBENCH" --name=r $J --rw=randread --write_iolog=ir.log >/dev/null 2>&1
check "write_iolog appends (a second run adds a second header and its lines), as fio" \
	[ "$(grep -c '^fio version 3 iolog$' ir.log) $(lines ir.log read)" = "2 32" ]
"$IOBENCH" --name=s --filename="$T/s1" --size=16k --bs=4k --rw=write --fsync=2 --ioengine=libaio --iodepth=4 \
	--write_iolog=is.log >/dev/null 2>&1
check "write_iolog records syncs as 'FILE sync OFFSET 0' lines, and an async engine's I/O (fsync=2, 4 writes: one sync, before the third, as fio's log)" \
	[ "$(lines is.log write) $(grep -c "^[0-9]* $T/s1 sync [0-9]* 0$" is.log) $(awk '{ print $3 }' is.log | tr '\n' ' ')" = "4 1 3 add open write write sync write write close " ]

# ---- fio records, iobench replays; iobench records, fio replays ----
fio --name=m --filename="$T/m1" --size=256k --bsrange=4k-16k --rw=randrw --write_iolog=fm.log >/dev/null 2>&1
fio --name=p --read_iolog=fm.log --replay_no_stall=1 --debug=io --output-format=json >fp.out 2>&1
"$IOBENCH" --name=p --read_iolog=fm.log --replay_no_stall=1 --debug=io --output-format=json >ip.out 2>ip.err
check "fio's log (randrw, 4k-16k) replayed by iobench: the log's I/O in its order" $PY cmp.py seq log:fm.log queue:ip.err
check "... the same I/O, in the same order, as fio's replay of it" $PY cmp.py seq queue:fp.out queue:ip.err
check "... the same io_bytes and total_ios per direction as fio's replay ($(totals ip.out))" same_totals fp.out ip.out
rm -f m1
"$IOBENCH" --name=m --filename="$T/m1" --size=256k --bsrange=4k-16k --rw=randrw --write_iolog=im.log >/dev/null 2>&1
fio --name=p --read_iolog=im.log --replay_no_stall=1 --debug=io --output-format=json >fq.out 2>&1
"$IOBENCH" --name=p --read_iolog=im.log --replay_no_stall=1 --output-format=json >iq.out 2>iq.err
check "iobench's log replayed by fio: the log's I/O in its order" $PY cmp.py seq log:im.log queue:fq.out
check "... the same io_bytes and total_ios as iobench's replay ($(totals iq.out))" same_totals fq.out iq.out
"$IOBENCH" --name=p --read_iolog=im.log --ioengine=libaio --iodepth=8 --replay_no_stall=1 --debug=io \
	--output-format=json >ia.out 2>ia.err
check "... at iodepth=8 with libaio too, in order" $PY cmp.py seq log:im.log queue:ia.err

# ---- a version 2 log with waits, files added and closed in turn ----
cat >v2.log <<EOF
fio version 2 iolog
$T/g1 add
$T/g2 add
$T/g1 open
$T/g1 write 0 4096
$T/g1 wait 50 0
$T/g2 open
$T/g2 write 8192 8192
$T/g1 read 0 4096
$T/g1 close
$T/g2 datasync 0 0
$T/g2 read 12288 4096
$T/g2 close
EOF
fio --name=v --read_iolog=v2.log --replay_no_stall=1 --debug=io --output-format=json >fv.out 2>&1
ls -l g1 g2 | awk '{ print $5, $9 }' >fv.files
rm -f g1 g2
"$IOBENCH" --name=v --read_iolog=v2.log --debug=io --output-format=json >iv.out 2>iv.err
ls -l g1 g2 | awk '{ print $5, $9 }' >iv.files
check "a version 2 log (two files, wait, datasync): the I/O of fio's replay, in order" $PY cmp.py seq queue:fv.out queue:iv.err
check "... the same files left as fio's replay ($(tr '\n' ' ' <iv.files))" cmp -s fv.files iv.files
check "... the same totals ($(totals iv.out))" same_totals fv.out iv.out
check "... its datasync done (a sync in the JSON)" sh -c "[ \$(jq '.jobs[0].sync.total_ios' iv.out) -eq 1 ]"

# ---- replay_scale and replay_align as fio: offsets divided, then aligned down ----
cat >sc.log <<EOF
fio version 2 iolog
$T/sc add
$T/sc open
$T/sc write 0 4096
$T/sc write 12345 4096
$T/sc write 1000000 4096
$T/sc read 65537 512
$T/sc close
EOF
for o in "--replay_scale=3 --replay_align=4096"; do # each alone: tests/unit/test_iolog.c
	rm -f sc
	fio --name=s --read_iolog=sc.log $o --debug=io --output-format=json >fs.out 2>&1
	ls -l sc | awk '{ print $5 }' >fs.size
	rm -f sc
	"$IOBENCH" --name=s --read_iolog=sc.log $o --debug=io --output-format=json >is.out 2>is.err
	check "$o: the offsets of fio's replay ($(grep queue: is.err | grep -o 'off=0x[0-9a-f]*' | tr '\n' ' '))" $PY cmp.py seq queue:fs.out queue:is.err
	check "... the file's size as fio leaves it ($(cat fs.size))" [ "$(ls -l sc | awk '{ print $5 }')" = "$(cat fs.size)" ]
done

# ---- replay_redirect: every file of the log onto one, nothing else touched ----
mkdir red
"$IOBENCH" --name=d --read_iolog=v2.log --replay_redirect="$T/red/one" --output-format=json >rd.out 2>rd.err
check "replay_redirect: the log's two files replayed onto one: all its I/O ($(totals rd.out))" \
	[ "$(totals rd.out)" = "[[8192,2,12288,2,0]]" ]
check "... which is the only file there, as long as the furthest write ($(ls red | tr '\n' ' ')$(stat -c %s red/one))" \
	all '[ "$(ls red)" = one ]' '[ "$(stat -c %s red/one)" = 16384 ]'
rm -f sc
fio --name=d --read_iolog=sc.log --replay_redirect="$T/red/f1" --output-format=json >fd.out 2>&1
"$IOBENCH" --name=d --read_iolog=sc.log --replay_redirect="$T/red/i1" --output-format=json >id.out 2>id.err
check "... a one-file log redirected: the size fio leaves, the same totals, the log's file untouched" \
	all '[ "$(stat -c %s red/f1)" = "$(stat -c %s red/i1)" ]' 'same_totals fd.out id.out' '[ ! -e sc ]'
"$IOBENCH" --name=k --read_iolog=fm.log --replay_skip=write --replay_no_stall=1 --output-format=json >sk.out 2>sk.err
check "replay_skip=write: only the log's reads ($(totals sk.out))" \
	[ "$(totals sk.out)" = "[[122880,16,0,0,0]]" ]

# ---- timing: a version 3 log spanning 200 ms (its first I/O not at 0: fio 3.33 then loses
# the first interval; docs/differences.md) ----
cat >t3.log <<EOF
fio version 3 iolog
0 $T/t3 add
0 $T/t3 open
100 $T/t3 write 0 4096
100000 $T/t3 write 4096 4096
200000 $T/t3 read 0 8192
200100 $T/t3 close
EOF
rt() { jq '.jobs[0].job_runtime' "$1"; }
fio --name=t --read_iolog=t3.log --output-format=json >ft.out 2>&1
"$IOBENCH" --name=t --read_iolog=t3.log --output-format=json >t1.out 2>&1
"$IOBENCH" --name=t --read_iolog=t3.log --replay_time_scale=200 --output-format=json >t2.out 2>&1
"$IOBENCH" --name=t --read_iolog=t3.log --replay_time_scale=50 --output-format=json >t4.out 2>&1
"$IOBENCH" --name=t --read_iolog=t3.log --replay_no_stall=1 --output-format=json >t5.out 2>&1
check "the log's times are kept: 200 ms (fio $(rt ft.out) ms, iobench $(rt t1.out) ms)" \
	all '[ "$(rt t1.out)" -ge 195 ]' '[ "$(rt ft.out)" -ge 195 ]' 'same_totals ft.out t1.out'
check "replay_time_scale=200: twice as fast ($(rt t2.out) ms)" all '[ "$(rt t2.out)" -ge 95 ]' '[ "$(rt t2.out)" -lt 190 ]'
check "replay_time_scale=50: half as fast ($(rt t4.out) ms)" [ "$(rt t4.out)" -ge 395 ]
check "replay_no_stall: as fast as it goes ($(rt t5.out) ms), the same I/O" all '[ "$(rt t5.out)" -lt 95 ]' 'same_totals ft.out t5.out'

# ---- several logs: the clones take them in turn; jobs each their own ----
sed "s#$T/g#$T/h#; s#write 8192 8192#write 8192 16384#" v2.log >v2b.log
printf '[a]\nread_iolog=v2.log:v2b.log\nnumjobs=3\n[b]\nread_iolog=v2b.log\n[c]\nread_iolog=v2.log:v2b.log\n' >two.fio
fio two.fio --output-format=json >fj.out 2>&1
"$IOBENCH" two.fio --output-format=json >ij.out 2>ij.err
check "jobs and clones replay their logs as fio's do: read_iolog=a:b with numjobs=3 (a, b, a), b, a:b ($(totals ij.out))" \
	same_totals fj.out ij.out

# ---- blktrace files, made by hand as blkparse -d writes them ----
cat >bt.py <<'EOF'
import struct, sys
MAGIC = 0x65617407  # BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION
R, W, FLUSH, SYNC, Q, C, I, NOTIFY, DISCARD = 1, 2, 4, 8, 16, 128, 64, 1 << 10, 1 << 13
def ev(t, sector, nbytes, cat, act, dev=(8 << 20), pdu=b'', endian='<'):
    return struct.pack(endian + 'IIQQIIIIIHH', MAGIC, 0, t, sector, nbytes, (cat << 16) | act, 1234, dev, 0, 0,
                       len(pdu)) + pdu
def trace(endian='<', dev=(8 << 20)):
    e = lambda *a, **k: ev(*a, dev=dev, endian=endian, **k)
    return b''.join([
        e(0, 0, 0, NOTIFY, 0, pdu=b'fio\0'),        # a notification: not replayed
        e(1000, 0, 4096, Q | W, 1),                 # queue: write 4k at 0
        e(2000, 0, 4096, I | W, 7),                 # issue, complete: not replayed
        e(3000, 0, 4096, C | W, 8),
        e(10001000, 16, 8192, Q | R, 1),            # 10 ms on: read 8k at 8k
        e(20001000, 32, 4096, Q | DISCARD | W, 1),  # a discard: a trim
        e(30001000, 0, 0, Q | FLUSH | W, 1),        # a flush: a sync
        e(40001000, 3, 1000, Q | W | SYNC, 1),      # write 1000 bytes at 1536
        e(50001000, 64, 0, Q | W, 1),               # no bytes: not replayed
        e(60001000, 8, 4096, Q | R, 1)])
if sys.argv[1] == 'make':
    open('bt.bin', 'wb').write(trace())
    open('bt-be.bin', 'wb').write(trace('>'))
    open('nodev.bin', 'wb').write(trace(dev=(4000 << 20) | 77))
    # two traces to merge
    open('ta.bin', 'wb').write(ev(1000000, 0, 4096, Q | W, 1) + ev(3000000, 8, 4096, Q | W, 1, pdu=b'xyz'))
    open('tb.bin', 'wb').write(ev(5000000, 100, 512, Q | R, 1) + ev(6500000, 200, 512, Q | R, 1))
elif sys.argv[1] == 'dump':  # sector:time_us of each event of a file
    d, i, out = open(sys.argv[2], 'rb').read(), 0, []
    while i + 48 <= len(d):
        m, seq, t, sec, nb, act, pid, dev, cpu, err, pl = struct.unpack('<IIQQIIIIIHH', d[i:i + 48])
        out.append('%d:%d' % (sec, t // 1000))
        i += 48 + pl
    print(' '.join(out))
EOF
$PY bt.py make
dd if=/dev/zero of=btf bs=64k count=1 2>/dev/null
cp btf bti
BT="--replay_skip=trim --replay_no_stall=1 --debug=io --output-format=json"
fio --name=b --read_iolog=bt.bin --replay_redirect="$T/btf" $BT >fb.out 2>&1
"$IOBENCH" --name=b --read_iolog=bt.bin --replay_redirect="$T/bti" $BT >ib.out 2>ib.err
sed "s#$T/btf#$T/bti#" fb.out >fb2.out
check "blktrace: the queue events replayed as fio replays them (write, read, write; no issue, complete, notify, empty I/O)" \
	$PY cmp.py seq queue:fb2.out queue:ib.err
check "... the same totals ($(totals ib.out)), its flush a sync" all 'same_totals fb.out ib.out' \
	'[ "$(sed -n "/^{/,/^}/p" ib.out | jq ".jobs[0].sync.total_ios")" = 1 ]'
"$IOBENCH" --name=b --read_iolog=bt-be.bin --replay_redirect="$T/bti" $BT >ibe.out 2>ibe.err
check "... traced on a big-endian machine: the same" $PY cmp.py seq queue:ib.err queue:ibe.err
fio --name=b --read_iolog=bt.bin --replay_redirect="$T/btf" $BT --replay_align=4096 >fb.out 2>&1
"$IOBENCH" --name=b --read_iolog=bt.bin --replay_redirect="$T/bti" $BT --replay_align=4096 >ib.out 2>ib.err
sed "s#$T/btf#$T/bti#" fb.out >fb2.out
check "... replay_align=4096: offsets down and lengths up, as fio ($(grep queue: ib.err | grep -o 'len=0x[0-9a-f]*' | tr '\n' ' '))" \
	$PY cmp.py seq queue:fb2.out queue:ib.err
"$IOBENCH" --name=b --read_iolog=bt.bin --replay_redirect="$T/bti" --replay_skip=trim --output-format=json >ibt.out 2>&1
check "... its times kept: 60 ms ($(rt ibt.out) ms)" [ "$(rt ibt.out)" -ge 58 ]
"$IOBENCH" --name=b --read_iolog=bt.bin --replay_redirect="$T/bti" --output-format=json >itr.out 2>itr.err
check "... a trim in it: replayed as a trim (a hole punched in the file; fio fails it with ENOTTY on a file)" \
	all '[ "$(jq -c "[.jobs[0].trim.total_ios, .jobs[0].error]" itr.out)" = "[1,0]" ]'
"$IOBENCH" --name=b --read_iolog=nodev.bin --replay_skip=trim --output-format=json >nd.out 2>nd.err
check "... traced on a device this machine has not, without replay_redirect: one line, exit 1" \
	all '[ ! -s nd.out ]' '[ $(wc -l <nd.err) -eq 1 ]' \
	'grep -q "read_iolog nodev.bin: event 1 at byte 52: traced on device 4000:77, and /dev has no block device 4000:77 here" nd.err'

# ---- merge_blktrace_file, --merge-blktrace-only ----
M="--read_iolog=ta.bin:tb.bin --merge_blktrace_file=$T/m.bin --merge_blktrace_scalars=50:100 --merge_blktrace_iters=2:1"
"$IOBENCH" --name=g $M --replay_redirect="$T/mg" --merge-blktrace-only >mo.out 2>mo.err
rc=$?
check "--merge-blktrace-only: exit 0, no I/O, nothing on stdout" all "[ $rc -eq 0 ]" '[ ! -s mo.out ]' '[ ! -e mg ]'
check "... the merged trace in time order: a at twice its speed, twice; b as it is ($($PY bt.py dump m.bin))" \
	[ "$($PY bt.py dump m.bin)" = "0:0 100:0 8:1000 0:1000 200:1500 8:2000" ]
rm -f m.bin
dd if=/dev/zero of=mg bs=128k count=1 2>/dev/null
"$IOBENCH" --name=g $M --replay_redirect="$T/mg" --replay_no_stall=1 --debug=io --output-format=json >mg.out 2>mg.err
check "merge_blktrace_file: the merged trace is replayed ($(totals mg.out))" \
	all '[ "$(totals mg.out)" = "[[1024,2,16384,4,0]]" ]' '[ -s m.bin ]'

# ---- hostile logs: one line naming the file and the line, exit 1, nothing on stdout, and
# nothing written (the log is read whole before any file is touched) ----
mkdir hz
D="$T/hz/data"
H2="fio version 2 iolog\n$D add\n$D open\n"
hostile() { # description, expected part of the message; the log is hz/h.log already
	(cd hz && "$IOBENCH" --name=h --read_iolog="${3:-h.log}" --output-format=json >h.out 2>h.err)
	hrc=$?
	check "hostile: $1: exit 1, one line naming the file and line, no stdout, nothing written ($(cat hz/h.err))" \
		all "[ $hrc -eq 1 ]" '[ ! -s hz/h.out ]' '[ $(wc -l <hz/h.err) -eq 1 ]' "grep -qF \"$2\" hz/h.err" '[ ! -e "$D" ]'
}
while IFS='|' read -r what text want; do
	printf "$text" | sed "s#D #$D #g" >hz/h.log
	hostile "$what" "$want"
done <<'EOF'
a bad header|fio version 9 iolog\nD add\n|h.log:1: 'fio version 9 iolog': iobench reads iolog versions 2 and 3
a version 1 log|0, 0, 4096\n|h.log:1: a version 1 log
a bad action|fio version 2 iolog\nD add\nD open\nD frob 0 4096\n|h.log:4: unknown action 'frob'
a negative offset|fio version 2 iolog\nD add\nD open\nD write -4096 4096\n|h.log:4: negative offset '-4096'
a huge offset|fio version 2 iolog\nD add\nD open\nD write 99999999999999999999 4096\n|h.log:4: offset '99999999999999999999' is out of range
an offset near 2^63|fio version 2 iolog\nD add\nD open\nD write 9223372036854775000 4096\n|h.log:4: offset 9223372036854775000 plus length 4096 goes past 2^63 bytes
a huge length|fio version 2 iolog\nD add\nD open\nD write 0 4294967296\n|h.log:4: length '4294967296' is out of range
a file never added|fio version 2 iolog\nD open\n|h.log:2: '
a file not open|fio version 2 iolog\nD add\nD write 0 4096\n|h.log:3: '
a truncated line|fio version 2 iolog\nD add\nD open\nD write 0 4096\nD write 4096|h.log:5: expected 'FILE ACTION' or 'FILE ACTION OFFSET LENGTH' (3 fields)
wait in version 3|fio version 3 iolog\n0 D add\n0 D open\n1 D wait 100 0\n|h.log:4: 'wait' is not allowed in a version 3 log
binary garbage|\001\002\003\004\377\376garbage\n\000\001|h.log:1: not an I/O log: binary data that is not a blktrace file
a NUL byte in a line|fio version 2 iolog\nD add\nD op\000en\n|h.log:3: binary data (a NUL byte)
EOF
head -c 100000 /dev/zero | tr '\0' x | sed "1s#^#fio version 2 iolog\n#" >hz/h.log
hostile "a line of 100000 bytes" "h.log:2: line longer than 4351 bytes"
hostile "a log that is not there" "read_iolog: cannot open 'missing.log': No such file or directory" missing.log
head -c 70 bt.bin >hz/h.log
hostile "a truncated blktrace file" "h.log: event 1 at byte 52: truncated: 18 of the 48 bytes of an event"
printf "$H2$D read 0 4096\n" | sed "s#D #$D #g" >hz/h.log
hostile "a file the log only reads, missing" "read_iolog h.log: '$D' does not exist, and the log does not write it"
printf "fio version 2 iolog\n$T/hz/sub/w add\n$T/hz/sub/w open\n$T/hz/sub/w write 8192 4096\n" >hz/w.log
(cd hz && "$IOBENCH" --name=w --read_iolog=w.log --output-format=json >w.out 2>w.err)
check "a log that writes: only its file is made, up to its furthest write ($(cd hz && find sub -type f -printf '%p %s '))" \
	[ "$(cd hz && find sub -type f -printf '%p %s')" = "sub/w 12288" ]
"$IOBENCH" --name=w --read_iolog=hz/w.log --readonly --output-format=json >ro.out 2>ro.err
check "--readonly refuses a log that writes, in one line" \
	all '[ ! -s ro.out ]' 'grep -q "read_iolog: the log writes (1 writes), and --readonly is set" ro.err'

# ---- a replayed write onto a mounted block device is refused as other writes are ----
if [ "$(id -u)" != 0 ] || ! have losetup || ! have mkfs.ext4 || ! unshare -m true 2>/dev/null ||
	! truncate -s 16m img || ! LOOP=$(losetup -f --show img 2>/dev/null) || [ -z "$LOOP" ]; then
	skip "a replayed write onto a mounted block device" "needs root, losetup, mkfs.ext4, unshare and a loop device"
	exit 0
fi
trap 'losetup -d "$LOOP" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
mkfs.ext4 -q "$LOOP"
mkdir mnt
printf "fio version 2 iolog\n$LOOP add\n$LOOP open\n$LOOP write 0 4096\n$LOOP read 8192 4096\n" >dev.log
printf "fio version 2 iolog\n$LOOP add\n$LOOP open\n$LOOP read 8192 4096\n" >devr.log
unshare -m sh -c "
	mount -o ro,noload '$LOOP' '$T/mnt' || exit 1
	md5sum <'$LOOP' >before.md5
	'$IOBENCH' --name=g --read_iolog=dev.log --output-format=json >g1.out 2>g1.err; echo \$? >g1.rc
	'$IOBENCH' --name=g --read_iolog=v2.log --replay_redirect='$LOOP' --output-format=json >g2.out 2>g2.err; echo \$? >g2.rc
	'$IOBENCH' --name=g --read_iolog=devr.log --output-format=json >g3.out 2>g3.err; echo \$? >g3.rc
	md5sum <'$LOOP' >after.md5
	umount '$T/mnt'
"
check "a log that writes to a mounted device is refused: exit 1, one line naming it, no stdout" \
	all '[ "$(cat g1.rc)" = 1 ]' '[ ! -s g1.out ]' "grep -q \"refusing to write to '$LOOP': the device is mounted on $T/mnt\" g1.err"
check "... and replay_redirect onto a mounted device too" \
	all '[ "$(cat g2.rc)" = 1 ]' '[ ! -s g2.out ]' "grep -q \"refusing to write to '$LOOP'\" g2.err"
check "... a log that only reads it runs" all '[ "$(cat g3.rc)" = 0 ]' '[ "$(totals g3.out)" = "[[4096,1,0,0,0]]" ]'
check "... the device is unchanged" cmp -s before.md5 after.md5
