#!/usr/bin/env python3
"""Helpers of tests/integration/t_engines_local.sh (fio's engines that need no server).

  pair NAME WORK IOBENCH ARGS...  run fio and iobench on the same job at the same time, in
                                  WORK/NAME/fio and WORK/NAME/iobench (JSON in out.json, or
                                  with --output-format= in ARGS that output in out.txt;
                                  stderr in err, exit status in rc); PORT in ARGS (and in
                                  the job files they name) becomes a free port, another for
                                  each program
  run PROG DIR ARGS...            one program's run, the same files; exits with its status
  get FILE EXPR                   EXPR over d (the document) and j (its jobs)
  keys A B                        the same key paths, in the same order, with the same types
  net NAME FIO IOBENCH            the checks of a reader and writer job pair (TAP lines)
  port [N]                        N free TCP/UDP ports on 127.0.0.1
"""
import json, os, socket, subprocess, sys, threading

sys.dont_write_bytecode = True  # no __pycache__ in the tree
import jsonshape  # noqa: E402

TIMEOUT = 30


def load(p):
    s = open(p).read()
    return json.loads(s[s.index('{'):])  # fio prints notes before its JSON


def free_ports(n):
    socks, ports = [], []
    for _ in range(n):
        s = socket.socket()
        s.bind(('127.0.0.1', 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return ports


def run(prog, wd, args):
    os.makedirs(wd, exist_ok=True)
    # --thread: fio's jobs are then one process, which the timeout ends (its forked jobs
    # would go on, stuck on a lost datagram or a connection that never comes). Both get it,
    # for the same "global options".
    fmt = [] if any(a.startswith('--output-format=') for a in args) else ['--output-format=json']
    cmd = [prog] + fmt + ['--thread'] + args
    try:
        p = subprocess.run(cmd, cwd=wd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = 124, '', 'timed out after %d s\n' % TIMEOUT + (e.stderr.decode() if e.stderr else '')
    open(os.path.join(wd, 'out.json' if fmt else 'out.txt'), 'w').write(out)
    open(os.path.join(wd, 'err'), 'w').write(err)
    open(os.path.join(wd, 'rc'), 'w').write('%d\n' % rc)
    return rc


def pair(name, work, iobench, args):
    ports = free_ports(2)
    runs = []
    for prog, port in (('fio', ports[0]), (iobench, ports[1])):
        wd = os.path.join(work, name, 'fio' if prog == 'fio' else 'iobench')
        os.makedirs(wd, exist_ok=True)
        a = []
        for x in args:
            if x.endswith('.fio') and os.path.isfile(x):  # a job file: PORT in it too, in a copy
                job = os.path.join(wd, os.path.basename(x))
                open(job, 'w').write(open(x).read().replace('PORT', str(port)))
                x = job
            a.append(x.replace('PORT', str(port)))
        runs.append(threading.Thread(target=run, args=(prog, wd, a)))
    for t in runs:
        t.start()
    for t in runs:
        t.join()


def figures(d):
    return ' '.join('%s:%d/%d:%d/%d' % (x['jobname'], x['read']['io_bytes'], x['read']['total_ios'],
                                        x['write']['io_bytes'], x['write']['total_ios']) for x in d['jobs'])


def net(n, f, i):
    print('# %s: fio %s; iobench %s' % (n, figures(f), figures(i)))
    w = lambda d: [(x['jobname'], x['write']['io_bytes'], x['write']['total_ios']) for x in d['jobs']]
    tot = lambda d, k: (sum(x[k]['io_bytes'] for x in d['jobs']), sum(x[k]['total_ios'] for x in d['jobs']))
    shape = jsonshape.diff(f, i, order=True)
    for ok, what in ((w(f) == w(i), 'the writers send what fio\'s do'),
                     (tot(i, 'read') == tot(i, 'write'), 'iobench\'s readers get every byte and block sent %s' % (tot(i, 'read'),)),
                     (not sum(x['error'] for x in i['jobs']), 'no job failed'),
                     (not shape, 'same JSON key paths, order and number types')):
        print('%s - %s: %s' % ('ok' if ok else 'not ok', n, what))
    for line in shape[:8]:
        print('#   ' + line)


def main():
    cmd, a = sys.argv[1], sys.argv[2:]
    if cmd == 'pair':
        pair(a[0], a[1], a[2], a[3:])
    elif cmd == 'run':
        sys.exit(run(a[0], a[1], a[2:]))
    elif cmd == 'get':
        d = load(a[0])
        print(eval(a[1], {'d': d, 'j': d['jobs']}))
    elif cmd == 'keys':
        diff = jsonshape.diff(load(a[0]), load(a[1]), order=True)
        if diff:
            print('\n'.join('# differ: ' + x for x in diff[:8]))
            sys.exit(1)
    elif cmd == 'net':
        net(a[0], load(a[1]), load(a[2]))
    elif cmd == 'port':
        print(' '.join(str(p) for p in free_ports(int(a[0]) if a else 1)))


main()
