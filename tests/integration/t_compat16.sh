#!/bin/sh
# lane: timing
# Issue 16's last options and known gaps, side by side with fio 3.33: bs_is_seq_rand, atomic,
# fsync=N's count, fractional times (--runtime=1.5), the normal output's percentile unit and
# the ETA line's rate range under a rate limit.
. "$(dirname "$0")/../lib.sh"
# A compound condition for check (check runs one command): holds 'cond && cond'.
holds() { eval "$1"; }

# "read_ios read_bytes write_ios write_bytes" of a run's first job (fio's notes before the
# JSON document are skipped).
counts() { # tool args...
	"$@" --output-format=json 2>/dev/null | python3 -c '
import json, sys
s = sys.stdin.read()
j = json.loads(s[s.index("{"):])["jobs"][0]
print(j["read"]["total_ios"], j["read"]["io_bytes"], j["write"]["total_ios"], j["write"]["io_bytes"])'
}
# The same job with both tools: iobench's counts must be fio's (and, without fio, the
# expected ones).
same() { # description expected args...
	d=$1 want=$2
	shift 2
	i=$(counts "$IOBENCH" "$@")
	if have fio; then f=$(counts fio "$@"); else f=$want; fi
	check "$d: '$i' (fio: '$f')" holds '[ "$i" = "$f" ] && [ "$i" = "$want" ]'
}

# bs_is_seq_rand: bs=4k,16k is 4k for sequential I/Os and 16k for random ones, whatever the
# direction (norandommap: fio's random map shortens 16k I/Os at a 4k granularity).
B="--name=x --ioengine=null --size=256k --bs=4k,16k"
same "bs_is_seq_rand, rw=write: sequential writes take the first size (4k)" "0 0 64 262144" $B --rw=write --bs_is_seq_rand=1
same "without it, rw=write takes the write size (16k)" "0 0 16 262144" $B --rw=write
same "bs_is_seq_rand, rw=randread: random reads take the second size (16k)" "16 262144 0 0" $B --rw=randread \
	--norandommap --bs_is_seq_rand=1
same "without it, rw=randread takes the read size (4k)" "64 262144 0 0" $B --rw=randread --norandommap
i=$(counts "$IOBENCH" $B --rw=randrw --norandommap --bs_is_seq_rand=1)
check "bs_is_seq_rand, rw=randrw: every I/O is 16k ($i: 16 in all, 256 KiB)" \
	sh -c "set -- $i; [ \$((\$1 + \$3)) -eq 16 ] && [ \$((\$2 + \$4)) -eq 262144 ]"
i=$(counts "$IOBENCH" $B --rw=rw --bs_is_seq_rand=1)
check "bs_is_seq_rand, rw=rw: every I/O is 4k ($i: 64 in all)" sh -c "set -- $i; [ \$((\$1 + \$3)) -eq 64 ]"
i=$(counts "$IOBENCH" --name=x --ioengine=null --size=1m --bs=4k,16k --rw=randread --norandommap \
	--percentage_random=50 --bs_is_seq_rand=1)
check "bs_is_seq_rand with percentage_random=50: 4k and 16k reads both ($i)" \
	sh -c "set -- $i; [ \$1 -gt 64 ] && [ \$1 -lt 256 ] && [ \$2 -eq 1048576 ]"

# atomic: O_DIRECT and fio's O_ATOMIC bit (0x800000), which Linux ignores.
if have strace && direct_ok; then
	opened() { # tool
		rm -f "$T/at"
		strace -f -qq -e trace=openat -o "$T/st" "$1" --name=x --atomic=1 --size=64k --filename="$T/at" \
			--rw=write --output-format=json >"$T/at.json" 2>/dev/null
		grep '"'"$T/at"'", O_RDWR' "$T/st" | grep -o 'O_DIRECT[^)]*0x800000' | sed 's/|O_CLOEXEC//' | head -1
	}
	i=$(opened "$IOBENCH")
	if have fio; then f=$(opened fio); else f="O_DIRECT|0x800000"; fi
	check "atomic=1 opens the job's file with '$i' (fio: '$f')" holds '[ -n "$i" ] && [ "$i" = "$f" ]'
	same "atomic=1 writes the job (O_DIRECT)" "0 0 16 65536" --name=x --atomic=1 --size=64k --filename="$T/at2" --rw=write
else
	skip "atomic's open flags" "no strace, or no O_DIRECT in $T"
fi

# fsync=N as fio 3.33 counts it (JSON "sync" total_ios): a sync comes before the next I/O once
# the job's writes are a multiple of N, so none follows the job's last write; each new pass
# (loops, io_size beyond size) starts afresh; end_fsync is not counted.
syncs() { # tool args...
	rm -f "$T"/fs.*
	"$@" --name=x --size=64k --rw=write --filename_format="$T/fs.\$filenum" --output-format=json 2>/dev/null |
		python3 -c '
import json, sys
s = sys.stdin.read()
j = json.loads(s[s.index("{"):])["jobs"][0]
print(j["write"]["total_ios"], j["sync"]["total_ios"], j["sync"]["lat_ns"]["N"])'
}
for c in "--fsync=1:16 15 15" "--fsync=3:16 5 5" "--fsync=1 --end_fsync=1:16 15 15" "--fsync=5 --nrfiles=2:16 3 3" \
	"--fsync=1 --loops=3:48 49 49" "--fsync=4 --loops=2:32 8 8" "--fsync=1 --io_size=128k:32 32 32" \
	"--fsync=1 --number_ios=8:8 7 7"; do
	args=${c%%:*} want=${c#*:}
	# shellcheck disable=SC2086
	i=$(syncs "$IOBENCH" $args)
	# shellcheck disable=SC2086
	if have fio; then f=$(syncs fio $args); else f=$want; fi
	check "$args: writes, syncs, sync latencies '$i' (fio: '$f')" holds '[ "$i" = "$f" ] && [ "$i" = "$want" ]'
done
i=$(syncs "$IOBENCH" --fdatasync=1)
check "fdatasync=1: 15 syncs after 16 writes, counted as syncs ('$i'; fio puts them in short_ios)" [ "$i" = "16 15 15" ]

# The clat percentiles block's unit in the normal output: fio 3.33 takes usec only when the
# smallest percentile is over 2000 ns and the largest over 99999 ns (msec past 2000000 and
# 99999000). Each tool's normal and JSON outputs of one run: the unit printed must be the one
# that rule gives for the JSON's percentiles (fio's show the rule is fio's).
unit_rule_holds() { # tool
	"$1" --name=x --filename="$T/pc" --size=4m --rw=randread --bs=4k --invalidate=0 --ioengine=psync \
		--fadvise_hint=0 --output-format=normal,json >"$T/pc.out" 2>/dev/null
	python3 - "$T/pc.out" <<'PY'
import json, re, sys
s = open(sys.argv[1]).read()
unit = re.search(r"clat percentiles \((\w+)\)", s).group(1)
j = json.JSONDecoder().raw_decode(s[s.index("\n{") + 1:])[0]["jobs"][0]["read"]["clat_ns"]["percentile"]
v = sorted(j.values())
lo, hi = v[0], v[-1]
want = "msec" if lo > 2000000 and hi > 99999000 else "usec" if lo > 2000 and hi > 99999 else "nsec"
print(unit, want, lo, hi)
sys.exit(unit != want)
PY
}
head -c 4194304 /dev/urandom >"$T/pc"
python3 -c "
import os; fd = os.open('$T/pc', os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM); os.pread(fd, 1 << 21, 0); os.close(fd)"
r=$(unit_rule_holds "$IOBENCH")
check "iobench's percentile unit follows fio's rule (unit, rule's, smallest, largest: $r)" holds 'unit_rule_holds "$IOBENCH" >/dev/null'
if have fio; then
	r=$(unit_rule_holds fio)
	check "fio's percentile unit follows that rule ($r)" holds 'unit_rule_holds fio >/dev/null'
fi

# Fractional times: fio 3.33 keeps the whole part of a bare number: runtime=1.5 runs 1 s
# (2.9 runs 2 s: tests/unit/test_parse.c); a unit reads the fraction (1.5s: 1.5 s; fio drops it); 0.5 is refused (fio
# takes 0: no limit).
ms_run() { # tool runtime
	"$1" --name=x --ioengine=null --size=100g --time_based --runtime="$2" --output-format=json 2>/dev/null |
		python3 -c 'import json, sys; s = sys.stdin.read(); print(json.loads(s[s.index("{"):])["jobs"][0]["job_runtime"])'
}
for c in 1.5:1000; do
	i=$(ms_run "$IOBENCH" "${c%:*}")
	if have fio; then f=$(ms_run fio "${c%:*}"); else f=${c#*:}; fi
	check "--runtime=${c%:*} runs ${i} ms (fio: $f ms; ${c#*:} expected)" holds 'lasts "$i" "${c#*:}" && lasts "$f" "${c#*:}"'
done
i=$(ms_run "$IOBENCH" 1.5s)
check "--runtime=1.5s runs $i ms (1500)" lasts "$i" 1500
"$IOBENCH" --name=x --ioengine=null --size=1m --runtime=0.5 >"$T/o" 2>"$T/e"
rc=$?
check "--runtime=0.5 is refused in one line ($(cat "$T/e"))" holds '[ $rc = 1 ] && [ ! -s "$T/o" ] && grep -q "less than one whole unit" "$T/e"'

# The ETA line under a rate limit: fio puts the running jobs' limits summed over the
# directions they do after the job count (", 0-500 IOPS", ", 0B/s-1536KiB/s").
eta_prefix() { # tool args...
	"$@" --name=x --ioengine=null --size=100g --time_based --runtime=1 --eta=always --eta-interval=250ms >"$T/eta.out" 2>&1
	tr '\r' '\n' <"$T/eta.out" | grep -a -o 'Jobs: [1-9][0-9]* (f=[0-9]*)[^:]*' | sort | uniq -c | sort -rn | head -1 |
		sed 's/^ *[0-9]* //'
}
for c in "--rate_iops=500:Jobs: 1 (f=1), 0-500 IOPS" \
	"--rate=1m,512k --rw=rw:Jobs: 1 (f=1), 0B/s-1536KiB/s" "--rate=10m --numjobs=2:Jobs: 2 (f=2), 0B/s-20.0MiB/s" \
	"--rate=1m,,512k --rw=randtrim:Jobs: 1 (f=1), 0B/s-512KiB/s"; do
	args=${c%%:*} want=${c#*:}
	# shellcheck disable=SC2086
	i=$(eta_prefix "$IOBENCH" $args)
	# shellcheck disable=SC2086
	if have fio; then f=$(eta_prefix fio $args); else f=$want; fi
	check "ETA with $args: '$i' (fio: '$f')" holds '[ "$i" = "$f" ] && [ "$i" = "$want" ]'
done
i=$(eta_prefix "$IOBENCH")
check "ETA without a rate limit: '$i', no range" [ "$i" = "Jobs: 1 (f=1)" ]

# rate_iops_min=100 (one value: every direction) on a read job holds the reads to it, not the
# writes the job never does (it failed with "got 0 IOPS" before).
"$IOBENCH" --name=x --ioengine=null --size=1g --time_based --runtime=1 --rate_iops_min=100 --rate_min=1k \
	--output-format=json >"$T/rm.json" 2>"$T/rm.err"
rc=$?
check "rate_iops_min and rate_min on a read job: exit $rc, as fio ($(head -1 "$T/rm.err"))" holds '[ $rc = 0 ] && [ ! -s "$T/rm.err" ]'
