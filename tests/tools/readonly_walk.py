#!/usr/bin/env python3
"""--readonly as a promise (issue 24): every row of the option tables (iobench
--dump-options=tsv), with values of its type (every word of a choice), is added to a read
job under --readonly on an existing file; the run may be refused (exit 1) or run, but the
file's bytes, size and times, a second file beside it and the directory's list of names
must stay as they were. Options that write a report-like file (effects "output": logs,
states, dumps) may add files, and only those; rows marked "changes" are counted, so a test
can require that each of them was tried. Prints one TAP line per class of runs and a line
per failure.

Usage: readonly_walk.py BIN WORKDIR
"""
import concurrent.futures
import hashlib
import os
import queue
import shutil
import subprocess
import sys
import time

BIN, WORK = sys.argv[1], sys.argv[2]
BASE = ['--readonly', '--name=ro', '--filename=data', '--size=64k', '--bs=4k', '--rw=read', '--runtime=2',
        '--output-format=json']
# Values for options whose type text does not say how they are written.
SAMPLES = {
    'rw': ['read', 'write', 'trim', 'randwrite', 'randtrim', 'rw', 'randrw', 'trimwrite', 'randtrimwrite',
           'readwrite'],
    'mem': ['mmap:membuf', 'mmapshared:membuf', 'mmaphuge:membuf', 'shm', 'malloc'],
    'size': ['64k', '128k', '1m'], 'filesize': ['64k', '1m', '4k-1m'], 'io_size': ['1m'],
    'offset': ['8k', '1m'], 'bs': ['4k', '8k'], 'bsrange': ['4k-8k'], 'bssplit': ['4k/50:8k/50'],
    'write_bw_log': ['wl'], 'write_iops_log': ['wl'], 'write_lat_log': ['wl'], 'write_hist_log': ['wl'],
    'read_iolog': ['rlog'], 'write_iolog': ['wlog'], 'replay_redirect': ['data'],
    'exec_prerun': ['echo x > made-by-prerun'], 'exec_postrun': ['echo x > made-by-postrun'],
    'directory': ['.', 'sub'], 'filename': ['data', 'newfile'], 'filename_format': ['$jobname.$jobnum'],
    'opendir': ['.'], 'nrfiles': ['1', '2'], 'numjobs': ['2'], 'loops': ['2'],
    'zonemode': ['none', 'strided', 'zbd'], 'zonesize': ['16k'], 'zonerange': ['32k'],
    'trim_percentage': ['50'], 'verify': ['md5', 'crc32c', 'meta', 'pattern'],
    'verify_pattern': ['0xaa'], 'buffer_pattern': ['0xaa'], 'write_barrier': ['1'],
}
# A few extra arguments some values need to do anything at all.
WITH = {
    'trim_percentage': ['--verify=md5'], 'zonemode=strided': ['--zonesize=16k', '--zonerange=32k'],
    'verify_only': ['--verify=md5'], 'do_verify': ['--verify=md5'], 'unlink_each_loop': ['--loops=2'],
    'unlink': ['--loops=2'], 'file_append': ['--size=4k'], 'create_on_open': ['--filename=data:newfile'],
}
IOLOG = 'fio version 2 iolog\ndata add\ndata open\ndata write 0 4096\ndata read 0 4096\ndata trim 0 4096\ndata close\n'


def snapshot(d):
    out = {}
    for root, dirs, files in os.walk(d):
        for n in dirs + files:
            p = os.path.join(root, n)
            st = os.lstat(p)
            h = ''
            if os.path.isfile(p) and not os.path.islink(p):
                with open(p, 'rb') as f:
                    h = hashlib.md5(f.read()).hexdigest()
            out[os.path.relpath(p, d)] = (st.st_mode, st.st_size, st.st_mtime_ns, h)
    return out


def fresh(d):
    if os.path.exists(d):
        shutil.rmtree(d)
    os.makedirs(d)
    with open(os.path.join(d, 'data'), 'wb') as f:
        f.write(os.urandom(64 * 1024))  # the job's size: it runs (size=1m and others would extend it)
    with open(os.path.join(d, 'other'), 'wb') as f:
        f.write(b'sentinel\n' * 100)
    with open(os.path.join(d, 'rlog'), 'w') as f:
        f.write(IOLOG)
    past = time.time() - 3600
    for n in ('data', 'other', 'rlog'):
        os.utime(os.path.join(d, n), (past, past))
    return snapshot(d)


def values(row):
    name, typ, default, choices = row['name'], row['type'], row['default'], row['choices']
    if name in SAMPLES:
        return SAMPLES[name]
    if choices:
        return choices.split(',')
    if typ.startswith('boolean'):
        return ['1', '0']
    if typ.startswith('size'):
        return ['4k', '1m']
    if typ.startswith('time'):
        return ['1']
    if typ.startswith(('int', 'number', 'percentage')):
        return ['1', '2']
    if typ == 'string':
        return ['x']
    return [v for v in (default, '1', '4k') if v]


def rows():
    out = subprocess.run([BIN, '--dump-options=tsv'], capture_output=True, text=True, check=True).stdout
    lines = out.rstrip('\n').split('\n')
    head = lines[0].split('\t')
    return [dict(zip(head, ln.split('\t'))) for ln in lines[1:]]


def engines():
    out = subprocess.run([BIN, '--enghelp'], capture_output=True, text=True).stdout
    names = []
    for ln in out.split('\n'):
        w = ln.strip().split()
        if w and w[0].isidentifier() and not ln.startswith('Available') and ln.startswith((' ', '\t')):
            names.append(w[0].rstrip(':'))
    return names


def run(d, extra, outputs_ok):
    before = fresh(d)
    try:
        p = subprocess.run([BIN] + BASE + extra, cwd=d, capture_output=True, timeout=20)
        rc = p.returncode
        if b'Sanitizer' in p.stderr:
            rc = 'a sanitizer report: ' + p.stderr.decode(errors='replace').split('\n')[0][:200]
    except subprocess.TimeoutExpired:
        rc = 'timeout'
    after = snapshot(d)
    bad = []
    for k, v in before.items():
        if k not in after:
            bad.append('%s removed' % k)
        elif after[k] != v:
            what = 'size %d -> %d' % (v[1], after[k][1]) if v[1] != after[k][1] else \
                'bytes changed' if v[3] != after[k][3] else 'mode or time changed'
            bad.append('%s %s' % (k, what))
    new = sorted(set(after) - set(before))
    if new and not outputs_ok:
        bad.append('created ' + ', '.join(new[:4]))
    if rc not in (0, 1):
        bad.append('exit %s' % rc)
    return bad


def main():
    jobs = []  # (label, extra args, new files allowed, option name or None)
    all_rows = rows()
    changes = {r['name'] for r in all_rows if 'changes' in r['effects']}
    for r in all_rows:
        if 'not supported' in r['type'] or r['type'].startswith('fio option'):
            continue
        is_out = r['effects'] == 'output'  # a log, a state, a dump: new files, and only those
        scope = r['scope']
        for v in values(r):
            extra = (['--ioengine=' + scope] if scope != 'core' else []) + ['--%s=%s' % (r['name'], v)]
            extra += WITH.get(r['name'], []) + WITH.get('%s=%s' % (r['name'], v), [])
            jobs.append((' '.join(extra), extra, is_out, r['name']))
    for e in engines():
        for combo in (['--rw=read'], ['--rw=randread'], ['--rw=write'], ['--rw=trim'], ['--unlink=1'],
                      ['--unlink_each_loop=1', '--loops=3'], ['--nrfiles=3'], ['--size=1m']):
            extra = ['--ioengine=' + e] + combo
            jobs.append((' '.join(extra), extra, False, None))
    # Program flags that name a file: never the job's data under --readonly.
    for combo in (['--daemonize=data', '--output=o.json'], ['--trigger-file=data', '--time_based', '--runtime=1'],
                  ['--write_iolog=data'], ['--write_iolog=other'], ['--output=data'], ['--plot=data'],
                  ['--write_bw_log=data', '--per_job_logs=0'], ['--bandwidth-log']):
        jobs.append((' '.join(combo), combo, True, None))
    # Two at a time, each in its own scratch directory.
    slots = queue.Queue()
    for i in range(2):
        slots.put(os.path.join(WORK, 'scratch%d' % i))

    def one(job):
        d = slots.get()
        try:
            return job, run(d, job[1], job[2])
        finally:
            slots.put(d)
    failures, changes_tried = [], set()
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        for job, bad in ex.map(one, jobs):
            if job[3] in changes:
                changes_tried.add(job[3])
            if bad:
                failures.append('%s: %s' % (job[0], '; '.join(bad)))
    counts = {'all': len(jobs)}
    for f in failures:
        print('#   ' + f)
    untried = sorted(changes - changes_tried)
    print('%s - --readonly: %d runs over every option row and value and every engine: no file changed, created or removed%s'
          % ('not ok' if failures else 'ok', counts['all'],
             ' (%d failures)' % len(failures) if failures else ''))
    print('%s - --readonly: each of the %d options marked "changes" in the table was tried%s'
          % ('not ok' if untried or len(changes) < 20 else 'ok', len(changes),
             ': untried ' + ', '.join(untried) if untried else ''))
    return 1 if failures or untried else 0


if __name__ == '__main__':
    sys.exit(main())
