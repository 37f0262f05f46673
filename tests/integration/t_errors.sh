#!/bin/sh
# Issues 2, 3 and 5: bad input gets one line on stderr naming the culprit (and file:line
# for job files), exit status 1 (no signal), nothing on stdout, and no file created.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
mkdir work
cd work || exit 1
# fixtures, outside the work directory so "no file created" can be checked
printf '[global]\nbs=4k\n[j]\nioengine=null\nsize=1m\nfrobnicate=3\n' >../bad.fio
printf '[global]\nbs=4k\n[j]\nioengine=null\nsize=1m\nbs=4q\n' >../badval.fio
printf 'bs=4k\n[j]\n' >../outside.fio
printf '[global\nbs=4k\n' >../unterminated.fio
: >../empty.fio
printf '\001\002\003\377garbage\000\n' >../binary.fio
printf '[j]\nioengine=null\nsize=1m\ninclude cycle.fio\n' >../cycle.fio
printf '[j]\nioengine=null\nsize=1m\nfilename=${NO_SUCH_VAR_X}\n' >../envvar.fio
printf 'x' >../regular
n=0
while IFS='|' read -r desc want args; do
	[ -z "$desc" ] && continue
	n=$((n + 1))
	# shellcheck disable=SC2086
	eval "set -- $args"
	"$IOBENCH" "$@" >../out.txt 2>../err.txt
	rc=$?
	created=$(ls -A)
	if [ $rc -eq 1 ] && [ "$(wc -l <../err.txt)" -eq 1 ] && grep -qF -- "$want" ../err.txt &&
		[ ! -s ../out.txt ] && [ -z "$created" ]; then
		ok "bad input: $desc"
	else
		notok "bad input: $desc (exit $rc${created:+, created: $created})"
		sed 's/^/#   /' ../err.txt ../out.txt | head -4
	fi
	rm -rf ./* ./.[!.]* 2>/dev/null
done <<'EOF2'
unknown option|'--bogus'|--name=j --bogus=1 --ioengine=null --size=1m
unknown option after a job|'--frob'|--name=j --ioengine=null --size=1m --frob
bs=abc|bs: cannot parse 'abc'|--name=j --bs=abc --ioengine=null --size=1m
bs=0|bs: cannot parse '0'|--name=j --bs=0 --ioengine=null --size=1m
iodepth=-1|iodepth: '-1' is out of range|--name=j --iodepth=-1 --ioengine=null --size=1m
iodepth=0|iodepth: '0' is out of range|--name=j --iodepth=0 --ioengine=null --size=1m
numjobs=0|numjobs: '0' is out of range|--name=j --numjobs=0 --ioengine=null --size=1m
rwmixread=150|rwmixread: '150' is out of range|--name=j --rwmixread=150 --ioengine=null --size=1m
size past 64 bits|size: '99999999999999999999' does not fit in 64 bits|--name=j --size=99999999999999999999 --ioengine=null
size=17179869184g overflows|size: '17179869184g' does not fit in 64 bits|--name=j --size=17179869184g --ioengine=null
runtime=abc|runtime: cannot parse 'abc' as a time|--name=j --runtime=abc --ioengine=null --size=1m
direct=maybe|direct: cannot parse 'maybe' as a boolean|--name=j --direct=maybe --ioengine=null --size=1m
unknown rw|rw: unknown mode 'sideways'|--name=j --rw=sideways --ioengine=null --size=1m
unknown engine|ioengine: unknown engine 'warp'|--name=j --ioengine=warp --size=1m
unknown output format|--output-format: unknown format 'xml'|--output-format=xml --name=j --ioengine=null --size=1m
bad --terse-version|--terse-version: '7' is not supported|--terse-version=7 --name=j --ioengine=null --size=1m
bad percentile_list|percentile_list: cannot parse '50:200'|--name=j --percentile_list=50:200 --ioengine=null --size=1m
bad random_distribution|random_distribution: unknown distribution 'lumpy'|--name=j --random_distribution=lumpy --ioengine=null --size=1m
bad cpus_allowed|cpus_allowed: cannot parse 'x-y'|--name=j --cpus_allowed=x-y --ioengine=null --size=1m
engine option for another engine|option 'fixedbufs' is for the io_uring engine, not psync|--name=j --fixedbufs --size=1m
wait_for an unknown job|wait_for: no job named 'ghost'|--name=j --ioengine=null --size=1m --wait_for=ghost
missing job file|nope.fio: cannot open job file|nope.fio
unknown option in a job file (file:line)|bad.fio:6: job 'j': unknown option 'frobnicate'|../bad.fio
bad value in a job file (file:line)|badval.fio:6: job 'j': bs: cannot parse '4q'|../badval.fio
option outside a section|outside.fio:1: option 'bs' outside of any [section]|../outside.fio
unterminated section|unterminated.fio:1: unterminated section header '[global'|../unterminated.fio
empty job file|empty.fio: no jobs defined|../empty.fio
binary garbage|binary.fio:1: not a job file (binary data)|../binary.fio
include cycle|include cycle|../cycle.fio
unset environment variable|environment variable 'NO_SUCH_VAR_X' is not set|../envvar.fio
read of a missing file without a size|size: not given, and 'missing' does not exist|--name=j --filename=missing
path under a regular file|cannot create '../regular/x': Not a directory|--name=j --rw=write --size=1m --filename=../regular/x
no jobs at all|no jobs given|--bs=4k
EOF2
echo "# $n bad inputs checked"
check "at least 25 bad inputs are covered ($n)" [ "$n" -ge 25 ]
cd "$T" || exit 1

# O_DIRECT with a block size the device cannot take: EINVAL, reported as such.
if direct_ok; then
	dd if=/dev/zero of=odirect bs=1M count=1 2>/dev/null
	"$IOBENCH" --name=d --rw=read --bs=100 --size=1000 --filename=odirect --direct=1 >/dev/null 2>d.err
	rc=$?
	check "O_DIRECT with bs=100: exit 1, EINVAL reported with the reason" \
		sh -c "[ $rc -eq 1 ] && grep -q 'Invalid argument: read offset=0, buflen=100' d.err && grep -q 'O_DIRECT' d.err"
else
	skip "O_DIRECT alignment error" "no O_DIRECT on $T"
fi
"$IOBENCH" --version >v.txt
check "--version prints fio-3.33+iobench-X.Y.Z" grep -qE '^fio-3\.33\+iobench-[0-9]+\.[0-9]+\.[0-9]+$' v.txt
"$IOBENCH" --help >h.txt
check "--help lists options" grep -q -- '--iodepth' h.txt
