#!/usr/bin/env python3
"""Compare two outputs in fio's normal format line by line, by shape: numbers become N,
time units U, and lines that depend on the measured values alone (latency bucket lines,
the program's version, "Laying out", process/thread wording) are set aside."""
import re, sys

SKIP = [r'^\s*lat \((nsec|usec|msec)\)\s*:', r'^(fio|iobench)-', r'Laying out IO file',
        r'^\s*$', r'^Disk stats', r'^\s+\w+: ios=\d+/\d+, merge=']


def shape(path):
    out = []
    for line in open(path):
        line = line.rstrip('\n')
        if any(re.search(p, line) for p in SKIP):
            continue
        line = re.sub(r'Starting \d+ (process(es)?|threads?)', 'Starting N workers', line)
        line = re.sub(r'pid=\d+: .*$', 'pid=N: DATE', line)
        line = re.sub(r'\((nsec|usec|msec)\)', '(U)', line)
        line = re.sub(r'\d+(\.\d+)?(k|K|M|G|T|P)?(i?B|i?bit)?(/s)?', 'N', line)
        line = re.sub(r'\[\s+', '[', line)      # padding depends on the values
        line = re.sub(r'=\s+', '=', line)
        line = re.sub(r'\s+', ' ', line)
        out.append(line.strip())
    return out




def join_rows(lines):
    """A percentile block's rows as one line: how many values fit on a row follows the widest
    value measured (an outlier makes it 3 instead of 4), which t_perf.sh checks against the
    run's own JSON; across two runs only the values in order compare."""
    out = []
    for x in lines:
        if x.startswith('| ') and out and out[-1].startswith('| ') and out[-1].endswith(','):
            out[-1] += ' ' + x[2:]
        else:
            out.append(x)
    return out


a, b = join_rows(shape(sys.argv[1])), join_rows(shape(sys.argv[2]))
# The bw/iops sample lines appear once a run has taken a bwavgtime sample: whether a
# one-second run on a loaded machine gets one is scheduling, not format. When only one
# side has them, they are set aside on both.
SAMPLE = re.compile(r'^(bw \(|iops :)')
if any(SAMPLE.match(x) for x in a) != any(SAMPLE.match(x) for x in b):
    a = [x for x in a if not SAMPLE.match(x)]
    b = [x for x in b if not SAMPLE.match(x)]
if a == b:
    sys.exit(0)
import difflib
for d in list(difflib.unified_diff(a, b, 'fio', 'iobench', lineterm='', n=1))[:16]:
    print('#   ' + d)
sys.exit(1)
