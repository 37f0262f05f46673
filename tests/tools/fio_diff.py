#!/usr/bin/env python3
"""Differential checks: run one job through fio 3.33 and iobench, compare the results.

Usage from a test: python3 tests/tools/fio_diff.py IOBENCH WORKDIR < cases
Each case line: NAME | ARGS (shell words, may name job files under tests/jobs) | CHECKS
CHECKS is a comma list of: ios (exact io_bytes and total_ios per job and direction),
clean (iobench's stdout is one JSON document and its stderr is empty),
split (read/write split within 5%, totals exact), keys (JSON key paths and number types),
opts (global/job option maps), jobs (names, groupids, order), files (same files created).
Prints one TAP line per check.
For a target outside the working directory (a Gluster volume): FIO_DIFF_PRE is a shell
command run before each tool's run (to empty the volume), and FIO_DIFF_FILES a glob (on its
FUSE mount: /mnt/gv/s*) of the files the 'files' check lists instead of the working directory's.
"""
import glob, json, os, shlex, shutil, subprocess, sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree
import jsonshape  # noqa: E402

# Top-level keys left out of the 'keys' check (FIO_DIFF_IGNORE_TOP="disk_util ..."): fio's rbd
# engine reports the local disk of the working directory, which iobench does not.
IGNORED_TOP = set(os.environ.get('FIO_DIFF_IGNORE_TOP', '').split())


def run(prog, args, wd, env):
    os.makedirs(wd, exist_ok=True)
    if env.get('FIO_DIFF_PRE'):
        subprocess.run(env['FIO_DIFF_PRE'], shell=True, check=False)
    fmt = [] if any(a.startswith('--output-format=') for a in args) else ['--output-format=json']
    p = subprocess.run([prog] + fmt + args, cwd=wd, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    out = p.stdout
    # fio prints notes (e.g. "note: both iodepth >= 1 and synchronous...") before the JSON.
    if prog == 'fio' and not out.startswith('{'):
        out = out[out.index('\n{') + 1:] if '\n{' in out else out
    try:
        doc = json.loads(out)
    except ValueError:
        doc = None
    files = []
    if env.get('FIO_DIFF_FILES'):
        for path in glob.glob(env['FIO_DIFF_FILES']):
            files.append((os.path.basename(path), os.path.getsize(path)))
    for root, dirs, names in os.walk(wd) if not env.get('FIO_DIFF_FILES') else ():
        for n in names:
            path = os.path.join(root, n)
            files.append((os.path.relpath(path, wd), os.path.getsize(path)))
    files.sort()
    return p.returncode, doc, p.stderr, files


def tap(ok, desc, why=''):
    print(('ok - ' if ok else 'not ok - ') + desc)
    if not ok and why:
        for line in str(why).splitlines()[:12]:
            print('#   ' + line)
    return ok


def per_job(doc):
    return [(j['jobname'], j['groupid'],
             {d: (j[d]['io_bytes'], j[d]['total_ios']) for d in ('read', 'write', 'trim', 'mixed') if d in j})
            for j in doc['jobs']]


def compare(name, args, checks, iobench, work, env):
    wf, wi = os.path.join(work, name, 'fio'), os.path.join(work, name, 'iobench')
    rf, df, ef, ff = run('fio', args, wf, env)
    ri, di, ei, fi = run(iobench, args, wi, env)
    if not tap(rf == 0 and df is not None, f'{name}: fio runs', ef):
        return
    if not tap(ri == 0 and di is not None, f'{name}: iobench runs', ei):
        return
    jf, ji = per_job(df), per_job(di)
    for c in checks:
        if c == 'jobs':
            tap([(n, g) for n, g, _ in jf] == [(n, g) for n, g, _ in ji], f'{name}: same jobs, groups, order',
                f'fio {[(n, g) for n, g, _ in jf]}\niobench {[(n, g) for n, g, _ in ji]}')
        elif c == 'ios':
            tap([x[2] for x in jf] == [x[2] for x in ji], f'{name}: same io_bytes and total_ios',
                f'fio     {[x[2] for x in jf]}\niobench {[x[2] for x in ji]}')
        elif c == 'split':
            # Mixed jobs: the same bytes in all; I/O counts and the read share within 5%
            # (rwmixread draws each I/O's direction at random).
            bad = []
            for (_, _, a), (_, _, b) in zip(jf, ji):
                tot_a = sum(v[1] for v in a.values())
                tot_b = sum(v[1] for v in b.values())
                if sum(v[0] for v in a.values()) != sum(v[0] for v in b.values()):
                    bad.append(('bytes', a, b))
                elif abs(tot_a - tot_b) > 0.05 * tot_a or abs(a.get('read', (0, 0))[1] - b.get('read', (0, 0))[1]) > 0.05 * tot_a:
                    bad.append(('split', a, b))
            tap(not bad and len(jf) == len(ji), f'{name}: same bytes, I/O count and read/write split within 5%', bad)
        elif c == 'keys':
            diff = jsonshape.diff(df, di, ignore_top=IGNORED_TOP, order=True)
            tap(not diff, f'{name}: same JSON key paths, order and number types', '\n'.join(diff))
        elif c == 'opts':
            ga, gb = df.get('global options'), di.get('global options')
            jo = [j['job options'] for j in df['jobs']], [j['job options'] for j in di['jobs']]
            tap(ga == gb and jo[0] == jo[1] and list((ga or {}).keys()) == list((gb or {}).keys()),
                f'{name}: same global and job option maps', f'fio {ga} {jo[0]}\niobench {gb} {jo[1]}')
        elif c == 'clatn':
            na = [j['read']['clat_ns']['N'] for j in df['jobs']]
            nb = [j['read']['clat_ns']['N'] for j in di['jobs']]
            la = [j['read']['lat_ns']['N'] for j in df['jobs']]
            lb = [j['read']['lat_ns']['N'] for j in di['jobs']]
            tap(na == nb and la == lb, f'{name}: same read clat and lat sample counts', f'fio {na} {la}\niobench {nb} {lb}')
        elif c == 'clean':
            tap(ei == '' and di is not None, f'{name}: iobench prints only JSON on stdout and nothing on stderr',
                ei)
        elif c == 'files':
            tap(ff == fi, f'{name}: same files (names and sizes) left in the directory', f'fio {ff}\niobench {fi}')
        else:
            tap(False, f'{name}: unknown check {c}')


def main():
    iobench, work = sys.argv[1], sys.argv[2]
    env = dict(os.environ)
    for line in sys.stdin:
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        name, args, checks = [x.strip() for x in line.split('|')]
        compare(name, shlex.split(os.path.expandvars(args)), checks.split(','), iobench, work, env)
        shutil.rmtree(os.path.join(work, name), ignore_errors=True)


main()
