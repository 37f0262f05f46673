#!/usr/bin/env python3
"""Zone modes side by side: jobs through fio 3.33 and iobench, their I/Os compared.

Usage: python3 tests/tools/zone_diff.py IOBENCH WORKDIR < cases
Each case line: NAME | FILE | ARGS | CHECKS
  FILE   bytes of zeros the job's file holds before the run ("256k", "1m"), "-" for none, or
         dev:PATH for a device both tools use in turn
  ARGS   shell words; {F} is the file (each tool has its own, in its own directory)
  CHECKS comma list of:
    rc      the same exit status (the case runs alone; without rc, cases whose ARGS are one
            job's options run together, one job each, in one run of each tool: fio takes half
            a second to start and stop, whatever it runs)
    err     the same error of each job
    ios     the same io_bytes and total_ios per job and direction
    seq     the same I/Os in the same order: (direction, offset, length)
    set     the same I/Os, any order
    zones=N the same sequence of N-byte zones the I/Os fall in (random offsets within zones)
    resets  the same "N zone resets" per job (normal output)
    keys    the same JSON key paths and number types
    files   the same files left, with their sizes
fio's I/Os come from write_iolog, iobench's from --debug=io. Prints one TAP line per check.
"""
import json, os, re, shlex, shutil, subprocess, sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree
import jsonshape  # noqa: E402

SIZES = {'k': 1 << 10, 'm': 1 << 20, 'g': 1 << 30}


def size(text):
    text = text.strip().lower()
    return int(text[:-1]) * SIZES[text[-1]] if text[-1] in SIZES else int(text)


def split_output(text):
    """The JSON document and the normal output around it (--output-format=normal,json)."""
    start = text.find('{\n')
    if start < 0:
        return None, text
    depth, end = 0, len(text)
    for i in range(start, len(text)):
        depth += {'{': 1, '}': -1}.get(text[i], 0)
        if depth == 0:
            end = i + 1
            break
    try:
        doc = json.loads(text[start:end])
    except ValueError:
        doc = None
    return doc, text[:start] + text[end:]


def resets_by_job(normal):
    """Job name -> the "N zone resets" of its write lines."""
    out, job = {}, None
    for line in normal.splitlines():
        m = re.match(r'^(\S+): \(groupid=', line)
        if m:
            job = m.group(1)
        m = re.search(r'; (\d+) zone resets', line)
        if m and job:
            out.setdefault(job, []).append(int(m.group(1)))
    return out


def ios_by_file(tool, wd, err, logs):
    out = {}
    if tool == 'fio':
        for path, log in logs.items():
            if os.path.exists(log):
                for line in open(log):
                    w = line.split()
                    if len(w) == 5 and w[2] in ('read', 'write', 'trim'):
                        out.setdefault(w[1], []).append((w[2][0], int(w[3]), int(w[4])))
    else:
        for m in re.finditer(r'queue: io_u \S+ off=0x([0-9a-f]+),len=0x([0-9a-f]+),ddir=(\d),file=([^,\n]+)', err):
            out.setdefault(m.group(4), []).append(('rwt'[int(m.group(3))], int(m.group(1), 16), int(m.group(2), 16)))
    return out


def to_job(args, path):
    """A case's --key=value words as the lines of a job section."""
    lines = []
    for w in shlex.split(args):
        key, eq, val = w.lstrip('-').partition('=')
        if key in ('name', 'filename'):
            continue
        lines.append(key + ('=' + val if eq else ''))
    return ['filename=' + path] + lines


def prepare(filesize, path):
    if filesize.startswith('dev:'):
        return filesize[4:]
    if filesize != '-':
        with open(path, 'wb') as f:
            f.truncate(size(filesize))
    return path


def run(tool, prog, cases, wd):
    """Run cases (one alone, or several as the jobs of one job file)."""
    shutil.rmtree(wd, ignore_errors=True)
    os.makedirs(wd)
    paths = [prepare(c['file'], os.path.join(wd, 'f%d' % i)) for i, c in enumerate(cases)]
    logs = {p: os.path.join(wd, 'io%d.log' % i) for i, p in enumerate(paths)}
    if len(cases) == 1 and not cases[0]['batch']:
        words = [a.replace('{F}', paths[0]) for a in shlex.split(cases[0]['args'])]
        extra = ['--write_iolog=' + logs[paths[0]]] if tool == 'fio' else ['--debug=io']
        argv = [prog, '--output-format=normal,json'] + words + extra
    else:
        with open(os.path.join(wd, 'cases.fio'), 'w') as jf:
            for i, c in enumerate(cases):
                jf.write('[c%d]\n' % i + '\n'.join(to_job(c['args'], paths[i])) + '\n')
                if tool == 'fio':
                    jf.write('write_iolog=%s\n' % logs[paths[i]])
        argv = [prog, '--output-format=normal,json'] + ([] if tool == 'fio' else ['--debug=io']) + ['cases.fio']
    p = subprocess.run(argv, cwd=wd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    doc, normal = split_output(p.stdout)
    jobs = doc['jobs'] if doc else []
    resets = resets_by_job(normal)
    ios = ios_by_file(tool, wd, p.stderr, logs)
    results = []
    for i, c in enumerate(cases):
        mine = jobs if len(cases) == 1 else [j for j in jobs if j['jobname'] == 'c%d' % i]
        names = [j['jobname'] for j in mine]
        f = paths[i]
        results.append({'rc': p.returncode, 'doc': doc if len(cases) == 1 else {'jobs': mine}, 'jobs': mine,
                        'resets': [resets.get(n, []) for n in names], 'err': p.stderr,
                        'files': [(os.path.basename(f), os.path.getsize(f))] if os.path.isfile(f) else [],
                        'ios': ios.get(f, [])})
    return results


def tap(ok, desc, why=''):
    print(('ok - ' if ok else 'not ok - ') + desc)
    if not ok:
        for line in str(why).splitlines()[:12]:
            print('#   ' + line)
    return ok


def amounts(r):
    return [[(d, j[d]['io_bytes'], j[d]['total_ios']) for d in ('read', 'write', 'trim')] for j in r['jobs']]


def show(ios):
    return ' '.join('%s%d+%d' % (d, o, n) for d, o, n in ios[:40]) + (' ...' if len(ios) > 40 else '')


def check(name, what, f, b):
    desc = '%s: %s as fio' % (name, what)
    if what == 'rc':
        return tap(f['rc'] == b['rc'], desc, 'fio %d, iobench %d: %s' % (f['rc'], b['rc'], b['err'][-300:]))
    if what == 'err':
        fe, be = [j['error'] for j in f['jobs']], [j['error'] for j in b['jobs']]
        return tap(fe == be and fe, desc, 'fio %s, iobench %s' % (fe, be))
    if what == 'ios':
        return tap(amounts(f) == amounts(b) and f['jobs'], desc,
                   'fio %s\niobench %s\n%s' % (amounts(f), amounts(b), b['err'][-300:]))
    if what == 'seq':
        return tap(f['ios'] == b['ios'] and f['ios'], desc, 'fio     %s\niobench %s' % (show(f['ios']), show(b['ios'])))
    if what == 'set':
        return tap(sorted(f['ios']) == sorted(b['ios']) and f['ios'], desc,
                   'fio     %s\niobench %s' % (show(sorted(f['ios'])), show(sorted(b['ios']))))
    if what.startswith('zones='):
        z = size(what[6:])
        fz, bz = [(d, o // z) for d, o, _ in f['ios']], [(d, o // z) for d, o, _ in b['ios']]
        return tap(fz == bz and fz, desc, 'fio     %s\niobench %s' % (fz[:40], bz[:40]))
    if what == 'resets':
        return tap(f['resets'] == b['resets'] and any(f['resets']), desc, 'fio %s, iobench %s' % (f['resets'], b['resets']))
    if what == 'keys':
        diff = []
        if f['jobs'] and b['jobs']:  # a list's last element gives a path its kind
            diff = jsonshape.diff(f['doc'], b['doc'], ignore_top={'iobench container'}, keep='last')
        return tap(f['jobs'] and b['jobs'] and not diff, desc, '\n'.join(diff[:12]))
    if what == 'files':
        return tap(f['files'] == b['files'], desc, 'fio %s\niobench %s' % (f['files'], b['files']))
    return tap(False, desc, 'unknown check ' + what)


def main():
    iobench, work = sys.argv[1], sys.argv[2]
    cases = []
    for line in sys.stdin:
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        name, filesize, args, checks = [x.strip() for x in line.split('|')]
        checks = [c.strip() for c in checks.split(',')]
        batch = 'rc' not in checks and not filesize.startswith('dev:') and '.fio' not in args and \
            args.count('--name=') <= 1
        cases.append({'name': name, 'file': filesize, 'args': args, 'checks': checks, 'batch': batch})
    groups = [[c] for c in cases if not c['batch']]
    if any(c['batch'] for c in cases):
        groups.append([c for c in cases if c['batch']])
    failed = 0
    for i, group in enumerate(groups):
        fr = run('fio', 'fio', group, os.path.join(work, 'fio%d' % i))
        br = run('iobench', iobench, group, os.path.join(work, 'iobench%d' % i))
        for c, f, b in zip(group, fr, br):
            for what in c['checks']:
                failed += not check(c['name'], what, f, b)
    sys.exit(1 if failed else 0)


main()
