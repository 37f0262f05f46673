#!/bin/sh
# Issue 9: file-operation engines at fio's scale (nrfiles=3000, numjobs=2), whole-file reads
# of a nested tree of mixed-size files (opendir), and the two scenario job files.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
mkdir ops && cd ops || exit 1
common="--nrfiles=3000 --numjobs=2 --filesize=4k --output-format=json"
# shellcheck disable=SC2086
"$IOBENCH" --name=m --ioengine=filecreate $common >../create.json 2>../create.err
check "filecreate: 2 x 3000 operations, 6000 empty files created" \
	sh -c "[ \$(jq '[.jobs[].read.total_ios] | add' ../create.json) -eq 6000 ] && [ \$(jq '[.jobs[].read.clat_ns.N] | add' ../create.json) -eq 6000 ] && [ \$(find . -type f -size 0 | wc -l) -eq 6000 ]"
# shellcheck disable=SC2086
"$IOBENCH" --name=m --ioengine=filestat $common >../stat.json 2>../stat.err
check "filestat: 6000 stat calls, one read clat each; the 6000 files stay (laid out to 4 KiB)" \
	sh -c "[ \$(jq '[.jobs[].read.clat_ns.N] | add' ../stat.json) -eq 6000 ] && [ \$(find . -type f -size 4k | wc -l) -eq 6000 ]"
# shellcheck disable=SC2086
"$IOBENCH" --name=m --ioengine=filedelete $common >../delete.json 2>../delete.err
check "filedelete: 6000 unlink calls, none left" \
	sh -c "[ \$(jq '[.jobs[].read.clat_ns.N] | add' ../delete.json) -eq 6000 ] && [ \$(find . -type f | wc -l) -eq 0 ]"
"$IOBENCH" --name=d --ioengine=dircreate --nrfiles=50 --numjobs=2 --filesize=4k \
	--filename_format='dirs/$jobnum/d$filenum' --output-format=json >../dirs.json 2>&1
n1=$(find dirs -mindepth 2 -type d | wc -l)
"$IOBENCH" --name=d --ioengine=dirdelete --nrfiles=50 --numjobs=2 --filesize=4k \
	--filename_format='dirs/$jobnum/d$filenum' --output-format=json >../dirs2.json 2>&1
n2=$(find dirs -mindepth 2 -type d | wc -l)
check "dircreate makes 100 directories (parents too), dirdelete removes them" \
	sh -c "[ $n1 -eq 100 ] && [ $n2 -eq 0 ] && [ \$(jq '[.jobs[].read.clat_ns.N] | add' ../dirs.json) -eq 100 ]"
cd .. || exit 1

# A nested tree of files of 1..16 KiB (not multiples of the block size).
total=$(python3 - <<'PY'
import os, random
random.seed(11)
total = 0
for i in range(400):
    d = 'tree/%d/%d' % (i % 5, i % 4) if i % 3 else 'tree/%d' % (i % 5)
    os.makedirs(d, exist_ok=True)
    n = random.randint(1024, 16384)
    with open('%s/f%d' % (d, i), 'wb') as f:
        f.write(os.urandom(n))
    total += n
print(total)
PY
)
"$IOBENCH" --name=tree --opendir="$T/tree" --rw=read --bs=4k --output-format=json >tree.json 2>tree.err
check "tree read whole: io_bytes = the tree's $total bytes, 400 files, no error" \
	sh -c "[ \$(jq '.jobs[0].read.io_bytes' tree.json) -eq $total ] && [ \$(jq '.jobs[0].whole_files.files' tree.json) -eq 400 ] && [ \$(jq '.jobs[0].error' tree.json) -eq 0 ] && [ ! -s tree.err ]"
check "tree read whole: files/s and open+close latency reported" \
	sh -c "jq -e '.jobs[0].whole_files.files_per_sec > 0 and .jobs[0].whole_files.open_close_ns.N == 400' tree.json >/dev/null"
"$IOBENCH" --name=tree --opendir="$T/tree" --rw=read --bs=64k --ioengine=libaio --iodepth=8 >tree.txt 2>&1
check "normal output: 'files : 400 read whole, N files/s' (libaio, depth 8)" \
	grep -Eq '^  files        : 400 read whole, [0-9.]+ files/s$' tree.txt
if have fio; then
	fio --name=tree --opendir="$T/tree" --rw=read --bs=4k --output-format=json 2>/dev/null | sed -n '/^{/,$p' >fio-tree.json
	check "fio reads less of the same tree (it skips each file's partial block): $(jq '.jobs[0].read.io_bytes' fio-tree.json) < $total" \
		[ "$(jq '.jobs[0].read.io_bytes' fio-tree.json)" -lt "$total" ]
fi

# The scenario job files, at small scale.
mkdir md && cd md || exit 1
sed 's/^nrfiles=1000$/nrfiles=100/' "$TOP/jobs/metadata.fio" >metadata.fio
"$IOBENCH" metadata.fio --output-format=json >../md.json 2>../md.err
check "jobs/metadata.fio: create, stat, read, delete, rmdir phases, 200 operations each, nothing left" python3 - ../md.json <<'PY'
import json, os, sys
jobs = json.load(open(sys.argv[1]))['jobs']
got = [(j['jobname'], j['groupid'], j['read']['clat_ns']['N'], j['read']['iops'] > 0) for j in jobs]
print('#   ' + ' '.join('%s:%d ops/s' % (j['jobname'], j['read']['iops']) for j in jobs))
want = [('create', 0, 200, True), ('stat', 1, 200, True), ('read', 2, 200, True), ('delete', 3, 200, True), ('rmdir', 4, 2, True)]
left = [os.path.join(r, f) for r, _, fs in os.walk('iobench-md') for f in fs]
sys.exit(0 if got == want and not left else 1)
PY
cd .. && mkdir sf && cd sf || exit 1
sed -e 's/^nrfiles=500$/nrfiles=50/' -e 's/^size=16m$/size=2m/' "$TOP/jobs/small-files.fio" >small-files.fio
"$IOBENCH" small-files.fio --output-format=json >../sf.json 2>../sf.err
check "jobs/small-files.fio: the tree read whole (200 files, all bytes written) and the image read" python3 - ../sf.json <<'PY'
import json, sys
j = {x['jobname']: x for x in json.load(open(sys.argv[1]))['jobs']}
tree, img = j['read-tree'], j['read-image']
print('#   tree %d files, %.0f files/s, %d KiB/s; image %d KiB/s' % (tree['whole_files']['files'],
      tree['whole_files']['files_per_sec'], tree['read']['bw'], img['read']['bw']))
sys.exit(0 if tree['whole_files']['files'] == 200 and tree['read']['io_bytes'] == j['make-tree']['write']['io_bytes']
         and img['read']['io_bytes'] == 2 << 20 else 1)
PY
check "jobs/small-files.fio: unlink=1 removed the files" sh -c "[ \$(find . -type f ! -name '*.fio' | wc -l) -eq 0 ]"

# Issue 19: the bytes a file costs (a million files must fit in 128 MiB). Peak RSS of
# filecreate and filedelete at 51,000 files less that at 1,000, by file: about 104 bytes
# now (a 35-character path, a 32-byte planned file, a 40-byte worker file), 125 with a
# plan pointer, a descriptor and a flag in the worker's file and a name pointer in the
# engine, 186 before that; a per-file pointer or two more fails it.
if grep -q __asan_init "$IOBENCH" 2>/dev/null; then
	skip "peak RSS per file of filecreate/filedelete" "a sanitizer build: ASan's shadow memory and quarantine are most of its RSS"
elif [ -x /usr/bin/time ] && [ -d /dev/shm ] && SHM=$(mktemp -d /dev/shm/iobench-t.XXXXXX); then
	for e in filecreate filedelete; do
		rss() {
			/usr/bin/time -f 'RSS_KIB=%M' "$IOBENCH" --name=m --ioengine=$e --nrfiles="$1" --filesize=4k --bs=4k \
				--openfiles=1 --directory="$SHM" --output-format=json 2>&1 >/dev/null | sed -n 's/^RSS_KIB=//p'
		}
		a=$(rss 1000)
		b=$(rss 51000)
		per=$(( (b - a) * 1024 / 50000 ))
		check "$e: $per bytes of peak RSS per file (51,000 files: $b KiB, 1,000: $a KiB), at most 120" \
			sh -c "[ -n '$a' ] && [ -n '$b' ] && [ $per -le 120 ]"
	done
	rm -rf "$SHM"
else
	skip "peak RSS per file of filecreate/filedelete" "needs /usr/bin/time and /dev/shm"
fi
