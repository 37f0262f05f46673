#!/usr/bin/python3
"""The P-th percentile of summed json+ latency bins, as fio reports it: the value of the
first bin at which the running count reaches P% of all. Reads a JSON array of bins objects
({"value_ns": count, ...}) on stdin; prints the value.
    jq -s '[.[].jobs[0].read.clat_ns.bins]' a.json b.json | tests/tools/bins_pct.py 99"""
import json
import sys

p = float(sys.argv[1])
bins = {}
for b in json.load(sys.stdin):
    for k, v in b.items():
        bins[int(k)] = bins.get(int(k), 0) + v
total, cum = sum(bins.values()), 0
for k in sorted(bins):
    cum += bins[k]
    if cum >= p / 100.0 * total:
        print(k)
        break
