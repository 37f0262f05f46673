#!/usr/bin/env python3
"""An S3 job's object rate and latencies, from iobench's JSON and from the RADOS Gateway.

usage: rgw_lat.py LOG OFFSET METHOD JSON DIR PERF0 PERF1 COUNTER

LOG: the gateway's log (debug_rgw 1, Ceph's default, writes one `beast:` access line per
request: its start time, method, path, status and `latency=`); OFFSET: the log's size in
bytes before the job (only lines after it count); METHOD: PUT or GET; JSON: iobench's
--output-format=json of the job (group_reporting); DIR: write or read; PERF0 / PERF1: the
gateway's `perf dump` before and after the job; COUNTER: put or get (its `COUNTER_initial_lat`
has the sum and count of the gateway's latencies).

What the gateway measures: from accepting a request until its reply is handed to the socket,
on a coarse clock that ticks every 4 ms here (every latency is a multiple of 4 ms). The
client's latency (iobench's clat: a request sent until its reply is in) holds the gateway's,
so each of its percentiles may be lower than the gateway's only by the tick (and iobench's
histogram bucket, under 1/64 of the value), and its mean not at all (the tick's truncations
at both ends of a request cancel out on average). It may be higher by what the client and
loopback add: SLACK_MS plus SLACK_FRAC of the gateway's figure. Checked: mean, p50, p90, p99
(with 16 objects p99 is the largest); the largest of 1024 is printed, not checked (one
request's scheduling on two shared cores). The rate: iobench's objects/s against the count
the gateway logged over its own window (first request's start to last one's end): iobench's
runtime holds that window, so its rate is at most the gateway's (+2%, 1/s: the log's ms), and
at least 85% of it (what the client adds before its first request and after its last).

Prints one line (the figures of both, side by side) and exits 0 when they agree, 1 when not.
"""
import json
import re
import sys
from datetime import datetime, timezone

TICK_MS = 4.0     # the gateway's clock (the smallest latency it logs, every one a multiple)
SLACK_MS = 5.0    # what the client may add to a request, at most: fixed part ...
SLACK_FRAC = 0.25  # ... and a part proportional to the gateway's own time
LINE = re.compile(r'^(\S+) \S+ +\d+ beast: \S+ \S+ - \S+ \[([^\]]+)\] "(\w+) (\S+) [^"]*" (\d+) .* latency=([0-9.]+)s')


def stamp(text):
    """Seconds since the epoch of the log's prefix (2026-12-01T22:11:34.799+0000) or of the
    access line's bracket (01/Dec/2026:22:11:32.971 +0000)."""
    for fmt in ("%Y-%m-%dT%H:%M:%S.%f%z", "%d/%b/%Y:%H:%M:%S.%f %z"):
        try:
            return datetime.strptime(text, fmt).astimezone(timezone.utc).timestamp()
        except ValueError:
            pass
    raise ValueError(text)


def gateway(log, offset, method):
    """The job's requests as the gateway logged them: (latencies in ms, first start, last end)."""
    lats, first, last = [], None, None
    with open(log, "rb") as f:
        f.seek(offset)
        for raw in f:
            m = LINE.match(raw.decode("utf-8", "replace"))
            if not m or m.group(3) != method or not m.group(5).startswith("2"):
                continue
            lats.append(float(m.group(6)) * 1000)
            start, end = stamp(m.group(2)), stamp(m.group(1))
            first = start if first is None else min(first, start)
            last = end if last is None else max(last, end)
    return sorted(lats), first, last


def rank(sorted_ms, pct):
    """The nearest-rank percentile (the smallest value with pct% at or below it)."""
    i = max(0, min(len(sorted_ms) - 1, int(-(-len(sorted_ms) * pct // 100)) - 1))
    return sorted_ms[i]


def agree(client, gw):
    """Client figure within [gateway - tick - 1/64, gateway * (1 + SLACK_FRAC) + SLACK_MS]."""
    return gw - TICK_MS - gw / 64 <= client <= gw * (1 + SLACK_FRAC) + SLACK_MS


def main(argv):
    log, offset, method, jpath, ddir, perf0, perf1, counter = argv[1:9]
    lats, first, last = gateway(log, int(offset), method)
    with open(jpath) as f:
        d = json.load(f)["jobs"][0][ddir]
    c = [json.load(open(p))["rgw"][counter + "_initial_lat"] for p in (perf0, perf1)]
    n_perf = c[1]["avgcount"] - c[0]["avgcount"]
    if not lats or n_perf <= 0:
        print(f"no {method} in the gateway's log or counters ({len(lats)} lines, {n_perf} counted)")
        return 1
    mean_perf = (c[1]["sum"] - c[0]["sum"]) / n_perf * 1000
    mean_log = sum(lats) / len(lats)
    pct = d["clat_ns"]["percentile"]
    rows = [("mean", d["clat_ns"]["mean"] / 1e6, mean_log)]
    for p in ("50", "90", "99"):
        rows.append((f"p{p}", pct[f"{p}.000000"] / 1e6, rank(lats, float(p))))
    rows.append(("max", d["clat_ns"]["max"] / 1e6, lats[-1]))
    window = last - first
    rate_gw = len(lats) / window if window > 0 else 0.0
    rate_ok = rate_gw * 0.85 <= d["iops"] <= rate_gw * 1.02 + 1
    mean_ok = rows[0][1] >= max(mean_log, mean_perf)
    ok = (len(lats) == n_perf == d["total_ios"] and mean_perf <= mean_log + 0.5 and rate_ok and mean_ok and
          all(agree(cl, gw) for _, cl, gw in rows[:-1]))
    figs = ", ".join(f"{k} {cl:.1f}/{gw:.1f}" for k, cl, gw in rows)
    print(f"{d['total_ios']} objects, gateway {len(lats)} logged, {n_perf} counted; "
          f"rate {d['iops']:.0f}/{rate_gw:.0f} objects/s (iobench/gateway's log window {window:.3f} s); "
          f"ms iobench clat/gateway: {figs}; the gateway's {counter}_initial_lat mean {mean_perf:.1f}")
    tsv = [f"{d['iops']:.0f}", f"{rate_gw:.0f}"] + [f"{x:.1f}" for _, cl, gw in rows for x in (cl, gw)]
    sys.stderr.write("\t".join(tsv) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
