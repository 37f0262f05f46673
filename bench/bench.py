#!/usr/bin/python3
"""iobench against fio 3.33, side by side in one run: the same jobs on the same kind of files,
alternating A B A B (iobench, then fio, PAIRS times), medians, printed as ratios iobench/fio,
each against its goal (issue 19). Writes docs/performance.md (the table, between markers,
above the hand-written part) and docs/perf-threads.svg (CPU per I/O against threads).

CPU comes from wait4()'s rusage of each run (user and system seconds of the whole process,
so io_uring's kernel workers count), I/O counts and IOPS from each tool's JSON, peak RSS from
ru_maxrss.

    bench/bench.py [--full] [--pairs N] [--only NAME,...] [--iobench PATH] [--fio PATH]
                   [--disk DIR] [--meta DIR] [--no-docs] [--floor PATH]

--floor (make bench passes build/bench/floor): the tmpfs and disk jobs run bench/floor.c
third in each round, the same I/O with no statistics, so the notes say how much of each
tool's CPU per I/O is the kernel's and the engine's floor and how much is its own.

The default is the quick mode (about 5-10 minutes on a 2-core machine): 3 pairs, metadata
jobs of 20,000 files, threads 1, 4, 16, 64, 256. --full: 5 pairs, 100,000 files (fio alone
takes minutes per run there: its file handling grows with the square of the count), threads
1, 2, 4, ..., 256.
"""
import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

GiB = 1 << 30
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = '<!-- bench: generated, begin -->', '<!-- bench: generated, end -->'


def run_timed(cmd, check=True):
    """Run cmd; its JSON, its rusage (os.wait4), its wall time, and its peak RSS as GNU time
    reports it: a child spawned from this Python process keeps Python's RSS as its ru_maxrss
    floor across exec (about 16 MB), one spawned by time(1) only time's own (about 2 MB)."""
    t0 = time.monotonic()
    p = subprocess.Popen(['/usr/bin/time', '-f', 'BENCH_MAXRSS_KIB=%M'] + cmd, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    with p.stdout, p.stderr:
        out = p.stdout.read()
        err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - t0
    if code != 0 and check:
        sys.exit('bench: %s failed (%d): %s' % (' '.join(cmd), code, err.decode()[-500:]))
    m = re.findall(r'BENCH_MAXRSS_KIB=(\d+)', err.decode(errors='replace'))
    text = out.decode()
    doc = json.loads(text[text.index('{'):]) if '{' in text else None
    return {'doc': doc, 'usr': ru.ru_utime, 'sys': ru.ru_stime, 'rss': int(m[-1]) if m else ru.ru_maxrss,
            'wall': wall, 'code': code}


def ios(doc):
    return sum(j[d]['total_ios'] for j in doc['jobs'] for d in ('read', 'write') if d in j)


def iops(doc):
    return sum(j[d]['iops'] for j in doc['jobs'] for d in ('read', 'write') if d in j)


def cpu_per_io(r):
    return (r['usr'] + r['sys']) / max(ios(r['doc']), 1)


def usr_per_io(r):
    return r['usr'] / max(ios(r['doc']), 1)


class Bench:
    def __init__(self, args):
        self.args = args
        self.rows = []      # (name, metric, iobench, fio, ratio, op, goal, ok)
        self.curve = []     # (numjobs, iobench s/io, fio s/io)
        self.notes = []

    def prog(self, tool):
        return self.args.iobench if tool == 'iobench' else self.args.fio

    def pairs(self, name, job, metrics, fio_extra=(), before=None, n=None, floor=None):
        """Alternate iobench and fio on job (fio options); per-tool medians of each metric
        (a function of the run record). before(tool): called before each run (fresh files).
        floor: bench/floor's arguments for the same job, run third in each round (A B C)."""
        tools = ('iobench', 'fio') + (('floor',) if floor and self.args.floor else ())
        res = {t: {m: [] for m in metrics} for t in tools}
        n = n or self.args.pairs
        for i in range(n):
            for tool in tools:
                if before:
                    before(tool)
                extra = list(fio_extra) if tool == 'fio' else []
                if tool == 'floor':
                    r = run_timed([self.args.floor] + floor)
                else:
                    r = run_timed([self.prog(tool)] + job + extra + ['--output-format=json'])
                for m, f in metrics.items():
                    res[tool][m].append(f(r))
            print('  %s: pair %d/%d done' % (name, i + 1, n), file=sys.stderr, flush=True)
        return {t: {m: statistics.median(v) for m, v in ms.items()} for t, ms in res.items()}

    def row(self, name, metric, med, op, goal, fmt='%.3g'):
        a, b = med['iobench'][metric], med['fio'][metric]
        ratio = a / b if b else float('inf')
        ok = ratio <= goal if op == '<=' else ratio >= goal
        self.rows.append((name, metric, fmt % a, fmt % b, '%.2fx' % ratio, '%s %.2fx' % (op, goal), ok))
        print('| %s | %s | %s | %s | %.2fx | %s %.2fx | %s |' % (name, metric, fmt % a, fmt % b, ratio, op, goal,
                                                               'met' if ok else 'NOT met'), flush=True)

    def floor_note(self, name, med, metric):
        """What bench/floor (no statistics, one submission per I/O) costs on the job, against
        fio, and iobench's own part above it."""
        if 'floor' not in med:
            return
        f, i, o = med['floor'][metric] * 1e9, med['iobench'][metric] * 1e9, med['fio'][metric] * 1e9
        self.notes.append('%s: the floor (bench/floor.c, the same I/O with no statistics) %.0f ns %s, %.2fx fio\'s '
                          '%.0f ns; iobench %.0f ns, %.0f ns above the floor, fio %.0f ns above it; floor IOPS %.3g'
                          % (name, f, metric, f / o if o else 0, o, i, i - f, o - f, med['floor']['iops']))
        print('  ' + self.notes[-1], file=sys.stderr, flush=True)

    def solo(self, name, metric, value, op, goal, unit):
        ok = value <= goal if op == '<=' else value < goal if op == '<' else value >= goal
        self.rows.append((name, metric, '%.3g %s' % (value, unit), '(fio cannot)', '', '%s %g %s' % (op, goal, unit),
                          ok))
        print('| %s | %s | %.3g %s | (fio cannot) | | %s %g %s | %s |' % (name, metric, value, unit, op, goal, unit,
                                                                         'met' if ok else 'NOT met'), flush=True)


def b_null(b):
    job = ['--name=null', '--ioengine=null', '--rw=randread', '--bs=4k', '--size=16g', '--norandommap']
    med = b.pairs('null', job, {'cpu_s_per_io': cpu_per_io, 'iops': lambda r: iops(r['doc'])})
    b.row('1 null 4k randread 16 GiB', 'cpu_s_per_io', med, '<=', 0.2)


def b_shm(b):
    path = os.path.join('/dev/shm', 'iobench-bench.%d' % os.getpid())
    subprocess.run(['dd', 'if=/dev/zero', 'of=' + path, 'bs=1M', 'count=1024'],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    try:
        for eng in ('io_uring', 'libaio'):
            name = '2 tmpfs O_DIRECT 4k randread QD32 ' + eng
            job = ['--name=shm', '--filename=' + path, '--ioengine=' + eng, '--direct=1', '--rw=randread',
                   '--bs=4k', '--iodepth=32', '--size=1g', '--time_based', '--runtime=4', '--norandommap']
            med = b.pairs('shm-' + eng, job, {'iops': lambda r: iops(r['doc']), 'usr_s_per_io': usr_per_io,
                                             'cpu_s_per_io': cpu_per_io}, floor=[eng, path, '32', '4'])
            b.row(name, 'iops', med, '>=', 1.0)
            b.row(name, 'usr_s_per_io', med, '<=', 0.3)
            b.floor_note(name, med, 'usr_s_per_io')
    finally:
        os.unlink(path)


def b_disk(b):
    d = tempfile.mkdtemp(prefix='iobench-bench.', dir=b.args.disk)
    path = os.path.join(d, 'file')
    subprocess.run(['dd', 'if=/dev/urandom', 'of=' + path, 'bs=1M', 'count=1024'],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    try:
        name = '3 virtio disk (%s) 4k randread QD32 libaio' % b.args.disk
        job = ['--name=disk', '--filename=' + path, '--ioengine=libaio', '--direct=1', '--rw=randread',
               '--bs=4k', '--iodepth=32', '--size=1g', '--time_based', '--runtime=4', '--norandommap']
        med = b.pairs('disk', job, {'iops': lambda r: iops(r['doc']), 'cpu_s_per_io': cpu_per_io},
                      floor=['libaio', path, '32', '4'])
        b.row(name, 'iops', med, '>=', 0.97)
        b.row(name, 'cpu_s_per_io', med, '<=', 0.6)
        b.floor_note(name, med, 'cpu_s_per_io')
    finally:
        shutil.rmtree(d)


def b_meta(b):
    """filecreate, filestat, filedelete of N files in one directory, each tool on its own
    files: create, stat, delete in a row for one tool, then the other (A B)."""
    n = 100000 if b.args.full else 20000
    top = tempfile.mkdtemp(prefix='iobench-bench-meta.', dir=b.args.meta)
    res = {e: {t: {'ops_per_s': [], 'cpu_s_per_op': [], 'rss': []} for t in ('iobench', 'fio')}
           for e in ('filecreate', 'filestat', 'filedelete')}
    pairs = 1 if b.args.full else b.args.pairs
    try:
        for i in range(pairs):
            for tool in ('iobench', 'fio'):
                d = os.path.join(top, tool)
                os.mkdir(d)
                for e in res:
                    job = ['--name=meta', '--ioengine=' + e, '--nrfiles=%d' % n, '--filesize=4k', '--bs=4k',
                           '--openfiles=1', '--directory=' + d, '--output-format=json']
                    r = run_timed([b.prog(tool)] + job)
                    res[e][tool]['ops_per_s'].append(iops(r['doc']))
                    res[e][tool]['cpu_s_per_op'].append(cpu_per_io(r))
                    res[e][tool]['rss'].append(r['rss'])
                os.rmdir(d)
            print('  meta: pair %d/%d done' % (i + 1, pairs), file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(top)
    for e, tools in res.items():
        med = {t: {m: statistics.median(v) for m, v in ms.items()} for t, ms in tools.items()}
        name = '4 %s nrfiles=%d, one directory' % (e, n)
        b.row(name, 'ops_per_s', med, '>=', 1.0)
        b.row(name, 'cpu_s_per_op', med, '<=', 0.6)
        b.row(name, 'peak_rss_kib', {t: {'peak_rss_kib': med[t]['rss']} for t in med}, '<=', 0.5, '%d')


def b_million(b):
    """1,000,000 files, filecreate then filedelete (stonewall) in one run, iobench alone (fio
    cannot: past the descriptor limit it refuses without openfiles, and with it its file
    handling is quadratic: 300 s for 100,000). Set-up time is from the start to the first
    I/O: the first file's creation (its ctime, read before filedelete removes it, so the run
    is done in two steps: filecreate alone, then the same job file with both jobs)."""
    top = tempfile.mkdtemp(prefix='iobench-bench-1m.', dir=b.args.meta)
    common = ['--nrfiles=1000000', '--filesize=4k', '--bs=4k', '--openfiles=1', '--directory=' + top,
              '--output-format=json']
    try:
        t0 = time.time()
        r = run_timed([b.args.iobench] + common + ['--name=million', '--ioengine=filecreate'])
        first = os.stat(os.path.join(top, 'million.0.0')).st_ctime - t0
        if ios(r['doc']) != 1000000:
            sys.exit('bench: filecreate did %d operations, not 1,000,000' % ios(r['doc']))
        shutil.rmtree(top)
        os.mkdir(top)
        both = run_timed([b.args.iobench] + common + ['--name=million', '--ioengine=filecreate', '--name=million',
                                                       '--ioengine=filedelete', '--stonewall'])
        if ios(both['doc']) != 2000000 or os.listdir(top):
            sys.exit('bench: filecreate then filedelete did %d operations (2,000,000 wanted), %d files left' %
                     (ios(both['doc']), len(os.listdir(top))))
        name = '5 filecreate then filedelete, nrfiles=1,000,000, one run'
        b.solo(name, 'peak_rss_mib', both['rss'] / 1024.0, '<=', 128, 'MiB')
        b.solo(name, 'setup_s (start to the first file created)', first, '<', 2, 's')
        runtimes = sum(j['job_runtime'] for j in both['doc']['jobs']) / 1000.0
        b.notes.append('1,000,000 files: filecreate alone %.2f s (peak RSS %.1f MiB); the run with both jobs %.2f s, '
                       'of which %.2f s running the two jobs and %.2f s the rest: set-up, the exit, and between '
                       'the groups laying out 1,000,000 files of 4 KiB before filedelete (as fio does: the files '
                       'filecreate made are empty)' % (r['wall'], r['rss'] / 1024.0, both['wall'], runtimes,
                                                       both['wall'] - runtimes))
        print('  million: ' + b.notes[-1], file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(top, ignore_errors=True)


def b_threads(b):
    """Marginal CPU per I/O at numjobs 1..256: (CPU of a run of TOTAL bytes split over the
    threads - CPU of the same run at 4 KiB per thread) / I/Os, so that process and thread
    start and exit do not count as per-I/O cost."""
    total = 16 * GiB  # 4M I/Os: at 256 threads the start and exit (~0.08 s) are subtracted
    points = (1, 2, 4, 8, 16, 32, 64, 128, 256) if b.args.full else (1, 4, 16, 64, 256)
    cpu = lambda r: r['usr'] + r['sys']
    # max/min over five points of a difference of two medians: 3 pairs moved it by 0.1 on a
    # shared 2-CPU VM (1.18, then 1.09 with 5), so at least 5 pairs here (0.1 s each)
    pairs = max(5, b.args.pairs)
    for n in points:
        common = ['--name=t', '--ioengine=null', '--rw=randread', '--bs=4k', '--numjobs=%d' % n,
                  '--norandommap', '--group_reporting']
        full = b.pairs('threads-%d' % n, common + ['--size=%d' % (total // n)],
                       {'cpu': cpu, 'ios': lambda r: ios(r['doc'])}, fio_extra=['--thread'], n=pairs)
        empty = b.pairs('threads-%d-empty' % n, common + ['--size=4k'], {'cpu': cpu}, fio_extra=['--thread'],
                        n=pairs)
        per = {t: max(full[t]['cpu'] - empty[t]['cpu'], 0) / full[t]['ios'] for t in ('iobench', 'fio')}
        b.curve.append((n, per['iobench'], per['fio']))
        print('  threads %d: iobench %.3g s/io, fio %.3g s/io' % (n, per['iobench'], per['fio']), file=sys.stderr)
    seen = [c[1] for c in b.curve]
    spread = max(seen) / min(seen) if min(seen) else float('inf')
    below = all(c[1] <= c[2] for c in b.curve)
    b.rows.append(('6 null numjobs %d..%d' % (points[0], points[-1]), 'marginal cpu/io max/min', '%.2f' % spread,
                   '%.2f' % (max(c[2] for c in b.curve) / min(c[2] for c in b.curve)), '', '<= 1.10',
                   spread <= 1.1))
    b.rows.append(('6 null numjobs %d..%d' % (points[0], points[-1]), 'iobench <= fio at every point',
                   'yes' if below else 'no', '', '', 'all points', below))
    for r in b.rows[-2:]:
        print('| %s | %s | %s | %s | %s | %s | %s |' % (r[:6] + ('met' if r[6] else 'NOT met',)), flush=True)


def b_rss(b):
    d = tempfile.mkdtemp(prefix='iobench-bench.', dir=b.args.disk)
    try:
        job = ['--name=rss', '--directory=' + d, '--ioengine=psync', '--rw=randread', '--bs=4k',
               '--size=16m', '--numjobs=8', '--time_based', '--runtime=1', '--group_reporting']
        med = b.pairs('rss', job, {'peak_rss_kib': lambda r: r['rss']}, fio_extra=['--thread'])
        b.row('7 8 threads psync (fio --thread)', 'peak_rss_kib', med, '<=', 0.3, '%d')
    finally:
        shutil.rmtree(d)


BENCHES = {'null': b_null, 'shm': b_shm, 'disk': b_disk, 'meta': b_meta, 'million': b_million,
           'threads': b_threads, 'rss': b_rss}


def svg(curve):
    """CPU per I/O (ns) against threads (log2 axis), both tools."""
    W, H, L, R, T, B = 640, 360, 70, 20, 30, 50
    xs = [c[0] for c in curve]
    ymax = max(max(c[1], c[2]) for c in curve) * 1e9 * 1.15
    lx = lambda n: L + (W - L - R) * ((n.bit_length() - 1) / max(xs[-1].bit_length() - 1, 1))
    ly = lambda v: H - B - (H - T - B) * (v * 1e9 / ymax)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
           'font-size="12">' % (W, H), '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="18" font-size="14">null engine 4k randread: marginal CPU per I/O against numjobs'
           '</text>' % L]
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (L, H - B, W - R, H - B))
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (L, T, L, H - B))
    for n in xs:
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (lx(n), H - B + 16, n))
    for k in range(6):
        v = ymax * k / 5
        y = H - B - (H - T - B) * k / 5
        out.append('<text x="%d" y="%.1f" text-anchor="end">%.0f</text>' % (L - 6, y + 4, v))
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (L, y, W - R, y))
    out.append('<text x="%d" y="%d" text-anchor="middle">numjobs (threads)</text>' % ((L + W - R) // 2, H - 12))
    out.append('<text x="16" y="%d" transform="rotate(-90 16 %d)" text-anchor="middle">ns of CPU per I/O</text>'
               % ((T + H - B) // 2, (T + H - B) // 2))
    for idx, (tool, color) in enumerate((('iobench', '#1f77b4'), ('fio 3.33 (--thread)', '#d62728'))):
        pts = ' '.join('%.1f,%.1f' % (lx(c[0]), ly(c[1 + idx])) for c in curve)
        out.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (color, pts))
        for c in curve:
            out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (lx(c[0]), ly(c[1 + idx]), color))
        out.append('<text x="%d" y="%d" fill="%s">%s</text>' % (W - R - 150, T + 16 + 16 * idx, color, tool))
    out.append('</svg>')
    return '\n'.join(out) + '\n'


def write_docs(b, header):
    lines = [BEGIN, '', header, '', '| benchmark | metric | iobench | fio | ratio | goal | |',
             '|---|---|---|---|---|---|---|']
    for r in b.rows:
        lines.append('| %s | %s | %s | %s | %s | %s | %s |' % (r[:6] + ('met' if r[6] else 'NOT met',)))
    if b.curve:
        lines += ['', '| numjobs | iobench ns CPU/I/O | fio ns CPU/I/O | iobench / numjobs=1 | fio / numjobs=1 |',
                  '|---|---|---|---|---|']
        for n, i, f in b.curve:
            lines.append('| %d | %.1f | %.1f | %.2f | %.2f |' % (n, i * 1e9, f * 1e9, i / b.curve[0][1],
                                                               f / b.curve[0][2]))
        lines += ['', '![CPU per I/O against threads](perf-threads.svg)']
        with open(os.path.join(TOP, 'docs', 'perf-threads.svg'), 'w') as f:
            f.write(svg(b.curve))
    lines += [''] + ['- ' + n for n in b.notes] + ([''] if b.notes else [])
    lines += ['%d of %d goals met in this run.' % (sum(r[6] for r in b.rows), len(b.rows)), '', END]
    path = os.path.join(TOP, 'docs', 'performance.md')
    old = open(path).read() if os.path.exists(path) else ''
    head, tail = old, ''
    if BEGIN in old and END in old:
        head, tail = old.split(BEGIN, 1)[0], old.split(END, 1)[1]
    with open(path, 'w') as f:
        f.write(head + '\n'.join(lines) + tail)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--full', action='store_true')
    ap.add_argument('--pairs', type=int, default=0)
    ap.add_argument('--only', default=','.join(BENCHES))
    ap.add_argument('--iobench', default=os.path.join(TOP, 'iobench'))
    ap.add_argument('--fio', default='fio')
    ap.add_argument('--disk', default=os.environ.get('TMPDIR', '/var/tmp'))
    ap.add_argument('--meta', default='/dev/shm')
    ap.add_argument('--no-docs', action='store_true')
    ap.add_argument('--floor', default='', help='bench/floor built (make bench passes it): a third run per round')
    args = ap.parse_args()
    args.pairs = args.pairs or (5 if args.full else 3)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    ver = subprocess.run([args.fio, '--version'], capture_output=True, text=True).stdout.strip()
    header = ('iobench (%s) against %s, %s mode, %d pairs (A B alternating), medians; ratio = iobench / fio; '
              '%s, %d CPUs, load average %.1f at the start.' %
              (subprocess.run(['git', '-C', TOP, 'describe', '--always', '--dirty'], capture_output=True,
                              text=True).stdout.strip() or 'unknown', ver, 'full' if args.full else 'quick',
               args.pairs, time.strftime('%Y-%m-%d'), os.cpu_count(), os.getloadavg()[0]))
    print(header + '\n')
    print('| benchmark | metric | iobench | fio | ratio | goal | |')
    print('|---|---|---|---|---|---|---|')
    b = Bench(args)
    t0 = time.monotonic()
    for name in args.only.split(','):
        BENCHES[name](b)
    print('\n%d of %d goals met (%.0f s)' % (sum(r[6] for r in b.rows), len(b.rows), time.monotonic() - t0))
    if not args.no_docs:
        write_docs(b, header)


if __name__ == '__main__':
    main()
