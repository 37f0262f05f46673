#!/usr/bin/python3
"""iobench against fio 3.33, side by side: the same jobs on the same files, alternating
A B A B (iobench first, then fio, PAIRS times), medians, printed as ratios iobench/fio.

CPU comes from wait4()'s rusage of each run (user and system seconds of the whole process),
I/O counts and IOPS from each tool's JSON, peak RSS from ru_maxrss.

    bench/bench.py [--pairs N] [--only NAME,...] [--iobench PATH] [--fio PATH] [--disk DIR]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

GiB = 1 << 30


def run_timed(cmd):
    """Like run, with the child's own rusage (os.wait4 on the Popen pid)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with p.stdout, p.stderr:
        out = p.stdout.read()
        err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit('bench: %s failed (%d): %s' % (' '.join(cmd), p.returncode, err.decode()[-500:]))
    text = out.decode()
    doc = json.loads(text[text.index('{'):])
    return {'doc': doc, 'usr': ru.ru_utime, 'sys': ru.ru_stime, 'rss': ru.ru_maxrss, 'wall': wall}


def ios(doc):
    return sum(j[d]['total_ios'] for j in doc['jobs'] for d in ('read', 'write') if d in j)


def iops(doc):
    return sum(j[d]['iops'] for j in doc['jobs'] for d in ('read', 'write') if d in j)


def pairs(args, name, job, metrics, fio_extra=()):
    """Alternate iobench and fio on `job` (a list of fio options); return per-tool medians
    of each metric (a function of the run record)."""
    res = {'iobench': {m: [] for m in metrics}, 'fio': {m: [] for m in metrics}}
    for i in range(args.pairs):
        for tool in ('iobench', 'fio'):
            prog = args.iobench if tool == 'iobench' else args.fio
            extra = list(fio_extra) if tool == 'fio' else []
            r = run_timed([prog] + job + extra + ['--output-format=json'])
            for m, f in metrics.items():
                res[tool][m].append(f(r))
        print('  %s: pair %d/%d done' % (name, i + 1, args.pairs), file=sys.stderr)
    return {t: {m: statistics.median(v) for m, v in ms.items()} for t, ms in res.items()}


def line(name, metric, med, goal_op, goal, fmt='%.3g'):
    a, b = med['iobench'][metric], med['fio'][metric]
    ratio = a / b if b else float('inf')
    ok = ratio <= goal if goal_op == '<=' else ratio >= goal
    print('| %s | %s | %s | %s | %.2fx | %s %.2fx | %s |' % (name, metric, fmt % a, fmt % b, ratio,
          goal_op, goal, 'met' if ok else 'NOT met'))
    return ok


def cpu_per_io(r):
    return (r['usr'] + r['sys']) / max(ios(r['doc']), 1)


def usr_per_io(r):
    return r['usr'] / max(ios(r['doc']), 1)


def b_null(args):
    job = ['--name=null', '--ioengine=null', '--rw=randread', '--bs=4k', '--size=16g', '--norandommap']
    med = pairs(args, 'null', job, {'cpu_s_per_io': cpu_per_io, 'iops': lambda r: iops(r['doc'])})
    return [line('1 null 4k randread 16 GiB', 'cpu_s_per_io', med, '<=', 0.5)]


def b_shm(args):
    okk = []
    path = os.path.join('/dev/shm', 'iobench-bench.%d' % os.getpid())
    with open(path, 'wb') as f:
        f.truncate(1 * GiB)
    subprocess.run(['dd', 'if=/dev/zero', 'of=' + path, 'bs=1M', 'count=1024', 'conv=notrunc'],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    try:
        for eng in ('io_uring', 'libaio'):
            job = ['--name=shm', '--filename=' + path, '--ioengine=' + eng, '--direct=1', '--rw=randread',
                   '--bs=4k', '--iodepth=32', '--size=1g', '--time_based', '--runtime=4', '--norandommap']
            med = pairs(args, 'shm-' + eng, job, {'iops': lambda r: iops(r['doc']), 'usr_s_per_io': usr_per_io,
                                                  'cpu_s_per_io': cpu_per_io})
            okk.append(line('2 /dev/shm O_DIRECT 4k randread QD32 ' + eng, 'iops', med, '>=', 1.0))
            okk.append(line('2 /dev/shm O_DIRECT 4k randread QD32 ' + eng, 'usr_s_per_io', med, '<=', 0.5))
            line('2 /dev/shm O_DIRECT 4k randread QD32 ' + eng, 'cpu_s_per_io', med, '<=', 1.0)
    finally:
        os.unlink(path)
    return okk


def b_disk(args):
    d = tempfile.mkdtemp(prefix='iobench-bench.', dir=args.disk)
    path = os.path.join(d, 'file')
    subprocess.run(['dd', 'if=/dev/urandom', 'of=' + path, 'bs=1M', 'count=1024'],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    try:
        job = ['--name=disk', '--filename=' + path, '--ioengine=libaio', '--direct=1', '--rw=randread',
               '--bs=4k', '--iodepth=32', '--size=1g', '--time_based', '--runtime=4', '--norandommap']
        med = pairs(args, 'disk', job, {'iops': lambda r: iops(r['doc']), 'cpu_s_per_io': cpu_per_io})
        return [line('3 disk file 4k randread QD32 libaio', 'iops', med, '>=', 0.95),
                line('3 disk file 4k randread QD32 libaio', 'cpu_s_per_io', med, '<=', 0.8)]
    finally:
        os.unlink(path)
        os.rmdir(d)


def b_rss(args):
    d = tempfile.mkdtemp(prefix='iobench-bench.', dir=args.disk)
    try:
        job = ['--name=rss', '--directory=' + d, '--ioengine=psync', '--rw=randread', '--bs=4k',
               '--size=16m', '--numjobs=8', '--time_based', '--runtime=1', '--group_reporting']
        med = pairs(args, 'rss', job, {'peak_rss_kib': lambda r: r['rss']}, fio_extra=['--thread'])
        return [line('4 8 threads psync (fio --thread)', 'peak_rss_kib', med, '<=', 1.0, '%d')]
    finally:
        for f in os.listdir(d):
            os.unlink(os.path.join(d, f))
        os.rmdir(d)


def b_threads(args):
    """CPU per I/O per thread at numjobs 1..64: the marginal cost, (CPU of a 2 GiB-per-thread
    run - CPU of a 4 KiB-per-thread run) / I/Os, so that process start and exit (the same
    for any amount of I/O) do not count as per-I/O cost."""
    print('\n| numjobs | iobench cpu s/io | fio cpu s/io | iobench / numjobs=1 | fio / numjobs=1 |')
    print('|---|---|---|---|---|')
    base, seen = {}, []
    cpu = lambda r: r['usr'] + r['sys']
    for n in (1, 2, 4, 8, 16, 64):
        common = ['--name=t', '--ioengine=null', '--rw=randread', '--bs=4k', '--numjobs=%d' % n,
                  '--norandommap', '--group_reporting']
        full = pairs(args, 'threads-%d' % n, common + ['--size=2g'], {'cpu': cpu, 'ios': lambda r: ios(r['doc'])},
                     fio_extra=['--thread'])
        empty = pairs(args, 'threads-%d-empty' % n, common + ['--size=4k'], {'cpu': cpu}, fio_extra=['--thread'])
        per = {t: (full[t]['cpu'] - empty[t]['cpu']) / full[t]['ios'] for t in ('iobench', 'fio')}
        base.setdefault('i', per['iobench'])
        base.setdefault('f', per['fio'])
        seen.append(per['iobench'])
        print('| %d | %.3g | %.3g | %.2f | %.2f |' % (n, per['iobench'], per['fio'], per['iobench'] / base['i'],
                                                       per['fio'] / base['f']))
    flat = max(seen) <= 1.2 * min(seen)
    print('\n5: iobench CPU per I/O from 1 to 64 threads flat within 20%% (max/min %.2f): %s' %
          (max(seen) / min(seen), 'met' if flat else 'NOT met'))
    return [flat]


BENCHES = {'null': b_null, 'shm': b_shm, 'disk': b_disk, 'rss': b_rss, 'threads': b_threads}


def main():
    ap = argparse.ArgumentParser()
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument('--pairs', type=int, default=5)
    ap.add_argument('--only', default=','.join(BENCHES))
    ap.add_argument('--iobench', default=os.path.join(top, 'iobench'))
    ap.add_argument('--fio', default='fio')
    ap.add_argument('--disk', default=os.environ.get('TMPDIR', '/var/tmp'))
    args = ap.parse_args()
    ver = subprocess.run([args.fio, '--version'], capture_output=True, text=True).stdout.strip()
    print('iobench %s against %s, %d pairs (A B alternating), medians; ratio = iobench / fio\n' %
          (args.iobench, ver, args.pairs))
    print('| benchmark | metric | iobench | fio | ratio | goal | |')
    print('|---|---|---|---|---|---|---|')
    results = []
    for name in args.only.split(','):
        results += BENCHES[name](args)
    print('\n%d of %d goals met' % (sum(results), len(results)))


if __name__ == '__main__':
    main()
