#!/bin/sh
# lane: timing (tests/run.sh: never beside another timing script)
# Issue 14, hostile input: arithmetic that overflows, sizes no file can hold, empty values,
# job files that never end or are not files, long lists, names that are not UTF-8. Each
# refusal: exit 1, one line on stderr with the reason, nothing on stdout, in bounded time.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
NULLJOB="--name=j --ioengine=null"

# refused DESCRIPTION WANT COMMAND...: exit 1 within 20 s, one stderr line containing WANT
# (fixed strings; several may be joined with '|'), stdout empty.
refused() {
	d=$1 want=$2
	shift 2
	timeout 20 "$@" >out.txt 2>err.txt
	rc=$?
	good=1
	[ $rc -eq 1 ] && [ "$(wc -l <err.txt)" -eq 1 ] && [ ! -s out.txt ] || good=0
	echo "$want" | tr '|' '\n' >want.txt
	while read -r w; do grep -qF -- "$w" err.txt || good=0; done <want.txt
	if [ $good -eq 1 ]; then
		ok "$d"
	else
		notok "$d (exit $rc)"
		head -c 300 err.txt | sed 's/^/#   /'
		head -c 200 out.txt | sed 's/^/#   out: /'
	fi
}
# accepted DESCRIPTION COMMAND...: exit 0 within 20 s, stderr empty.
accepted() {
	d=$1
	shift
	timeout 20 "$@" >out.txt 2>err.txt
	rc=$?
	if [ $rc -eq 0 ] && [ ! -s err.txt ]; then ok "$d"; else
		notok "$d (exit $rc)"
		head -c 300 err.txt | sed 's/^/#   /'
	fi
}
jqe() { jq -e "$@" >/dev/null 2>&1; }
repeat() { # TEXT N [SEP]: TEXT N times, joined with SEP (awk turns \n into a newline)
	awk -v t="$1" -v n="$2" -v s="${3:-}" 'BEGIN { for (i = 0; i < n; i++) printf "%s%s", (i ? s : ""), t }'
}
jobfile() { # FILE LINES...: a job file [j] on the null engine, then LINES
	f=$1
	shift
	printf '[j]\nioengine=null\nsize=1m\n' >"$f"
	for l in "$@"; do printf '%s\n' "$l" >>"$f"; done
}

# ---- 1. arithmetic in (expr): overflow is an error, never SIGFPE or a wrap ----
refused "INT64_MIN / -1 is an overflow, not SIGFPE" "iobench: --size: cannot evaluate '((-9223372036854775807-1)/-1)': overflow" \
	"$IOBENCH" $NULLJOB --size='((-9223372036854775807-1)/-1)'
refused "negating INT64_MIN is an overflow" "--size: cannot evaluate|: overflow" \
	"$IOBENCH" $NULLJOB --size='(-(-9223372036854775807-1))'
refused "a product past 64 bits is an overflow" "--offset: cannot evaluate|: overflow" \
	"$IOBENCH" $NULLJOB --offset='(9223372036854775807*2)'
refused "division by zero" "--size: cannot evaluate '(1/0)': division by zero" "$IOBENCH" $NULLJOB --size='(1/0)'
timeout 20 "$IOBENCH" $NULLJOB --size='((-9223372036854775807-1)%-1+4096)' --output-format=json >m.json 2>m.err
check "INT64_MIN % -1 is 0 (no trap): size=4096 is run" sh -c \
	"[ \$(jq '.jobs[0].read.io_bytes' m.json) -eq 4096 ] && [ ! -s m.err ]"
deep=$(repeat '(' 60000)1$(repeat ')' 60000)
refused "60000 nested parentheses: too deeply nested" "--size: cannot evaluate|too deeply nested (64 levels at most)" \
	"$IOBENCH" $NULLJOB --size="$deep"
refused "... and the message quotes the value cut short" "((((...'" "$IOBENCH" $NULLJOB --size="$deep"
check "... in one short line" [ "$(wc -c <err.txt)" -lt 400 ]
jobfile deep.fio "size=$(repeat '(' 4000)1$(repeat ')' 4000)"
refused "deep nesting in a job file: file:line" "deep.fio:4: size: cannot evaluate|too deeply nested" "$IOBENCH" deep.fio
refused "65 minus signs nest too deep as well" "too deeply nested" "$IOBENCH" $NULLJOB --size="($(repeat - 65)1)"
timeout 20 "$IOBENCH" $NULLJOB --size="($(repeat 0 50000 +)+4096)" --output-format=json >long.json 2>long.err
check "a 100 kB flat expression is evaluated (size 4096)" sh -c \
	"[ \$(jq '.jobs[0].read.io_bytes' long.json) -eq 4096 ] && [ ! -s long.err ]"
jobfile ovf.fio 'size=(9223372036854775807*2)'
refused "overflow in a job file names file:line and the option" "iobench: ovf.fio:4: size: cannot evaluate '(9223372036854775807*2)': overflow" \
	"$IOBENCH" ovf.fio
jobfile kw.fio "size=($(repeat '$pagesize' 100 '*'))"
refused "\$pagesize multiplied 100 times: overflow" "kw.fio:4: size: cannot evaluate|overflow" "$IOBENCH" kw.fio
timeout 20 "$IOBENCH" --name='(1+2)' --description='(1/0)' --ioengine=null --size=1m --output-format=json >txt.json
check "text options are not evaluated: name=(1+2) and description=(1/0) stay as they are (as fio)" \
	jqe '.jobs[0].jobname == "(1+2)" and .jobs[0].desc == "(1/0)"' txt.json

# ---- 2. sizes: at most INT64_MAX (off_t), "out of range" named; empty values ----
for o in size offset filesize io_size offset_increment; do
	refused "$o=9e is more than a file can hold" "$o: '9e' is out of range" "$IOBENCH" $NULLJOB --size=1m --$o=9e
done
refused "size=16e (past 64 bits) is out of range" "size: '16e' does not fit in 64 bits (out of range)" \
	"$IOBENCH" $NULLJOB --size=16e
refused "filesize=4k-9e: the range's end is out of range" "filesize: '4k-9e' is out of range" \
	"$IOBENCH" $NULLJOB --filesize=4k-9e
refused "a 1000-digit size: out of range, the value cut short" "does not fit in 64 bits (out of range)" \
	"$IOBENCH" $NULLJOB --size="$(repeat 9 1000)"
accepted "size=7e passes --parse-only" "$IOBENCH" $NULLJOB --size=7e --parse-only
refused "bs= (empty) is refused, not the default" "job 'j': bs: the value is empty" "$IOBENCH" $NULLJOB --size=1m --bs=
jobfile empty.fio 'direct='
refused "direct= (empty) in a job file: file:line" "empty.fio:4: job 'j': direct: the value is empty" "$IOBENCH" empty.fio
if have fio; then
	fio --name=j --ioengine=null --size=1m --bs= >/dev/null 2>&1
	check "fio refuses bs= too" [ $? -ne 0 ]
fi
timeout 20 "$IOBENCH" $NULLJOB --size=010k --bs=1k --output-format=json >oct.json
check "size=010k is ten KiB, not octal (as fio)" [ "$(jq '.jobs[0].read.io_bytes' oct.json)" -eq 10240 ]

# ---- 3. job files: regular files only, 16 MiB, long lines, includes ----
mkdir dir
mkfifo fifo
for x in /dev/zero dir fifo; do
	jobfile "inc-$(basename $x).fio" "include $x"
	refused "include $x is refused (not a regular file)" "inc-$(basename $x).fio:4: include: '" \
		"$IOBENCH" "inc-$(basename $x).fio"
	check "... with 'is not a regular file'" grep -q "' is not a regular file$" err.txt
	refused "$x as the job file is refused" "$x: job file is not a regular file" "$IOBENCH" "$x"
done
refused "stdin from /dev/zero: binary data, at once" "<stdin>:1: not a job file (binary data)" \
	sh -c "'$IOBENCH' - </dev/zero"
refused "stdin that never ends: stopped at 16 MiB" "<stdin>: job file is larger than 16 MiB" \
	sh -c "{ printf '[j]\nioengine=null\nsize=1m\n'; yes '; a comment'; } | '$IOBENCH' -"
refused "an endless line on stdin: line is too long" "<stdin>:1: line is too long (8192 characters at most)" \
	sh -c "tr '\\0' a </dev/zero | '$IOBENCH' -"
printf '[j]\nioengine=null\nsize=1m\n' | timeout 20 "$IOBENCH" --output-format=json - >pipe.json 2>pipe.err
check "a job file on a pipe as stdin (-) is fine" sh -c "[ ! -s pipe.err ]" && jqe '.jobs[0].jobname == "j"' pipe.json
head -c 17000000 /dev/zero | tr '\0' '\n' >big.fio
printf '[j]\nioengine=null\nsize=1m\n' >>big.fio
refused "a 17 MB job file is refused" "big.fio: job file is larger than 16 MiB" "$IOBENCH" big.fio
jobfile incbig.fio "include big.fio"
refused "... and so is one that includes it" "incbig.fio: job file is larger than 16 MiB (with the files it includes)" \
	"$IOBENCH" incbig.fio
printf '[j]\nioengine=null\nsize=1m\nbs=4\000k\n' >nul.fio
refused "a NUL byte in the middle of a line" "nul.fio:4: not a job file (binary data)" "$IOBENCH" nul.fio
printf '[global%s]\nioengine=null\nsize=1m\n[j]\n' "$(repeat ' ' 8183)" >g8191.fio
check "the [global] line is 8191 characters" [ "$(head -1 g8191.fio | tr -d '\n' | wc -c)" -eq 8191 ]
accepted "a [global] line of 8191 characters is read" "$IOBENCH" --parse-only g8191.fio
printf '[global%s]\nioengine=null\nsize=1m\n[j]\n' "$(repeat ' ' 8185)" >g8193.fio
refused "a line of 8193 characters is too long" "g8193.fio:1: line is too long (8192 characters at most)" \
	"$IOBENCH" --parse-only g8193.fio
jobfile kw10k.fio "filename=$(repeat '$ncpus' 10000)"
refused "\$ncpus 10,000 times: the line is too long" "kw10k.fio:4: line is too long" "$IOBENCH" kw10k.fio
refused "\$ncpus 10,000 times on the command line: too long a file name" "filename: value is too long" \
	"$IOBENCH" $NULLJOB --size=1m --filename="$(repeat '$ncpus' 10000)"
V=$(repeat a 100000)
export V
jobfile env.fio 'filename=${V}'
refused "\${V} of 100 kB: too long once expanded" 'env.fio:4: filename: the value is longer than 8192 bytes with its ${...} expanded' \
	"$IOBENCH" env.fio
unset V
{ printf '[global]\nioengine=null\nsize=1m\n'; repeat '[j]\n' 100000; } >s100k.fio
start=$(ms)
refused "100,000 sections: refused at the 4097th job" "s100k.fio:4100: too many jobs (4096 at most)" "$IOBENCH" --parse-only s100k.fio
check "... at once ($(($(ms) - start)) ms)" [ $(($(ms) - start)) -lt 5000 ]
head -4099 s100k.fio >s4096.fio
start=$(ms)
accepted "4096 sections pass --parse-only" "$IOBENCH" --parse-only s4096.fio
check "... in under 10 s ($(($(ms) - start)) ms)" [ $(($(ms) - start)) -lt 10000 ]
{ printf '[global]\nioengine=null\nsize=1m\n'; repeat 'bs=4k\n' 200000; repeat '[j]\n' 4000; } >gx.fio
start=$(ms)
refused "200,000 [global] options copied into 4000 jobs: refused, not 800 million copies" \
	"gx.fio:200007: too many options (1048576 at most" "$IOBENCH" --parse-only gx.fio
check "... at once ($(($(ms) - start)) ms)" [ $(($(ms) - start)) -lt 5000 ]
printf 'bs=4k\n' >readable.inc
i=0
while [ $i -lt 17 ]; do
	printf 'include d%d.inc\n' $((i + 1)) >d$i.inc
	i=$((i + 1))
done
jobfile depth.fio "include d0.inc"
refused "17 nested includes: too deep" "includes nested too deep" "$IOBENCH" --parse-only depth.fio
jobfile self.fio "include self.fio"
refused "an include cycle is still refused" "self.fio:4: include cycle" "$IOBENCH" --parse-only self.fio
if [ "$(id -u)" = 0 ] && have setpriv; then
	AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
	AS=""
fi
mkdir perm && chmod 755 "$T" perm
printf 'bs=4k\n' >perm/secret.inc
chmod 000 perm/secret.inc
jobfile perm/top.fio "include secret.inc"
chmod 644 perm/top.fio
if [ -n "$AS" ] || [ "$(id -u)" != 0 ]; then
	refused "an include that exists but cannot be read: EACCES, with file:line" \
		"perm/top.fio:4: include: cannot open 'perm/secret.inc': Permission denied" $AS "$IOBENCH" perm/top.fio
else
	skip "an unreadable include" "root without setpriv reads every file"
fi

# ---- 4. --output-format lists of any length ----
timeout 20 "$IOBENCH" --output-format="$(repeat json 200 ,),terse" $NULLJOB --size=1m >fmt.txt 2>fmt.err
check "--output-format=json x200,terse prints both: the terse line" grep -q '^3;fio-3.33+iobench-' fmt.txt
grep -v '^3;' fmt.txt >fmt.json
check "... and the JSON" sh -c "[ ! -s fmt.err ]" && jqe '.jobs[0].jobname == "j"' fmt.json
refused "an unknown format after 200 good ones is named" "--output-format: unknown format 'xml'" \
	"$IOBENCH" --output-format="$(repeat json 200 ,),xml" $NULLJOB --size=1m

# ---- 4b. times kept in ms or us and counted in ns: refused where the ns would wrap ----
# (bwavgtime=18446744073710 sampled every 0.45 ms; max_latency=18446744073709552 failed a
# 157 us read; thinktime_iotime=18446744073709552us thought after every I/O)
refused "bwavgtime past 32 bits is out of range, not a wrapped window" "bwavgtime: '18446744073710' is out of range" \
	"$IOBENCH" --parse-only $NULLJOB --size=1m --bwavgtime=18446744073710
refused "iopsavgtime past 32 bits is out of range" "iopsavgtime: '18446744073710' is out of range" \
	"$IOBENCH" --parse-only $NULLJOB --size=1m --iopsavgtime=18446744073710
refused "rate_cycle past 32 bits is out of range" "rate_cycle: '18446744073710' is out of range" \
	"$IOBENCH" --parse-only $NULLJOB --size=1m --rate_cycle=18446744073710
accepted "bwavgtime=4294967295 (fio's unsigned int) is taken" "$IOBENCH" --parse-only $NULLJOB --size=1m --bwavgtime=4294967295
refused "max_latency whose ns do not fit 64 bits is refused" "max_latency: cannot parse '18446744073709552'" \
	"$IOBENCH" --parse-only $NULLJOB --size=1m --max_latency=18446744073709552
refused "thinktime_iotime whose ns do not fit 64 bits is refused" "thinktime_iotime: '18446744073709552us' is too long a time" \
	"$IOBENCH" --parse-only $NULLJOB --size=1m --thinktime_iotime=18446744073709552us
refused "zoned_abs with an empty size is refused, as fio 3.33 refuses it" "random_distribution: cannot parse 'zoned_abs:50/10m:50/'" \
	"$IOBENCH" --parse-only $NULLJOB --size=1m --random_distribution=zoned_abs:50/10m:50/

mkfifo pat.fifo
: >pat.empty
refused "buffer_pattern='FIFO': refused at once (a pattern file is a regular file), never a hang" \
	"buffer_pattern: cannot parse|file 'pat.fifo': not a regular file" "$IOBENCH" --parse-only $NULLJOB --size=1m "--buffer_pattern='pat.fifo'"
refused "verify_pattern='EMPTY': refused (fio 3.33 aborts on an assertion)" "verify_pattern: cannot parse|file 'pat.empty': empty" \
	"$IOBENCH" --parse-only $NULLJOB --size=1m --verify=pattern "--verify_pattern='pat.empty'"
for pv in '0xaa|0xbb' '0xaa 0xbb' '"ab"|0x01'; do
	f=refused
	if have fio; then # fio refuses a '|' or a blank between a pattern's pieces too
		fio --parse-only --name=x --size=1m "--buffer_pattern=$pv" >/dev/null 2>&1 && f="accepted by fio (not refused)"
	fi
	refused "buffer_pattern=$pv: refused in one line, as fio ($f)" "buffer_pattern: cannot parse|between them" \
		"$IOBENCH" --parse-only $NULLJOB --size=1m "--buffer_pattern=$pv"
	[ "$f" = refused ] || notok "fio accepts buffer_pattern=$pv"
done
refused "buffer_pattern='missing': refused naming the file" "file 'no.such': No such file or directory" \
	"$IOBENCH" --parse-only $NULLJOB --size=1m "--buffer_pattern='no.such'"

# blockalign or bs_unaligned off the smallest block size: verify read such blocks back at the
# wrong offsets (bad magic header, exit 1, where fio verifies them); refused in one line
refused "blockalign=5 with verify is refused, not a false verify failure" "blockalign=5 with verify: the alignment must be a multiple" \
	"$IOBENCH" --parse-only --name=j --rw=randwrite --bs=4k --ba=5 --verify=crc32c --size=1m
refused "bs_unaligned with a bsrange and verify is refused" "bs_unaligned with verify" \
	"$IOBENCH" --parse-only --name=j --rw=write --bsrange=512-8k --bs_unaligned=1 --verify=crc32c --size=1m
check "blockalign=8k with bs=4k and verify is taken (and verifies)" "$IOBENCH" --name=j --rw=randwrite --bs=4k --ba=8k \
	--verify=crc32c --size=256k --filename=ba.dat --output-format=terse

# io_submit_mode=offload with an engine whose helpers would need their own connection or
# program, or that does no I/O: refused (net's helpers never connected: 0 bytes, exit 0)
refused "io_submit_mode=offload with ioengine=net is refused" "io_submit_mode=offload: ioengine=net keeps a connection" \
	"$IOBENCH" --parse-only --name=j --ioengine=net --hostname=localhost --port=9999 --size=1m --io_submit_mode=offload
refused "io_submit_mode=offload with ioengine=cpuio is refused" "io_submit_mode=offload: ioengine=cpuio does no I/O" \
	"$IOBENCH" --parse-only --name=j --ioengine=cpuio --cpuload=10 --io_submit_mode=offload

# ---- 5. JSON: invalid UTF-8 escaped byte by byte, never inf or NaN ----
valid_json() { python3 -c 'import json, sys; json.loads(sys.stdin.buffer.read().decode("utf-8"))' <"$1"; }
bad=$(printf 'a\377\376b')
timeout 20 "$IOBENCH" --name="$bad" --description="d$bad" --filename="f$bad" --ioengine=null --size=1m \
	--output-format=json >u.json 2>u.err
check "a name with invalid UTF-8: the JSON is valid UTF-8 JSON" valid_json u.json
check "... each invalid byte is \\u00XX" grep -qF '"jobname" : "a\u00ff\u00feb"' u.json
check "... in job options and the description too" \
	jqe '.jobs[0]."job options".filename == "fa\u00ff\u00feb" and .jobs[0].desc == "da\u00ff\u00feb"' u.json
printf '[global]\ndescription=g%s\n[%s]\nioengine=null\nsize=1m\n' "$bad" "$bad" >u.fio
timeout 20 "$IOBENCH" --output-format=json u.fio >u2.json 2>/dev/null
check "... in global options and section names: valid JSON" valid_json u2.json
check "... escaped" jqe '."global options".description == "ga\u00ff\u00feb" and .jobs[0].jobname == "a\u00ff\u00feb"' u2.json
ctl=$(printf 'c\001\037"\\/\tx\316\273\342\202\254\360\237\230\200')
timeout 20 "$IOBENCH" --name="$ctl" --ioengine=null --size=1m --output-format=json >c.json
check "control characters, quotes and valid UTF-8 (λ € 😀)" \
	jqe '.jobs[0].jobname == "c\u0001\u001f\"\\/\tx\u03bb\u20ac\ud83d\ude00"' c.json
check "... valid UTF-8 is passed through as it is" grep -q 'λ€😀' c.json
if have fio; then
	for name in plain 'with space' 'ünïcødé λ' 'q"uo\te' 'sl/ash'; do
		"$IOBENCH" --name="$name" --ioengine=null --size=64k --output-format=json >i.json 2>/dev/null
		fio --name="$name" --ioengine=null --size=64k --output-format=json >f.json 2>/dev/null
		check "a valid name prints as fio prints it: '$(printf %s "$name" | tr '\\' '|')'" \
			sh -c "[ \"\$(jq .jobs[0].jobname i.json)\" = \"\$(jq .jobs[0].jobname f.json)\" ] && [ \"\$(grep jobname i.json)\" = \"\$(grep jobname f.json)\" ]"
	done
fi
timeout 20 "$IOBENCH" $NULLJOB --size=1m --rw=randrw --numjobs=2 --group_reporting --output-format=json+ >p.json
check "JSON+ of a run has no inf or nan" sh -c "jq -e . p.json >/dev/null && ! grep -Eqi '[^a-z_](nan|inf)[^a-z_]' p.json"
timeout 20 "$IOBENCH" $NULLJOB --size=1m --output-format=terse >t.txt
check "the terse line has no inf or nan" sh -c "! grep -Eqi '(^|;)-?(nan|inf)' t.txt"

# zoned_abs zones past the end of the file: run, cut at its end, with one note on stderr (fio
# warns "zoned_abs sizes exceed file size"); zones that fit: no note.
head -c 1048576 /dev/zero >za
ZJ="--name=z --filename=za --size=1m --bs=4k --rw=randread --number_ios=64 --output-format=json"
"$IOBENCH" $ZJ --random_distribution=zoned_abs:50/512k:50/2m >za.json 2>za.err
check "zoned_abs zones beyond the file: exit 0, JSON on stdout, one note naming the sizes on stderr" \
	sh -c "[ $? -eq 0 ] && jq -e '.jobs[0].read.total_ios == 64' za.json >/dev/null && [ \$(wc -l <za.err) -eq 1 ] &&
		grep -q 'zoned_abs: its zones add up to 2621440 bytes, more than the 1048576' za.err"
if have fio; then
	fio $ZJ --random_distribution=zoned_abs:50/512k:50/2m 2>&1 >/dev/null | grep -q 'zoned_abs sizes exceed' &&
		ok "... fio warns of them too" || notok "fio did not warn of zoned_abs zones beyond the file"
fi
"$IOBENCH" $ZJ --random_distribution=zoned_abs:50/512k:50/512k >za.json 2>za.err
check "zoned_abs zones that fit the file: no note" sh -c "[ $? -eq 0 ] && [ ! -s za.err ]"
