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


hup(os.path.join(WORK, 'hup'))
nohup(os.path.join(WORK, 'nohup'))
kill9(os.path.join(WORK, 'kill9'))
sys.exit(1 if FAILED else 0)
