#!/bin/sh
# Issue 24, point 5: out of memory anywhere while a run is set up prints one line naming what
# could not be allocated (and for which job), and exits 1. Each allocation of a small run is
# made to fail in turn (tests/tools/failmalloc.c, the C library's own allocations too): every
# run must then end with exit 0 (the allocation was not needed, or its failure was got round)
# or with exit 1 and one line on stderr saying so; never exit 1 in silence (at ec1b5a8, the
# case for 76 of the 190 allocations of the first run below), never two lines, never a crash.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
if ! cc -shared -fPIC -o "$T/failmalloc.so" "$TOP/tests/tools/failmalloc.c" -ldl 2>"$T/cc.log"; then
	skip "out of memory at each allocation" "cannot build tests/tools/failmalloc.c: $(head -1 "$T/cc.log")"
	exit 0
fi
if nm -D "$IOBENCH" 2>/dev/null | grep -q __asan_init; then
	skip "out of memory at each allocation" "an ASan build: its allocator is not the C library's"
	exit 0
fi

# each_allocation DESCRIPTION COMMAND...: fail allocation 1, 2, ... until the count is not
# reached (the run needs no more); each must end as said above. Lines of a sweep's progress
# ("[1/2] bs=4k") and the note that signals are not watched are not counted.
each_allocation() {
	d=$1
	shift
	n=1 bad=0 silent=0 total=0
	while [ $n -le 5000 ]; do
		rm -f hit
		timeout 20 env FAILMALLOC_NTH=$n FAILMALLOC_HIT="$T/hit" LD_PRELOAD="$T/failmalloc.so" "$@" >out.txt 2>err.txt
		rc=$?
		[ -e hit ] || break
		grep -v -e '^\[[0-9]*/[0-9]*\] ' -e 'cannot watch signals' err.txt >msg.txt
		lines=$(wc -l <msg.txt)
		why=""
		if [ $rc -eq 1 ] && [ "$lines" -eq 0 ]; then
			why="exit 1 and no message"
			silent=$((silent + 1))
		elif [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
			why="exit $rc"
		elif [ $rc -eq 1 ] && [ "$lines" -ne 1 ]; then
			why="$lines lines"
		elif [ $rc -eq 1 ] && ! grep -qE 'out of memory|Cannot allocate memory|cannot start a thread' msg.txt; then
			why="a line that does not say it is out of memory"
		elif [ $rc -eq 0 ] && [ "$lines" -gt 1 ]; then
			why="exit 0 with $lines lines"
		fi
		if [ -n "$why" ]; then
			bad=$((bad + 1))
			[ $bad -le 5 ] && echo "#   allocation $n: $why: $(head -c 200 msg.txt | tr '\n' '|')"
		fi
		total=$n
		n=$((n + 1))
	done
	if [ $bad -eq 0 ] && [ $total -gt 20 ]; then
		ok "$d: each of its $total allocations failed in turn: exit 0, or exit 1 with one line"
	else
		notok "$d: $bad of $total allocations failed badly ($silent in silence)"
	fi
}

printf '[global]\nioengine=psync\nsize=8k\nbs=4k\ndirectory=%s\n[a]\nrw=randrw\nverify=crc32c\n[b]\nrw=write\nnumjobs=2\nstonewall\n' \
	"$T" >two.fio
each_allocation "a job file of two sections, files, verify" "$IOBENCH" two.fio --output-format=terse
# A sweep of a null job parses the command line three times and runs twice: a job's own
# allocations and the sweep's.
each_allocation "a sweep of two points, numjobs=2" "$IOBENCH" --name=s --ioengine=null --size=8k --numjobs=2 \
	--sweep=bs=4k,8k --output-format=terse
