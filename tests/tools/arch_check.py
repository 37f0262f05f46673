#!/usr/bin/env python3
"""The house's rules (docs/architecture.md), checked on the sources; `make check` runs it.

Folders are layers, and a file uses (includes, calls, or reads the data of) only files of its
own folder or of folders below it:

    core/app > report > core/run > core/worker > engines > {core/plan, core/stats} > core/job > core/lib

(core/plan and core/stats stand side by side and use neither each other.) Besides:
- no circle of any length between files (a file's arrows: the headers it includes, the files
  whose functions it calls or whose data it reads);
- a header declares only functions defined in its own folder;
- engines/ see only engines/engine.h of the project (the Ceph engines also engines/ceph.h);
  report/ sees only core/stats/results.h, core/stats/stats.h, core/stats/hist.h and core/job/job.h;
- no function over 80 lines and no source file over 600 lines.
The arrows allowed against the direction are listed in ALLOWED below, each with its reason, and
docs/architecture.md names every one of them.

Prints one line per finding ("arch: ...") and exits 1 when there is any; silent and 0
otherwise. `--graph` prints the arrows between files (one "A -> B: why" per line) instead."""
import glob
import os
import re
import sys

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.chdir(top)

RANK = {'core/lib': 0, 'core/job': 1, 'core/plan': 2, 'core/stats': 2, 'engines': 3,
        'core/worker': 4, 'core/run': 5, 'report': 6, 'core/app': 7}
# (from file, to file): why the arrow runs against the direction. At most two.
ALLOWED = {}
MAX_FUNCTION_LINES = 80
MAX_FILE_LINES = 600
KEYWORDS = {'if', 'while', 'for', 'switch', 'return', 'sizeof', '__attribute__'}

files = sorted(f for f in glob.glob('core/*/*.[ch]') + glob.glob('engines/*.[ch]') + glob.glob('report/*.[ch]'))
found = []


def folder(path):
    return os.path.dirname(path)


def module(path):
    return path


def strip(text):
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


raw = {f: open(f).read() for f in files}
src = {f: strip(t) for f, t in raw.items()}

# What each .c defines for others: functions and data not static.
FUNC_DEF = re.compile(r'^(?!static)[a-z][\w \*]*?\b(\w+)\(([^;{]*)\)\s*\n\{', re.M)
DATA_DEF = re.compile(r'^(?!static)(?:const )?(?:struct|enum) \w+ \*?(\w+)(\[\w*\])?\s*=', re.M)
defs = {}
for f, s in src.items():
    if f.endswith('.c'):
        for m in list(FUNC_DEF.finditer(s)) + list(DATA_DEF.finditer(s)):
            if m.group(1) not in KEYWORDS:
                defs.setdefault(m.group(1), f)

arrows = {}  # (file, file) -> set of reasons
for f in files:
    for inc in re.findall(r'#include "([^"]+)"', re.sub(r'/\*.*?\*/', '', raw[f], flags=re.S)):
        if inc in raw and module(inc) != module(f):
            arrows.setdefault((module(f), module(inc)), set()).add('includes ' + inc)
for f, s in src.items():
    if not f.endswith('.c'):
        continue
    s = re.sub(r'\b(struct|enum|union)\s+\w+', ' ', s)  # a type's tag is no use of a namesake
    words = set(re.findall(r'(?<![.>\w])\w+\b', s))  # nor a field (.name, ->name)
    for name in words & defs.keys():
        if module(defs[name]) != module(f):
            arrows.setdefault((module(f), module(defs[name])), set()).add('uses ' + name)

if sys.argv[1:] == ['--graph']:
    for (a, b), why in sorted(arrows.items()):
        print('%s -> %s: %s' % (a, b, ', '.join(sorted(why))))
    sys.exit(0)


def layer_of(mod):
    return folder(mod)


for (a, b), why in sorted(arrows.items()):
    la, lb = layer_of(a), layer_of(b)
    if la == lb or (a, b) in ALLOWED:
        continue
    if la not in RANK or lb not in RANK:
        found.append('%s -> %s: a folder that is no layer' % (a, b))
    elif RANK[la] <= RANK[lb]:
        found.append('against the direction: %s (%s) -> %s (%s): %s'
                     % (a, la, b, lb, ', '.join(sorted(why))[:160]))
for (a, b), why in ALLOWED.items():
    if why not in open('docs/architecture.md').read():
        found.append('%s -> %s is allowed but docs/architecture.md does not name its reason' % (a, b))
if len(ALLOWED) > 2:
    found.append('%d arrows allowed against the direction (at most 2)' % len(ALLOWED))

# Headers declare what their own folder defines.
for f, s in src.items():
    if f.endswith('.h'):
        for m in re.finditer(r'\b(\w+)\s*\([^;{)]*\)[^;{]*;', s):
            d = defs.get(m.group(1))
            if d and d.endswith('.c') and folder(d) != folder(f):
                found.append('%s declares %s, which %s defines (a header declares its own folder\'s functions)'
                             % (f, m.group(1), d))

# Circles of any length (Tarjan's strongly connected components over files).
adj = {}
for a, b in arrows:
    adj.setdefault(a, set()).add(b)
index, low, stack, on, counter = {}, {}, [], set(), [0]
sys.setrecursionlimit(10000)


def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in sorted(adj.get(v, ())):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            found.append('circle: %s' % ' '.join(sorted(comp)))


for v in sorted({module(f) for f in files}):
    if v not in index:
        visit(v)

# The doors of engines/ and report/.
CEPH = {'engines/rbd.c', 'engines/rados.c', 'engines/ceph.c', 'engines/ceph.h'}
# The engine layer's own files (the contract, the registry, the options of every table) are no engines.
CONTRACT = {'engines/%s.%s' % (n, x) for n in ('engine', 'registry', 'secret') for x in 'ch'}
for f in files:
    incs = re.findall(r'#include "([^"]+)"', raw[f])
    if f.startswith('engines/') and f not in CONTRACT:
        for inc in incs:
            if inc != 'engines/engine.h' and not (inc == 'engines/ceph.h' and f in CEPH):
                found.append('%s includes %s (an engine sees only engines/engine.h; engines/ceph.h is '
                             'for rbd.c and rados.c)' % (f, inc))
    if f.startswith('report/'):
        for inc in incs:
            if inc.startswith('core/') and inc not in ('core/stats/results.h', 'core/stats/stats.h',
                                                         'core/stats/hist.h', 'core/job/job.h'):
                found.append('%s includes %s (report/ sees only core/stats/results.h and what it brings)'
                             % (f, inc))

# Sizes: functions (tables are not functions) and files.
for f in files:
    lines = raw[f].split('\n')
    if len(lines) - 1 > MAX_FILE_LINES:
        found.append('%s: %d lines (at most %d a file)' % (f, len(lines) - 1, MAX_FILE_LINES))
    start = None
    for i, line in enumerate(lines):
        if line == '{' and i > 0:
            start = i
            j = i - 1
            while j > 0 and not re.match(r'^[a-z].*\(', lines[j]):
                j -= 1
            name = lines[j].strip()
        elif line == '}' and start is not None:
            if i - start + 1 > MAX_FUNCTION_LINES:
                found.append('%s: %d lines: %s' % (f, i - start + 1, name[:80]))
            start = None

for line in found:
    print('arch:', line)
sys.exit(1 if found else 0)
