#!/usr/bin/env python3
"""Reports survive (issue 24): SIGHUP stops a run as SIGTERM does (results so far, the
--output file written, exit 129), but not under nohup (SIGHUP ignored when iobench started:
the run goes on); kill -9 at any moment leaves either the old report untouched or a
complete new one, and no other file beside it. Usage: report_survive.py BIN WORKDIR.
Prints TAP lines."""
import json
import os
import signal
import subprocess
import sys
import time

BIN, WORK = sys.argv[1], sys.argv[2]
FAILED = 0
LONG = ['--name=long', '--ioengine=null', '--size=1g', '--rw=randread', '--time_based', '--runtime=60']


def tap(ok, what, detail=''):
    global FAILED
    print('%s - %s' % ('ok' if ok else 'not ok', what))
    if not ok:
        FAILED += 1
        for ln in str(detail).strip().split('\n')[-6:]:
            print('#   ' + ln)


def valid_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def hup(d):
    os.makedirs(d)
    out = os.path.join(d, 'r.json')
    with open(out, 'w') as f:
        f.write('OLD\n')
    p = subprocess.Popen([BIN, '--output=' + out, '--output-format=json'] + LONG, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    p.send_signal(signal.SIGHUP)
    try:
        _, err = p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        tap(False, 'SIGHUP stops the run', 'still running 10 s after SIGHUP')
        return
    doc = valid_json(out)
    ios = doc and doc['jobs'][0]['read']['total_ios']
    tap(p.returncode == 129 and ios, 'SIGHUP: the run stops with exit 129 and the --output report holds the '
        'results so far (%s I/Os)' % ios, 'exit %d, %s' % (p.returncode, err))
    tap(sorted(os.listdir(d)) == ['r.json'], '... and nothing else is left beside the report', os.listdir(d))


def nohup(d):
    os.makedirs(d)
    out = os.path.join(d, 'r.json')
    start = time.time()
    p = subprocess.Popen([BIN, '--output=' + out, '--output-format=json', '--name=n', '--ioengine=null',
                          '--size=1g', '--time_based', '--runtime=1500ms'],
                         preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.3)
    p.send_signal(signal.SIGHUP)
    _, err = p.communicate(timeout=20)
    took = time.time() - start
    doc = valid_json(out)
    tap(p.returncode == 0 and took >= 1.4 and doc, 'under nohup (SIGHUP ignored at the start) SIGHUP does not '
        'stop the run: exit 0 after %.1f s, the report written' % took, 'exit %d, %s' % (p.returncode, err))


def nohup_children(d):
    """Under nohup the commands iobench starts keep ignoring SIGHUP (as system(3)'s do): a
    hang-up sent to the whole group does not end exec_prerun's command."""
    os.makedirs(d)
    p = subprocess.Popen([BIN, '--output=r.json', '--output-format=json', '--name=n', '--ioengine=null', '--size=1m',
                          '--exec_prerun=sleep 1; echo done > marker'], cwd=d, start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.4)
    os.killpg(p.pid, signal.SIGHUP)
    _, err = p.communicate(timeout=20)
    marker = os.path.exists(os.path.join(d, 'marker'))
    tap(p.returncode == 0 and marker, 'under nohup a hang-up of the whole group leaves exec_prerun\'s command '
        'running: it finishes (exit %d, marker %s)' % (p.returncode, marker), err)


def kill9(d):
    os.makedirs(d)
    out = os.path.join(d, 'r.json')
    bad = []
    outcomes = {'old': 0, 'new': 0}
    # Many jobs make the report large, so the kill lands while it is written now and then.
    jobs = []
    for i in range(200):
        jobs += ['--name=j%d' % i, '--ioengine=null', '--size=64k']
    delays = [0, 2, 5, 10, 20, 30, 40, 50, 60, 80, 100, 120, 150, 200, 250, 300, 400]
    for ms in delays:
        with open(out, 'w') as f:
            f.write('OLD\n')
        p = subprocess.Popen([BIN, '--output=' + out, '--output-format=json+'] + jobs,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(ms / 1000.0)
        p.kill()
        p.wait()
        names = sorted(os.listdir(d))
        with open(out) as f:
            text = f.read()
        if names != ['r.json']:
            bad.append('kill at %d ms: left %s' % (ms, names))
            for n in names:
                if n != 'r.json':
                    os.unlink(os.path.join(d, n))
        if text == 'OLD\n':
            outcomes['old'] += 1
        elif valid_json(out) and len(valid_json(out)['jobs']) == 200:
            outcomes['new'] += 1
        else:
            bad.append('kill at %d ms: a partial report (%d bytes)' % (ms, len(text)))
    tap(not bad, 'kill -9 at %d moments: the old report untouched (%d) or the complete new one (%d), never a '
        'partial one, never a stray file' % (len(delays), outcomes['old'], outcomes['new']), '\n'.join(bad))


def placement(d):
    """Where the report cannot be linked into place it is still written (fio writes these):
    a file bind-mounted on its own, a long name, a dangling symlink (the file it names is
    made, the link stays), a file under /dev/shm (truncated, not left with old bytes); a file
    the user may not write is refused with EACCES, as fio does, not replaced."""
    os.makedirs(d)
    job = ['--output-format=json', '--name=n', '--ioengine=null', '--size=64k']

    def run(out, pre=None, cwd=d):
        cmd = [BIN, '--output=' + out] + job
        return subprocess.run(pre + cmd if pre else cmd, cwd=cwd, capture_output=True, text=True)
    results = []
    with open(os.path.join(d, 'src.json'), 'w') as f:
        f.write('old\n')
    open(os.path.join(d, 'bound.json'), 'w').close()
    if os.geteuid() == 0 and subprocess.run(['unshare', '-m', 'true']).returncode == 0:
        p = subprocess.run(['unshare', '-m', '--propagation', 'private', 'sh', '-c',
                            'mount --bind src.json bound.json && exec "$@"', 'sh', BIN, '--output=bound.json'] + job,
                           cwd=d, capture_output=True, text=True)
        results.append(('a file bind-mounted on its own (a container\'s -v FILE:FILE)',
                        p.returncode == 0 and valid_json(os.path.join(d, 'src.json')), p.stderr))
    long = 'r' * 240 + '.json'
    p1, p2 = run(long), run(long)
    results.append(('a 245-character name, written twice', p2.returncode == 0 and valid_json(os.path.join(d, long)),
                    p1.stderr + p2.stderr))
    os.makedirs(os.path.join(d, 'real'))
    os.symlink('real/target.json', os.path.join(d, 'dangling'))
    p = run('dangling')
    results.append(('a dangling symlink: the file it names is made, the link stays',
                    p.returncode == 0 and os.path.islink(os.path.join(d, 'dangling'))
                    and valid_json(os.path.join(d, 'real', 'target.json')), p.stderr))
    if os.path.isdir('/dev/shm'):
        shm = '/dev/shm/iobench-test-%d.json' % os.getpid()
        with open(shm, 'w') as f:
            f.write('x' * 200000)
        p = run(shm)
        results.append(('a file under /dev/shm: replaced whole, no old bytes after the report',
                        p.returncode == 0 and valid_json(shm), p.stderr))
        os.unlink(shm)
    if os.geteuid() == 0 and subprocess.run(['setpriv', '--help'], capture_output=True).returncode == 0:
        ro = os.path.join(d, 'nb')
        os.makedirs(ro)
        os.chmod(ro, 0o777)
        with open(os.path.join(ro, 'ro.json'), 'w') as f:
            f.write('old\n')
        os.chmod(os.path.join(ro, 'ro.json'), 0o444)
        p = run(os.path.join(ro, 'ro.json'), ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'])
        results.append(('a file the user may not write (0444, as nobody): refused with EACCES, kept',
                        p.returncode == 1 and 'Permission denied' in p.stderr
                        and open(os.path.join(ro, 'ro.json')).read() == 'old\n', p.stderr))
    for what, ok, err in results:
        tap(bool(ok), '--output on ' + what, err)
    left = [n for n in os.listdir(d) if 'iobench-' in n]
    tap(not left, '... and no temporary file is left in any of them', left)


hup(os.path.join(WORK, 'hup'))
placement(os.path.join(WORK, 'placement'))
nohup(os.path.join(WORK, 'nohup'))
nohup_children(os.path.join(WORK, 'nohup-children'))
kill9(os.path.join(WORK, 'kill9'))
sys.exit(1 if FAILED else 0)
