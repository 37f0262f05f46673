#!/usr/bin/env python3
"""Differential checks for issue 16's I/O options (t_opts_io.sh): one job through fio 3.33
and iobench, compared.

Usage: python3 tests/tools/opts_io_diff.py IOBENCH WORKDIR < cases
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
  hotr~P, hotw~P   the same for reads or writes only
  align:N     every offset either tool issued is a multiple of N, and so is the smallest
  firstoff    the same lowest offset
  rios~P      read io_bytes and total_ios within P percent
  bytes~P     io_bytes within P percent
  ran         the same jobs did I/O (total_ios > 0)
  fails       both exit with a failure
  distinct~P  the files left hold the same number of distinct 4k blocks within P percent
  par         (not a check) run the two at once: for paced jobs, which mostly wait
Prints one TAP line per check.
"""
import collections, concurrent.futures, json, os, re, shlex, shutil, subprocess, sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree
import jsonshape  # noqa: E402


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
    try:
        p = subprocess.run([prog, '--output-format=json'] + args + extra, cwd=wd, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return -1, None, f'{prog}: timed out after 60 s', []
    files = []
    for root, dirs, names in os.walk(wd):
        for n in names:
            if n.startswith('.iolog') or n.startswith('.err'):
                continue
            path = os.path.join(root, n)
            files.append((os.path.relpath(path, wd), os.path.getsize(path)))
    doc = parse_json(p.stdout)
    if doc and prog == 'fio':  # fio's empty entries for stats=0 jobs (docs/differences.md)
        doc['jobs'] = [j for j in doc['jobs'] if 'jobname' in j]
    return p.returncode, doc, p.stderr, sorted(files)


import threading
LOCAL = threading.local()  # the running case's TAP lines (cases may run two at a time)


def tap(ok, desc, why=''):
    out = getattr(LOCAL, 'out', None)
    lines = [('ok - ' if ok else 'not ok - ') + desc]
    if not ok and why:
        lines += ['#   ' + line for line in str(why).splitlines()[:12]]
    if out is None:
        print('\n'.join(lines))
    else:
        out.extend(lines)
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
    """Per-file counts, and per-offset counts by direction, of the I/Os in fio's iolog (v3)."""
    files, offs = collections.Counter(), {0: collections.Counter(), 1: collections.Counter()}
    for line in open(path):
        p = line.split()
        if len(p) >= 5 and p[2] in ('read', 'write'):
            files[p[1]] += 1
            offs[p[2] == 'write'][int(p[3])] += 1
    return files, offs


def iob_debug(text):
    files, offs = collections.Counter(), {0: collections.Counter(), 1: collections.Counter()}
    for m in re.finditer(r'queue: io_u \S+ off=(0x[0-9a-f]+),len=0x[0-9a-f]+,ddir=(\d),file=(\S+)', text):
        offs[int(m.group(2)) == 1][int(m.group(1), 16)] += 1
        files[os.path.basename(m.group(3))] += 1
    return files, offs


def all_offs(offs):
    return offs[0] + offs[1]


def distinct_blocks(wd):
    seen = set()
    for root, dirs, names in os.walk(wd):
        for n in names:
            if n.startswith('.'):
                continue
            with open(os.path.join(root, n), 'rb') as f:
                while True:
                    b = f.read(4096)
                    if not b:
                        break
                    seen.add(hash(b))
    return len(seen)


def hot(offs):
    v = sorted(offs.values(), reverse=True)
    tot = sum(v) or 1
    n = len(v)
    return [100.0 * sum(v[:max(1, n * k // 100)]) / tot for k in (1, 5, 10, 50)]


def check_one(c, name, f, i, fl, il):
    rf, df, ef, ff = f[:4]
    ri, di, ei, fi = i[:4]
    if c == 'rc':
        return tap(rf == ri and df is not None and di is not None, f'{name}: the same exit status ({rf}) and JSON',
                   f'fio {rf} {ef[-300:]}\niobench {ri} {ei[-300:]}')
    if c == 'fails':
        return tap(rf != 0 and ri != 0, f'{name}: both fail', f'fio {rf} {ef[-200:]}\niobench {ri} {ei[-200:]}')
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
        diff = jsonshape.diff(df, di, ignore_top={'disk_util'})
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
    if c.startswith('bytes~'):
        p = float(c[6:])
        a, b = ios(df), ios(di)
        return tap(len(a) == len(b) and all(near(x[d][0], y[d][0], p) for x, y in zip(a, b) for d in x),
                   f'{name}: io_bytes within {p:g}%', f'fio     {a}\niobench {b}')
    if c == 'ran':
        g = lambda d: [j.get('jobname') for j in d['jobs'] if sum(j[x]['total_ios'] for x in ('read', 'write'))]
        return tap(g(df) == g(di), f'{name}: the same jobs did I/O', f'fio {g(df)}\niobench {g(di)}')
    if c.startswith('rios~'):
        p = float(c[5:])
        a, b = [x['read'] for x in ios(df)], [x['read'] for x in ios(di)]
        return tap(all(near(x[k], y[k], p) for x, y in zip(a, b) for k in (0, 1)),
                   f'{name}: read io_bytes and total_ios within {p:g}%', f'fio {a}\niobench {b}')
    if c.startswith('align:'):
        n = int(c[6:])
        a, b = sorted(all_offs(fl[1])), sorted(all_offs(il[1]))
        ok = a and b and all(x % n == 0 for x in a + b) and any(x % (2 * n) for x in a) == any(x % (2 * n) for x in b)
        return tap(ok, f'{name}: every offset a multiple of {n}', f'fio {a[:12]}\niobench {b[:12]}')
    if c == 'firstoff':
        a, b = min(all_offs(fl[1]), default=None), min(all_offs(il[1]), default=None)
        return tap(a is not None and a == b, f'{name}: the same first offset', f'fio {a} iobench {b}')
    if c.startswith('distinct~'):
        p = float(c[9:])
        a, b = distinct_blocks(f[4]), distinct_blocks(i[4])
        return tap(near(a, b, p), f'{name}: distinct 4k blocks left within {p:g}%', f'fio {a} iobench {b}')
    if c.startswith(('hotr~', 'hotw~')):
        p = float(c[5:])
        a, b = hot(fl[1][c[3] == 'w']), hot(il[1][c[3] == 'w'])
        return tap(all(abs(x - y) <= p for x, y in zip(a, b)),
                   f'{name}: the hottest 1/5/10/50% of the {"writes" if c[3] == "w" else "reads"}\' blocks take the same share within {p:g} points',
                   f'fio {a}\niobench {b}')
    if c.startswith('hot~'):
        p = float(c[4:])
        a, b = hot(all_offs(fl[1])), hot(all_offs(il[1]))
        return tap(all(abs(x - y) <= p for x, y in zip(a, b)),
                   f'{name}: the hottest 1/5/10/50% of blocks take the same share within {p:g} points',
                   f'fio {a}\niobench {b}')
    return tap(False, f'{name}: unknown check {c}')


def compare(name, words, checks, iobench, work):
    wf, wi = os.path.join(work, name, 'fio'), os.path.join(work, name, 'iobench')
    fa = [w[4:] if w.startswith('fio:') else w for w in words if not w.startswith('iob:')]
    ia = [w[4:] if w.startswith('iob:') else w for w in words if not w.startswith('fio:')]
    logs = any(c.startswith(('fshare', 'hot')) for c in checks)
    logs = logs or any(c.startswith(('align', 'firstoff')) for c in checks)
    if 'par' in checks:  # paced jobs (rates, thinktime): both at once, they wait more than they work
        with concurrent.futures.ThreadPoolExecutor(2) as ex:
            ff = ex.submit(run, 'fio', fa, wf, ['--write_iolog=.iolog'] if logs else [])
            fi = ex.submit(run, iobench, ia, wi, ['--debug=io'] if logs else [])
            f, i = ff.result() + (wf,), fi.result() + (wi,)
    else:
        f = run('fio', fa, wf, ['--write_iolog=.iolog'] if logs else []) + (wf,)
        i = run(iobench, ia, wi, ['--debug=io'] if logs else []) + (wi,)
    checks = [c for c in checks if c != 'par']
    empty = (collections.Counter(), {0: collections.Counter(), 1: collections.Counter()})
    fl = fio_iolog(os.path.join(wf, '.iolog')) if logs and os.path.exists(os.path.join(wf, '.iolog')) else empty
    il = iob_debug(i[2]) if logs else empty
    for c in checks:
        check_one(c, name, f, i, fl, il)


def one_case(line, iobench, work):
    lines = []
    LOCAL.out = lines
    name, args, checks = [x.strip() for x in line.split('|')]
    compare(name, shlex.split(os.path.expandvars(args)), checks.split(','), iobench, work)
    shutil.rmtree(os.path.join(work, name), ignore_errors=True)
    return lines


def main():
    # -j2: two cases at a time (for cases that count, not time: paced ones pass 'par' instead)
    jobs = 2 if '-j2' in sys.argv else 1
    iobench, work = [a for a in sys.argv[1:] if a != '-j2'][:2]
    cases = [l.strip() for l in sys.stdin if l.strip() and not l.strip().startswith('#')]
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        for lines in ex.map(lambda l: one_case(l, iobench, work), cases):
            print('\n'.join(lines), flush=True)


main()
