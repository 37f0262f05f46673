"""The hostile-input table of issue 14, read by tests/hostile/run.py.

A case is a dict (made by case() below):
  id, cls, desc   unique id; one of run.CLASSES; what it does, why, and fio 3.33's behaviour
                  where fio is the reference for the result
  argv            the command; 'iobench' first means the ASan+UBSan build. Placeholders,
                  also in file contents: {S} the case's scratch dir (the cwd), {O} a directory
                  outside it whose files must never change, {A} the harness's own files,
                  {BIN} the binary, {LOOP} etc. what a fixture made, {SECCOMP_DENY} a helper.
                  Elements may be bytes (invalid UTF-8 in arguments).
  setup           fixtures, in order (see run.py: file, dir, fifo, node, symlink, loop,
                  tmpfs, gen)
  stdin           bytes, str, or a function of the context returning bytes
  redirect        a shell redirection of the command: '>&-', '>/dev/full'
  stdout_pipe     stdout is a pipe; the harness reads N bytes, then closes it (0: at once)
  signals         [(SIG, ms[, count, gap_ms])...] from the start (or from ready_file), and
                  ('truncate', ms, path, size) actions
  exit            the exit status (an int or a tuple of them; 'nonzero'); default 1
  err, err_lines  a regex stderr must match (re.M) and its maximal line count (default 1
                  when err is given); err_max_bytes (default 4096)
  stdout          'empty' (default), 'json', 'json-or-empty', 'nonempty' or 'any';
                  out_re a regex it must match; json_check(doc) -> None or why
  check           check(ctx) -> None or why, after the run (ctx.S, ctx.O, ctx.stdout...)
  ro              the scratch dir must be unchanged too (nothing created, grown, removed)
  timeout         seconds before it is killed (default 20); max_time, stop_within (seconds
                  from the last signal to the exit)
  needs           'root', a tool name, or 'tool:NAME' for a helper built by the harness
  env, exclusive (runs alone, after the others), cost (long cases start first),
  max_rss_mb      memory past which it is killed (default 2048)
Every case also checks: no crash, no sanitizer report, nothing changed under {O}, beside the
scratch dir or among the global sentinels, and protected devices unchanged.
"""
import json
import os
import signal as _signal
import subprocess
import sys

CASES = []


def case(id, cls, desc, argv, **kw):
    kw.update(id=id, cls=cls, desc=desc, argv=argv)
    CASES.append(kw)


def names(*parts):
    """A regex matching one line that holds every part (each a regex), in any order, ignoring
    case."""
    return '(?i)^' + ''.join('(?=.*(?:%s))' % p.replace('(?i)', '') for p in parts) + '.*$'


JSON = '--output-format=json'
NULL = ['--ioengine=null', '--size=1m']
# A 60 s run, to be signalled.
LONG = ['--name=long', '--ioengine=null', '--size=1g', '--rw=randread', '--time_based', '--runtime=60']
# One that takes ~50 ms to stop (each read is 256 MiB from /dev/zero): a second signal 20 ms
# after the first lands while it stops, every time, even on a loaded machine.
SLOW_STOP = ['--name=slow', '--filename=/dev/zero', '--rw=read', '--bs=256m', '--size=256m', '--time_based',
             '--runtime=60']
# These two are about the results surviving a second signal, not how soon it stops (s-int,
# s-term and the LONG cases hold that at 2.5 s): in clean-clone CI runs, with both lanes on
# two cores, a 256 MiB read took 3.9 s to stop once (74 ms here, under 200 ms beside three
# memory-bound dd's), so their budget is wider.
SLOW_STOP_BUDGET = dict(stop_within=6.0, timeout=10)
OLD = 1000000000  # an old mtime for fixtures: a rewrite with the same bytes still shows


def data(name='data', size=65536, **kw):
    return dict(file=name, size=size, mtime=OLD, **kw)


def short(name='short'):
    return data(name, 10000)


def err_is(n):
    def check(doc):
        e = doc['jobs'][0]['error']
        return None if e == n else '.jobs[0].error is %r, wanted %d' % (e, n)
    return check


def reject(c):
    raise ValueError(c)


def json_docs(raw):
    """Every JSON document in raw, one after the other; raises ValueError if any is bad."""
    text = raw.decode('utf-8')
    dec = json.JSONDecoder(parse_constant=reject)
    docs, i = [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            return docs
        doc, i = dec.raw_decode(text, i)
        docs.append(doc)


def at_least_docs(n):
    def check(ctx):
        try:
            d = json_docs(ctx.stdout)
        except ValueError as e:
            return 'stdout is not a sequence of valid JSON documents (%s)' % str(e)[:100]
        return None if len(d) >= n else 'stdout holds %d JSON documents, wanted at least %d' % (len(d), n)
    return check


def absent(*paths):
    def check(ctx):
        there = [p for p in paths if os.path.lexists(ctx.path(p))]
        return 'left behind: %s' % ', '.join(there) if there else None
    return check


def present(path, what=''):
    def check(ctx):
        return None if os.path.lexists(ctx.path(path)) else '%s was not created%s' % (path, what)
    return check


def lacks_text(path, text):
    def check(ctx):
        p = ctx.path(path)
        if not os.path.exists(p):
            return None
        with open(p, 'rb') as f:
            return '%s holds %r: the report went into it' % (path, text) if text in f.read() else None
    return check


def all_of(*checks):
    def check(ctx):
        for c in checks:
            why = c(ctx)
            if why:
                return why
        return None
    return check


def stopped(sig='INT', at=1000, **kw):
    """A run stopped by a signal: 128+N, the results on stdout, soon after the signal."""
    d = dict(signals=[(sig, at)], exit=128 + getattr(_signal, 'SIG' + sig), stdout='json',
             err_lines=4, stop_within=2.5, timeout=5)
    d.update(kw)
    return d


def loopfs(mount='mnt', size=64 << 20, **kw):
    """A small ext4 on a loop device, mounted read-write in the scratch dir."""
    return dict(loop='LOOP', size=size, mkfs='ext4', mount=mount, opts='rw', **kw)


def mounted_ro(ns=False, var='LOOP'):
    """An ext4 on a loop device, mounted ro,noload (the kernel never writes it) here or only
    inside another mount namespace; its contents are checksummed before and after."""
    return dict(loop=var, size=64 << 20, mkfs='ext4', mount='mnt', opts='ro,noload', ns=ns, protect=True)


# ====================================================================== 1. read-only
RO = 'readonly'
READ_ONLY = r'read-?only'
case('ro-extend-short', RO,
     '--readonly read of 64 KiB from a 10,000-byte file must not grow it (fio: "refusing extend of '
     'file due to read-only", exit 1)',
     ['iobench', '--readonly', '--name=r', '--rw=read', '--size=64k', '--filename=short', JSON],
     setup=[short()], err=names('short', READ_ONLY + '|extend|shorter|smaller'), stdout='json-or-empty', ro=True)
case('ro-extend-offset', RO, '--readonly: a region (offset 8k, size 8k) past the end of a 10,000-byte file',
     ['iobench', '--readonly', '--name=r', '--rw=read', '--offset=8k', '--size=8k', '--filename=short', JSON],
     setup=[short()], err=names('short'), stdout='json-or-empty', ro=True)
case('ro-extend-filesize', RO, '--readonly with filesize=64k on a 10,000-byte file',
     ['iobench', '--readonly', '--name=r', '--rw=read', '--filesize=64k', '--filename=short', JSON],
     setup=[short()], err=names('short'), stdout='json-or-empty', ro=True)
case('ro-extend-randread', RO, '--readonly randread past the end of a short file',
     ['iobench', '--readonly', '--name=r', '--rw=randread', '--size=64k', '--filename=short', JSON],
     setup=[short()], err=names('short'), stdout='json-or-empty', ro=True)
case('ro-extend-mmap', RO, '--readonly with the mmap engine must not extend the file to map it',
     ['iobench', '--readonly', '--name=r', '--rw=read', '--size=64k', '--filename=short', '--ioengine=mmap', JSON],
     setup=[short()], err=names('short'), stdout='json-or-empty', ro=True)
case('ro-extend-jobfile', RO, 'readonly=1 in a job file: the same refusal, named with file:line',
     ['iobench', '{O}/r.fio', JSON],
     setup=[short(), dict(file='{O}/r.fio', content='[r]\nreadonly=1\nrw=read\nsize=64k\nfilename={S}/short\n')],
     err=names('short'), stdout='json-or-empty', ro=True)
case('ro-missing', RO, '--readonly read of a file that does not exist: nothing created',
     ['iobench', '--readonly', '--name=r', '--rw=read', '--size=64k', '--filename=missing', JSON],
     err=names('missing'), stdout='json-or-empty', ro=True)
case('ro-missing-nrfiles', RO, '--readonly, nrfiles=2 in the scratch dir: no r.0.0/r.0.1 created',
     ['iobench', '--readonly', '--name=r', '--rw=read', '--nrfiles=2', '--size=64k', '--directory={S}', JSON],
     err=names(READ_ONLY + '|exist'), stdout='json-or-empty', ro=True)
case('ro-missing-dir', RO, '--readonly with a directory that does not exist: no directory made',
     ['iobench', '--readonly', '--name=r', '--rw=read', '--size=64k', '--directory=sub', JSON],
     err=names(READ_ONLY + '|exist'), stdout='json-or-empty', ro=True)
case('ro-create-on-open', RO, '--readonly with create_on_open=1: nothing created',
     ['iobench', '--readonly', '--name=r', '--rw=read', '--size=64k', '--filename=missing', '--create_on_open=1', JSON],
     err=names('missing'), stdout='json-or-empty', ro=True)
case('ro-unlink', RO, '--readonly with unlink=1: refused (fio unlinks the file), the file stays',
     ['iobench', '--readonly', '--name=r', '--rw=read', '--size=64k', '--filename=data', '--unlink=1', JSON],
     setup=[data()], err=names('unlink'), ro=True)
for rw in ('write', 'randwrite', 'rw', 'randrw', 'trim', 'trimwrite'):
    case('ro-rw-' + rw, RO, '--readonly with rw=%s is refused before anything is opened' % rw,
         ['iobench', '--readonly', '--name=w', '--rw=' + rw, '--size=64k', '--filename=data', JSON],
         setup=[data()], err=names("'w'", READ_ONLY + '|trim'), ro=True)
case('ro-rw-jobfile', RO, '--readonly with a job file whose second job writes: refused, nothing run',
     ['iobench', '--readonly', '{O}/rw.fio'],
     setup=[data(), dict(file='{O}/rw.fio', content='[r]\nrw=read\nsize=64k\nfilename={S}/data\n'
                                                    '[w]\nrw=write\nsize=64k\nfilename={S}/data\n')],
     err=names("'w'|rw\\.fio:4", READ_ONLY), ro=True)
case('vo-missing', RO, 'verify_only on a missing file: exit 1, nothing created (iobench and fio create it today)',
     ['iobench', '--name=v', '--rw=read', '--verify_only=1', '--verify=crc32c', '--filename=missing', '--size=64k', JSON],
     err=names('missing'), stdout='json-or-empty', ro=True)
case('vo-short', RO, 'verify_only (rw=read) on a 10,000-byte file with size=64k: not extended',
     ['iobench', '--name=v', '--rw=read', '--verify_only=1', '--verify=crc32c', '--filename=short', '--size=64k', JSON],
     setup=[short()], err=names('short'), stdout='json-or-empty', ro=True)
case('vo-write-short', RO, 'verify_only with rw=write only verifies: the short file is not extended',
     ['iobench', '--name=v', '--rw=write', '--verify_only=1', '--verify=crc32c', '--filename=short', '--size=64k', JSON],
     setup=[short()], err=names('short'), stdout='json-or-empty', ro=True)
case('nocreate-missing', RO, 'allow_file_create=0 on a missing file: refused (fio: "file creation disallowed")',
     ['iobench', '--name=r', '--rw=read', '--size=64k', '--filename=missing', '--allow_file_create=0', JSON],
     err=names('missing'), stdout='json-or-empty', ro=True)
case('nocreate-extend', RO, 'allow_file_create=0 on a short file: not extended (fio 3.33 refuses: '
     '"file creation disallowed by allow_file_create=0")',
     ['iobench', '--name=r', '--rw=read', '--size=64k', '--filename=short', '--allow_file_create=0', JSON],
     setup=[short()], err=names('short|allow_file_create'), stdout='json-or-empty', ro=True)
ONLY_FILES = r'only (regular )?files|not a regular file|regular'
for fid, fx, target, what in (
        ('chardev', dict(node='cnull', dev=(1, 3)), 'cnull', 'a character device node (1:3, as /dev/null)'),
        ('blockdev', dict(node='blk', dev=(7, 0), type='b'), 'blk', 'a block device node (7:0, a loop device\'s)'),
        ('fifo', dict(fifo='ff'), 'ff', 'a FIFO'),
        ('dir', dict(dir='d1'), 'd1', 'a directory')):
    case('fdel-' + fid, RO, 'ioengine=filedelete on %s must be refused (fio: "only files are supported" for '
         'block devices; fio unlinks char devices)' % what,
         ['iobench', '--name=d', '--ioengine=filedelete', '--filename=' + target, '--nrfiles=1', '--filesize=4k', JSON],
         setup=[fx], err=names(target, ONLY_FILES + ('|directory' if fid == 'dir' else '')), stdout='json-or-empty',
         ro=True,
         needs=['root'] if 'node' in fx else [])
case('fdel-symlink-dev', RO, 'filedelete on a symlink to a device node: refused, link and node stay',
     ['iobench', '--name=d', '--ioengine=filedelete', '--filename=lnk', '--nrfiles=1', '--filesize=4k', JSON],
     setup=[dict(node='cnull', dev=(1, 3)), dict(symlink='lnk', to='cnull')], err=names('lnk', ONLY_FILES),
     stdout='json-or-empty', ro=True, needs=['root'])
case('fdel-loopdev', RO, 'filedelete on a node of a real (attached) loop device, as /dev/loopN (made in scratch: '
     'the harness never points a deleting engine at /dev)',
     ['iobench', '--name=d', '--ioengine=filedelete', '--filename=loopnode', '--nrfiles=1', '--filesize=4k', JSON],
     setup=[dict(loop='LOOP', size=8 << 20), dict(node='loopnode', dev='{LOOP}')], err=names('loopnode', ONLY_FILES),
     stdout='json-or-empty', ro=True)
case('fdel-readonly', RO, '--readonly with filedelete on a regular file: refused, the file stays',
     ['iobench', '--readonly', '--name=d', '--ioengine=filedelete', '--filename=f1', '--nrfiles=1', '--filesize=4k', JSON],
     setup=[data('f1', 4096)], err=names(READ_ONLY), ro=True)
case('fdel-readonly-dev', RO, '--readonly with filedelete on a device node: refused',
     ['iobench', '--readonly', '--name=d', '--ioengine=filedelete', '--filename=cnull', '--nrfiles=1', '--filesize=4k', JSON],
     setup=[dict(node='cnull', dev=(1, 3))], err=names(READ_ONLY + '|' + ONLY_FILES), ro=True, needs=['root'])
case('fcreate-readonly', RO, '--readonly with filecreate: refused, nothing created',
     ['iobench', '--readonly', '--name=c', '--ioengine=filecreate', '--filename=new1', '--nrfiles=1', '--filesize=4k', JSON],
     err=names(READ_ONLY), ro=True)
case('dcreate-readonly', RO, '--readonly with dircreate: refused, nothing created',
     ['iobench', '--readonly', '--name=c', '--ioengine=dircreate', '--filename=newd', '--nrfiles=1', '--filesize=4k', JSON],
     err=names(READ_ONLY), ro=True)
case('ddelete-readonly', RO, '--readonly with dirdelete: refused, the directory stays',
     ['iobench', '--readonly', '--name=c', '--ioengine=dirdelete', '--filename=d1', '--nrfiles=1', '--filesize=4k', JSON],
     setup=[dict(dir='d1')], err=names(READ_ONLY), ro=True)
case('unlink-chardev', RO, 'unlink=1 on a device node: refused (non-regular files are never unlinked)',
     ['iobench', '--name=w', '--rw=write', '--filename=cnull', '--size=64k', '--unlink=1', JSON],
     setup=[dict(node='cnull', dev=(1, 3))], err=names('cnull', 'unlink|' + ONLY_FILES), stdout='json-or-empty',
     ro=True, needs=['root'])
case('fstat-readonly-ok', RO, 'control: --readonly with filestat runs (exit 0) and changes nothing',
     ['iobench', '--readonly', '--name=s', '--ioengine=filestat', '--filename=f1', '--nrfiles=1', '--filesize=4k', JSON],
     setup=[data('f1', 4096)], exit=0, stdout='json', err_lines=0, ro=True)
case('ro-read-ok', RO, 'control: --readonly read of a whole 64 KiB file runs (exit 0) and changes nothing',
     ['iobench', '--readonly', '--name=r', '--rw=read', '--size=64k', '--filename=data', JSON],
     setup=[data()], exit=0, stdout='json', err_lines=0, ro=True)

# ====================================================================== 2. guards
G = 'guards'
MOUNTED = r'mounted|busy|in use'
case('g-mounted-write', G, 'a write job on a mounted loop device: refused, device unchanged',
     ['iobench', '--name=w', '--rw=write', '--bs=64k', '--size=1m', '--filename={LOOP}', JSON],
     setup=[mounted_ro()], err=names('{LOOP}', MOUNTED))
case('g-mounted-symlink', G, 'the same through a symlink in scratch, libaio randwrite',
     ['iobench', '--name=w', '--rw=randwrite', '--bs=4k', '--size=1m', '--filename=lnk', '--ioengine=libaio', JSON],
     setup=[mounted_ro(), dict(symlink='lnk', to='{LOOP}')], err=names(MOUNTED))
case('g-mounted-node', G, 'the same through a device node of the mounted device made in scratch (mknod)',
     ['iobench', '--name=w', '--rw=write', '--bs=64k', '--size=1m', '--filename=node', JSON],
     setup=[mounted_ro(), dict(node='node', dev='{LOOP}')], err=names(MOUNTED))
case('g-mounted-second', G, 'the mounted device as the second of two files (filename=a:dev)',
     ['iobench', '--name=w', '--rw=write', '--bs=64k', '--size=2m', '--filename={S}/plain:{LOOP}', JSON],
     setup=[mounted_ro()], err=names(MOUNTED), ro=True)
case('g-mounted-rw', G, 'a mixed rw job on a mounted device: refused',
     ['iobench', '--name=w', '--rw=randrw', '--bs=4k', '--size=1m', '--filename={LOOP}', JSON],
     setup=[mounted_ro()], err=names(MOUNTED))
case('g-ns-write', G, 'a write job on a loop device mounted ONLY in another mount namespace (as in a container): '
     'the mount table does not show it, an O_EXCL open fails with EBUSY; must be refused (fio misses it too)',
     ['iobench', '--name=w', '--rw=write', '--bs=64k', '--size=1m', '--filename={LOOP}', JSON],
     setup=[mounted_ro(ns=True)], err=names('{LOOP}', MOUNTED + '|EBUSY|exclusive'))
case('g-ns-symlink', G, 'the same through a symlink',
     ['iobench', '--name=w', '--rw=write', '--bs=64k', '--size=1m', '--filename=lnk', JSON],
     setup=[mounted_ro(ns=True), dict(symlink='lnk', to='{LOOP}')], err=names(MOUNTED + '|EBUSY|exclusive'))
case('g-ns-libaio-direct', G, 'the same with libaio, direct=1, iodepth=16',
     ['iobench', '--name=w', '--rw=randwrite', '--bs=4k', '--size=1m', '--filename={LOOP}', '--ioengine=libaio',
      '--direct=1', '--iodepth=16', JSON],
     setup=[mounted_ro(ns=True)], err=names(MOUNTED + '|EBUSY|exclusive'))
case('g-ns-verify', G, 'a write+verify job on the namespace-mounted device',
     ['iobench', '--name=w', '--rw=write', '--bs=64k', '--size=1m', '--filename={LOOP}', '--verify=crc32c', JSON],
     setup=[mounted_ro(ns=True)], err=names(MOUNTED + '|EBUSY|exclusive'))
case('g-ns-allow', G, 'allow_mounted_write=1 overrides the guard: the write runs (exit 0); 64 KiB at 48 MiB, '
     'away from the metadata of the read-only mounted ext4',
     ['iobench', '--name=w', '--rw=write', '--bs=64k', '--offset=48m', '--size=64k', '--filename={LOOP}',
      '--allow_mounted_write=1', JSON],
     setup=[dict(mounted_ro(ns=True), protect=False)], exit=0, stdout='json', err_lines=0)
case('g-ns-allow-readonly', G, '--readonly beats allow_mounted_write=1',
     ['iobench', '--readonly', '--name=w', '--rw=write', '--bs=64k', '--size=1m', '--filename={LOOP}',
      '--allow_mounted_write=1', JSON],
     setup=[mounted_ro(ns=True)], err=names(READ_ONLY))
case('g-ns-read-ok', G, 'control: a read job on the namespace-mounted device runs (exit 0)',
     ['iobench', '--name=r', '--rw=read', '--bs=64k', '--size=1m', '--filename={LOOP}', JSON],
     setup=[mounted_ro(ns=True)], exit=0, stdout='json', err_lines=0)
case('g-swap', G, 'a write job on a loop device in use as swap: refused',
     ['iobench', '--name=w', '--rw=write', '--bs=64k', '--offset=32m', '--size=64k', '--filename={LOOP}', JSON],
     setup=[dict(loop='LOOP', size=64 << 20, swap=True, protect=True)], err=r'(?i)swap', needs=['mkswap', 'swapon'])
case('g-unmounted-ok', G, 'control: an unmounted loop device can be written (exit 0)',
     ['iobench', '--name=w', '--rw=write', '--bs=64k', '--size=1m', '--filename={LOOP}', JSON],
     setup=[dict(loop='LOOP', size=8 << 20)], exit=0, stdout='json', err_lines=0)

# ====================================================================== 3. disk space
SP = 'space'
NO_ROOM = names("'r'", 'free|space|room', r'1099511627776|\b1(\.0+)? ?Ti?B?\b|\b1024(\.0+)? ?Gi?B|\b1t\b')
case('sp-offset-1t', SP, 'a read job at offset=1t on a 64 MiB ext4: refused before layout with the job, the size '
     'and the free space named; no file left (today it lays out until ENOSPC)',
     ['iobench', '--name=r', '--rw=read', '--offset=1t', '--size=4k', '--filename=mnt/f', JSON],
     setup=[loopfs()], err=names("'r'", 'free|space|room'), stdout='json-or-empty', ro=True)
case('sp-size-1t', SP, 'a read job of size=1t on a 64 MiB ext4: refused before layout, no file left',
     ['iobench', '--name=r', '--rw=read', '--size=1t', '--filename=mnt/f', JSON],
     setup=[loopfs()], err=NO_ROOM, stdout='json-or-empty', ro=True)
case('sp-filesize-1t', SP, 'filesize=1t for a read job on a 64 MiB ext4',
     ['iobench', '--name=r', '--rw=read', '--filesize=1t', '--nrfiles=1', '--directory=mnt', JSON],
     setup=[loopfs()], err=NO_ROOM, stdout='json-or-empty', ro=True)
case('sp-offinc-4e', SP, 'offset_increment=4e with numjobs=3: the third clone\'s offset (8e) is past INT64_MAX; '
     'refused, nothing laid out',
     ['iobench', '--name=r', '--rw=read', '--size=4k', '--offset_increment=4e', '--numjobs=3', '--filename=mnt/f', JSON],
     setup=[loopfs()], err=names('offset|free|space|large|big|overflow'), stdout='json-or-empty', ro=True)
case('sp-offinc-1t', SP, 'offset_increment=1t with numjobs=2 on a 64 MiB ext4: refused before layout',
     ['iobench', '--name=r', '--rw=read', '--size=4k', '--offset_increment=1t', '--numjobs=2', '--filename=mnt/f', JSON],
     setup=[loopfs()], err=names('free|space|room'), stdout='json-or-empty', ro=True)
case('sp-nrfiles', SP, '1000 files of 1 MiB for a read job on a 64 MiB ext4: refused before layout',
     ['iobench', '--name=r', '--rw=read', '--nrfiles=1000', '--filesize=1m', '--directory=mnt', JSON],
     setup=[loopfs()], err=names("'r'", 'free|space|room'), stdout='json-or-empty', ro=True)
case('sp-numjobs', SP, '16 clones laying out 16 MiB each (256 MiB) on a 64 MiB ext4: the sum counts',
     ['iobench', '--name=r', '--rw=read', '--size=16m', '--numjobs=16', '--directory=mnt', JSON],
     setup=[loopfs()], err=names("'r'", 'free|space|room'), stdout='json-or-empty', ro=True)
case('sp-beyond-maxfile', SP, 'a read job of 17 TiB: past ext4\'s 16 TiB file limit and the free space',
     ['iobench', '--name=r', '--rw=read', '--size=17t', '--filename=mnt/f', JSON],
     setup=[loopfs()], err=names("'r'", 'free|space|room|large|limit'), stdout='json-or-empty', ro=True)
case('sp-offset-overflow', SP, 'offset + size past INT64_MAX (offset=9223372036854775000, size=4k): refused',
     ['iobench', '--name=r', '--rw=read', '--offset=9223372036854775000', '--size=4k', '--filename=mnt/f', JSON],
     setup=[loopfs()], err=names('offset|size|free|space|large'), stdout='json-or-empty', ro=True)
case('sp-sigint-layout', SP, 'SIGINT 300 ms into a 1 TiB layout on a 256 MiB ext4: refused before, or stopped '
     'within 1.5 s with no file left',
     ['iobench', '--name=r', '--rw=read', '--size=1t', '--filename=mnt/f', JSON],
     setup=[loopfs(size=256 << 20)], signals=[('INT', 300)], exit=(1, 130), err=None, err_lines=3,
     stdout='json-or-empty', stop_within=1.5, must_signal=False, check=absent('mnt/f'), timeout=15)
case('sp-fits-ok', SP, 'control: a read job of 8 MiB on the 64 MiB ext4 is laid out and runs (exit 0)',
     ['iobench', '--name=r', '--rw=read', '--size=8m', '--filename=mnt/f', JSON],
     setup=[loopfs()], exit=0, stdout='json', err_lines=0, check=present('mnt/f'))

# ====================================================================== 4. interruptible waits
W = 'waits'
case('w-rate1-runtime', W, '--rate=1 --time_based --runtime=1 must end in about 1 s (today it never ends)',
     ['iobench', '--name=r', '--ioengine=null', '--size=1m', '--rate=1', '--time_based', '--runtime=1', JSON],
     exit=0, stdout='json', err_lines=0, max_time=4, timeout=6)
case('w-rate1-sigint', W, '--rate=1 with a long runtime: SIGINT after 1 s ends it',
     ['iobench', '--name=r', '--ioengine=null', '--size=1m', '--rate=1', '--time_based', '--runtime=100', JSON],
     **stopped())
case('w-rate-iops1-sigint', W, '--rate_iops=1 with bs=1m: SIGINT after 1 s ends it',
     ['iobench', '--name=r', '--ioengine=null', '--size=1g', '--bs=1m', '--rate_iops=1', '--time_based',
      '--runtime=100', JSON], **stopped())
case('w-rate-poisson', W, 'rate_process=poisson at 1 IOPS: SIGINT after 1 s ends it',
     ['iobench', '--name=r', '--ioengine=null', '--size=1g', '--rate_iops=1', '--rate_process=poisson',
      '--time_based', '--runtime=100', JSON], **stopped())
case('w-thinktime', W, 'thinktime=100s: SIGINT after 1 s ends it within ~2 s',
     ['iobench', '--name=r', '--ioengine=null', '--size=1m', '--thinktime=100s', JSON], **stopped())
case('w-thinktime-runtime', W, 'thinktime=100s with runtime=1: the runtime ends the think (exit 0 in ~1 s)',
     ['iobench', '--name=r', '--ioengine=null', '--size=1m', '--thinktime=100s', '--runtime=1', '--time_based', JSON],
     exit=0, stdout='json', err_lines=0, max_time=4, timeout=6)
case('w-thinktime-term', W, 'thinktime=100s, SIGTERM after 1 s: exit 143 with results',
     ['iobench', '--name=r', '--ioengine=null', '--size=1m', '--thinktime=100s', JSON], **stopped('TERM'))
case('w-startdelay', W, 'startdelay=100: SIGINT after 1 s ends it',
     ['iobench', '--name=r', '--ioengine=null', '--size=1m', '--startdelay=100', JSON], **stopped())
case('w-startdelay-range', W, 'startdelay=100-200 (a random delay): SIGINT after 1 s ends it',
     ['iobench', '--name=r', '--ioengine=null', '--size=1m', '--startdelay=100-200', JSON], **stopped())
case('w-waitfor', W, 'job b waits for job a, which runs 100 s at 1 B/s: SIGINT after 1 s ends both',
     ['iobench', '--name=a', '--ioengine=null', '--size=1m', '--rate=1', '--time_based', '--runtime=100',
      '--name=b', '--ioengine=null', '--size=1m', '--wait_for=a', JSON], **stopped())
case('w-fifo-read', W, 'a read job whose file is a FIFO nobody writes (the open would block): refused at once '
     '(a FIFO has no offsets), or ended by SIGINT after 1 s',
     ['iobench', '--name=r', '--rw=read', '--size=4k', '--filename=ff', JSON],
     setup=[dict(fifo='ff')], **stopped(exit=(1, 130), stdout='json-or-empty', must_signal=False))
case('w-fifo-write', W, 'a write job whose file is a FIFO nobody reads: refused at once, or ended by SIGINT '
     'after 1 s if it waits for a reader',
     ['iobench', '--name=w', '--rw=write', '--size=4k', '--filename=ff', JSON],
     setup=[dict(fifo='ff')], **stopped(exit=(1, 130), stdout='json-or-empty', must_signal=False))
case('w-status-interval', W, '--status-interval=1000s: SIGINT after 1 s stops the run and the status thread',
     ['iobench', '--status-interval=1000s'] + LONG + [JSON], **stopped())
case('w-ramp', W, 'ramp_time=100s: SIGINT after 1 s ends it',
     ['iobench', '--name=r', '--ioengine=null', '--size=1g', '--ramp_time=100s', '--time_based', '--runtime=10', JSON],
     **stopped())
case('w-thinktime-blocks', W, 'thinktime=50s every block with iodepth 8 (libaio on a file): SIGINT after 1 s',
     ['iobench', '--name=r', '--rw=read', '--size=64k', '--filename=data', '--ioengine=libaio', '--iodepth=8',
      '--thinktime=50s', '--thinktime_blocks=1', JSON], setup=[data()], **stopped())

# ====================================================================== 5. signals
SG = 'signals'
case('s-term-twice', SG, 'SIGTERM twice 20 ms apart from the same sender (as timeout(1) does: the child, then '
     'its group) while the jobs stop: the results are still printed (exit 143, one valid JSON document)',
     ['iobench'] + SLOW_STOP + [JSON], **stopped('TERM', signals=[('TERM', 1000, 2, 20)], max_rss_mb=1536))
case('s-int-twice', SG, 'SIGINT twice 20 ms apart while the jobs stop: the results are still printed (exit 130)',
     ['iobench'] + SLOW_STOP + [JSON], **stopped('INT', signals=[('INT', 1000, 2, 20)], max_rss_mb=1536,
                                                  **SLOW_STOP_BUDGET))
case('s-term-then-int', SG, 'SIGTERM then SIGINT 20 ms later (a wrapper, then the terminal): results printed',
     ['iobench'] + SLOW_STOP + [JSON],
     **stopped('TERM', signals=[('TERM', 1000), ('INT', 1020)], exit=(130, 143), max_rss_mb=1536,
               **SLOW_STOP_BUDGET))
case('s-three-int', SG, 'three SIGINTs 20 ms apart: exit at once (within 1 s of the third), no crash',
     ['iobench'] + LONG + [JSON],
     signals=[('INT', 1000, 3, 20)], exit=130, stdout='any', err_lines=4, stop_within=1.0, timeout=6)
case('s-usr1', SG, 'SIGUSR1 prints the statistics so far on stdout (as fio, and as --status-interval does) and '
     'the run goes on to the end (fio: exit 0, two JSON documents)',
     ['iobench', '--name=r', '--ioengine=null', '--size=1g', '--time_based', '--runtime=3', JSON],
     signals=[('USR1', 1000)], exit=0, stdout='any', err_lines=2, check=at_least_docs(2), timeout=10)
case('s-usr1-twice', SG, 'SIGUSR1 twice, 500 ms apart: three reports, the run completes',
     ['iobench', '--name=r', '--ioengine=null', '--size=1g', '--time_based', '--runtime=3', JSON],
     signals=[('USR1', 800, 2, 500)], exit=0, stdout='any', err_lines=3, check=at_least_docs(3), timeout=10)
case('s-usr1-close', SG, 'SIGUSR1 twice, 50 ms apart (the first report still pending): three reports, not two',
     ['iobench', '--name=r', '--ioengine=null', '--size=1g', '--time_based', '--runtime=3', JSON],
     signals=[('USR1', 800, 2, 50)], exit=0, stdout='any', err_lines=3, check=at_least_docs(3), timeout=10)
case('s-usr1-late', SG, 'SIGUSR1 80 ms before the runtime ends (its report still pending when the workers stop): '
     'the report is printed, not dropped',
     ['iobench', '--name=r', '--ioengine=null', '--size=1g', '--time_based', '--runtime=3', JSON],
     signals=[('USR1', 2920)], exit=0, stdout='any', err_lines=2, check=at_least_docs(2), timeout=10,
     late_retry_ms=60)
case('s-usr1-normal', SG, 'SIGUSR1 with the normal format: the run still completes (exit 0, after ~3 s)',
     ['iobench', '--name=r', '--ioengine=null', '--size=1g', '--time_based', '--runtime=3'],
     signals=[('USR1', 1000)], exit=0, stdout='nonempty', err_lines=2, timeout=10)
case('s-usr2-int', SG, 'a stray SIGUSR2, then SIGINT: the stop path still works (exit 130 with results)',
     ['iobench'] + LONG + [JSON], **stopped('INT', signals=[('USR2', 700), ('INT', 1200)]))
case('s-usr2-alone', SG, 'a stray SIGUSR2 only: the run is not hung by it (ends by its runtime, or as 140)',
     ['iobench', '--name=r', '--ioengine=null', '--size=1g', '--time_based', '--runtime=3', JSON],
     signals=[('USR2', 1000)], exit=(0, 140), stdout='json-or-empty', err_lines=2, timeout=10)
case('s-hup', SG, 'SIGHUP (a closed terminal): fio dies with 129; no crash, no hang, valid output if any',
     ['iobench'] + LONG + [JSON], signals=[('HUP', 1000)], exit=129, stdout='json-or-empty', err_lines=4,
     stop_within=2.5, timeout=6)
case('s-quit', SG, 'SIGQUIT: fio 3.33 stops and prints its results (exit 0); iobench must not dump core',
     ['iobench'] + LONG + [JSON], signals=[('QUIT', 1000)], exit=(0, 131), stdout='json', err_lines=4,
     stop_within=2.5, timeout=6)
case('s-stray-harmless', SG, 'SIGWINCH, SIGCONT and SIGCHLD are ignored: the run completes (exit 0)',
     ['iobench', '--name=r', '--ioengine=null', '--size=1g', '--time_based', '--runtime=2', JSON],
     signals=[('WINCH', 500), ('CONT', 700), ('CHLD', 900)], exit=0, stdout='json', err_lines=0, timeout=10)
case('s-stop-cont-int', SG, 'SIGSTOP, SIGCONT, then SIGINT: exit 130 with results',
     ['iobench'] + LONG + [JSON], **stopped('INT', signals=[('STOP', 600), ('CONT', 900), ('INT', 1300)]))
case('s-int-early', SG, 'SIGINT 30 ms after the start (before or while the jobs start): no crash, exit 130',
     ['iobench'] + LONG + [JSON], signals=[('INT', 30)], exit=130, stdout='json-or-empty', err_lines=4,
     stop_within=2.5, timeout=6)
case('s-int-libaio-files', SG, 'SIGINT on 4 libaio clones with I/O in flight on files: exit 130, results',
     ['iobench', '--name=a', '--rw=randread', '--filename=data', '--ioengine=libaio', '--iodepth=16', '--numjobs=4',
      '--time_based', '--runtime=60', '--group_reporting', JSON], setup=[data(size=8 << 20)], **stopped())
case('s-int-status', SG, 'SIGINT while --status-interval=300ms reports: every document on stdout is valid',
     ['iobench', '--status-interval=300ms'] + LONG + [JSON],
     **stopped('INT', stdout='any', check=at_least_docs(2)))
case('s-pipe-closed', SG, 'stdout is a pipe closed before the report: exit non-zero, no crash, no hang',
     ['iobench', '--name=r', '--ioengine=null', '--size=64m', '--time_based', '--runtime=1', JSON], stdout_pipe=0,
     exit='nonzero', err_lines=2, stdout='any', timeout=6)  # 1 s: a 64 MiB null run ends before the harness closes
case('s-pipe-head', SG, '| head -c 1 on a 30 s run reporting every 500 ms: the run stops at the closed pipe '
     '(within ~3 s), exit non-zero, no crash',
     ['iobench', '--status-interval=500ms', '--name=r', '--ioengine=null', '--size=1g', '--time_based',
      '--runtime=30', JSON], stdout_pipe=1, exit='nonzero', err_lines=2, stdout='any', max_time=6, timeout=12)
case('s-pipe-head-normal', SG, '| head -c 1 with the normal format on a 30 s run with --status-interval=500ms',
     ['iobench', '--status-interval=500ms', '--name=r', '--ioengine=null', '--size=1g', '--time_based',
      '--runtime=30'], stdout_pipe=1, exit='nonzero', err_lines=2, stdout='any', max_time=6, timeout=12)
for n, (sig, fmt) in enumerate((('TERM', JSON), ('INT', JSON), ('TERM', '--output-format=json+'))):
    case('s-timeout-%d' % (n + 1), SG, 'timeout -s %s 2 iobench <60 s job> %s (yabs.sh does this): exit 124 and '
         'one valid JSON document (today lost in about a third of runs)' % (sig, fmt),
         ['timeout', '-s', sig, '2', '{BIN}'] + LONG + [fmt], exit=124, stdout='json', err_lines=4, timeout=6,
         needs=['timeout'])

# ====================================================================== 6. job-file and input limits
L = 'limits'


def include_chain(n):
    def gen(ctx):
        for i in range(n):
            with open(os.path.join(ctx.O, 'inc%d.fio' % i), 'w') as f:
                f.write('include inc%d.fio\n' % (i + 1) if i + 1 < n else 'bs=4k\n')
        with open(os.path.join(ctx.O, 'main.fio'), 'w') as f:
            f.write('[j]\nioengine=null\nsize=1m\ninclude inc0.fio\n')
    return gen


def big_jobfile(path, size):
    def gen(ctx):
        with open(ctx.path(path), 'w') as f:
            f.write('[j]\nioengine=null\nsize=1m\n')
            line = '# ' + 'x' * 1000 + '\n'
            for _ in range(size // len(line) + 1):
                f.write(line)
    return gen


def big_stdin(ctx):
    line = b'# ' + b'x' * 1000 + b'\n'
    return b'[j]\nioengine=null\nsize=1m\n' + line * ((17 << 20) // len(line) + 1)


case('l-include-depth', L, 'includes nested 20 deep: refused with file:line',
     ['iobench', '{O}/main.fio'], setup=[dict(gen=include_chain(20))], err=names(r'\.fio:\d+', 'deep|depth|nested'))
case('l-include-zero', L, '`include /dev/zero`: refused at once (today it reads without limit)',
     ['iobench', '{O}/z.fio'], setup=[dict(file='{O}/z.fio', content='[j]\nioengine=null\nsize=1m\ninclude /dev/zero\n')],
     err=names(r'z\.fio:4|/dev/zero'), timeout=10)
case('l-include-dir', L, '`include <directory>`: refused (today silently ignored)',
     ['iobench', '{O}/d.fio'], setup=[dict(dir='{O}/incdir'),
                                      dict(file='{O}/d.fio', content='[j]\nioengine=null\nsize=1m\ninclude incdir\n')],
     err=names(r'd\.fio:4|incdir'))
case('l-include-fifo', L, '`include <FIFO>` nobody writes: refused, never blocks',
     ['iobench', '{O}/f.fio'], setup=[dict(fifo='{O}/pipe'),
                                      dict(file='{O}/f.fio', content='[j]\nioengine=null\nsize=1m\ninclude pipe\n')],
     err=names(r'f\.fio:4|pipe'), timeout=5)
case('l-include-cycle', L, 'a includes b includes a: refused as a cycle',
     ['iobench', '{O}/a.fio'],
     setup=[dict(file='{O}/a.fio', content='[j]\nioengine=null\nsize=1m\ninclude b.inc\n'),
            dict(file='{O}/b.inc', content='include a.fio\n')],
     err=r'(?i)cycle|itself|nested')
case('l-include-self', L, 'a job file that includes itself',
     ['iobench', '{O}/s.fio'], setup=[dict(file='{O}/s.fio', content='[j]\nioengine=null\nsize=1m\ninclude s.fio\n')],
     err=r'(?i)cycle|itself|nested')
case('l-jobfile-17m', L, 'a 17 MiB job file (comments): refused as too large, naming the file',
     ['iobench', '{O}/huge.fio'], setup=[dict(gen=big_jobfile('{O}/huge.fio', 17 << 20))],
     err=names(r'huge\.fio', 'large|MiB|limit|too long|size'), timeout=20)
case('l-stdin-17m', L, 'a 17 MiB job file on stdin (iobench -): refused as too large',
     ['iobench', '-'], stdin=big_stdin, err=names('stdin', 'large|MiB|limit|too long|size'), timeout=20)
case('l-line-8193', L, 'an 8193-character line: refused with file:line',
     ['iobench', '{O}/long.fio'],
     setup=[dict(file='{O}/long.fio', content='[j]\nioengine=null\nsize=1m\ndescription=' + 'x' * 8181 + '\n')],
     err=names(r'long\.fio:4', 'long'))
case('l-nul-bytes', L, 'NUL bytes in a job file: refused with file:line',
     ['iobench', '{O}/nul.fio'], setup=[dict(file='{O}/nul.fio', content=b'[j]\nioengine=null\x00\nsize=1m\n')],
     err=names(r'nul\.fio:2'))
case('l-binary', L, 'random binary data as a job file',
     ['iobench', '{O}/bin.fio'], setup=[dict(file='{O}/bin.fio', content=bytes(range(256)) * 64, subst=False)],
     err=names(r'bin\.fio'))
case('l-binary-stdin', L, 'binary data on stdin (iobench -)',
     ['iobench', '-'], stdin=bytes(range(255, -1, -1)) * 64, err=r'stdin|binary')
case('l-waitfor-cycle', L, 'wait_for cycle a->b->a: refused at parse time (fio: "waitee job b unknown"; today '
     'it deadlocks)',
     ['iobench', '{O}/cyc.fio'], setup=[dict(file='{O}/cyc.fio', content='[a]\nioengine=null\nsize=1m\nwait_for=b\n'
                                                                       '[b]\nioengine=null\nsize=1m\nwait_for=a\n')],
     err=names('wait_for'), timeout=5)
case('l-waitfor-later-group', L, 'wait_for on a job of a later group (stonewall): refused at parse time (fio: '
     '"waitee job c unknown"; today it deadlocks)',
     ['iobench', '{O}/grp.fio'],
     setup=[dict(file='{O}/grp.fio', content='[a]\nioengine=null\nsize=1m\n[b]\nioengine=null\nsize=1m\nstonewall\n'
                                             'wait_for=c\n[c]\nioengine=null\nsize=1m\nstonewall\n')],
     err=names('wait_for'), timeout=5)
case('l-waitfor-self', L, 'wait_for on itself: refused (fio: "a job cannot wait for itself")',
     ['iobench', '--name=a', '--ioengine=null', '--size=1m', '--wait_for=a'], err=names('wait_for'))
case('l-waitfor-forward', L, 'wait_for on a later job of the same group: fio refuses any forward reference; '
     'iobench may run it (no cycle) or refuse it, but never hangs',
     ['iobench', '{O}/fwd.fio'],
     setup=[dict(file='{O}/fwd.fio', content='[a]\nioengine=null\nsize=1m\nwait_for=b\n[b]\nioengine=null\nsize=1m\n')],
     exit=(0, 1), stdout='any', err_lines=1, timeout=5)
case('l-expr-fpe', L, "--size='((-9223372036854775807-1)/-1)': refused (today SIGFPE / UBSan)",
     ['iobench', '--name=x', '--ioengine=null', '--size=((-9223372036854775807-1)/-1)'], err=names('size'))
case('l-expr-mod', L, "--size='((-9223372036854775807-1)%-1)': the same overflow through %",
     ['iobench', '--name=x', '--ioengine=null', '--size=((-9223372036854775807-1)%-1)'], err=names('size'))
case('l-expr-mul', L, 'an expression overflowing int64 by multiplication: refused',
     ['iobench', '--name=x', '--ioengine=null', '--size=(4611686018427387904*4)'], err=names('size'))
case('l-expr-jobfile', L, 'the INT64_MIN/-1 expression in a job file: refused with file:line',
     ['iobench', '{O}/e.fio'],
     setup=[dict(file='{O}/e.fio', content='[j]\nioengine=null\nsize=((-9223372036854775807-1)/-1)\n')],
     err=names(r'e\.fio:3', 'size'))
case('l-expr-deep', L, '60,000 nested parentheses: refused with one short line (no stack overflow, no echo)',
     ['iobench', '--name=x', '--ioengine=null', '--size=' + '(' * 60000 + '1' + ')' * 60000], err=names('size'))
case('l-expr-huge', L, 'a 120 KB expression (1+1+...): evaluated or refused, one short line, no crash',
     ['iobench', '--name=x', '--ioengine=null', '--size=(' + '+'.join(['1'] * 60000) + ')', '--parse-only'],
     exit=(0, 1), err=None, err_lines=1, stdout='any')
case('l-size-8e', L, 'size=8e (2^63, above INT64_MAX): refused (today a null job runs with it)',
     ['iobench', '--name=x', '--ioengine=null', '--size=8e'], err=names('size'), timeout=5)
case('l-size-2p63', L, 'size=9223372036854775808 (INT64_MAX + 1): refused',
     ['iobench', '--name=x', '--ioengine=null', '--size=9223372036854775808'], err=names('size'), timeout=5)
case('l-bs-empty', L, '--bs= (empty): refused naming bs (fio: "option bs requires an argument")',
     ['iobench', '--name=x', '--ioengine=null', '--size=1m', '--bs='], err=names('bs'))
case('l-output-format-200', L, '--output-format with 200 comma-separated "json": one JSON document, exit 0 (fio)',
     ['iobench', '--output-format=' + ','.join(['json'] * 200), '--name=x', '--ioengine=null', '--size=1m'],
     exit=0, stdout='json', err_lines=0)
case('l-output-format-210', L, '--output-format=json,normal,terse x 70: runs (exit 0)',
     ['iobench', '--output-format=' + ','.join(['json', 'normal', 'terse'] * 70), '--name=x', '--ioengine=null',
      '--size=1m'], exit=0, stdout='nonempty', err_lines=0)
case('l-filename-colon', L, r"filename=a\:b is one file named 'a:b' (fio 3.33 creates 'a:b')",
     ['iobench', '--name=x', '--rw=write', '--size=4k', '--filename=a\\:b', JSON],
     exit=0, stdout='json', err_lines=0, check=all_of(present('a:b'), absent('a\\', 'a', 'b')))
case('l-name-utf8', L, "--name=$'a\\xff': the JSON stays valid UTF-8 (fio 3.33 writes the raw byte)",
     ['iobench', b'--name=a\xff', '--ioengine=null', '--size=1m', JSON], exit=0, stdout='json', err_lines=0)
case('l-section-utf8', L, 'a job section [a\\xff\\xfe] in a job file: valid JSON',
     ['iobench', JSON, '{O}/u.fio'], setup=[dict(file='{O}/u.fio', content=b'[a\xff\xfe]\nioengine=null\nsize=1m\n')],
     exit=0, stdout='json', err_lines=0)
case('l-name-escapes', L, 'a name with a quote, a backslash and a tab: escaped in JSON',
     ['iobench', '--name=a"b\\c\td', '--ioengine=null', '--size=1m', JSON], exit=0, stdout='json', err_lines=0,
     json_check=lambda d: None if d['jobs'][0]['jobname'] == 'a"b\\c\td' else 'jobname is %r' % d['jobs'][0]['jobname'])
case('l-section-bracket', L, 'a section name holding "]" ([a]b]): refused or taken whole, never half',
     ['iobench', JSON, '{O}/br.fio'], setup=[dict(file='{O}/br.fio', content='[a]b]\nioengine=null\nsize=1m\n')],
     exit=(0, 1), stdout='json-or-empty', err_lines=1)
case('l-section-control', L, 'a section name with a control character: refused with file:line',
     ['iobench', '{O}/ct.fio'], setup=[dict(file='{O}/ct.fio', content=b'[a\x1bb]\nioengine=null\nsize=1m\n')],
     err=names(r'ct\.fio:1'))
case('l-section-long', L, 'a 5000-character section name: refused',
     ['iobench', '{O}/ln.fio'], setup=[dict(file='{O}/ln.fio', content='[' + 'n' * 5000 + ']\nioengine=null\n')],
     err=names(r'ln\.fio:1'))
case('l-numjobs-0', L, 'numjobs=0', ['iobench', '--name=x'] + NULL + ['--numjobs=0'], err=names('numjobs'))
case('l-numjobs-100000', L, 'numjobs=100000', ['iobench', '--name=x'] + NULL + ['--numjobs=100000'],
     err=names('numjobs'))
case('l-unknown-option', L, 'an unknown option', ['iobench', '--name=x'] + NULL + ['--frobnicate=1'],
     err=names('frobnicate'))
case('l-unknown-jobfile', L, 'an unknown option in a job file: file:line',
     ['iobench', '{O}/u.fio'], setup=[dict(file='{O}/u.fio', content='[j]\nioengine=null\nsize=1m\nfrobnicate=3\n')],
     err=names(r'u\.fio:4', 'frobnicate'))
LONGV = 'a' * 100000
case('l-value-100k', L, 'a 100 KB filename value: refused with one short line (today the message echoes 100 KB)',
     ['iobench', '--name=x', '--ioengine=null', '--size=1m', '--filename=' + LONGV], err=names('filename'))
case('l-option-100k', L, 'a 100 KB option name: refused with one short line',
     ['iobench', '--name=x'] + NULL + ['--' + LONGV + '=1'], err=r'(?i)unrecognized|unknown')
case('l-name-100k', L, 'a 100 KB job name: refused with one short line',
     ['iobench', '--name=' + LONGV] + NULL, err=names('name'))
case('l-bs-100k', L, 'a 100 KB number for bs: refused with one short line',
     ['iobench', '--name=x'] + NULL + ['--bs=' + '9' * 100000], err=names('bs'))
case('l-envvar-unset', L, '${VAR} unset in a job file: refused with file:line and the name',
     ['iobench', '{O}/env.fio'],
     setup=[dict(file='{O}/env.fio', content='[j]\nioengine=null\nsize=1m\nfilename=${HOSTILE_UNSET_VARIABLE}\n')],
     err=names(r'env\.fio:4', 'HOSTILE_UNSET_VARIABLE'))
case('l-empty-jobfile', L, 'an empty job file', ['iobench', '{O}/empty.fio'],
     setup=[dict(file='{O}/empty.fio', content='')], err=names(r'empty\.fio'))
case('l-jobfile-dir', L, 'a directory as the job file: refused naming it',
     ['iobench', '{O}/jd'], setup=[dict(dir='{O}/jd')], err=names('jd'))
case('l-jobfile-devzero', L, '/dev/zero as the job file: refused at once, bounded memory',
     ['iobench', '/dev/zero'], err=names('/dev/zero'), timeout=10)
# Negative and overflowing numbers for numeric options: refused, naming the option.
NUMERIC = ['size', 'filesize', 'io_size', 'offset', 'offset_increment', 'bs', 'iodepth', 'numjobs', 'nrfiles',
           'loops', 'number_ios', 'runtime', 'ramp_time', 'startdelay', 'thinktime', 'rate', 'rate_iops',
           'rwmixread', 'iodepth_batch_submit', 'randseed', 'thinktime_blocks', 'verify_interval']
for opt in NUMERIC:
    case('l-neg-' + opt, L, '%s=-1: refused naming the option' % opt,
         ['iobench', '--name=x', '--ioengine=null', '--size=1m', '--%s=-1' % opt], err=names(opt), timeout=5)
for opt in NUMERIC:
    case('l-big-' + opt, L, '%s=99999999999999999999 (past 64 bits): refused naming the option' % opt,
         ['iobench', '--name=x', '--ioengine=null', '--size=1m', '--%s=99999999999999999999' % opt],
         err=names(opt), timeout=5)

for opt in ('offset', 'filesize', 'io_size', 'offset_increment'):
    case('l-8e-' + opt, L, '%s=8e (2^63: no off_t holds it): refused naming the option (today accepted)' % opt,
         ['iobench', '--name=x', '--ioengine=null', '--size=1m', '--%s=8e' % opt], err=names(opt), timeout=5)


def terse_fields(n):
    def check(ctx):
        if ctx.rc != 0:
            return None
        bad = [l for l in ctx.stdout.decode('utf-8', 'replace').splitlines() if l.count(';') + 1 != n]
        return 'a terse line has %d fields, not %d: the name was not escaped' % (bad[0].count(';') + 1, n) if bad else None
    return check


case('l-name-semicolon-terse', L, "NEW: --name='a;b' with --minimal: the terse line must keep its 121 fields (fio "
     "3.33 and iobench print 122); escaped, or the name refused",
     ['iobench', '--name=a;b', '--ioengine=null', '--size=1m', '--minimal'], exit=(0, 1), err=None, err_lines=1,
     stdout='any', check=terse_fields(121))

# ====================================================================== 7. outputs written safely
OU = 'outputs'
PREV = '{"previous": "result", "kept": true}\n'
BADJOB = '[j]\nioengine=null\nsize=1m\nfrobnicate=3\n'
case('o-prev-json-badopt', OU, '--output=prev.json with an unknown option: prev.json untouched',
     ['iobench', '--output={O}/prev.json', '--name=x'] + NULL + ['--frobnicate=1'],
     setup=[dict(file='{O}/prev.json', content=PREV, mtime=OLD)], err=names('frobnicate'))
case('o-prev-json-badfile', OU, '--output=prev.json bad.fio (an unknown option in the job file): prev.json is '
     'not truncated although nothing ran',
     ['iobench', '--output={O}/prev.json', '{O}/bad.fio'],
     setup=[dict(file='{O}/prev.json', content=PREV, mtime=OLD), dict(file='{O}/bad.fio', content=BADJOB)],
     err=names(r'bad\.fio:4', 'frobnicate'))
case('o-prev-json-setup', OU, '--output=prev.json with a read job of a missing file and no size (refused in '
     'setup): prev.json untouched',
     ['iobench', '--output={O}/prev.json', '--name=r', '--rw=read', '--filename=missing', JSON],
     setup=[dict(file='{O}/prev.json', content=PREV, mtime=OLD)], err=names('missing'))
case('o-prev-svg', OU, '--plot=prev.svg bad.fio: prev.svg untouched',
     ['iobench', '--plot={O}/prev.svg', '{O}/bad.fio'],
     setup=[dict(file='{O}/prev.svg', content='<svg/>\n', mtime=OLD), dict(file='{O}/bad.fio', content=BADJOB)],
     err=names('frobnicate'))
case('o-prev-bwlog', OU, 'write_bw_log=prev with a bad job: the earlier prev_bw.1.log untouched',
     ['iobench', '{O}/badlog.fio'],
     setup=[dict(file='{O}/prev_bw.1.log', content='0, 1, 0, 4096, 0\n', mtime=OLD),
            dict(file='{O}/badlog.fio', content='[j]\nioengine=null\nsize=1m\nwrite_bw_log={O}/prev\nfrobnicate=3\n')],
     err=names('frobnicate'))
case('o-prev-bwlog-setup', OU, 'write_bw_log=prev with a job refused in setup (missing file): the log untouched',
     ['iobench', '--name=r', '--rw=read', '--filename=missing', '--write_bw_log={O}/prev'],
     setup=[dict(file='{O}/prev_bw.1.log', content='0, 1, 0, 4096, 0\n', mtime=OLD)], err=names('missing'))
case('o-prev-html', OU, '--output=page.html bad.fio: page.html untouched',
     ['iobench', '--output={O}/page.html', '{O}/bad.fio'],
     setup=[dict(file='{O}/page.html', content='<html>earlier</html>\n', mtime=OLD),
            dict(file='{O}/bad.fio', content=BADJOB)], err=names('frobnicate'))
case('o-prev-html-setup', OU, '--output=page.html with a job refused in setup: page.html untouched',
     ['iobench', '--output={O}/page.html', '--name=r', '--rw=read', '--filename=missing'],
     setup=[dict(file='{O}/page.html', content='<html>earlier</html>\n', mtime=OLD)], err=names('missing'))
case('o-output-is-data', OU, 'NEW: --output names the read job\'s own data file: refused; the data is not '
     'truncated (iobench and fio 3.33 both destroy it today)',
     ['iobench', '--name=r', '--rw=read', '--filename={O}/data', '--output={O}/data', JSON],
     setup=[data('{O}/data')], err=names('output|data'))
case('o-output-is-jobfile', OU, 'NEW: --output=job.fio job.fio: refused; the job file is not overwritten '
     '(iobench overwrites it with the report; fio truncates it before reading it)',
     ['iobench', '--output={O}/job.fio', '{O}/job.fio'],
     setup=[dict(file='{O}/job.fio', content='[j]\nioengine=null\nsize=1m\n', mtime=OLD)], err=names(r'output|job\.fio'))
STDOUT_FULL = names('stdout|standard output', 'No space left on device')
case('o-devfull-json', OU, '>/dev/full with JSON: exit 1, one line naming stdout and ENOSPC (today exit 0)',
     ['iobench', '--name=x'] + NULL + [JSON], redirect='>/dev/full', err=STDOUT_FULL, stdout='any')
case('o-devfull-normal', OU, '>/dev/full with the normal format',
     ['iobench', '--name=x'] + NULL, redirect='>/dev/full', err=STDOUT_FULL, stdout='any')
case('o-devfull-terse', OU, '>/dev/full with the terse format',
     ['iobench', '--name=x', '--minimal'] + NULL, redirect='>/dev/full', err=STDOUT_FULL, stdout='any')
case('o-devfull-compare', OU, '--compare with stdout on /dev/full',
     ['iobench', '--compare', '{O}/a.json', '{O}/a.json'], redirect='>/dev/full', err=STDOUT_FULL, stdout='any',
     setup=[dict(gen=lambda ctx: write_result(ctx, '{O}/a.json'))])
case('o-output-full', OU, '--output on a full tmpfs: exit 1, one line naming the path and ENOSPC',
     ['iobench', '--output=full/out.json', '--name=x'] + NULL + [JSON],
     setup=[dict(tmpfs='full', size='64k', fill=True)], err=names(r'out\.json', 'No space left on device'))
case('o-output-full-normal', OU, '--output on a full tmpfs, the normal format',
     ['iobench', '--output=full/out.txt', '--name=x'] + NULL,
     setup=[dict(tmpfs='full', size='64k', fill=True)], err=names(r'out\.txt', 'No space left on device'))
case('o-bwlog-full', OU, 'write_bw_log on a full tmpfs: exit 1, one line naming the log and ENOSPC',
     ['iobench', '--name=x', '--ioengine=null', '--size=16m', '--write_bw_log=full/bw', JSON],
     setup=[dict(tmpfs='full', size='64k', fill=True)], err=names('bw', 'No space left on device'),
     stdout='json-or-empty')
case('o-closed-stdout', OU, 'stdout closed (>&-): exit 1 with a message naming stdout (today exit 1, silent)',
     ['iobench', '--name=x'] + NULL + [JSON], redirect='>&-', err=names('stdout|standard output'))
case('o-closed-stdout-write', OU, 'stdout closed and a write job: its data file must not get fd 1 and the report',
     ['iobench', '--name=w', '--rw=write', '--size=64k', '--filename=target', JSON], redirect='>&-',
     err=names('stdout|standard output'), check=lacks_text('target', b'"jobs"'))
case('o-closed-stdout-log', OU, 'stdout closed and write_bw_log: the log must not get fd 1 and the report',
     ['iobench', '--name=x', '--ioengine=null', '--size=1m', '--write_bw_log=bw', JSON], redirect='>&-',
     err=names('stdout|standard output'), check=lacks_text('bw_bw.1.log', b'"jobs"'))
case('o-closed-stdout-output', OU, 'stdout closed with --output=FILE: stdout is not needed; runs, the file is '
     'valid JSON',
     ['iobench', '--output=out.json', '--name=x'] + NULL + [JSON], redirect='>&-', exit=0, err_lines=0,
     check=lambda ctx: None if valid_json_file(ctx.path('out.json')) else 'out.json is not valid JSON')
case('o-output-dir', OU, '--output naming a directory: refused before the run',
     ['iobench', '--output={O}', '--name=x'] + NULL, err=names('output'))
case('o-plot-dir', OU, 'NEW: --plot naming a directory: the chart cannot be written, so exit 1 (today the '
     'message is printed and the exit status is 0)',
     ['iobench', '--plot={O}', '--name=x'] + NULL + [JSON], err=names('plot'), stdout='json-or-empty')
case('o-plot-full', OU, '--plot on a full tmpfs: exit 1 with the path and ENOSPC',
     ['iobench', '--plot=full/p.svg', '--name=x'] + NULL + [JSON], setup=[dict(tmpfs='full', size='64k', fill=True)],
     err=names(r'p\.svg', 'No space left on device'), stdout='json-or-empty')
case('o-json-zero-runtime', OU, 'a 4 KiB null job (runtime 0): the json+ document has no inf or NaN',
     ['iobench', '--name=x', '--ioengine=null', '--size=4k', '--bs=4k', '--output-format=json+'],
     exit=0, stdout='json', err_lines=0)
case('o-json-lat-percentiles', OU, 'lat/slat percentiles of a job with one I/O per direction: valid JSON',
     ['iobench', '--name=x', '--ioengine=null', '--size=8k', '--bs=4k', '--rw=randrw', '--lat_percentiles=1',
      '--slat_percentiles=1', '--percentile_list=1:50:99.99', '--output-format=json+'],
     exit=0, stdout='json', err_lines=0)
case('o-terse-no-nan', OU, 'the terse line of a 4 KiB null job holds no nan or inf',
     ['iobench', '--name=x', '--ioengine=null', '--size=4k', '--bs=4k', '--minimal'], exit=0, stdout='nonempty',
     err_lines=0, check=lambda ctx: 'terse output holds nan/inf' if __import__('re').search(
         rb'(?i)(^|;)-?(nan|inf)', ctx.stdout) else None)

# ====================================================================== 8. --compare/--merge
CM = 'compare'


def write_result(ctx, path, jobs=None):
    doc = {'fio version': 'fio-3.33', 'jobs': jobs if jobs is not None else [
        {'jobname': 'j', 'groupid': 0, 'error': 0,
         'read': {'io_bytes': 4096, 'bw': 4, 'bw_bytes': 4096, 'iops': 1.0, 'runtime': 1000, 'total_ios': 1,
                  'short_ios': 0, 'drop_ios': 0,
                  'clat_ns': {'min': 1000, 'max': 1000, 'mean': 1000.0, 'stddev': 0.0, 'N': 1,
                              'percentile': {'50.000000': 1000, '99.000000': 1000},
                              'bins': {'1000': 1}}}}]}
    with open(ctx.path(path), 'w') as f:
        json.dump(doc, f)


def valid_json_file(p):
    try:
        with open(p, 'rb') as f:
            json.loads(f.read().decode('utf-8'), parse_constant=reject)
        return True
    except (OSError, ValueError):
        return False


def bad(content):
    return [dict(gen=lambda ctx: write_result(ctx, '{O}/good.json')),
            dict(file='{O}/bad.json', content=content)]


NOT_RESULT = names(r'bad\.json')
for cid, content, what in (
        ('jobs-numbers', '{"jobs": [1, 2]}', '"jobs" holds numbers, not objects'),
        ('jobs-strings', '{"jobs": ["a", "b"]}', '"jobs" holds strings'),
        ('no-jobname', '{"jobs": [{"read": {"iops": 1, "total_ios": 1}}]}', 'a job without "jobname"'),
        ('jobname-number', '{"jobs": [{"jobname": 5, "read": {"iops": 1, "total_ios": 1}}]}', '"jobname" is a number'),
        ('strings-for-numbers', '{"jobs": [{"jobname": "j", "read": {"iops": "12", "bw": "x", "total_ios": "1"}}]}',
         'numbers given as strings'),
        ('percentile-array', '{"jobs": [{"jobname": "j", "read": {"iops": 1, "total_ios": 1, "clat_ns": '
                             '{"percentile": [1, 2]}}}]}', '"percentile" is an array')):
    if cid == 'percentile-array':  # no crash; refused naming the file, or compared without percentiles
        kw = dict(exit=(0, 1), err=None, err_lines=1, stdout='any')
        how = 'no crash: refused naming the file, or compared without the percentiles'
    else:
        kw = dict(err=names(r'bad\.json' + ('|in common' if cid == 'strings-for-numbers' else '')))
        how = 'exit 1, one line naming the file, no crash, stdout empty'
    case('c-base-' + cid, CM, '--compare with a base result where %s: %s' % (what, how),
         ['iobench', '--compare', '{O}/bad.json', '{O}/good.json'], setup=bad(content), **kw)
    case('c-new-' + cid, CM, '--compare with a new result where %s: %s' % (what, how),
         ['iobench', '--compare', '{O}/good.json', '{O}/bad.json'], setup=bad(content), **kw)
for cid, content, what in (
        ('jobs-numbers', '{"jobs": [1, 2]}', '"jobs" holds numbers'),
        ('bins-array', '{"jobs": [{"jobname": "j", "read": {"total_ios": 1, "clat_ns": {"bins": [1, 2]}}}]}',
         '"bins" is an array (today a segfault)'),
        ('percentile-array', '{"jobs": [{"jobname": "j", "read": {"total_ios": 1, "clat_ns": {"percentile": [1, 2], '
                             '"bins": {"1000": 1}}}}]}', '"percentile" is an array (today a segfault)'),
        ('bins-strings', '{"jobs": [{"jobname": "j", "read": {"total_ios": 1, "clat_ns": {"bins": {"1000": "x"}}}}]}',
         '"bins" counts are strings'),
        ('bins-negative', '{"jobs": [{"jobname": "j", "read": {"total_ios": 1, "clat_ns": {"bins": {"1000": -5, '
                          '"-7": 1e300}}}}]}', '"bins" holds negative and huge counts')):
    case('m-' + cid, CM, '--merge with a result whose %s: exit 1, one line naming the file, no crash' % what,
         ['iobench', '--merge', '{O}/good.json', '{O}/bad.json'], setup=bad(content), err=NOT_RESULT)
case('m-huge-numbers', CM, '--merge of results with iops/bw of 1e308: the sum overflows; the document must hold '
     'no inf (exit 0 or 1, valid JSON if any)',
     ['iobench', '--merge', '{O}/bad.json', '{O}/bad.json'],
     setup=bad('{"jobs": [{"jobname": "j", "read": {"total_ios": 1e308, "io_bytes": 1e308, "iops": 1e308, '
               '"bw_bytes": 1e308, "clat_ns": {"N": 1e308, "mean": 1e308, "bins": {"1000": 1}}}}]}'),
     exit=(0, 1), err=None, err_lines=1, stdout='json-or-empty')
case('c-huge-delta', CM, '--compare with iops 1e-300 against 1e300, JSON: the delta must not be printed as inf',
     ['iobench', '--compare', '{O}/a.json', '{O}/b.json', JSON],
     setup=[dict(file='{O}/a.json', content='{"jobs": [{"jobname": "j", "read": {"iops": 1e-300, "total_ios": 1}}]}'),
            dict(file='{O}/b.json', content='{"jobs": [{"jobname": "j", "read": {"iops": 1e300, "total_ios": 1}}]}')],
     exit=(0, 1, 2), err=None, err_lines=1, stdout='json-or-empty')
for cid, fx, arg, what in (
        ('empty', dict(file='{O}/x.json', content=''), '{O}/x.json', 'an empty file'),
        ('dir', dict(dir='{O}/x.json'), '{O}/x.json', 'a directory'),
        ('devzero', None, '/dev/zero', '/dev/zero (today read without limit)'),
        ('truncated', dict(gen=lambda ctx: open(ctx.path('{O}/x.json'), 'w').write('{"jobs": [{"jobname": "j", "re')),
         '{O}/x.json', 'truncated JSON'),
        ('deep', dict(file='{O}/x.json', content='{"jobs": [' + '[' * 100000 + ']' * 100000 + ']}'), '{O}/x.json',
         '100,000 nested arrays'),
        ('missing', None, '{O}/nope.json', 'a missing file')):
    setup = [dict(gen=lambda ctx: write_result(ctx, '{O}/good.json'))] + ([fx] if fx else [])
    case('c-' + cid, CM, '--compare with %s: exit 1 at once, one line naming it' % what,
         ['iobench', '--compare', '{O}/good.json', arg], setup=setup, err=names(os.path.basename(arg)), timeout=5)
    if cid in ('devzero', 'dir'):
        case('m-' + cid, CM, '--merge with %s: exit 1 at once, one line naming it' % what,
             ['iobench', '--merge', '{O}/good.json', arg], setup=setup, err=names(os.path.basename(arg)), timeout=5)


BIG_GEN = r"""
import sys
path, njobs, bins = sys.argv[1], int(sys.argv[2]), sys.argv[3] == '1'
with open(path, 'w') as f:
    f.write('{"fio version": "fio-3.33", "jobs": [\n')
    pad = 'x' * 600
    for i in range(njobs):
        b = ', "bins": {"%d": 3, "%d": 1}' % (1000 + i % 50, 5000 + i % 7) if bins else ''
        f.write('%s{"jobname": "job%d", "groupid": 0, "error": 0, "description": "%s", "read": '
                '{"io_bytes": 4096, "bw": 4, "bw_bytes": 4096, "iops": %d.5, "runtime": 1000, "total_ios": 4, '
                '"clat_ns": {"min": 1000, "max": 5000, "mean": 2000.0, "stddev": 10.0, "N": 4, '
                '"percentile": {"50.000000": 1000, "99.000000": 5000}%s}}}\n'
                % (',' if i else '', i % 1000, pad, i % 97, b))
    f.write(']}\n')
"""

for tool in ('compare', 'merge'):
    case(tool[0] + '-fifo', CM, '--%s with a FIFO nobody writes: a pipe may be read (process substitution gives one), '
         'so it waits; SIGINT after 1 s ends it (exit 130), nothing on stdout' % tool,
         ['iobench', '--' + tool, '{O}/good.json', '{O}/x.json'],
         setup=[dict(gen=lambda ctx: write_result(ctx, '{O}/good.json')), dict(fifo='{O}/x.json')],
         **stopped(stdout='empty', err=None, err_lines=2))
case('c-pipe-ok', CM, 'control: --compare with the new result through a pipe (bash process substitution): exit 0',
     ['bash', '-c', 'exec "$0" --compare {O}/good.json <(cat {O}/good.json)', '{BIN}'],
     setup=[dict(gen=lambda ctx: write_result(ctx, '{O}/good.json'))], exit=0, stdout='nonempty', err_lines=0,
     needs=['bash'])
case('m-pipe-ok', CM, 'control: --merge of a result read through a pipe: exit 0, valid JSON',
     ['bash', '-c', 'exec "$0" --merge <(cat {O}/good.json)', '{BIN}'],
     setup=[dict(gen=lambda ctx: write_result(ctx, '{O}/good.json'))], exit=0, stdout='json', err_lines=0,
     needs=['bash'])


def big_result(path, njobs=100000, bins=False):
    """About 100 MB of fio JSON with njobs jobs (names repeat: occurrence matching matters),
    written by a child python (the harness's threads keep their timing)."""
    def gen(ctx):
        subprocess.run([sys.executable, '-c', BIG_GEN, ctx.path(path), str(njobs), '1' if bins else '0'],
                       check=True)
    return gen


case('c-big', CM, '--compare of two 100 MB results with 100,000 jobs each: linear time, done in seconds '
     '(today quadratic)',
     ['iobench', '--compare', '{S}/big.json', '{S}/big.json', JSON], setup=[dict(gen=big_result('big.json'))],
     exit=0, stdout='json', err_lines=1, timeout=60, cost=60, max_rss_mb=4096)
case('m-big', CM, '--merge of a 100 MB json+ result with 100,000 jobs: done in seconds',
     ['iobench', '--merge', '{S}/bigp.json'], setup=[dict(gen=big_result('bigp.json', bins=True))],
     exit=0, stdout='json', err_lines=0, timeout=60, cost=50, max_rss_mb=4096)

# ====================================================================== 9. errors carry their errno
E = 'errno'
NOBODY = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '{BIN}']
case('e-eacces-json', E, 'a write job in a root-owned 0700 directory, run as nobody: exit 1, "error" : 13 '
     '(fio reports the errno; today 0)',
     NOBODY + ['--name=w', '--rw=write', '--size=64k', '--directory=locked', JSON],
     setup=[dict(dir='locked', mode=0o700)], err=names('Permission denied'), err_lines=2, stdout='json',
     json_check=err_is(13), needs=['root', 'setpriv'])
case('e-eacces-normal', E, 'the same in the normal format: err=13 in the job line',
     NOBODY + ['--name=w', '--rw=write', '--size=64k', '--directory=locked'],
     setup=[dict(dir='locked', mode=0o700)], err=names('Permission denied'), err_lines=2, stdout='nonempty',
     out_re=r'err=\s*13\b', needs=['root', 'setpriv'])
case('e-eacces-terse', E, 'the same in terse: the error field (5th) is 13',
     NOBODY + ['--name=w', '--rw=write', '--size=64k', '--directory=locked', '--minimal'],
     setup=[dict(dir='locked', mode=0o700)], err=names('Permission denied'), err_lines=2, stdout='nonempty',
     out_re=r'^3;[^;]*;w;0;13;', needs=['root', 'setpriv'])
case('e-eacces-read', E, 'a read job of a root-owned 0600 file, run as nobody: "error" : 13',
     NOBODY + ['--name=r', '--rw=read', '--size=64k', '--filename=secret', JSON],
     setup=[data('secret', mode=0o600)], err=names('Permission denied'), err_lines=2, stdout='json',
     json_check=err_is(13), needs=['root', 'setpriv'], ro=True)
case('e-enospc-layout', E, 'ENOSPC laying out a 1 MiB read job on a 64 KiB tmpfs: "error" : 28 in the JSON '
     '(or refused before layout for want of space)',
     ['iobench', '--name=r', '--rw=read', '--size=1m', '--filename=tiny/f', JSON],
     setup=[dict(tmpfs='tiny', size='64k')], err=r'(?i)No space left|free|space', err_lines=2,
     stdout='json-or-empty', json_check=err_is(28))
case('e-enospc-write', E, 'a write job on a full tmpfs: "error" : 28',
     ['iobench', '--name=w', '--rw=write', '--size=1m', '--filename=tiny/f', JSON],
     setup=[dict(tmpfs='tiny', size='64k', fill=True)], err=r'No space left', err_lines=2, stdout='json',
     json_check=err_is(28))
case('e-erofs', E, 'a write job on a read-only mounted ext4: "error" : 30 (EROFS)',
     ['iobench', '--name=w', '--rw=write', '--size=64k', '--filename=mnt/f', JSON],
     setup=[mounted_ro()], err=r'Read-only file system', err_lines=2, stdout='json', json_check=err_is(30))
OOM_ENV = {'ASAN_OPTIONS': 'detect_leaks=1:abort_on_error=0:allocator_may_return_null=1'}
case('e-oom-buffers', E, 'bs=2g x iodepth=4096 (8 TiB of buffers): exit 1, one line saying which allocation and '
     'how much (today only "error" : 12)',
     ['iobench', '--name=x', '--ioengine=null', '--bs=2g', '--iodepth=4096', '--size=4g', JSON],
     env=OOM_ENV, err=names('(?i)buffer', r'8796093022208|8 ?Ti?B|8192 ?Gi?B'), stdout='json-or-empty',
     json_check=err_is(12))
case('e-oom-buffers-numjobs', E, 'bs=256m x iodepth=65536 x numjobs=2: the message names the size',
     ['iobench', '--name=x', '--ioengine=null', '--bs=256m', '--iodepth=65536', '--numjobs=2', '--size=512m', JSON],
     env=OOM_ENV, err=names('(?i)buffer', r'17592186044416|16 ?Ti?B|16384 ?Gi?B|32 ?Ti?B|35184372088832'),
     err_lines=2, stdout='json-or-empty')

case('e-emfile', E, 'RLIMIT_NOFILE of 30 (hard too) and nrfiles=100: exit 1, "error" : 24 (EMFILE), the file named',
     ['sh', '-c', 'ulimit -n 30 && exec "$0" "$@"', '{BIN}', '--name=r', '--rw=read', '--nrfiles=100',
      '--filesize=4k', '--directory={S}', JSON],
     err=names('Too many open files'), err_lines=2, stdout='json', json_check=err_is(24))


def any_job_error(n):
    def check(doc):
        errs = [j.get('error') for j in doc['jobs']]
        return None if n in errs else 'no job has "error" : %d (%s)' % (n, sorted(set(map(str, errs))))
    return check


case('e-nproc-threads', E, 'NEW: RLIMIT_NPROC of 2 as nobody, numjobs=16: the jobs that cannot start a thread '
     'report "error" : 11 (EAGAIN; today 0)',
     NOBODY[:-1] + ['prlimit', '--nproc=2', '--', '{BIN}', '--name=r', '--ioengine=null', '--size=1m',
                    '--numjobs=16', JSON],
     err=names('thread|Resource temporarily unavailable'), err_lines=3, stdout='json-or-empty',
     json_check=any_job_error(11), needs=['root', 'setpriv', 'prlimit'])

# ====================================================================== 10. engines in restricted environments
EN = 'engines'
SECCOMP = ['{SECCOMP_DENY}']
for errno_name in ('ENOSYS', 'EPERM'):
    case('en-seccomp-' + errno_name.lower(), EN, 'io_uring refused by seccomp with %s (a container\'s default '
         'profile): exit 1, one line naming seccomp or io_uring_disabled and suggesting ioengine=libaio' % errno_name,
         SECCOMP + [errno_name, '{BIN}', '--name=u', '--ioengine=io_uring', '--rw=read', '--size=64k',
                    '--filename=data', JSON],
         setup=[data()], err=names('io_uring', 'seccomp|io_uring_disabled', 'libaio'), stdout='json-or-empty',
         needs=['tool:SECCOMP_DENY'], ro=True)
case('en-seccomp-libaio-ok', EN, 'control: under the same seccomp filter, ioengine=libaio runs (exit 0)',
     SECCOMP + ['ENOSYS', '{BIN}', '--name=a', '--ioengine=libaio', '--rw=read', '--size=64k', '--filename=data', JSON],
     setup=[data()], exit=0, stdout='json', err_lines=0, needs=['tool:SECCOMP_DENY'], ro=True)
case('en-mmap-sigbus-read', EN, 'mmap engine reading a 16 MiB file truncated to 0 under it: SIGBUS is survived, '
     'the error reported, the results printed (exit 1, JSON with an error)',
     ['iobench', '--name=m', '--ioengine=mmap', '--rw=randread', '--filename=data', '--time_based', '--runtime=5', JSON],
     setup=[data(size=16 << 20)], signals=[('truncate', 700, 'data', 0)], must_signal=False, err=r'(?i)SIGBUS|bus error|truncat|Input/output error',
     err_lines=3, stdout='json', json_check=lambda d: None if d['jobs'][0]['error'] else '"error" is 0', timeout=12)
case('en-mmap-sigbus-write', EN, 'mmap engine writing a 16 MiB file truncated to 4 KiB under it: survived, reported',
     ['iobench', '--name=m', '--ioengine=mmap', '--rw=randwrite', '--filename=data', '--size=16m', '--time_based',
      '--runtime=5', JSON],
     setup=[data(size=16 << 20)], signals=[('truncate', 700, 'data', 4096)], must_signal=False,
     err=r'(?i)SIGBUS|bus error|truncat|Input/output error', err_lines=3, stdout='json',
     json_check=lambda d: None if d['jobs'][0]['error'] else '"error" is 0', timeout=12)
case('en-uring-memlock', EN, 'io_uring with fixedbufs=1 (256 KiB of buffers) as nobody with RLIMIT_MEMLOCK of 64 KiB: '
     'exit 1, one line naming the memlock limit (today only "Cannot allocate memory")',
     NOBODY[:-1] + ['prlimit', '--memlock=65536', '--', '{BIN}', '--name=u', '--ioengine=io_uring', '--fixedbufs=1',
                    '--rw=read', '--bs=64k', '--iodepth=4', '--size=1m', '--filename=data', JSON],
     setup=[data(size=1 << 20)], err=names('io_uring', 'memlock|locked memory|ulimit -l'), stdout='json-or-empty',
     json_check=err_is(12), needs=['root', 'setpriv', 'prlimit'], ro=True)
case('en-uring-memlock-default', EN, 'control: the same without fixedbufs=1 (registered buffers only tried): runs, '
     'exit 0 (a regular file: io_uring reads of /dev/zero come back short now and then)',
     NOBODY[:-1] + ['prlimit', '--memlock=65536', '--', '{BIN}', '--name=u', '--ioengine=io_uring', '--rw=read',
                    '--bs=64k', '--iodepth=4', '--size=1m', '--filename=data', JSON],
     setup=[data(size=1 << 20)], exit=0, stdout='json', err_lines=0, needs=['root', 'setpriv', 'prlimit'], ro=True)
case('en-rlimit-fsize', EN, 'NEW: RLIMIT_FSIZE of 32 KiB (ulimit -f 64) and a 1 MiB write job: today SIGXFSZ kills '
     'iobench (exit 153, no results, no message); it must report EFBIG ("error" : 27) and print the results',
     ['sh', '-c', 'ulimit -f 64 && exec "$0" "$@"', '{BIN}', '--name=w', '--rw=write', '--size=1m', '--filename=big',
      JSON], err=names('File too large|EFBIG|RLIMIT_FSIZE'), err_lines=2, stdout='json', json_check=err_is(27))
case('en-rlimit-fsize-layout', EN, 'the same for a read job whose layout passes the limit',
     ['sh', '-c', 'ulimit -f 64 && exec "$0" "$@"', '{BIN}', '--name=r', '--rw=read', '--size=1m', '--filename=big',
      JSON], err=names('File too large|EFBIG|RLIMIT_FSIZE'), err_lines=2, stdout='json-or-empty')
case('en-mmap-fifo', EN, 'the mmap engine on a FIFO: refused at once (no mapping of a pipe), or ended by SIGINT',
     ['iobench', '--name=m', '--ioengine=mmap', '--rw=read', '--size=64k', '--filename=ff', JSON],
     setup=[dict(fifo='ff')], **stopped(exit=(1, 130), stdout='json-or-empty', must_signal=False))
case('en-mmap-devnull', EN, 'the mmap engine on a character device that cannot be mapped (a node of /dev/null): '
     'exit 1, one line, no crash',
     ['iobench', '--name=m', '--ioengine=mmap', '--rw=read', '--size=64k', '--filename=cnull', JSON],
     setup=[dict(node='cnull', dev=(1, 3))], err=names('cnull'), err_lines=2, stdout='json-or-empty',
     needs=['root'])

# ====================================================================== Issue 24: guards, readonly, signals
# Every file iobench writes goes through core/lib/outfile.c's door (the data files' guard);
# --readonly keeps every file as it was; SIGHUP reports; kill -9 leaves no stray file.
DOOR = r'mounted on|busy|in use'


def unchanged(name, text):
    return lambda ctx: None if open(ctx.path(name)).read() == text else name + ' changed'


def only_files(*names):
    return lambda ctx: None if sorted(os.listdir(ctx.S)) == sorted(names) else \
        'the scratch dir holds %s' % sorted(os.listdir(ctx.S))


case('g24-output-dev', G, '--output on a mounted device: refused in one line naming it and the mount (today the '
     'report is written onto the device, exit 0)',
     ['iobench', '--output={LOOP}'] + NULL + ['--name=n', JSON], setup=[mounted_ro()], err=names('{LOOP}', DOOR))
case('g24-output-link', G, '--output through a symlink to the mounted device',
     ['iobench', '--output=r.json', '--name=n'] + NULL + [JSON],
     setup=[mounted_ro(), dict(symlink='r.json', to='{LOOP}')], err=names('r.json', DOOR))
case('g24-output-ns', G, '--output on a device mounted only in another mount namespace: refused (O_EXCL open)',
     ['iobench', '--output={LOOP}', '--name=n'] + NULL + [JSON], setup=[mounted_ro(ns=True)],
     err=names('{LOOP}', DOOR + '|exclusive'))
case('g24-plot-dev', G, '--plot on a mounted device: refused before the run',
     ['iobench', '--plot={LOOP}', '--name=n'] + NULL + [JSON], setup=[mounted_ro()], err=names('{LOOP}', DOOR))
case('g24-iolog-dev', G, '--write_iolog on a mounted device: refused',
     ['iobench', '--write_iolog={LOOP}', '--name=r', '--filename=data', '--size=64k', JSON],
     setup=[mounted_ro(), data()], err=names('{LOOP}', DOOR), stdout='json-or-empty')
case('g24-bwlog-link', G, 'write_bw_log whose file name is a symlink to the mounted device: refused, exit 1',
     ['iobench', '--write_bw_log=p', '--name=r', '--filename=data', '--size=64k', JSON],
     setup=[mounted_ro(), data(), dict(symlink='p_bw.1.log', to='{LOOP}')], err=names('p_bw.1.log', DOOR),
     stdout='json-or-empty')
case('g24-backing-write', G, 'a write job on the backing file of a mounted loop device: refused (today written)',
     ['iobench', '--name=w', '--rw=write', '--size=64k', '--filename={LOOP_IMG}', JSON], setup=[mounted_ro()],
     err=names('backing file', DOOR))
case('g24-backing-output', G, '--output on the backing file of a mounted loop device: refused',
     ['iobench', '--output={LOOP_IMG}', '--name=n'] + NULL + [JSON], setup=[mounted_ro()],
     err=names('backing file', DOOR))
case('ro24-unlink-each-loop', RO, '--readonly read job with unlink_each_loop=1 and loops=2: refused, the file stays '
     '(today removed after the first loop)',
     ['iobench', '--readonly', '--name=r', '--rw=read', '--size=64k', '--filename=data', '--unlink_each_loop=1',
      '--loops=2', JSON], setup=[data()], err=names(READ_ONLY, 'unlink_each_loop'), ro=True)
case('ro24-falloc-read', RO, '--readonly with ioengine=falloc rw=read (a read allocates blocks): refused',
     ['iobench', '--readonly', '--name=r', '--ioengine=falloc', '--rw=read', '--size=64k', '--filename=data', JSON],
     setup=[data()], err=names(READ_ONLY, 'falloc'), ro=True)
case('ro24-prerun', RO, '--readonly with exec_prerun (a command could write anything): refused, nothing run',
     ['iobench', '--readonly', '--name=r', '--rw=read', '--size=64k', '--filename=data', '--exec_prerun=touch made',
      JSON], setup=[data()], err=names(READ_ONLY, 'exec_prerun'), ro=True)
case('ro24-net-unix', RO, 'net engine listening on a unix socket whose path is a regular file: refused, the file '
     'stays (today replaced by the socket)',
     ['iobench', '--name=n', '--ioengine=net', '--protocol=unix', '--filename=data', '--rw=read', '--size=64k',
      '--runtime=2', JSON], setup=[data()], err=names('data', 'not a socket'), err_lines=2,
     stdout='json-or-empty', ro=True)
case('s24-hup-output', SG, 'SIGHUP with --output: the results so far are in the report (exit 129), nothing else '
     'left beside it (today the report is lost)',
     ['iobench', '--output=r.json'] + LONG + [JSON], signals=[('HUP', 800)], exit=129, stdout='empty',
     err_lines=2, stop_within=2.5, timeout=8,
     check=lambda ctx: None if valid_json_file(ctx.path('r.json')) and sorted(os.listdir(ctx.S)) == ['r.json']
     else 'r.json is not a complete report, or a stray file is left')
case('s24-kill-output', SG, 'kill -9 during a run with --output=r.json: the old r.json untouched, no hidden '
     'temporary file beside it (today .r.json.iobench-XXXXXX is left)',
     ['iobench', '--output=r.json'] + LONG + [JSON], setup=[dict(file='r.json', content='OLD\n')],
     signals=[('KILL', 500)], exit=137, stdout='empty', err_lines=0, timeout=8,
     check=lambda ctx: unchanged('r.json', 'OLD\n')(ctx) or only_files('r.json')(ctx))

# ====================================================================== Issue 24: secrets
# The credential options (http_pass, http_s3_key, http_s3_sse_customer_key,
# http_swift_auth_token) are never printed: not in a report, --debug, --showcmd, the HTML
# page's command line, an error message or a document --merge writes. No case needs a server:
# a job whose [global] engine is http and whose own is null inherits the http options without
# using them (fio's rule), and the run's report still lists them under "global options".
SC = 'secrets'
SECRET = 'hostile-Sec9Kq2Zp'  # what each case hides; inputs that hold it are under {O}
HTTP_GLOBALS = ['--ioengine=http', '--http_pass=' + SECRET, '--http_s3_key', SECRET,
                '--http_s3_sse_customer_key=' + SECRET, '--http_swift_auth_token=' + SECRET]
NULL_JOB = ['--name=j', '--ioengine=null', '--size=1m']


def no_secret(secret=SECRET):
    """Neither stdout, stderr nor any file under the scratch dir holds the secret."""
    def check(ctx):
        b = secret.encode()
        where = [w for w, text in (('stdout', ctx.stdout), ('stderr', ctx.stderr_raw.encode())) if b in text]
        for root, _, files in os.walk(ctx.S):
            for n in files:
                with open(os.path.join(root, n), 'rb') as f:
                    if b in f.read():
                        where.append(os.path.relpath(os.path.join(root, n), ctx.S))
        return 'the secret is printed in %s' % ', '.join(where) if where else None
    return check


def all_checks(*checks):
    def check(ctx):
        for c in checks:
            bad = c(ctx)
            if bad:
                return bad
        return None
    return check


def redacted_in(key, *names):
    """doc[key] (or each job's when key is 'job options') holds each name, "<redacted>"."""
    def check(doc):
        maps = [j.get(key, {}) for j in doc.get('jobs', doc.get('client_stats', []))
                if j.get('jobname') != 'All clients'] if key == 'job options' else [doc.get(key, {})]
        for m in maps:
            for n in names:
                if m.get(n) != '<redacted>':
                    return '%s.%s is %r, wanted "<redacted>"' % (key, n, m.get(n))


# Issue 24: values, sweeps, escaping
# overflow: every time option is at most 9223372036854775 us (its ns fit in 63 bits), sizes and
# fractions exact or refused (tests/unit/test_values.c walks every option's table); oom: out of
# memory while setting up is one line naming what and for which job (ASan returns NULL for an
# allocation past max_allocation_size_mb); sweeps: nothing that runs nothing, no leak on a
# refusal, a valid document when a point fails; escaping: every format parses with any name.
OV, OM, SWP, ESC = 'overflow', 'oom', 'sweeps', 'escaping'
TOO_LONG = "is too long a time \\(9223372036854775us"
for oid, opt, val in [('thinktime-2^64', 'thinktime', '18446744073709551615'),
                      ('thinktime-2^63', 'thinktime', '9223372036854775808'),
                      ('thinktime-spin', 'thinktime_spin', '18446744073709551615'),
                      ('runtime-us', 'runtime', '18446744073709551615us'),
                      ('runtime-days', 'runtime', '106752d'),
                      ('ramp-time', 'ramp_time', '18446744073709551us'),
                      ('startdelay-range', 'startdelay', '0-18446744073709551us'),
                      ('latency-target', 'latency_target', '18446744073709551615'),
                      ('ss-duration', 'steadystate_duration', '9223372036855'),
                      ('thinktime-iotime', 'thinktime_iotime', '9223372036855')]:
    case('ov-' + oid, OV, 'NEW: %s=%s: a time whose nanoseconds do not fit in 63 bits is refused in one line '
         '(today it runs: a think time of 2^64-1 us was no think time, a runtime of 2^64-1 us no run, a start '
         'delay past 2^64 ns none)' % (opt, val),
         ['iobench', '--name=j', '--ioengine=null', '--size=1m', '--%s=%s' % (opt, val), JSON],
         err=names(opt.split('_')[0], TOO_LONG), timeout=10)
case('ov-jobfile-line', OV, 'NEW: the same in a job file: the line is named',
     ['iobench', '{O}/t.fio', JSON], setup=[dict(file='{O}/t.fio', content='[j]\nioengine=null\nsize=1m\n'
                                                  'thinktime=18446744073709551615\n')],
     err=names(r't\.fio:4', 'thinktime', TOO_LONG), timeout=10)
case('ov-cpuchunks', OV, 'NEW: cpuio, cpuload=1 and cpuchunks=9223372036854775 us: its pauses (99 times that) are '
     'refused as thinktime would be (today the product wraps)',
     ['iobench', '--name=c', '--ioengine=cpuio', '--cpuload=1', '--cpuchunks=9223372036854775', '--time_based',
      '--runtime=1', JSON], err=names('cpuchunks', 'pauses longer'), timeout=10)
case('ov-zoned-abs', OV, 'NEW: zoned_abs:100/18446744073709551615: a zone past a file\'s size is refused (today read '
     'as 100 bytes: UINT64_MAX stood for an empty size)',
     ['iobench', '--name=j', '--ioengine=null', '--size=1m', '--rw=randread',
      '--random_distribution=zoned_abs:100/18446744073709551615', JSON], err=names('random_distribution'))
case('ov-fraction-digits', OV, 'NEW: size=1.0000000000000000001k: more digits than can be carried out exactly are '
     'refused (today the digits past the ninth were dropped)',
     ['iobench', '--name=j', '--ioengine=null', '--size=1.0000000000000000001k', JSON], err=names('size', 'cannot parse'))
case('ov-size-2^63', OV, 'size=8e (2^63 bytes): refused, past what a file can hold',
     ['iobench', '--name=j', '--ioengine=null', '--size=8e', JSON], err=names('size', 'out of range'))
case('ov-time-limit-taken', OV, 'control: thinktime=106751d, just below the limit, is taken (--parse-only)',
     ['iobench', '--name=j', '--ioengine=null', '--size=1m', '--thinktime=106751d', '--parse-only'],
     exit=0, err_lines=0)
case('ov-size-fraction-taken', OV, 'control: size=8191.999999999999999999p (2^63 - 2 bytes, exact) is taken',
     ['iobench', '--name=j', '--ioengine=null', '--size=8191.999999999999999999p', '--io_size=1m', '--parse-only'],
     exit=0, err_lines=0)

OOM_SMALL = {'ASAN_OPTIONS': 'detect_leaks=1:abort_on_error=0:allocator_may_return_null=1:max_allocation_size_mb=4'}
case('oom-clones', OM, 'NEW: numjobs=65536 (a 14 MiB table of clones) with allocations past 4 MiB refused: exit 1, '
     'one line naming the table (today exit 1 and nothing on stderr)',
     ['iobench', '--name=many', '--ioengine=null', '--size=1m', '--numjobs=65536', JSON], env=OOM_SMALL,
     err=names('out of memory', 'table of the clones', r'14680064 bytes'))
case('oom-clones-jobfile', OM, 'NEW: the same from a job file', ['iobench', '{O}/m.fio', JSON], env=OOM_SMALL,
     setup=[dict(file='{O}/m.fio', content='[lots]\nioengine=null\nsize=1m\nnumjobs=65536\n')],
     err=names('out of memory', 'table of the clones'))
case('oom-files', OM, 'NEW: nrfiles=1048576 (a table of 1M files) with allocations past 4 MiB refused: one line '
     'naming the job and its files\' names (today "filename: Cannot allocate memory")',
     ['iobench', '--name=nf', '--ioengine=null', '--size=1g', '--nrfiles=1048576', JSON], env=OOM_SMALL,
     err=names("job 'nf'", 'out of memory', 'names of its files'), stdout='json-or-empty')
case('oom-jobs-table', OM, 'NEW: 80 jobs (the table grows to 64 x 90 KiB) with allocations past 4 MiB refused: one line '
     'naming the job being added and the table (today exit 1 and nothing)',
     ['iobench', '{O}/jobs.fio', JSON], env=OOM_SMALL,
     setup=[dict(file='{O}/jobs.fio', content='[global]\nioengine=null\nsize=1m\n' +
                 ''.join('[j%d]\n' % i for i in range(80)))],
     err=names("job 'j32'", 'out of memory', 'table of the jobs'))
case('oom-units', OM, 'iodepth=65536 units with allocations past 4 MiB refused: one line naming the I/O units, '
     '"error" : 12 in the results',
     ['iobench', '--name=u', '--ioengine=null', '--size=1m', '--iodepth=65536', JSON], env=OOM_SMALL,
     err=names("job 'u'", 'out of memory', 'I/O units'), stdout='json', json_check=err_is(12))
case('oom-buffers-sweep', OM, 'NEW: a sweep whose second point needs 8 GiB of buffers: one line naming them, and '
     'that point\'s member has its results ("error" : 12) and exit_status 1; the document stays valid',
     ['iobench', '--name=b', '--ioengine=null', '--size=4g', '--iodepth=4', '--sweep=bs=4k,2g', JSON], env=OOM_SMALL,
     err=names("job 'b'", 'out of memory', 'buffers'), err_lines=3, stdout='json',
     json_check=lambda d: None if [m.get('exit_status') for m in d['iobench sweep']] == [None, 1] and
     d['iobench sweep'][1]['result']['jobs'][0]['error'] == 12 else 'members: %r' %
     [sorted(m) for m in d['iobench sweep']])

V64 = ','.join(str(i) for i in range(1, 65))
SWJ = ['--name=j', '--ioengine=null', '--size=64k']
for sid, spec, want, today in [
        ('empty', 'bs=,', 'value 1 is empty', 'NEW: today it runs nothing and exits 0'),
        ('empty-middle', 'bs=4k,,8k', 'value 2 is empty', 'NEW: today the empty value is skipped'),
        ('empty-last', 'bs=4k,', 'value 2 is empty', 'NEW: today the empty value is skipped'),
        ('no-values', 'bs=', 'is not OPTION=V1', 'as today'),
        ('unknown', 'nosuch=1,2', "unknown option 'nosuch'", 'as today'),
        ('65-values', 'bs=' + V64 + ',65', '64 values at most', 'NEW: today the copy of the list leaks')]:
    case('sw-' + sid, SWP, '--sweep=%s: refused in one line, nothing leaked (%s)' % (spec[:20], today),
         ['iobench', '--sweep=' + spec] + SWJ + [JSON], err=names('--sweep', want))
case('sw-2^36-runs', SWP, 'NEW: six sweeps of 64 values: 2^36 runs, 0 in 32 bits (today nothing runs, exit 0): refused',
     ['iobench'] + ['--sweep=%s=%s' % (o, V64) for o in ('nrfiles', 'loops', 'iodepth', 'numjobs', 'thinktime',
                                                          'iodepth_low')] + SWJ + [JSON],
     err=names('--sweep', 'runs', '4096 at most'))
case('sw-9-sweeps', SWP, 'nine --sweep flags: refused, nothing leaked',
     ['iobench'] + ['--sweep=%s=1' % o for o in ('nrfiles', 'loops', 'iodepth', 'numjobs', 'thinktime', 'iodepth_low',
                                                 'fsync', 'fdatasync', 'rwmixread')] + SWJ + [JSON],
     err=names('--sweep', '8 sweeps at most'))


def sweep_members(*want):
    """Each member: 'ok' (a result, no exit_status) or 'failed' (exit_status, an error, no result)."""
    def check(doc):
        m = doc['iobench sweep']
        if len(m) != len(want):
            return '%d members, wanted %d' % (len(m), len(want))
        for i, (x, w) in enumerate(zip(m, want)):
            if w == 'ok' and ('result' not in x or 'exit_status' in x):
                return 'member %d is not a run: %s' % (i, sorted(x))
            if w == 'failed' and (x.get('exit_status') != 1 or not x.get('error') or 'result' in x):
                return 'member %d is not a failed point: %s' % (i, sorted(x))
        return None
    return check


def secret_result(ctx, path):
    """A fio JSON result whose option maps hold the secret as fio prints it, and as a hostile
    document might: a number, an object, an array, a key given twice."""
    write_result(ctx, path)
    with open(ctx.path(path)) as f:
        text = f.read()
    opts = ('"job options": {"http_pass": "%s", "http_s3_key": "%s", "http_s3_key": "x%s", '
            '"http_swift_auth_token": {"t": "%s"}, "http_s3_sse_customer_key": ["%s"], "bs": "4k"}, '
            % ((SECRET,) * 5))
    text = text.replace('{"jobname": "j", ', '{"jobname": "j", ' + opts, 1)
    text = text.replace('{"fio version": "fio-3.33", ', '{"fio version": "fio-3.33", "global options": '
                        '{"http_pass": "%s"}, ' % SECRET, 1)
    with open(ctx.path(path), 'w') as f:
        f.write(text)


case('sec-json-globals', SC, 'the four credential options given on the command line (--opt=KEY and --opt KEY) '
     'in the globals of a null job: JSON "global options" keep each key, "<redacted>" (fio prints the values)',
     ['iobench'] + HTTP_GLOBALS + NULL_JOB + [JSON], exit=0, stdout='json', err_lines=0,
     json_check=redacted_in('global options', 'http_pass', 'http_s3_key', 'http_s3_sse_customer_key',
                            'http_swift_auth_token'), check=no_secret())
case('sec-jsonplus-jobfile-env', SC, 'a job file whose [global] takes them from ${VAR} and an include: json+, '
     'normal, terse and csv to stdout and --output: no secret anywhere',
     ['iobench', '--output-format=json+,normal,terse,csv', '--output=report.txt', '{O}/j.fio'],
     setup=[dict(file='{O}/j.fio', content='[global]\nioengine=http\nhttp_pass=${IOB_SECRET}\n'
                 'include secrets.inc\n[j]\nioengine=null\nsize=1m\n'),
            dict(file='{O}/secrets.inc', content='http_s3_key=%s\nhttp_swift_auth_token=${IOB_SECRET}\n' % SECRET)],
     env={'IOB_SECRET': SECRET}, exit=0, stdout='empty', err_lines=0,
     check=all_checks(no_secret(), present('report.txt')))
case('sec-html-argv', SC, 'the HTML page (--output=FILE.html): its command line shows --http_pass=<redacted> and '
     '--http_s3_key <redacted> (the value in the next argument); --plot too',
     ['iobench', '--output=r.html', '--plot=c.svg'] + HTTP_GLOBALS + NULL_JOB, exit=0, stdout='empty', err_lines=0,
     check=all_checks(no_secret(), lambda ctx: None if b'--http_s3_key &lt;redacted&gt;' in
                      open(ctx.path('r.html'), 'rb').read() else 'r.html does not show --http_s3_key <redacted>'))
case('sec-debug-all', SC, '--debug=all with a run: every line (parse, job, file, io...) free of the secret; '
     'handle_option=http_pass, ptr=<redacted>',
     ['iobench', '--debug=all'] + HTTP_GLOBALS + NULL_JOB + [JSON], exit=0, stdout='json', err_max_bytes=1 << 22,
     err=r'^parse +\d+ +handle_option=http_pass, ptr=<redacted>$', err_lines=100000, check=no_secret())
case('sec-showcmd', SC, '--showcmd of a job file holding the secrets (and a line "http_pass KEY" that is no option): '
     'each value <redacted>',
     ['iobench', '--showcmd', '{O}/s.fio'],
     setup=[dict(file='{O}/s.fio', content='[s]\nioengine=http\nhttp_pass=%s\nhttp_s3_key %s\n' % (SECRET, SECRET))],
     exit=0, stdout='nonempty', out_re=r'--http_pass=<redacted> --http_s3_key <redacted>', check=no_secret())
case('sec-binary-value', SC, 'a secret of bytes that are not UTF-8 (and control characters) in the globals: the '
     'JSON stays valid and says "<redacted>"',
     ['iobench', '--ioengine=http', b'--http_pass=\xff\xfe\x01\x1b[31m' + SECRET.encode() + b'\xc3'] + NULL_JOB +
     [JSON],
     exit=0, stdout='json', err_lines=0, json_check=redacted_in('global options', 'http_pass'), check=no_secret())
case('sec-merge-fio', SC, '--merge of a fio result that holds secrets (a string, an object, an array, a '
     'key given twice): each job\'s "job options" keep the keys, "<redacted>"',
     ['iobench', '--merge', '{O}/fio.json', '{O}/fio.json'],
     setup=[dict(gen=lambda ctx: secret_result(ctx, '{O}/fio.json'))],
     exit=0, stdout='json', err_lines=0,
     json_check=redacted_in('job options', 'http_pass', 'http_s3_key', 'http_swift_auth_token',
                            'http_s3_sse_customer_key'), check=no_secret())
case('sec-compare-fio', SC, '--compare of that result with itself, as JSON: nothing of its options is printed',
     ['iobench', '--compare', '{O}/fio.json', '{O}/fio.json', JSON],
     setup=[dict(gen=lambda ctx: secret_result(ctx, '{O}/fio.json'))], exit=0, stdout='json', err_lines=0,
     check=no_secret())
case('sec-sweep', SC, '--sweep over a secret option: refused in one line naming the option, not its values '
     '(they would name the sweep\'s points in every format)',
     ['iobench', '--sweep=http_s3_key=%s,x%s' % (SECRET, SECRET)] + NULL_JOB,
     err=names('sweep', 'http_s3_key', 'secret'),
     check=no_secret())
case('sec-too-long', SC, 'a 100,000-byte http_pass ending in the secret: refused in one line (too long), the value '
     'not echoed',
     ['iobench', '--name=j', '--ioengine=http', '--size=16k', '--http_pass=' + 'k' * 100000 + SECRET],
     err=names('http_pass', 'too long'), err_max_bytes=300, check=no_secret())
case('sec-space-jobfile', SC, 'a job file line "http_swift_auth_token KEY" (a space for "="): an unknown option, '
     'named without what follows the name',
     ['iobench', '{O}/sp.fio'],
     setup=[dict(file='{O}/sp.fio', content='[j]\nioengine=http\nsize=16k\nhttp_swift_auth_token %s\n' % SECRET)],
     err=names('unknown option', 'http_swift_auth_token <redacted>'), check=no_secret())
case('sec-typo-debug', SC, 'a job file with mistyped secret names (HTTP_PASS=KEY, http_passwd=KEY) under --parse-only '
     '--debug=parse: the debug lines show <redacted> for a name that is no option (the review found the value printed)',
     ['iobench', '--parse-only', '--debug=parse', '{O}/ty.fio'],
     setup=[dict(file='{O}/ty.fio', content='[j]\nioengine=http\nHTTP_PASS=%s\nhttp_passwd=%s\n' % (SECRET, SECRET))],
     exit=1, stdout='any', err=r'handle_option=HTTP_PASS, ptr=<redacted>', err_lines=20, check=no_secret())
case('sec-typo-showcmd', SC, '--showcmd of that job file: the mistyped names\' values are <redacted>',
     ['iobench', '--showcmd', '{O}/ty.fio'],
     setup=[dict(file='{O}/ty.fio', content='[j]\nioengine=http\nHTTP_PASS=%s\nhttp_passwd=%s\n' % (SECRET, SECRET))],
     exit=(0, 1), stdout='any', err_lines=2, check=no_secret())
case('sec-colon-argv', SC, '--http_s3_key:KEY on the command line: unrecognized, named without the key',
     ['iobench', '--name=j', '--ioengine=http', '--http_s3_key:' + SECRET], err=names('unrecognized', '<redacted>'),
     check=no_secret())
case('sec-arith-env', SC, 'a ${VAR} whose value makes the arithmetic fail ("($ncpus+KEY"): refused naming file, '
     'line and option, the value <redacted>',
     ['iobench', '--parse-only', '{O}/ar.fio'],
     setup=[dict(file='{O}/ar.fio', content='[j]\nioengine=http\nsize=16k\nhttp_s3_key=${IOB_SECRET}\n')],
     env={'IOB_SECRET': '($ncpus+' + SECRET}, err=names(r'ar\.fio:4', 'http_s3_key', '<redacted>'),
     check=no_secret())
case('sec-verbose-closed-port', SC, 'http_verbose=1 against a closed port, Swift token given: one line naming '
     'http_host (or libcurl when it is missing), no token',
     ['iobench', '--name=j', '--ioengine=http', '--http_host=127.0.0.1:1', '--http_mode=swift', '--size=16k',
      '--http_swift_auth_token=' + SECRET, '--http_verbose=1', JSON],
     err=names('http_host|libcurl'), stdout='json-or-empty', check=no_secret())

case('sw-first-fails', SWP, 'NEW: --sweep=ioengine=rdma,null (rdma: not carried out): exit 1, a valid document whose '
     'first member names why (today it began with a comma)',
     ['iobench', '--sweep=ioengine=rdma,null'] + SWJ + [JSON], err=names('rdma'), err_lines=2, stdout='json',
     json_check=sweep_members('failed', 'ok'))
case('sw-all-fail', SWP, 'NEW: every point fails: a valid document of failed members',
     ['iobench', '--sweep=ioengine=rdma,xnvme'] + SWJ + [JSON], err=names('rdma|xnvme'), err_lines=2, stdout='json',
     json_check=sweep_members('failed', 'failed'))
case('sw-middle-fails', SWP, 'the middle point fails: members before and after it run',
     ['iobench', '--sweep=ioengine=null,rdma,null'] + SWJ + [JSON], err=names('rdma'), err_lines=3, stdout='json',
     json_check=sweep_members('ok', 'failed', 'ok'))
case('sw-csv-first-fails', SWP, 'NEW: CSV, the first point fails: the header comes with the first row',
     ['iobench', '--sweep=ioengine=rdma,null'] + SWJ + ['--output-format=csv'], err=names('rdma'), err_lines=2,
     stdout='nonempty', out_re=r'\Ajobname,groupid,')
case('sw-values-quoted', SWP, 'NEW: swept values with " and \\ are JSON strings, escaped (today the document broke)',
     ['iobench', '--sweep=description=a"b\\c,d'] + SWJ + [JSON], err_lines=2, exit=0, stdout='json',
     json_check=lambda d: None if [m['values']['description'] for m in d['iobench sweep']] == ['a"b\\c', 'd']
     else 'values: %r' % [m['values'] for m in d['iobench sweep']])


ESC_NAME = b'a\x01b\x1bc\td<e>f&g"h\'i,j\xffk\nl\x7fm\xc2\x85n\xef\xbf\xbeo'


def xml_parses(path=None, inner=False):
    """The file (or stdout), UTF-8 without what XML cannot hold; each <svg> in it parses."""
    def check(ctx):
        import re
        import xml.etree.ElementTree as ET
        raw = open(ctx.path(path), 'rb').read() if path else ctx.stdout
        try:
            text = raw.decode('utf-8')
        except UnicodeDecodeError as e:
            return 'not UTF-8: %s' % e
        bad = [hex(ord(c)) for c in text if (ord(c) < 32 and c not in '\t\n\r') or 0x7f <= ord(c) <= 0x9f
               or c in '\ufffe\uffff']
        if bad:
            return 'characters XML/HTML cannot hold: %s' % bad[:8]
        svgs = re.findall(r'<svg.*?</svg>', text, re.S)
        if not svgs:
            return 'no SVG'
        for s in svgs:
            try:
                ET.fromstring(s)
            except ET.ParseError as e:
                return 'the SVG does not parse: %s' % e
        return None
    return check


def csv_parses(ctx):
    import csv
    import io
    try:
        rows = list(csv.reader(io.StringIO(ctx.stdout.decode('utf-8'), newline='')))
    except (UnicodeDecodeError, csv.Error) as e:
        return 'not CSV in UTF-8: %s' % e
    if len({len(r) for r in rows}) != 1 or len(rows) < 2:
        return 'rows: %s' % [len(r) for r in rows]
    want = ESC_NAME.decode('utf-8', 'replace')
    return None if any(want in r for r in rows[1:]) else 'the name is not one field'


ESCJ = ['--ioengine=null', '--size=64k']
case('esc-json', ESC, 'a job name with controls, quotes and bytes that are not UTF-8: one valid JSON document',
     ['iobench', b'--name=' + ESC_NAME] + ESCJ + [JSON], exit=0, err_lines=0, stdout='json')
case('esc-csv', ESC, 'NEW: the same in CSV: UTF-8 (a stray byte is U+FFFD), the name one quoted field, every row '
     'as long (today not UTF-8)',
     ['iobench', b'--name=' + ESC_NAME] + ESCJ + ['--output-format=csv'], exit=0, err_lines=0, stdout='nonempty',
     check=csv_parses)
case('esc-html', ESC, 'NEW: the same in HTML: UTF-8 without C0/C1 controls, its SVG parses (today neither)',
     ['iobench', b'--name=' + ESC_NAME] + ESCJ + ['--output-format=html'], exit=0, err_lines=0, stdout='nonempty',
     check=xml_parses())
case('esc-plot', ESC, 'NEW: --plot\'s SVG with that name parses as XML (today: not well-formed, \\x01)',
     ['iobench', b'--name=' + ESC_NAME, '--plot=p.svg'] + ESCJ, exit=0, err_lines=0, stdout='nonempty',
     check=xml_parses('p.svg'))
case('esc-plot-controls', ESC, 'NEW: controls only (the text is UTF-8): the SVG still parses',
     ['iobench', b'--name=c\x01t\x02l\x1b<&>', '--plot=p.svg'] + ESCJ, exit=0, err_lines=0, stdout='nonempty',
     check=xml_parses('p.svg'))
case('esc-sweep-html', ESC, 'NEW: a sweep over names with controls and < & >: the HTML page and its chart parse',
     ['iobench', '--name=s', b'--sweep=name=x\x01<&>"\x1b\xffy,plain', '--sweep=bs=4k,8k'] + ESCJ +
     ['--output-format=html'], exit=0, err_lines=4, stdout='nonempty', check=xml_parses())
case('esc-sweep-plot', ESC, 'NEW: the sweep\'s --plot chart parses',
     ['iobench', '--name=s', b'--sweep=name=x\x01<&>"\x1b\xffy,plain', '--sweep=bs=4k,8k', '--plot=p.svg'] + ESCJ,
     exit=0, err_lines=4, stdout='nonempty', check=xml_parses('p.svg'))
case('esc-sweep-json', ESC, 'NEW: the same sweep in JSON: one valid document (today a " or a control broke it)',
     ['iobench', '--name=s', b'--sweep=name=x\x01<&>"\x1b\xffy,plain', '--sweep=bs=4k,8k'] + ESCJ + [JSON],
     exit=0, err_lines=4, stdout='json')
