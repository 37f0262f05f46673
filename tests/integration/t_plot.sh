#!/bin/sh
# Issue 6 (part): --plot=FILE.svg and the HTML page: valid, self-contained, naming the
# swept values; rendered by headless Chromium into pictures that are not blank.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
args="-filename=$T/sw -size=4m -name=sweep"
# shellcheck disable=SC2086
"$IOBENCH" --sweep=bs=4k,64k,1m --sweep=rw=read,write $args --plot="$T/sweep.svg" --output="$T/sweep.html" 2>/dev/null
"$IOBENCH" --name=r --filename="$T/sw" --rw=randrw --size=4m --plot="$T/pct.svg" --output-format=html >run.html
check "the sweep chart is valid SVG" python3 -c "import xml.etree.ElementTree as E; E.parse('sweep.svg')"
check "... naming the swept values and the series" \
	sh -c "grep -q '>4k</text>' sweep.svg && grep -q '>64k</text>' sweep.svg && grep -q '>1m</text>' sweep.svg && grep -q '>rw=write</text>' sweep.svg && grep -q 'bandwidth (MiB/s)' sweep.svg"
check "the percentile chart of a single run is valid SVG" python3 -c "import xml.etree.ElementTree as E; E.parse('pct.svg')"
check "--output=FILE.html writes the page with the chart and the sweep's table" \
	sh -c "grep -q '<svg' sweep.html && grep -q '<th>bs</th>' sweep.html && [ \$(grep -c '<tr>' sweep.html) -eq 7 ]"
check "the pages are self-contained: no scripts, nothing fetched" \
	sh -c "! grep -qiE '<script|src=|href=|@import|url\\(' sweep.html run.html sweep.svg"
CHROME=$(command -v chromium || command -v chromium-browser)
if [ -z "$CHROME" ]; then
	skip "rendering with headless Chromium" "chromium is not installed"
	exit 0
fi
nonblank() { # a PNG whose pixels are not all one colour
	python3 - "$1" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat = 8, b''
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    if kind == b'IDAT':
        idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
pixels = zlib.decompress(idat)
print('#   %s: %d distinct byte values' % (sys.argv[1], len(set(pixels))))
sys.exit(0 if len(set(pixels)) > 20 else 1)
PY
}
for f in sweep.svg sweep.html run.html; do
	timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --screenshot="$T/$f.png" --window-size=1000,1200 \
		"file://$T/$f" >/dev/null 2>&1
	check "Chromium renders $f into a picture that is not blank" nonblank "$T/$f.png"
done
