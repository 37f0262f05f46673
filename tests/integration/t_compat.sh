#!/bin/sh
# Issue 16: what real-world job files and the tools that read fio's output see. Each case
# runs the same job with fio 3.33 and iobench (each in its own directory) and compares:
# groups with wait_for, name= in a section, offset=N% on a missing file, lfsr with
# norandommap, fio's option names in "job options", gtod_reduce's bandwidth samples,
# group_reporting over differently named jobs, size=N%%, disk_util, overwrite, dir, and
# the version string.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
if ! have fio || ! have python3; then
	skip "differential compatibility tests against fio" "fio or python3 is not installed"
	exit 0
fi

# pair NAME ARGS...: run fio and iobench with the same arguments in $T/r/NAME.fio and
# $T/r/NAME.ib; stdout, stderr and the exit status are kept beside them.
pair() {
	n=$1
	shift
	for p in fio ib; do
		prog=fio
		[ $p = ib ] && prog=$IOBENCH
		mkdir -p "$T/r/$n.$p"
		(cd "$T/r/$n.$p" && "$prog" "$@" >"$T/r/$n.$p.out" 2>"$T/r/$n.$p.err")
		echo $? >"$T/r/$n.$p.rc"
	done
}

# same NAME DESC EXPR: the Python expression has the same value for both runs.
# holds NAME DESC EXPR: it is true for both. In EXPR: d (the JSON document, or None),
# out, err, rc, files (sorted (name, size) left in the run's directory), dir, blocks(name)
# (the file's 4 KiB blocks that are all zero, and its count of blocks).
cat >"$T/cmp.py" <<'EOF'
import json, os, sys
mode, top, name, desc, expr = sys.argv[1:6]

def zero_blocks(path):
    with open(path, 'rb') as f:
        data = f.read()
    z = bytes(4096)
    return sum(1 for i in range(0, len(data), 4096) if data[i:i + 4096] == z), len(data) // 4096

def env(p):
    base = os.path.join(top, name + '.' + p)
    out = open(base + '.out', errors='replace').read()
    text = out if out.startswith('{') or '\n{' not in out else out[out.index('\n{') + 1:]
    try:
        d = json.loads(text)
    except ValueError:
        d = None
    files = sorted((os.path.relpath(os.path.join(r, f), base), os.path.getsize(os.path.join(r, f)))
                   for r, _, fs in os.walk(base) for f in fs)
    return dict(d=d, out=out, err=open(base + '.err', errors='replace').read(),
                rc=int(open(base + '.rc').read()), files=files, dir=base,
                blocks=lambda f: zero_blocks(os.path.join(base, f)))

vals = {}
for p in ('fio', 'ib'):
    try:
        vals[p] = eval(expr, env(p))
    except Exception as e:
        vals[p] = 'error: %r' % e
ok = vals['fio'] == vals['ib'] if mode == 'same' else vals['fio'] is True and vals['ib'] is True
print(('ok - ' if ok else 'not ok - ') + desc)
if not ok:
    print('#   fio:     %.600s' % (vals['fio'],))
    print('#   iobench: %.600s' % (vals['ib'],))
EOF
same() { python3 "$T/cmp.py" same "$T/r" "$@"; }
holds() { python3 "$T/cmp.py" holds "$T/r" "$@"; }
JOBS='[(j["jobname"], j["groupid"]) for j in d["jobs"]]'
IOS='[{k: (j[k]["io_bytes"], j[k]["total_ios"]) for k in ("read", "write") if j[k]["total_ios"]} for j in d["jobs"]]'

# 1. wait_for orders the start within a group; it does not split it (kubestr-like jobs,
# named with name= and waiting on those names).
cat >wait.fio <<'EOF'
[global]
ioengine=null
size=4m
[job1]
name=read_iops
rw=randread
[job2]
name=write_iops
rw=randwrite
wait_for=read_iops
[job3]
name=read_bw
bs=128k
rw=read
wait_for=write_iops
EOF
pair wait "$T/wait.fio" --output-format=json
same wait "wait_for: the same jobs, names and one group as fio" "$JOBS"
same wait "wait_for: the same bytes and I/Os per job" "$IOS"
pair waitn "$T/wait.fio"
same waitn "wait_for: one 'Run status group' in the normal output, as fio" \
	"[l.split(':')[0] for l in out.splitlines() if l.startswith('Run status group')]"
sed 's/^\[global\]$/[global]\ngroup_reporting/' wait.fio >waitg.fio
pair waitg "$T/waitg.fio"
same waitg "wait_for with group_reporting: one block for the three jobs ('read_iops: (groupid=0, jobs=3)'), as fio" \
	"[l.split(': err')[0] for l in out.splitlines() if '(groupid=' in l]"
cat >waitt.fio <<'EOF'
[global]
ioengine=null
size=1g
time_based
runtime=300ms
[a]
[b]
wait_for=a
EOF
pair waitt "$T/waitt.fio" --output-format=json
holds waitt "wait_for: the waiter starts when its waitee has ended (elapsed of the run >= 600 ms)" \
	"rc == 0 and sum(j['job_runtime'] for j in d['jobs']) >= 580 and d['jobs'][1]['groupid'] == 0"

# 4. name= inside a section names the job (and its files).
printf '[global]\nsize=1m\n[sec]\nname=read_iops\nrw=write\n[other]\nrw=write\n' >name.fio
pair name "$T/name.fio" --output-format=json
same name "name= in a section: the job is named by it, as fio" "$JOBS"
same name "name= in a section: the files keep the section's name (sec.0.0, other.0.0), as fio" "files"
same name "name= in a section: the same job options" "[j['job options'] for j in d['jobs']]"

# 2. offset=N% with a size on a file that does not exist yet; and on one that does.
pair offnew --name=o --filename=f --size=8m --offset=50% --rw=read --output-format=json
same offnew "--size=8m --offset=50% on a missing file: runs, the same bytes and I/Os as fio" "$IOS"
same offnew "--size=8m --offset=50% on a missing file: the same file size left (8 MiB)" "files"
holds offnew "--size=8m --offset=50% on a missing file: exit 0" "rc == 0"
for p in fio ib; do mkdir -p "$T/r/offold.$p" && dd if=/dev/zero of="$T/r/offold.$p/f" bs=1M count=8 2>/dev/null; done
pair offold --name=o --filename=f --size=8m --offset=50% --rw=read --output-format=json
same offold "offset=50% of an 8 MiB file: reads 8 MiB from 4 MiB and grows it to 12 MiB, as fio" "($IOS, files)"
pair offnj --name=o --filename=f --size=4m --offset=50% --numjobs=2 --rw=read --output-format=json
same offnj "offset=50% with numjobs=2 on a missing file: clone 1 sees what clone 0 laid out (6 MiB), as fio" \
	"($IOS, files)"
pair offinc --name=o --filename=f --size=4m --offset_increment=50% --numjobs=2 --rw=read --output-format=json
same offinc "offset_increment=50% with numjobs=2 on a missing file: as fio" "($IOS, files)"

# 3. random_generator=lfsr with norandommap: every block once per pass. A zeroed file
# written with a 0xff pattern: no block is left zero (with tausworthe, about a third is).
for g in lfsr tausworthe; do
	for p in fio ib; do mkdir -p "$T/r/gen$g.$p" && dd if=/dev/zero of="$T/r/gen$g.$p/f" bs=1M count=1 2>/dev/null; done
	pair gen$g --name=g --filename=f --size=1m --rw=randwrite --norandommap=1 --random_generator=$g \
		--buffer_pattern=0xff --output-format=json
done
same genlfsr "lfsr + norandommap: 256 writes, every block written once (no zero block left), as fio" \
	"($IOS, blocks('f'))"
holds gentausworthe "tausworthe + norandommap: blocks repeat and some are missed, in both (the check discriminates)" \
	"rc == 0 and 40 < blocks('f')[0] < 140"

# 5. "job options" and "global options" under fio's names, whatever alias was given.
ALIASES="--readwrite=randread --blocksize=4k --blocksize_range=4k-8k --io_limit=1m --nr_files=1 --timeout=1
--ratemin=1k --iodepth_batch_complete=1 --disable_bw=0 --fileoffset=0 --iodepth_batch_submit=1 --rwmixwrite=20"
# shellcheck disable=SC2086
pair alias --name=x --ioengine=null --size=1m $ALIASES --output-format=json
same alias "aliases: \"job options\" keys and values as fio prints them (rw, bs, runtime, iodepth_batch, ...)" \
	"list(d['jobs'][0]['job options'].items())"
printf '[global]\nreadwrite=read\nblocksize=8k\nioengine=null\nsize=1m\n[a]\ntimeout=1\nwait_for_previous\n' >galias.fio
pair galias "$T/galias.fio" --output-format=json
same galias "aliases in [global] and a job: \"global options\" and \"job options\" as fio's" \
	"(list(d['global options'].items()), list(d['jobs'][0]['job options'].items()))"
pair kubestrrw --readwrite=randwrite --ioengine=null --size=1m --name=a --bs=4K --output-format=json
holds kubestrrw "kubestr's .jobs[0].\"job options\".rw (and .\"global options\".rw) is the pattern" \
	"d['global options']['rw'] == 'randwrite' and d['jobs'][0]['job options']['bs'] == '4K'"

# 6. gtod_reduce=1: no latencies, but bandwidth and IOPS samples as fio.
pair gtod --name=g --ioengine=null --size=1g --rw=randread --gtod_reduce=1 --runtime=600ms --time_based \
	--output-format=json
holds gtod "gtod_reduce=1: bw_samples and iops_samples > 0, bw_mean and iops_mean > 0 (kubestr's iops/bw lines)" \
	"all(d['jobs'][0]['read'][k] > 0 for k in ('bw_samples', 'iops_samples', 'bw_mean', 'iops_mean', 'bw_min'))"
holds gtod "gtod_reduce=1: no latency samples (clat_ns.N and lat_ns.N are 0)" \
	"d['jobs'][0]['read']['clat_ns']['N'] == 0 and d['jobs'][0]['read']['lat_ns']['N'] == 0"
KEYS='sorted(set((k, type(v).__name__) for k, v in d["jobs"][0]["read"].items()) | set(("clat_ns." + k, type(v).__name__) for k, v in d["jobs"][0]["read"]["clat_ns"].items()))'
same gtod "gtod_reduce=1: the same keys and number types under read as fio" "$KEYS"
pair gtodn --name=g --ioengine=null --size=1g --rw=randread --gtod_reduce=1 --runtime=600ms --time_based
same gtodn "gtod_reduce=1, normal output: the bw and iops lines, and no clat/lat lines, as fio" \
	"[l.split(':')[0].strip().split('(')[0].strip() for l in out.splitlines() if l.strip().startswith(('bw', 'iops', 'clat', 'lat', 'slat'))]"

# 7. group_reporting over differently named jobs: one block per run of a group, named for
# its first job, "jobs=N" counting every clone, the figures summed, the last job's options.
cat >gr.fio <<'EOF'
[global]
ioengine=null
size=1m
[a]
rw=read
description=first
[b]
rw=write
bs=8k
numjobs=2
group_reporting
description=second
[c]
rw=read
[d]
rw=read
group_reporting
[e]
new_group
group_reporting
rw=read
EOF
pair gr "$T/gr.fio" --output-format=json
# fio 3.33 also prints an empty job (jobname null, groupid 4294967295) when a job without
# group_reporting precedes one with it: that entry is left out here (docs/differences.md).
GR='[(j["jobname"], j["groupid"], j.get("desc"), j["job options"], j["read"]["io_bytes"], j["write"]["io_bytes"], j["read"]["total_ios"], j["write"]["total_ios"]) for j in d["jobs"] if j.get("jobname") is not None]'
same gr "group_reporting: the same blocks, names, descriptions, option maps and summed bytes/I/Os as fio" "$GR"
pair grn "$T/gr.fio"
same grn "group_reporting, normal output: the same 'name: (groupid=G, jobs=N)' lines as fio" \
	"[l.split(': err')[0] for l in out.splitlines() if '(groupid=' in l]"
same grn "group_reporting, normal output: the same Run status lines' io= totals as fio" \
	"[l.split('io=')[1].split(' ')[0] for l in out.splitlines() if 'io=' in l]"

# 8. size=100%% (fio-plot writes a %% into its job files): read as 100%.
for p in fio ib; do mkdir -p "$T/r/pct.$p" && dd if=/dev/zero of="$T/r/pct.$p/pre" bs=1M count=4 2>/dev/null; done
printf '[p]\nfilename=pre\nsize=100%%%%\nrw=read\n[q]\nfilename=pre\nsize=50%%%%\noffset=25%%%%\nrw=read\n' >pct.fio
pair pct "$T/pct.fio" --output-format=json
same pct "size=100%% and 50%% with offset=25%%: the same bytes as fio, and the option kept as given" \
	"($IOS, [j['job options']['size'] for j in d['jobs']])"
holds pct "size=100%%: exit 0" "rc == 0"

# 9. disk_util=0, overwrite=1, dir=.
pair du0 --name=du --filename=f --size=1m --rw=write --disk_util=0 --output-format=json
same du0 "disk_util=0: no \"disk_util\" in the JSON, as fio" "'disk_util' in d"
pair du1 --name=du --filename=f --size=1m --rw=write --output-format=json
same du1 "disk_util default: \"disk_util\" is there, as fio" "'disk_util' in d"
pair du0n --name=du --filename=f --size=1m --rw=write --disk_util=0
same du0n "disk_util=0, normal output: no 'Disk stats' section, as fio" "'Disk stats' in out"
pair du0t --name=du --filename=f --size=1m --rw=write --disk_util=0 --output-format=terse
same du0t "disk_util=0, terse: the same field count as fio (no disk fields)" "len(out.strip().split(';'))"
for ov in 0 1; do
	pair ow$ov --name=ow --filename=f --size=4m --bs=64k --rw=randwrite --overwrite=$ov --number_ios=1 \
		--output-format=json
done
same ow1 "overwrite=1: the file is laid out with data before one write (no zero block left), as fio" \
	"($IOS, blocks('f'))"
same ow0 "overwrite=0: only the written block has data, as fio" "($IOS, blocks('f'))"
pair dir --name=d --dir=sub --size=1m --rw=write --output-format=json
same dir "dir= is accepted and the files stay in the working directory, as fio (a tiobench profile option)" \
	"(rc, files, d['jobs'][0]['job options'])"
holds dir "dir=: iobench says on stderr that it is ignored" "rc == 0 and ('dir=' in err or err == '')"

# 10. The version: fio's first, then iobench's.
fio --version >ver.fio
"$IOBENCH" --version >ver.ib
check "--version: fio's text, then +iobench-X.Y.Z" \
	grep -qx "$(cat ver.fio)+iobench-[0-9]*\.[0-9]*\.[0-9]*" ver.ib
pair vj --name=v --ioengine=null --size=1m --output-format=json
holds vj "JSON \"fio version\" starts with fio's own (fio-3.33)" "d['fio version'].startswith('fio-3.33')"
pair vt --name=v --ioengine=null --size=1m --minimal
holds vt "terse: the version field starts with 'fio-3' (what the Prometheus exporter checks)" \
	"out.split(';')[1].startswith('fio-3.33')"
pair vn --name=v --ioengine=null --size=1m
holds vn "normal output: the version line starts with fio-3.33" \
	"any(l.startswith('fio-3.33') for l in out.splitlines())"
