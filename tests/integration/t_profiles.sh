#!/bin/sh
# lane: timing
# Issue 16: fio's profiles. --profile=tiobench and --profile=act make fio 3.33's jobs (names,
# groups, global and job options, I/O done, files left), --cmdhelp after --profile lists the
# profile's options, and profile=/the profiles' options in a job are recorded and ignored.
. "$(dirname "$0")/../lib.sh"
# A compound condition for check (check runs one command): holds 'cond && cond'.
holds() { eval "$1"; }
# tiobench sizes its files from the machine's memory ($mb_memory): a shim makes it 16 MiB for
# both tools (64 KiB of I/O per job). ASan must not insist on coming first.
if ! cc -shared -fPIC -o "$T/physmem.so" "$TOP/tests/tools/physmem.c" -ldl 2>"$T/cc.log"; then
	skip "the profiles" "cannot build the sysconf shim: $(head -1 "$T/cc.log")"
	exit 0
fi
small() { # tool args...: with 16 MiB of memory
	env LD_PRELOAD="$T/physmem.so" PHYS_PAGES=4096 ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$@"
}
# A run's JSON as lines: the global options, then per job its name, group, job options, and
# read/write total_ios and io_bytes. fio's notes before the document are skipped.
shape() { # file
	python3 - "$1" <<'PY'
import json, sys
s = open(sys.argv[1]).read()
d = json.loads(s[s.index("{"):])
print("globals", sorted(d.get("global options", {}).items()))
for j in d["jobs"]:
    print(j["jobname"], j["groupid"], sorted(j["job options"].items()),
          [(j[k]["total_ios"], j[k]["io_bytes"]) for k in ("read", "write")])
PY
}
files_of() { # dir: name and size of each file, sorted
	(cd "$1" && find . -type f ! -name '*.json' ! -name '*.txt' -printf '%p %s\n' | sort)
}

# tiobench: four jobs in four groups, the files .fio.tio.1-4 of 16 KiB each.
for tool in iobench fio; do
	[ $tool = fio ] && ! have fio && continue
	bin=$IOBENCH
	[ $tool = fio ] && bin=fio
	mkdir -p "$T/tb-$tool"
	(cd "$T/tb-$tool" && small "$bin" --profile=tiobench --output-format=json >"$T/tb-$tool.json" 2>"$T/tb-$tool.err")
	echo $? >"$T/tb-$tool.rc"
	shape "$T/tb-$tool.json" >"$T/tb-$tool.shape" 2>/dev/null
	files_of "$T/tb-$tool" >"$T/tb-$tool.files"
done
check "--profile=tiobench runs (exit $(cat "$T/tb-iobench.rc"), stderr empty)" \
	holds '[ "$(cat "$T/tb-iobench.rc")" = 0 ] && [ ! -s "$T/tb-iobench.err" ]'
check "tiobench: seqwrite, randwrite, seqread, randread in groups 0-3, 16 x 4k each" \
	holds 'grep -q "^seqwrite 0 .*\[(0, 0), (16, 65536)\]" "$T/tb-iobench.shape" &&
		grep -q "^randread 3 .*\[(16, 65536), (0, 0)\]" "$T/tb-iobench.shape"'
check "tiobench leaves .fio.tio.1-4 of 16 KiB: $(tr '\n' ' ' <"$T/tb-iobench.files")" \
	[ "$(cat "$T/tb-iobench.files")" = "$(printf './.fio.tio.1 16384\n./.fio.tio.2 16384\n./.fio.tio.3 16384\n./.fio.tio.4 16384')" ]
if have fio; then
	check "tiobench: the same jobs, groups, global and job options and I/O as fio's" \
		cmp -s "$T/tb-iobench.shape" "$T/tb-fio.shape"
	cmp -s "$T/tb-iobench.shape" "$T/tb-fio.shape" || diff "$T/tb-fio.shape" "$T/tb-iobench.shape" | sed 's/^/#   /' | head -10
	check "tiobench: the same files left as fio" cmp -s "$T/tb-iobench.files" "$T/tb-fio.files"
	mkdir -p "$T/tbn-i" "$T/tbn-f"
	(cd "$T/tbn-i" && small "$IOBENCH" --profile=tiobench | grep -E '^[a-z]+: \(g=|^Starting') >"$T/tbn-i.txt"
	(cd "$T/tbn-f" && small fio --profile=tiobench | grep -E '^[a-z]+: \(g=|^Starting|^fio-') >"$T/tbn-f.txt"
	check "tiobench's normal header is fio's (the jobs' lines, 'Starting 4 threads', no version line)" \
		cmp -s "$T/tbn-i.txt" "$T/tbn-f.txt"
fi
# Its options, which fio 3.33 reads before the command line sets them (so ignores): iobench
# carries them out as fio's manual says (docs/differences.md).
mkdir -p "$T/tbo/d"
(cd "$T/tbo" && small "$IOBENCH" --profile=tiobench --size=1 --block=8192 --numruns=2 --threads=2 --dir="$T/tbo/d" \
	--output-format=json >out.json 2>err.txt)
shape "$T/tbo/out.json" >"$T/tbo/shape"
check "tiobench size=1 block=8192 numruns=2 threads=2 dir=: 1 MiB in 8 KiB blocks twice, 2 threads, in dir" \
	holds 'grep -q "^seqwrite 0 .*\[(0, 0), (256, 2097152)\]" "$T/tbo/shape" && [ "$(stat -c %s "$T/tbo/d/.fio.tio.1")" = 262144 ]'

# act: per device a reading job (8 threads, 1536 bytes, 2000 reads/s in all) and a writing
# one (128 KiB, 12 writes/s), direct, time_based over test-duration, one group. The device is
# named relative to $T: fio 3.33's act overflows a buffer on longer names.
truncate -s 16m "$T/dev1"
act_run() { # tool out args...
	t=$1 out=$2
	shift 2
	(cd "$T" && small "$t" --profile=act --device-names=dev1 "$@" --output-format=json >"$out" 2>"$out.err")
}
act_run "$IOBENCH" "$T/act.json" --test-duration=1
rc=$?
shape "$T/act.json" >"$T/act.shape"
check "--profile=act runs (exit $rc)" holds '[ $rc = 0 ] && [ ! -s "$T/act.json.err" ]'
act_ios() { # file: name group reads writes read-size write-rate
	python3 - "$1" <<'PY'
import json, sys
s = open(sys.argv[1]).read()
j = json.loads(s[s.index("{"):])["jobs"][0]
r = j["read"]
print(j["jobname"], j["groupid"], r["total_ios"], j["write"]["total_ios"], r["io_bytes"] // max(r["total_ios"], 1),
      j["job options"].get("rate_iops"))
PY
}
act_ios "$T/act.json" >"$T/act.ios"
read -r name group rios wios _ <"$T/act.ios"
check "act: one group_reporting block '$name' (group $group): $rios reads of 2000/s, $wios writes of 12/s" \
	holds '[ "$name" = act-read-dev1 ] && [ "$group" = 0 ] && paced "$rios" 2000 && paced "$wios" 12'
if have fio; then
	act_run fio "$T/actf.json" --test-duration=1
	shape "$T/actf.json" | sed 's/ \[([^]]*)\]$//' >"$T/actf.shape"
	sed 's/ \[([^]]*)\]$//' "$T/act.shape" >"$T/act.shape2"
	check "act: the same block name, group, global and job options as fio's" cmp -s "$T/act.shape2" "$T/actf.shape"
	cmp -s "$T/act.shape2" "$T/actf.shape" || diff "$T/actf.shape" "$T/act.shape2" | sed 's/^/#   /' | head -6
fi
set -- --test-duration=1 --load=2 --threads-per-queue=4 --read-req-num-512-blocks=8
act_run "$IOBENCH" "$T/act2.json" "$@"
read -r _ _ rios wios rbs wrate <<EOT
$(act_ios "$T/act2.json")
EOT
if have fio; then act_run fio "$T/act2f.json" "$@"; fwrate=$(act_ios "$T/act2f.json" | cut -d' ' -f6); else fwrate=63; fi
check "act load=2 threads-per-queue=4 read-req-num-512-blocks=8: $rios reads of $rbs B at 4000/s, writes at $wrate/s (fio: $fwrate)" \
	holds '[ "$rbs" = 4096 ] && [ "$wrate" = "$fwrate" ] && [ "$wrate" = 63 ] && paced "$rios" 4000'
# The write rate for read sizes whose records do not fill a large block (5-7, 35 blocks): fio's.
for n in 6 7 35; do
	set -- --test-duration=1 --load=5 --threads-per-queue=4 --read-req-num-512-blocks=$n
	act_run "$IOBENCH" "$T/actn.json" "$@"
	w=$(act_ios "$T/actn.json" | cut -d' ' -f6)
	if have fio; then act_run fio "$T/actnf.json" "$@"; fw=$(act_ios "$T/actnf.json" | cut -d' ' -f6); else fw=$(( (5000 + 256 / n - 1) / (256 / n) )); fi
	check "act load=5 read-req-num-512-blocks=$n: writes at $w/s, as fio ($fw/s)" holds '[ -n "$w" ] && [ "$w" = "$fw" ]'
done
(cd "$T" && "$IOBENCH" --profile=act --device-names=dev1 --test-duration=1 --read-req-num-512-blocks=300 >"$T/big.out" 2>"$T/big.err")
rc=$?
check "act: a read size larger than the large block is refused in one line, exit 1 (fio: SIGFPE)" \
	holds '[ $rc -eq 1 ] && [ "$(wc -l <"$T/big.err")" -eq 1 ] && grep -q "read-req-num-512-blocks=300" "$T/big.err" && [ ! -s "$T/big.out" ]'
(cd "$T" && small "$IOBENCH" --profile=act --device-names=dev1 --test-duration=1 >"$T/act.txt" 2>&1)
check "act's normal output has ACT's table and verdict" \
	holds 'grep -q "^ slice" "$T/act.txt" && grep -Eq "^act: test complete, device\(s\): (PASSED|FAILED)$" "$T/act.txt"'
act_run "$IOBENCH" "$T/prep.json" --prep
shape "$T/prep.json" >"$T/prep.shape"
check "act prep: zeroes (16 x 1 MiB) in group 0, then salt (4096 x 4 KiB through libaio) in group 1" \
	holds 'grep -q "^act-prep-zeroes-dev1 0 .*\[(0, 0), (16, 16777216)\]" "$T/prep.shape" &&
		grep -q "^act-prep-salt-dev1 1 .*(.ioengine., .libaio.).*\[(0, 0), (4096, 16777216)\]" "$T/prep.shape"'
# (fio's own prep run does the same I/O, then waits about a minute before it exits: not run
# here. Its jobs, seen once: act-prep-zeroes-dev1 16 writes of 1 MiB in group 0,
# act-prep-salt-dev1 4096 writes of 4 KiB in group 1, the same options.)

# --cmdhelp after --profile: the profile's options, as fio lists them.
for p in act tiobench; do
	"$IOBENCH" --profile=$p --cmdhelp | cut -d' ' -f1 >"$T/help-$p"
	if have fio; then fio --profile=$p --cmdhelp | cut -d' ' -f1 >"$T/fhelp-$p"; else cp "$T/help-$p" "$T/fhelp-$p"; fi
	check "--profile=$p --cmdhelp lists $(tr '\n' ' ' <"$T/help-$p")as fio does" cmp -s "$T/help-$p" "$T/fhelp-$p"
done
check "--profile=act --cmdhelp=load describes load" sh -c "'$IOBENCH' --profile=act --cmdhelp=load | grep -q 'default: 1'"

# Refusals, one line each, exit 1, stdout empty.
refused() { # pattern args...
	pat=$1
	shift
	"$IOBENCH" "$@" >"$T/r.out" 2>"$T/r.err"
	[ $? = 1 ] && [ ! -s "$T/r.out" ] && [ "$(wc -l <"$T/r.err")" = 1 ] && grep -q "$pat" "$T/r.err"
}
check "--profile=bogus is refused" refused "no profile 'bogus' (act, tiobench)" --profile=bogus
check "act without device-names is refused" refused "device-names is not given" --profile=act
check "a profile with jobs of its own is refused" refused "makes its own jobs" --profile=tiobench --name=x
check "a bad profile option is refused naming it" refused "load" --profile=act --device-names=dev1 --load=x

# In a job, profile= and the profiles' options are fio's: recorded in "job options", no effect.
printf '[j]\nprofile=act\nload=2\nblock=8192\nsize=64k\nfilename=%s\n' "$T/jf" >"$T/j.fio"
"$IOBENCH" "$T/j.fio" --output-format=json >"$T/j.json" 2>/dev/null
shape "$T/j.json" >"$T/j.shape"
check "profile=act load=2 block=8192 in a job: recorded, and the job reads its 64 KiB in 4k blocks" \
	grep -q "^j 0 \[('block', '8192'), ('filename', '$T/jf'), ('load', '2'), ('profile', 'act'), ('size', '64k')\] \[(16, 65536), (0, 0)\]" "$T/j.shape"
if have fio; then
	fio "$T/j.fio" --output-format=json >"$T/jf.json" 2>/dev/null
	shape "$T/jf.json" >"$T/jf.shape"
	check "the same as fio's" cmp -s "$T/jf.shape" "$T/j.shape"
fi
