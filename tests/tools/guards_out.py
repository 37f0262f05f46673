#!/usr/bin/env python3
"""Every file iobench writes goes through one door (issue 24): pointed at a mounted loop
device (directly, through a symlink, or under the name a log or state file takes), each
output is refused in one line naming the path and the mount, exit 1, and the device is
unchanged; the backing file of the mounted loop device is refused the same way, as an
output and as a job's data file; allow_mounted_write=1 lets them through. Every option row
marked "output" in --dump-options=tsv must have a case here.

Run as root inside a private mount namespace (unshare -m): it makes, mounts and removes its
own loop device. Usage: guards_out.py BIN WORKDIR. Prints TAP lines.
"""
import hashlib
import json
import os
import re
import subprocess
import sys

BIN, WORK = sys.argv[1], sys.argv[2]
NULL = ['--name=n', '--ioengine=null', '--size=64k']
FILEJOB = ['--name=j', '--filename=data', '--size=64k', '--bs=4k']
FAILED = 0


def tap(ok, what, detail=''):
    global FAILED
    print('%s - %s' % ('ok' if ok else 'not ok', what))
    if not ok:
        FAILED += 1
        for ln in detail.strip().split('\n')[-6:]:
            print('#   ' + ln)


def sh(*a):
    return subprocess.run(a, capture_output=True, text=True)


def md5(path):
    h = hashlib.md5()
    with open(path, 'rb') as f:
        for b in iter(lambda: f.read(1 << 20), b''):
            h.update(b)
    return h.hexdigest()


def make_json(path):
    doc = {'fio version': 'fio-3.33', 'timestamp': 1, 'time': 'x', 'global options': {},
           'jobs': [{'jobname': 'a', 'groupid': 0, 'error': 0, 'job options': {},
                     'read': {'io_bytes': 4096, 'bw': 1, 'iops': 1.0, 'runtime': 1, 'total_ios': 1,
                              'clat_ns': {'min': 1, 'max': 1, 'mean': 1.0, 'stddev': 0.0, 'N': 1,
                                          'bins': {'1000': 1}},
                              'lat_ns': {'min': 1, 'max': 1, 'mean': 1.0, 'stddev': 0.0, 'N': 1}}}]}
    with open(path, 'w') as f:
        json.dump(doc, f)


def main():
    os.chdir(WORK)
    with open('img', 'wb') as f:
        f.truncate(32 << 20)
    loop = sh('losetup', '-f', '--show', 'img').stdout.strip()
    if not loop:
        print('ok - outputs on a mounted loop device # SKIP no free loop device')
        return 0
    try:
        return cases(loop)
    finally:
        sh('umount', os.path.join(WORK, 'mnt'))
        sh('losetup', '-d', loop)


def cases(loop):
    mnt = os.path.join(WORK, 'mnt')
    os.mkdir(mnt)
    sh('mkfs.ext4', '-q', loop)
    if sh('mount', '-o', 'ro,noload', loop, mnt).returncode:
        print('ok - outputs on a mounted loop device # SKIP cannot mount the loop device')
        return 0
    before = md5(loop)
    with open('data', 'wb') as f:
        f.write(os.urandom(65536))
    with open('bad', 'wb') as f:
        f.write(os.urandom(65536))  # no verify header: verify_only fails, verify_dump dumps
    make_json('a.json')
    make_json('b.json')
    img = os.path.join(WORK, 'img')
    # (what, argv, names made symlinks to the device, option rows covered)
    table = [
        ('--output on the device', ['--output=' + loop] + NULL, [], []),
        ('--output through a symlink', ['--output=out.json', '--output-format=json'] + NULL, ['out.json'], []),
        ('--output=page.html (the HTML page)', ['--output=page.html'] + NULL, ['page.html'], []),
        ('--output-format=csv', ['--output=rows.csv', '--output-format=csv'] + NULL, ['rows.csv'], []),
        ('--output-format=terse', ['--output=t.txt', '--output-format=terse'] + NULL, ['t.txt'], []),
        ('--plot', ['--plot=' + loop] + NULL, [], []),
        ('--bandwidth-log', ['--bandwidth-log'] + NULL, ['agg-read_bw.log'], []),
        ('--merge --output', ['--output=' + loop, '--merge', 'a.json', 'b.json'], [], []),
        ('--compare --output', ['--compare', 'a.json', 'b.json', '--output=' + loop], [], []),
        ('--daemonize=PIDFILE', ['--daemonize=' + loop, '--output=d.json'] + NULL, [], []),
        ('write_iolog', ['--write_iolog=' + loop] + FILEJOB, [], ['write_iolog']),
        ('write_bw_log', ['--write_bw_log=p'] + FILEJOB, ['p_bw.1.log'], ['write_bw_log']),
        ('write_iops_log', ['--write_iops_log=p'] + FILEJOB, ['p_iops.1.log'], ['write_iops_log']),
        ('write_lat_log', ['--write_lat_log=p'] + FILEJOB, ['p_slat.1.log', 'p_clat.1.log', 'p_lat.1.log'],
         ['write_lat_log']),
        ('write_hist_log', ['--write_hist_log=p'] + FILEJOB, ['p_clat_hist.1.log'], ['write_hist_log']),
        ('verify_state_save', ['--rw=write', '--verify=md5', '--verify_state_save=1'] + FILEJOB,
         ['local-j-0-verify.state'], ['verify_state_save']),
        ('verify_dump', ['--rw=read', '--verify=md5', '--verify_only=1', '--verify_dump=1'] + FILEJOB +
         ['--filename=bad'], ['bad.0.received'], ['verify_dump']),
        ('merge_blktrace_file', ['--read_iolog=ta.bin:tb.bin', '--merge_blktrace_file=' + loop,
                                 '--merge-blktrace-only', '--name=m'], [], ['merge_blktrace_file']),
        ('exec_prerun', ['--exec_prerun=true'] + FILEJOB, ['j.prerun.txt'], ['exec_prerun']),
        ('exec_postrun', ['--exec_postrun=true'] + FILEJOB, ['j.postrun.txt'], ['exec_postrun']),
        ('ioengine=exec std_redirect', ['--name=e', '--ioengine=exec', '--program=true', '--runtime=1',
                                        '--time_based'], ['e.stdout'], ['std_redirect']),
        ('ioengine=e4defrag donorname', ['--ioengine=e4defrag', '--rw=write', '--donorname=' + loop,
                                         '--directory=' + WORK] + FILEJOB, [], ['donorname']),
        ('--output on the backing file of the mounted loop device', ['--output=' + img] + NULL, [], []),
        ('a write job on the backing file of the mounted loop device', ['--name=b', '--filename=' + img,
                                                                         '--rw=write', '--size=64k'], [], []),
        ('a read job growing the backing file of the mounted loop device', ['--name=b', '--filename=' + img,
                                                                             '--rw=read', '--size=40m'], [], []),
    ]
    blktrace_files()
    covered = set()
    for what, argv, links, rows in table:
        for n in links:
            if os.path.lexists(n):
                os.unlink(n)
            os.symlink(loop, n)
        covered.update(rows)
        p = subprocess.run([BIN] + argv, capture_output=True, text=True, timeout=60)
        err = p.stderr.strip()
        target = img if 'backing' in what else loop
        lines = [ln for ln in err.split('\n') if ln and 'note:' not in ln]
        named = [ln for ln in lines if 'mounted on ' + mnt in ln]
        ok = p.returncode != 0 and named and len(lines) <= 2 and (
            target in named[0] or any(n in named[0] for n in links))
        if any(r.startswith('write_') and r.endswith('_log') for r in rows) and p.stdout:
            ok = False  # a log is refused before the run: no results printed
            err += '\n(the job ran before the log was refused)'
        tap(ok, '%s on a mounted device: refused (exit %d) in one line naming the path and the mount' %
            (what, p.returncode), 'stderr: ' + err)
        for n in links:
            os.unlink(n)
    tap(md5(loop) == before, 'the mounted device is unchanged after all %d cases' % len(table))
    # allow_mounted_write=1 lets an output through (on the backing file: a loop device
    # mounted read-only does not notice a change under it).
    with open('junk.img', 'wb') as f:
        f.truncate(1 << 20)
    p = subprocess.run([BIN, '--output=' + img, '--output-format=json', '--allow_mounted_write=1'] + NULL,
                       capture_output=True, text=True)
    with open(img, 'rb') as f:
        head = f.read(1)
    tap(p.returncode == 0 and head == b'{', '--allow_mounted_write=1: the same --output is written (exit %d)'
        % p.returncode, p.stderr)
    # Every option that writes a file has a case above.
    tsv = subprocess.run([BIN, '--dump-options=tsv'], capture_output=True, text=True).stdout.split('\n')
    outs = {ln.split('\t')[1] for ln in tsv[1:] if ln and 'output' in ln.split('\t')[5]}
    missing = sorted(outs - covered)
    tap(not missing and len(outs) >= 10, 'each of the %d option rows marked "output" has a case%s'
        % (len(outs), ': missing ' + ', '.join(missing) if missing else ''))
    return 1 if FAILED else 0


def blktrace_files():
    import struct
    magic, q, r, w = 0x65617407, 16, 1, 2

    def ev(t, sector, nbytes, cat):
        return struct.pack('<IIQQIIIIIHH', magic, 0, t, sector, nbytes, (cat << 16) | 1, 1234, 8 << 20, 0, 0, 0)
    with open('ta.bin', 'wb') as f:
        f.write(ev(1000000, 0, 4096, q | w) + ev(3000000, 8, 4096, q | w))
    with open('tb.bin', 'wb') as f:
        f.write(ev(5000000, 100, 512, q | r))


if __name__ == '__main__':
    sys.exit(main())
