#!/usr/bin/env python3
"""The arrows docs/architecture.md says must never exist, checked on the sources:
- no two files (core/, engines/, report/) call functions of each other (circles);
- report/ includes only core/results.h (and what it brings), never run/worker/engine/files;
- engines/ include only core/engine.h of the project's headers (and the Ceph engines, rbd.c and
  rados.c, the header of their shared connection code, engines/ceph.h, which ceph.c implements);
- no function longer than 80 lines (tables are not functions).
Prints one line per finding and exits 1 when there is any; silent and 0 otherwise."""
import glob
import os
import re
import sys

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.chdir(top)
files = sorted(glob.glob('core/*/*.c') + glob.glob('engines/*.c') + glob.glob('report/*.c'))
found = []


def strip(text):
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    return re.sub(r'"(\\.|[^"\\])*"', '""', text)


src = {f: strip(open(f).read()) for f in files}
defs = {}
for f, s in src.items():
    for m in re.finditer(r'^(?!static)[a-z][\w \*]*?\b(\w+)\(([^;{]*)\)\s*\n\{', s, re.M):
        defs.setdefault(m.group(1), f)
calls = {f: set() for f in files}
for f, s in src.items():
    for name, df in defs.items():
        if df != f and re.search(r'\b' + name + r'\s*\(', s):
            calls[f].add(df)
for a in files:
    for b in sorted(calls[a]):
        if a < b and a in calls[b]:
            found.append('circle: %s and %s call each other' % (a, b))

for f in glob.glob('report/*.[ch]'):
    for inc in re.findall(r'#include "([^"]+)"', open(f).read()):
        if inc.startswith('core/') and inc not in ('core/stats/results.h', 'core/stats/stats.h', 'core/stats/hist.h', 'core/job/job.h'):
            found.append('%s includes %s (report/ sees only core/results.h)' % (f, inc))
# The one door beside core/engine.h: engines/ceph.h, for the engines on librados only.
CEPH_DOOR = {'engines/rbd.c', 'engines/rados.c', 'engines/ceph.c', 'engines/ceph.h'}
for f in sorted(set(glob.glob('engines/*.[ch]')) - {'engines/engine.c', 'engines/engine.h'}):
    for inc in re.findall(r'#include "([^"]+)"', open(f).read()):
        if inc == 'engines/engine.h' or (inc == 'engines/ceph.h' and f in CEPH_DOOR):
            continue
        found.append('%s includes %s (engines see only core/engine.h; engines/ceph.h is for %s)'
                     % (f, inc, ', '.join(sorted(CEPH_DOOR - {'engines/ceph.h'}))))

for f in files:
    lines = open(f).read().split('\n')
    start = None
    for i, line in enumerate(lines):
        if line == '{' and i > 0:
            start = i
            j = i - 1
            while j > 0 and not re.match(r'^[a-z].*\(', lines[j]):
                j -= 1
            name = lines[j].strip()
        elif line == '}' and start is not None:
            if i - start + 1 > 80:
                found.append('%s: %d lines: %s' % (f, i - start + 1, name[:80]))
            start = None

for line in found:
    print('arch:', line)
sys.exit(1 if found else 0)
