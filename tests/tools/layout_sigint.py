#!/usr/bin/env python3
"""SIGINT while iobench lays out a big file: start it, wait until the file exists and is
part-written, send SIGINT, and print: the size seen when signalled, the target size, the
milliseconds from the signal to the exit, the exit status, and whether the file is left.
usage: layout_sigint.py FILE TARGET_BYTES IOBENCH ARGS..."""
import os
import signal
import subprocess
import sys
import time

path, target, cmd = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
seen = 0
deadline = time.monotonic() + 30
while time.monotonic() < deadline and p.poll() is None:
    try:
        seen = os.stat(path).st_size
    except FileNotFoundError:
        seen = 0
    if 0 < seen < target:
        break
    time.sleep(0.001)
t0 = time.monotonic()
p.send_signal(signal.SIGINT)
try:
    p.wait(timeout=10)
except subprocess.TimeoutExpired:
    p.kill()
    p.wait()
ms = int((time.monotonic() - t0) * 1000)
err = p.stderr.read().decode(errors="replace").strip().replace("\n", " | ")
print(seen, target, ms, p.returncode, "left" if os.path.exists(path) else "gone", err)
