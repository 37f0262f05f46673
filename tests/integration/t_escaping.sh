#!/bin/sh
# Issue 24, point 7: names and other user text are escaped for every format. A job name (and
# swept values) with control characters (\001, ESC, tab, newline, CR, DEL, a C1 control),
# < > & " ' and commas, a byte that is not UTF-8 and U+FFFE: JSON parses (strict UTF-8), CSV
# reads back through Python's csv module with the name in one field, the HTML page is UTF-8
# without the controls HTML refuses and its SVG parses as XML, and so does --plot's SVG (XML
# 1.0 cannot hold most control characters: they are replaced). Before, the SVG did not parse
# and the CSV was not UTF-8.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
if ! have python3; then
	skip "escaping" "python3 is not installed"
	exit 0
fi
NAME=$(printf 'a\001b\033c\td<e>f&g"h'"'"'i,j\377k\nl\rm\177n\302\205o\357\277\276p')
JOB="--ioengine=null --size=64k"
"$IOBENCH" --name="$NAME" $JOB --output-format=json >run.json 2>err.txt
"$IOBENCH" --name="$NAME" $JOB --output-format=csv >run.csv 2>>err.txt
"$IOBENCH" --name="$NAME" $JOB --output-format=html >run.html 2>>err.txt
"$IOBENCH" --name="$NAME" $JOB --plot=run.svg >/dev/null 2>>err.txt
# A sweep of two names (the comma in NAME would split it: a value without one) and two sizes.
SW=$(printf 'x\001<&>"\033\377y')
"$IOBENCH" --name=s $JOB --sweep=bs=4k,8k --sweep=name="$SW,plain" --output-format=json >sw.json 2>>err.txt
"$IOBENCH" --name=s $JOB --sweep=bs=4k,8k --sweep=name="$SW,plain" --output-format=csv >sw.csv 2>>err.txt
"$IOBENCH" --name=s $JOB --sweep=bs=4k,8k --sweep=name="$SW,plain" --output-format=html >sw.html 2>>err.txt
"$IOBENCH" --name=s $JOB --sweep=bs=4k,8k --sweep=name="$SW,plain" --plot=sw.svg >/dev/null 2>>err.txt
# Control characters alone (the text is UTF-8): XML 1.0 still cannot hold them.
CTL=$(printf 'c\001t\002l\033<&>')
"$IOBENCH" --name="$CTL" $JOB --plot=ctl.svg >/dev/null 2>>err.txt
"$IOBENCH" --name="$CTL" $JOB --output-format=html >ctl.html 2>>err.txt
check "the runs print nothing on stderr but the sweeps' progress" sh -c "! grep -v '^\[[0-9]/4\] ' err.txt"

printf '%s' "$NAME" >name.run
printf '%s' "$SW" >name.sw
printf '%s' "$CTL" >name.ctl
cat >check.py <<'PY'
import codecs, csv, io, json, re, sys
import xml.etree.ElementTree as ET
what, path, name = sys.argv[1], sys.argv[2], open(sys.argv[3], 'rb').read()
raw = open(path, 'rb').read()
try:
    text = raw.decode('utf-8')
except UnicodeDecodeError as e:
    sys.exit('not UTF-8: %s' % e)
# JSON keeps a byte that is not UTF-8 as \u00XX (its Latin-1 character); the others put U+FFFD
codecs.register_error('latin1', lambda e: (''.join(chr(b) for b in e.object[e.start:e.end]), e.end))
want = name.decode('utf-8', 'replace')
if what == 'json':
    def reject(c):
        raise ValueError(c)
    d = json.loads(text, parse_constant=reject)
    got = [j['jobname'] for j in d['jobs']] if 'jobs' in d else [m['values']['name'] for m in d['iobench sweep']]
    if name.decode('utf-8', 'latin1') not in got:
        sys.exit('the name is not there: %r' % got[:4])
elif what == 'csv':
    rows = list(csv.reader(io.StringIO(text, newline='')))
    if len({len(r) for r in rows}) != 1:
        sys.exit('rows of different lengths: %s' % [len(r) for r in rows])
    got = [r[rows[0].index('name' if 'name' in rows[0] else 'jobname')] for r in rows[1:]]
    if want not in got:
        sys.exit('the name %r is not a field: %r' % (want, got))
else:  # html, svg
    bad = [hex(ord(c)) for c in text if (ord(c) < 32 and c not in '\t\n\r') or 0x7f <= ord(c) <= 0x9f or c in '\ufffe\uffff']
    if bad:
        sys.exit('characters XML or HTML cannot hold: %s' % bad[:10])
    shown = re.findall(r'<t[dh]>(.*?)</t[dh]>', text, re.S) if what == 'html' else []
    svgs = re.findall(r'<svg.*?</svg>', text, re.S)
    for s in svgs:
        try:
            shown += [''.join(t.itertext()) for t in ET.fromstring(s).iter('{http://www.w3.org/2000/svg}text')]
        except ET.ParseError as e:
            sys.exit('the SVG does not parse: %s' % e)
    if not svgs:
        sys.exit('no SVG')
    # the name as shown: C0 controls and DEL as their pictures, C1 and U+FFFE as U+FFFD
    pic = ''.join(chr(0x2400 + ord(c)) if ord(c) < 32 and c not in '\t\n\r' else '\u2421' if c == '\x7f'
                  else '\ufffd' if 0x80 <= ord(c) <= 0x9f or c == '\ufffe' else c for c in want)
    esc = pic.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;').replace('"', '&quot;').replace("'", '&#39;')
    if not any(pic[:9] in s or esc[:30] in s for s in shown):
        sys.exit('the name is not shown: %r not in %r' % (pic[:9], shown[:8]))
print('ok')
PY
for f in run.json sw.json run.csv sw.csv run.html sw.html run.svg sw.svg ctl.svg ctl.html; do
	out=$(python3 check.py "${f#*.}" "$f" "name.${f%.*}" 2>&1)
	check "$f: ${f#*.} that parses, with the name in it (${out%%
*})" [ "$out" = ok ]
done
