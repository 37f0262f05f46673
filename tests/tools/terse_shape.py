#!/usr/bin/env python3
"""Compare the shape of two terse outputs: line count, field count, and each field's
kind (integer, 6-decimal float, percentage, percentile=value, text)."""
import re, sys

KINDS = [('int', r'-?\d+'), ('float', r'-?\d+\.\d{6}'), ('pct', r'\d+\.\d+%'),
         ('pctval', r'(\d+\.\d{6}|0)%=\d+'), ('text', r'.*')]


def kind(f):
    for name, rx in KINDS:
        if re.fullmatch(rx, f):
            return name


def shape(path):
    return [[kind(f) for f in line.rstrip('\n').split(';')] for line in open(path) if line.strip()]


a, b = shape(sys.argv[1]), shape(sys.argv[2])
bad = []
if len(a) != len(b):
    bad.append(f'{len(a)} lines vs {len(b)}')
for n, (la, lb) in enumerate(zip(a, b)):
    if len(la) != len(lb):
        bad.append(f'line {n + 1}: {len(la)} fields vs {len(lb)}')
        continue
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y and not (i == 1 and x == y == 'text'):
            bad.append(f'line {n + 1} field {i + 1}: {x} vs {y}')
for line in bad[:10]:
    print('#   ' + line)
sys.exit(1 if bad else 0)
