#!/usr/bin/env python3
"""The table of docs/testing.md from a `make test` log: each integration script's
`# t_name.sh: Ns` line, slowest first, in two columns; the summary line and the lane each
script runs in. Usage: python3 tests/tools/timing_table.py LOG"""
import os, re, sys

log = open(sys.argv[1]).read()
times = [(m.group(1), int(m.group(2))) for m in re.finditer(r'^# (t_\S+\.sh): (\d+)s$', log, re.M)]
times.sort(key=lambda t: (-t[1], t[0]))
top = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'integration')


def lane(name):
    try:
        head = open(os.path.join(top, name)).read()
    except OSError:
        return ''
    return 'timing' if re.search(r'^# lane: timing', head, re.M) else 'other'


half = (len(times) + 1) // 2
rows = [times[:half], times[half:]]
print('| integration script | lane | time | | integration script | lane | time |')
print('|---|---|---|---|---|---|---|')
for i in range(half):
    cells = []
    for col in rows:
        if i < len(col):
            n, t = col[i]
            cells += [n, lane(n), '%d s' % t]
        else:
            cells += ['', '', '']
    print('| ' + ' | '.join(cells[:3]) + ' | | ' + ' | '.join(cells[3:]) + ' |')
for lane_name in ('timing', 'other'):
    print('\n%s lane: %d s in all' % (lane_name, sum(t for n, t in times if lane(n) == lane_name)), end='')
print()
m = re.findall(r'^\d+ passed, \d+ failed.*$', log, re.M)
if m:
    print('\nsummary: ' + m[-1])
