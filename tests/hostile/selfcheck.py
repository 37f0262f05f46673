"""The harness's checks of itself (run.py --selfcheck, from t_hostile.sh): each case here
does one thing the harness must catch; it passes when the harness fails it for that reason
(the regex in 'detects'). Run one at a time: the sentinel case touches a global file."""
CASES = []


def case(id, detects, argv, **kw):
    kw.update(id=id, cls='selfcheck', desc='the harness detects: ' + id, argv=argv, detects=detects)
    kw.setdefault('exit', 0)
    CASES.append(kw)


case('a changed sentinel', r'^sentinel: changed .*job\.fio',
     ['sh', '-c', 'echo x >>"$0/../../../sentinel/job.fio"', '{S}'])
case('a changed file outside the scratch dir', r'^outside the scratch dir \(\{O\}\): changed f ',
     ['sh', '-c', 'echo x >{O}/f'], setup=[dict(file='{O}/f', content='a')])
case('a file created outside the scratch dir', r'^outside the scratch dir \(\{O\}\): created g ',
     ['sh', '-c', 'touch {O}/g'])
case('a file created beside the scratch dir', r'^created beside the scratch dir: evil',
     ['sh', '-c', 'touch ../evil'])
case('a file created in a read-only scratch dir', r'^read-only scratch dir: created newfile',
     ['sh', '-c', 'touch newfile'], ro=True)
case('a file grown in a read-only scratch dir', r'^read-only scratch dir: changed f \(size 3 -> 4',
     ['sh', '-c', 'echo >>f'], setup=[dict(file='f', content='abc')], ro=True)
case('a file rewritten with the same bytes', r'^read-only scratch dir: changed f \(mtime changed',
     ['sh', '-c', 'printf abc >f'], setup=[dict(file='f', content='abc', mtime=1000000000)], ro=True)
case('a crash', r'^crashed: killed by SIGSEGV', ['sh', '-c', 'kill -SEGV $$'])
case('a sanitizer report', r'^sanitizer report',
     ['sh', '-c', 'echo "==1==ERROR: AddressSanitizer: heap-use-after-free" >&2'])
case('a UBSan report', r'^sanitizer report', ['sh', '-c', 'echo "x.c:1:2: runtime error: overflow" >&2'])
case('a hang', r'^did not finish within 1s', ['sleep', '30'], timeout=1)
case('unbounded memory', r'^used \d+ MiB of memory, more than 64 MiB',
     ['python3', '-c', 'import time; x = bytearray(200 << 20); time.sleep(5)'], max_rss_mb=64)
case('NaN in JSON', r'JSON holds NaN', ['sh', '-c', 'echo "{\\"a\\": NaN}"'], stdout='json')
case('two JSON documents', r'not one valid JSON document', ['sh', '-c', 'echo "{}{}"'], stdout='json')
case('invalid UTF-8 in JSON', r'not UTF-8', ['sh', '-c', 'printf "{\\"a\\": \\"\\377\\"}"'], stdout='json')
case('output on a refusal', r'^stdout not empty', ['sh', '-c', 'echo report'])
case('a second stderr line', r'^stderr has 2 lines', ['sh', '-c', 'echo a >&2; echo b >&2'], err='a')
case('an echo of a long value', r'^stderr is \d+ bytes', ['sh', '-c', 'head -c 5000 /dev/zero | tr "\\0" a >&2'],
     err='a', err_lines=5)
case('a wrong exit status', r'^exit 0, wanted 1', ['true'], exit=1)
case('a slow stop after a signal', r'^ended \d\.\ds after the last signal',
     ['sh', '-c', 'trap "sleep 2; exit 130" INT; sleep 10 & wait; sleep 3'], signals=[('INT', 300)],
     exit=130, stop_within=1, timeout=8)
case('a changed device', r'^the contents of LOOP',
     ['sh', '-c', 'printf x | dd of={LOOP} bs=1 seek=100 conv=notrunc 2>/dev/null'],
     setup=[dict(loop='LOOP', size=1 << 20, protect=True)])
