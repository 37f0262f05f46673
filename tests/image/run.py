#!/usr/bin/python3
"""`make test-image`: the Dockerfile's two stages without a container runtime (this machine
has none). The build stage: a Debian 12 root from debootstrap (minbase, with the deb822
sources file the debian:bookworm image has), the repository's tracked files at the COPY
destination (git archive), then each RUN line in order, in the WORKDIR then in force. The
final stage: an empty root holding only what its COPY --from=build lines copy, and the
ENTRYPOINT run in it as the USER, in the WORKDIR, on a small job. Prints TAP lines and a
summary; cleans up its mounts and folders."""
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
results = []


def tap(ok, desc, why=''):
    results.append(ok)
    print('%s - %s' % ('ok' if ok else 'not ok', desc))
    if not ok and why:
        print('\n'.join('#   ' + l for l in str(why).splitlines()[-20:]))
    return ok


def stages(path):
    """[(from, [(instruction, argument)])] with continuation lines joined."""
    out, cur = [], ''
    for raw in open(path):
        line = raw.rstrip('\n')
        if not cur and (not line.strip() or line.lstrip().startswith('#')):
            continue
        if line.endswith('\\'):
            cur += line[:-1] + ' '
            continue
        cur += line
        ins, _, arg = cur.strip().partition(' ')
        cur = ''
        if ins.upper() == 'FROM':
            out.append((arg.split()[0], []))
        else:
            out[-1][1].append((ins.upper(), arg.strip()))
    return out


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def main():
    if os.getuid() != 0:
        sys.exit('test-image: needs root (debootstrap, chroot, mounts)')
    st = stages(os.path.join(TOP, 'Dockerfile'))
    tmp = tempfile.mkdtemp(prefix='iobench-image.', dir='/var/tmp')
    root, img = os.path.join(tmp, 'build'), os.path.join(tmp, 'image')
    mounts = []
    try:
        r = sh(['debootstrap', '--variant=minbase', 'bookworm', root, 'http://deb.debian.org/debian'])
        if not tap(r.returncode == 0, 'debootstrap: a Debian 12 root for the build stage', r.stderr):
            return
        # the root keeps debootstrap's one-line sources.list: the Dockerfile works with either kind
        shutil.copy('/etc/resolv.conf', os.path.join(root, 'etc/resolv.conf'))
        for what, args in (('proc', ['-t', 'proc', 'proc']), ('dev', ['--rbind', '/dev'])):
            sh(['mount'] + args + [os.path.join(root, what)])
            mounts.append(os.path.join(root, what))
        workdir = '/'
        for ins, arg in st[0][1]:
            if ins == 'WORKDIR':
                workdir = arg
                os.makedirs(root + arg, exist_ok=True)
            elif ins == 'COPY':
                dest = os.path.join(workdir, arg.split()[-1])
                os.makedirs(root + dest, exist_ok=True)
                git = subprocess.Popen(['git', '-C', TOP, 'archive', 'HEAD'], stdout=subprocess.PIPE)
                subprocess.run(['tar', '-x', '-C', root + dest], stdin=git.stdout, check=True)
                git.wait()
            elif ins == 'RUN':
                r = sh(['chroot', root, 'sh', '-c', 'cd %s && %s' % (shlex.quote(workdir), arg)])
                if not tap(r.returncode == 0, 'build stage: RUN %s' % (arg[:60] + ('...' if len(arg) > 60 else '')),
                           r.stdout + r.stderr):
                    return
        # The final stage: only what COPY --from=build brings.
        os.makedirs(img)
        os.chmod(img, 0o755)
        user, workdir, entry = None, '/', None
        for ins, arg in st[1][1]:
            words = arg.split()
            if ins == 'COPY':
                chown = next((w.split('=', 1)[1] for w in words if w.startswith('--chown=')), None)
                src, dst = words[-2], words[-1]
                if src.endswith('/'):
                    shutil.copytree(root + src, img + dst, dirs_exist_ok=True)
                else:
                    os.makedirs(os.path.dirname(img + dst), exist_ok=True)
                    shutil.copy2(root + src, img + dst)
                if chown:
                    sh(['chown', '-R', chown, img + dst.rstrip('/')])
            elif ins == 'USER':
                user = arg
            elif ins == 'WORKDIR':
                workdir = arg
            elif ins == 'ENTRYPOINT':
                entry = json.loads(arg)
        files = sorted(os.path.relpath(os.path.join(d, f), img) for d, _, fs in os.walk(img) for f in fs)
        tap(files and files[0] == 'bin/iobench' and all(f.startswith('jobs/') for f in files[1:]),
            'final stage: only /bin/iobench and /jobs/*.fio (%d files)' % len(files), files)
        wd = img + workdir
        tap(os.path.isdir(wd) and not os.listdir(wd) and '%d:%d' % (os.stat(wd).st_uid, os.stat(wd).st_gid) == user,
            'the WORKDIR %s is empty and owned by %s' % (workdir, user))
        r = sh(['file', img + '/bin/iobench'])
        tap('statically linked' in r.stdout, 'the binary is statically linked', r.stdout)
        job = ['--name=img', '--size=8m', '--bs=64k', '--rw=write', '--verify=crc32c', '--output-format=json']
        # chroot starts in /: the WORKDIR is where the job's files go, as docker run would.
        r = sh(['chroot', '--userspec=' + user, img] + entry + ['--directory=' + workdir] + job)
        ok = r.returncode == 0 and not r.stderr
        doc = json.loads(r.stdout) if ok else {}
        tap(ok and doc['jobs'][0]['write']['io_bytes'] == 8 << 20 and os.path.exists(img + workdir + '/img.0.0')
            and os.stat(img + workdir + '/img.0.0').st_uid == int(user.split(':')[0]),
            'the ENTRYPOINT runs as %s in %s: 8 MiB written and verified, JSON on stdout' % (user, workdir),
            r.stdout[-500:] + r.stderr)
    finally:
        for m in reversed(mounts):
            sh(['umount', '-R', m])
        if not any(os.path.ismount(m) for m in mounts):
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print('# left %s: still mounted' % tmp)
    print('%d passed, %d failed' % (sum(results), len(results) - sum(results)))
    sys.exit(0 if all(results) else 1)


if __name__ == '__main__':
    main()
