#!/bin/sh
# lane: timing (tests/run.sh: never beside another timing script)
# Issue 3: pacing options hold (never faster than asked; tests/lib.sh paced and lasts): rate_iops, rate, rate_process, thinktime,
# runtime, ramp_time, startdelay. The null engine keeps the device out of it.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
if ! have jq; then
	skip "pacing checks" "jq is not installed"
	exit 0
fi
run() { # json file, args...
	out=$1
	shift
	"$IOBENCH" --output-format=json --name=p --ioengine=null --size=1g "$@" >"$out"
}

run a.json --rw=randread --rate_iops=2000 --runtime=2 --time_based
v=$(jq '.jobs[0].read.iops' a.json)
check "rate_iops=2000 gives 2000 IOPS (got $v)" paced "$v" 2000

run b.json --rw=write --bs=64k --rate=8m --runtime=2 --time_based
v=$(jq '.jobs[0].write.bw' b.json)
check "rate=8m gives 8192 KiB/s (got $v)" paced "$v" 8192

run c.json --rw=randrw --rate_iops=1000,500 --runtime=2 --time_based
r=$(jq '.jobs[0].read.iops' c.json)
w=$(jq '.jobs[0].write.iops' c.json)
check "rate_iops=1000,500 paces each direction (got $r, $w)" sh -c "$(printf 'awk -v r=%s -v w=%s "BEGIN { exit !(r > 700 && r < 1050 && w > 350 && w < 525) }"' "$r" "$w")"

run d.json --rw=randread --rate_iops=1000 --rate_process=poisson --runtime=3 --time_based
v=$(jq '.jobs[0].read.iops' d.json)
check "rate_process=poisson keeps the mean rate (got $v)" paced "$v" 1000

run e.json --rw=read --thinktime=2ms --runtime=2 --time_based
v=$(jq '.jobs[0].read.iops' e.json)
v_plain=$v
check "thinktime=2ms after each I/O gives about 500 IOPS (got $v)" paced "$v" 500

run f.json --rw=read --thinktime=4ms --thinktime_blocks=4 --runtime=2 --time_based
v=$(jq '.jobs[0].read.iops' f.json)
check "thinktime=4ms every 4 I/Os gives about 1000 IOPS (got $v)" paced "$v" 1000

run g.json --rw=read --thinktime=2ms --thinktime_spin=1ms --runtime=2 --time_based
v=$(jq '.jobs[0].read.iops' g.json)
u=$(jq '.jobs[0].usr_cpu' g.json)
# The spin burns CPU inside the think; the rest is slept (fio 3.33 and iobench both give
# about 300 IOPS here on an idle machine: the short sleep after a spin oversleeps). Held
# against the plain thinktime run just before it, as a loaded machine slows both.
check "thinktime_spin burns CPU within the think (got $v IOPS, usr $u%; plain thinktime $v_plain)" \
	awk -v v="$v" -v p="$v_plain" -v u="$u" 'BEGIN { exit !(v <= 500 * 1.05 && v >= p * 0.45 && u >= 8) }'

t0=$(ms)
run h.json --rw=read --startdelay=1 --runtime=1 --time_based
t1=$(ms)
check "startdelay=1 + runtime=1 take 2 s (got $((t1 - t0)) ms)" lasts $((t1 - t0)) 2000
v=$(jq '.jobs[0].read.runtime' h.json)
check "startdelay is not part of the runtime (got $v ms)" lasts "$v" 1000

t0=$(ms)
run i.json --rw=read --ramp_time=1 --runtime=1 --time_based
t1=$(ms)
check "ramp_time=1 + runtime=1 take 2 s (got $((t1 - t0)) ms)" lasts $((t1 - t0)) 2000
v=$(jq '.jobs[0].read.runtime' i.json)
check "ramp_time is not measured (runtime $v ms)" lasts "$v" 1000

run j.json --rw=read --runtime=1500ms --time_based
v=$(jq '.jobs[0].read.runtime' j.json)
check "runtime=1500ms holds (got $v)" lasts "$v" 1500

"$IOBENCH" --name=p --ioengine=null --size=1g --rw=read --rate_iops=100 --rate_iops_min=1000 \
	--runtime=3 --time_based --output-format=json >k.json 2>k.err
rc=$?
check "rate_iops_min not met: the job fails with a message" sh -c "[ $rc -ne 0 ] && grep -q 'min rate' k.err"
