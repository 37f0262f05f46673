#!/usr/bin/env python3
"""Differential checks for issue 16's I/O options (t_opts_io.sh): one job through fio 3.33
and iobench, compared.

Usage: python3 tests/opts_io_diff.py IOBENCH WORKDIR < cases
A case line: NAME | ARGS | CHECKS. ARGS are shell words ($VARS expanded); a word
'fio:X' is given to fio only, 'iob:X' to iobench only. CHECKS, comma-separated:
  rc          the same exit status (and both print JSON)
  ios         the same io_bytes and total_ios per job and direction
  ios~P       ... within P percent
  errs        the same error, total_err and first_error per job
  keys        the same JSON key paths and number types (jobs' and the top level's)
  files       the same files left, with their sizes
  jobs        the same job names and groups, in order
  ratio~P     the same share of total_ios per job within P percentage points
  samples     bw_samples and iops_samples within 1 of fio's
  syncn       the same number of sync latency samples
  fshare~P    the same share of I/Os per file within P percentage points (fio's write_iolog,
              iobench's --debug=io)
  hot~P       the same share of I/Os on the hottest 1%, 5%, 10%, 50% of blocks, within P points
Prints one TAP line per check.
"""
import collections, json, os, re, shlex, shutil, subprocess, sys


def types(v, path, out):
    t = {int: 'int', float: 'float', str: 'string', dict: 'object', list: 'array', bool: 'bool'}[type(v)]
    out.setdefault(path, t)
    if isinstance(v, dict):
        if path.endswith(('.percentile', '.bins', 'options')):
            return
        for k, x in v.items():
            types(x, path + '.' + k, out)
    elif isinstance(v, list):
        for x in v:
            types(x, path + '[]', out)


def parse_json(text):
    i = text.find('{\n')
    if i < 0:
        return None
    try:
        return json.loads(text[i:])
    except ValueError:
        return None


def run(prog, args, wd, extra):
    os.makedirs(wd, exist_ok=True)
    p = subprocess.run([prog, '--output-format=json'] + args + extra, cwd=wd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=120)
    files = []
    for root, dirs, names in os.walk(wd):
        for n in names:
            if n.startswith('.iolog') or n.startswith('.err'):
                continue
            path = os.path.join(root, n)
            files.append((os.path.relpath(path, wd), os.path.getsize(path)))
    return p.returncode, parse_json(p.stdout), p.stderr, sorted(files)


def tap(ok, desc, why=''):
    print(('ok - ' if ok else 'not ok - ') + desc)
    if not ok and why:
        for line in str(why).splitlines()[:12]:
            print('#   ' + line)
    return ok


def ios(doc):
    return [{d: (j[d]['io_bytes'], j[d]['total_ios']) for d in ('read', 'write', 'trim')} for j in doc['jobs']]


def near(a, b, pct):
    return abs(a - b) <= max(1, abs(a) * pct / 100.0)


def ios_near(a, b, pct):
    return len(a) == len(b) and all(near(x[d][k], y[d][k], pct) for x, y in zip(a, b) for d in x for k in (0, 1))


def shares(counts):
    tot = sum(counts) or 1
    return [100.0 * c / tot for c in counts]


def fio_iolog(path):
    """Per-file and per-offset counts of the I/Os in fio's iolog (version 3)."""
    files, offs = collections.Counter(), collections.Counter()
    for line in open(path):
        p = line.split()
        if len(p) >= 5 and p[2] in ('read', 'write'):
            files[p[1]] += 1
            offs[int(p[3])] += 1
    return files, offs


def iob_debug(text):
    files, offs = collections.Counter(), collections.Counter()
    for m in re.finditer(r'queue: io_u \S+ off=(0x[0-9a-f]+),len=0x[0-9a-f]+,ddir=\d,file=(\S+)', text):
        offs[int(m.group(1), 16)] += 1
        files[os.path.basename(m.group(2))] += 1
    return files, offs


def hot(offs):
    v = sorted(offs.values(), reverse=True)
    tot = sum(v) or 1
    n = len(v)
    return [100.0 * sum(v[:max(1, n * k // 100)]) / tot for k in (1, 5, 10, 50)]


def check_one(c, name, f, i, fl, il):
    rf, df, ef, ff = f
    ri, di, ei, fi = i
    if c == 'rc':
        return tap(rf == ri and df is not None and di is not None, f'{name}: the same exit status ({rf}) and JSON',
                   f'fio {rf} {ef[-300:]}\niobench {ri} {ei[-300:]}')
    if df is None or di is None:
        return tap(False, f'{name}: {c}', f'no JSON: fio {ef[-200:]}\niobench {ei[-200:]}')
    if c == 'ios':
        return tap(ios(df) == ios(di), f'{name}: the same io_bytes and total_ios', f'fio     {ios(df)}\niobench {ios(di)}')
    if c.startswith('ios~'):
        p = float(c[4:])
        return tap(ios_near(ios(df), ios(di), p), f'{name}: io_bytes and total_ios within {p:g}%',
                   f'fio     {ios(df)}\niobench {ios(di)}')
    if c == 'errs':
        g = lambda d: [(j['error'], j.get('total_err'), j.get('first_error')) for j in d['jobs']]
        return tap(g(df) == g(di), f'{name}: the same error, total_err, first_error', f'fio {g(df)}\niobench {g(di)}')
    if c == 'keys':
        a, b = {}, {}
        types({k: v for k, v in df.items() if k != 'disk_util'}, '', a)
        types({k: v for k, v in di.items() if k != 'disk_util'}, '', b)
        diff = [f'missing {k} ({t})' for k, t in a.items() if k not in b]
        diff += [f'type {k}: fio {t}, iobench {b[k]}' for k, t in a.items() if k in b and b[k] != t]
        diff += [f'extra {k}' for k in b if k not in a]
        return tap(not diff, f'{name}: the same JSON key paths and number types', '\n'.join(diff))
    if c == 'files':
        return tap(ff == fi, f'{name}: the same files left, with their sizes', f'fio {ff}\niobench {fi}')
    if c == 'jobs':
        g = lambda d: [(j.get('jobname'), j.get('groupid')) for j in d['jobs']]
        return tap(g(df) == g(di), f'{name}: the same jobs and groups', f'fio {g(df)}\niobench {g(di)}')
    if c.startswith('ratio~'):
        p = float(c[6:])
        tot = lambda d: [sum(j[x]['total_ios'] for x in ('read', 'write', 'trim')) for j in d['jobs']]
        a, b = shares(tot(df)), shares(tot(di))
        return tap(len(a) == len(b) and all(abs(x - y) <= p for x, y in zip(a, b)),
                   f'{name}: each job\'s share of the I/Os within {p:g} points', f'fio {a}\niobench {b}')
    if c == 'samples':
        g = lambda d: [(j[x]['bw_samples'], j[x]['iops_samples']) for j in d['jobs'] for x in ('read', 'write')
                       if j[x]['total_ios']]
        ok = len(g(df)) == len(g(di)) and all(abs(x[0] - y[0]) <= 1 and abs(x[1] - y[1]) <= 1
                                              for x, y in zip(g(df), g(di)))
        return tap(ok, f'{name}: bw and iops sample counts within 1', f'fio {g(df)}\niobench {g(di)}')
    if c == 'syncn':
        g = lambda d: [j['sync']['lat_ns']['N'] for j in d['jobs']]
        return tap(g(df) == g(di), f'{name}: the same number of sync latencies', f'fio {g(df)}\niobench {g(di)}')
    if c.startswith('fshare~'):
        p = float(c[7:])
        names = sorted(set(fl[0]) | set(il[0]))
        a, b = shares([fl[0][n] for n in names]), shares([il[0][n] for n in names])
        return tap(names and all(abs(x - y) <= p for x, y in zip(a, b)),
                   f'{name}: the same share of I/Os per file within {p:g} points',
                   'files ' + ' '.join(names) + '\nfio ' + ' '.join('%.1f' % x for x in a) +
                   '\niobench ' + ' '.join('%.1f' % x for x in b))
    if c.startswith('hot~'):
        p = float(c[4:])
        a, b = hot(fl[1]), hot(il[1])
        return tap(all(abs(x - y) <= p for x, y in zip(a, b)),
                   f'{name}: the hottest 1/5/10/50% of blocks take the same share within {p:g} points',
                   f'fio {a}\niobench {b}')
    return tap(False, f'{name}: unknown check {c}')


def compare(name, words, checks, iobench, work):
    wf, wi = os.path.join(work, name, 'fio'), os.path.join(work, name, 'iobench')
    fa = [w[4:] if w.startswith('fio:') else w for w in words if not w.startswith('iob:')]
    ia = [w[4:] if w.startswith('iob:') else w for w in words if not w.startswith('fio:')]
    logs = any(c.startswith(('fshare', 'hot')) for c in checks)
    f = run('fio', fa, wf, ['--write_iolog=.iolog'] if logs else [])
    i = run(iobench, ia, wi, ['--debug=io'] if logs else [])
    fl = fio_iolog(os.path.join(wf, '.iolog')) if logs and os.path.exists(os.path.join(wf, '.iolog')) else ({}, {})
    il = iob_debug(i[2]) if logs else ({}, {})
    if logs:  # fio's iolog is not a file the job left
        f = (f[0], f[1], f[2], [x for x in f[3] if x[0] != '.iolog'])
    for c in checks:
        check_one(c, name, f, i, fl, il)


def main():
    iobench, work = sys.argv[1], sys.argv[2]
    for line in sys.stdin:
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        name, args, checks = [x.strip() for x in line.split('|')]
        compare(name, shlex.split(os.path.expandvars(args)), checks.split(','), iobench, work)
        shutil.rmtree(os.path.join(work, name), ignore_errors=True)


main()
