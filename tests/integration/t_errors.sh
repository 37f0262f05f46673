#!/bin/sh
# Bad input: one line on stderr naming the option (and file:line), exit 1, nothing run.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
refuses() { # description, expected stderr text, args...
	d=$1 want=$2
	shift 2
	"$IOBENCH" "$@" >out.txt 2>err.txt
	rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -qF -- "$want" err.txt && [ ! -s out.txt ]; then
		ok "$d"
	else
		notok "$d (exit $rc)"
		sed 's/^/#   /' err.txt out.txt | head -5
	fi
}
refuses "unknown option" "'--bogus'" --name=j --bogus=1 --ioengine=null --size=1m
refuses "bad bs" "bs: cannot parse 'abc'" --name=j --bs=abc --ioengine=null --size=1m
refuses "iodepth=-1" "iodepth: '-1' is out of range" --name=j --iodepth=-1 --ioengine=null --size=1m
refuses "numjobs=0" "numjobs: '0' is out of range" --name=j --numjobs=0 --ioengine=null --size=1m
refuses "rwmixread=150" "rwmixread: '150' is out of range" --name=j --rwmixread=150 --ioengine=null --size=1m
refuses "size overflow" "size: '99999999999999999999' does not fit in 64 bits" --name=j --size=99999999999999999999 --ioengine=null
refuses "runtime=abc" "runtime: cannot parse 'abc' as a time" --name=j --runtime=abc --ioengine=null --size=1m
refuses "unknown rw" "rw: unknown mode 'sideways'" --name=j --rw=sideways --ioengine=null --size=1m
refuses "unknown engine" "ioengine: unknown engine 'warp'" --name=j --ioengine=warp --size=1m
refuses "unknown output format" "--output-format: unknown format 'xml'" --output-format=xml --name=j --ioengine=null --size=1m
refuses "missing job file" "nope.fio: cannot open job file" nope.fio
printf '[global]\nbs=4k\n[j]\nioengine=null\nsize=1m\nfrobnicate=3\n' >bad.fio
refuses "unknown option in a job file names file and line" "bad.fio:6: job 'j': unknown option 'frobnicate'" bad.fio
printf '[global]\nbs=4k\n[j]\nioengine=null\nsize=1m\nbs=4q\n' >badval.fio
refuses "bad value in a job file names file and line" "badval.fio:6: job 'j': bs: cannot parse '4q'" badval.fio
printf 'bs=4k\n[j]\n' >outside.fio
refuses "option outside a section" "outside.fio:1: option 'bs' outside of any [section]" outside.fio
printf '[global\nbs=4k\n' >unterminated.fio
refuses "unterminated section" "unterminated.fio:1: unterminated section header" unterminated.fio
refuses "read of a missing file without a size" "size: not given, and 'missing' does not exist" --name=j --filename=missing
check "nothing was created by refused jobs" [ ! -e j.0.0 ] && [ ! -e missing ]
"$IOBENCH" --version >v.txt
check "--version prints iobench-X.Y.Z" grep -qE '^iobench-[0-9]+\.[0-9]+\.[0-9]+$' v.txt
"$IOBENCH" --help >h.txt
check "--help lists options" grep -q -- '--iodepth' h.txt
