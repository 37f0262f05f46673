"""How the tools that run fio read its output, each as a small function.

A consumer takes one finished run (see run.py: out, err, rc, doc, dir, version, text())
and returns a dict of what the tool would take from it: {what: value}. It raises where
the tool itself would fail (a missing key, a value Go's encoding/json refuses, stderr
where the tool treats any as an error). run.py calls it on fio's run and on iobench's
and compares the kinds of the values (kind() below), never the figures.

Each is written from what the project does (its parser, its jq or grep); the comment
names where that is.
"""
import re

# ---- comparing: a value's kind ---------------------------------------------------------

SHAPES = [  # strings that tools read as numbers with units (dbench's IOPS=12.3k, BW=1.2GiB/s)
    ('count', r'[0-9]+(\.[0-9]+)?[kMG]?'),
    ('rate', r'[0-9]+(\.[0-9]+)?[kKMGTP]?i?B/s'),
    ('size', r'[0-9]+(\.[0-9]+)?[kKMGTP]?i?B'),
    ('percent', r'[0-9]+(\.[0-9]+)?%'),
    ('pct=value', r'[0-9]+(\.[0-9]+)?%=[0-9]+'),
]


class Exact:
    """A value that must be the same from both runs, not only of the same kind: names,
    options as given, which log files exist and their field counts."""

    def __init__(self, v):
        self.v = v

    def __repr__(self):
        return 'Exact(%r)' % (self.v,)


def kind(v):
    """What a tool can do with the value: bool, int, float, a numeric string of a shape,
    other text, a list or dict of kinds, or None (absent); Exact values are themselves."""
    if isinstance(v, Exact):
        return 'exact:%r' % (v.v,)
    if v is None or isinstance(v, bool):
        return repr(v) if isinstance(v, bool) else 'absent'
    if isinstance(v, int):
        return 'int'
    if isinstance(v, float):
        return 'float'
    if isinstance(v, str):
        for name, rx in SHAPES:
            if re.fullmatch(rx, v.strip()):
                return 'str:' + name
        return 'str'
    if isinstance(v, (list, tuple)):
        return [kind(x) for x in v]
    if isinstance(v, dict):
        return {k: kind(x) for k, x in v.items()}
    return type(v).__name__


class Refused(Exception):
    """The tool would stop here (its own error path)."""


def need(cond, why):
    if not cond:
        raise Refused(why)


# ---- kubestr (kastenhq/kubestr, pkg/fio/fio.go and fio_types.go) ------------------------
# runFIOCommand: `fio --directory /dataset JOB --output-format=json`; any stderr is an
# error ("stderr when running FIO"); then json.Unmarshal into FioResult, whose Go types
# refuse a float where an int32/int64 is declared and a number where a string is.

I32, I64, F32, STR = 'int32', 'int64', 'float32', 'string'
NS = {'min': I64, 'max': I64, 'mean': F32, 'stddev': F32, 'N': I64}
STATS = {'io_bytes': I64, 'io_kbytes': I64, 'bw_bytes': I64, 'bw': I64, 'iops': F32, 'runtime': I64,
         'total_ios': I64, 'short_ios': I64, 'drop_ios': I64, 'slat_ns': NS, 'clat_ns': NS, 'lat_ns': NS,
         'bw_min': I64, 'bw_max': I64, 'bw_agg': F32, 'bw_mean': F32, 'bw_dev': F32, 'bw_samples': I32,
         'iops_min': I32, 'iops_max': I32, 'iops_mean': F32, 'iops_stddev': F32, 'iops_samples': I32}
DEPTH = {k: F32 for k in ('0', '1', '2', '4', '8', '16', '32', '64', '>=64')}
LATB = {k: F32 for k in ('2', '4', '10', '20', '50', '100', '250', '500', '750', '1000', '2000', '>=2000')}
JOB = {'jobname': STR, 'groupid': 'int', 'error': 'int', 'eta': 'int', 'elapsed': 'int',
       'job options': {k: STR for k in ('name', 'bs', 'iodepth', 'size', 'rw', 'ramp_time', 'runtime')},
       'read': STATS, 'write': STATS, 'trim': STATS, 'sync': STATS, 'job_runtime': I32, 'usr_cpu': F32,
       'sys_cpu': F32, 'ctx': I32, 'majf': I32, 'minf': I32, 'iodepth_level': DEPTH, 'iodepth_submit': DEPTH,
       'iodepth_complete': DEPTH, 'latency_ns': LATB, 'latency_us': LATB, 'latency_ms': LATB,
       'latency_depth': I32, 'latency_target': I32, 'latency_percentile': F32, 'latency_window': I32}
DISK = {'name': STR, 'read_ios': I64, 'write_ios': I64, 'read_merges': I64, 'write_merges': I64,
        'read_ticks': I64, 'write_ticks': I64, 'in_queue': I64, 'util': F32}
FIO_RESULT = {'fio version': STR, 'timestamp': I64, 'timestamp_ms': I64, 'time': STR,
              'global options': {k: STR for k in ('directory', 'randrepeat', 'verify', 'ioengine', 'direct',
                                                  'gtod_reduce')},
              'jobs': [JOB], 'disk_util': [DISK]}
LIMITS = {I32: 2 ** 31, I64: 2 ** 63, 'int': 2 ** 63}


def go_unmarshal(v, t, path='FioResult'):
    """encoding/json into the struct: unknown keys are skipped, a mismatch is an error."""
    if v is None:
        return
    if isinstance(t, dict):
        need(isinstance(v, dict), 'json: cannot unmarshal %s into Go struct field %s' % (type(v).__name__, path))
        for k, x in v.items():
            if k in t:
                go_unmarshal(x, t[k], path + '.' + k)
    elif isinstance(t, list):
        need(isinstance(v, list), 'json: cannot unmarshal into %s of type slice' % path)
        for x in v:
            go_unmarshal(x, t[0], path)
    elif t == STR:
        need(isinstance(v, str), 'json: cannot unmarshal number into Go struct field %s of type string' % path)
    elif t == F32:
        need(isinstance(v, (int, float)) and not isinstance(v, bool), '%s: not a number' % path)
    else:
        need(isinstance(v, int) and not isinstance(v, bool),
             'json: cannot unmarshal number %r into Go struct field %s of type %s' % (v, path, t))
        need(-LIMITS[t] <= v < LIMITS[t], '%s: %r overflows %s' % (path, v, t))


def kubestr(run):
    need(run.err == '', 'stderr when running FIO: %.200s' % run.err)
    need(run.rc == 0, 'fio exited %d' % run.rc)
    need(run.doc is not None, 'Unable to parse fio output into json.')
    go_unmarshal(run.doc, FIO_RESULT)
    d = run.doc
    got = {'version': d['fio version'][:8], 'global': Exact(d.get('global options', {}))}
    for i, j in enumerate(d['jobs']):  # FioJobs.Print: the options, then read/write if nonzero
        o = j['job options']
        got['job%d' % i] = Exact({'JobName': o.get('name'), 'blocksize': o.get('bs'), 'filesize': o.get('size'),
                                  'iodepth': o.get('iodepth'), 'rw': o.get('rw'), 'jobname': j['jobname']})
        need(o.get('rw'), 'job %d: "job options".rw is empty (kubestr prints rw=)' % i)
        for ddir in ('read', 'write'):
            s = j[ddir]
            if s['iops'] or s['bw']:
                got['job%d.%s' % (i, ddir)] = [s[k] for k in ('iops', 'bw', 'iops_min', 'iops_max', 'iops_mean',
                                                              'bw_min', 'bw_max', 'bw_mean')]
    return got


# ---- dbench (logdna/dbench, docker-entrypoint.sh): greps fio's normal output -------------

def grep_o(text, line_rx, value_rx):
    """grep -E line_rx | grep -Eoi value_rx | cut -d= -f2: every match of every line."""
    vals = []
    for line in text.splitlines():
        if re.search(line_rx, line):
            vals += [m.split('=', 1)[1] for m in re.findall(value_rx, line, re.I)]
    return vals


def dbench(ddir, what):
    line = {'read': r'read ?:', 'write': r'write:'}[ddir]
    value = {'iops': r'IOPS=[0-9k.]+', 'bw': r'BW=[0-9GMKiBs/.]+'}[what]

    def consumer(run):
        need(run.rc == 0, 'fio failed')  # set -e
        vals = grep_o(run.out, line, value)
        need(vals, 'no %s %s line' % (ddir, what))
        return {'%s_%s' % (ddir, what): vals}
    return consumer


def dbench_latency(run):  # grep ' lat.*avg' | grep -Eoi 'avg=[0-9.]+'
    need(run.rc == 0, 'fio failed')
    vals = grep_o(run.out, r' lat.*avg', r'avg=[0-9.]+')
    need(vals, 'no " lat ... avg=" line')
    return {'latency_avg': vals}


def dbench_seq(group):  # grep -E 'READ:' | grep -Eoi '(aggrb|bw)=[0-9GMKiBs/.]+'
    def consumer(run):
        need(run.rc == 0, 'fio failed')
        vals = grep_o(run.out, group + ':', r'(?:aggrb|bw)=[0-9GMKiBs/.]+')
        need(vals, 'no %s: line' % group)
        return {group + '_bw': vals}
    return consumer


def dbench_mix(run):
    got = dbench('read', 'iops')(run)
    got.update(dbench('write', 'iops')(run))
    return got


# ---- yabs.sh (masonr/yet-another-bench-script): `--minimal | grep rand_rw_$BS`, awk -F';' ---

def yabs(jobname):
    def consumer(run):
        lines = [l for l in run.out.splitlines() if jobname in l]
        need(lines, 'grep %s: no line' % jobname)
        f = lines[0].split(';')

        def awk(n):  # awk's $n, read as a number by awk's arithmetic
            s = f[n - 1] if n - 1 < len(f) else ''
            m = re.match(r'[0-9.]+', s)
            return float(m.group(0)) if m else None
        r_iops, w_iops, r_bw, w_bw = awk(8), awk(49), awk(7), awk(48)
        need(None not in (r_iops, w_iops, r_bw, w_bw), 'fields 7, 8, 48, 49 are not numbers: %r' % f[:50])
        return {'iops_r': r_iops, 'iops_w': w_iops, 'bw_r': r_bw, 'bw_w': w_bw,
                'total': (r_iops + w_iops, r_bw + w_bw)}
    return consumer


def exit_ok(run):  # yabs's warm-up run: `&> /dev/null`, only its end matters
    return {'rc': run.rc}


# ---- kbench (yasker/kbench, func.sh): jq '.jobs[N].read.iops_mean' | cut -f1 -d. ---------

def jq_int(v):
    """jq prints the number; cut -f1 -d. keeps what is before the point."""
    need(isinstance(v, (int, float)) and not isinstance(v, bool), 'not a number: %r' % (v,))
    return str(v).split('.')[0]


def kbench(field):
    def consumer(run):
        need(run.rc == 0 and run.doc is not None, 'no JSON')
        jobs = run.doc['jobs']
        dirs = ['read', 'write', 'read', 'write']
        got = {}
        for i, d in enumerate(dirs):
            v = jobs[i][d]
            for k in field.split('.'):
                v = v[k]
            got['jobs[%d].%s.%s' % (i, d, field)] = jq_int(v)
        if 'cpu_idleness' in run.doc or run.idle_prof:
            got['cpu_idleness.system'] = jq_int(run.doc['cpu_idleness']['system'])
        return got
    return consumer


# ---- fio-plot (louwrentius/fio-plot, fio_plot/fiolib/jsonparsing.py, jsonimport.py, ------
# runfio.py): `fio --version` must contain "fio-3"; any stderr ends bench_fio; per job (but
# "All clients") the job options merged with the global ones must give iodepth, numjobs,
# bs, rw; then read or write: bw, iops, iops_stddev, lat_ns mean/stddev, latency maps, cpu.

def fioplot(run):
    need('fio-3' in run.version, 'Could not detect Fio version.')
    need(run.rc == 0 and len(str(run.err.encode())) <= 3, 'An error occurred: %.200s' % run.err)
    d = run.doc
    need(d is not None, 'Failed to JSON parse')
    root = 'client_stats' if 'client_stats' in d else 'jobs'
    rows = []
    for job in d[root]:
        if job['jobname'] == 'All clients':
            continue
        opts = dict(job['job options'], **d.get('global options', {}))
        mode = {'randread': 'read', 'read': 'read', 'randwrite': 'write', 'write': 'write'}[opts['rw']]
        rows.append({'options': Exact((int(opts['iodepth']), int(opts['numjobs']), opts['bs'], opts['rw'])),
                     'bw': job[mode]['bw'], 'iops': job[mode]['iops'],
                     'iops_stddev': job[mode]['iops_stddev'], 'lat': job[mode]['lat_ns']['mean'],
                     'lat_stddev': job[mode]['lat_ns']['stddev'], 'latency_ms': job['latency_ms'],
                     'latency_us': job['latency_us'], 'latency_ns': job['latency_ns'],
                     'cpu_usr': job['usr_cpu'], 'cpu_sys': job['sys_cpu'], 'fio_version': d['fio version'][:8]})
    need(rows, 'no jobs')
    return {'rows': rows}


def fioplot_logs(run):
    """fio-plot's 2D graphs read the logs: NAME_{bw,iops,lat,clat,slat}.N.log, lines of
    'msec, value, ddir, bs, offset' (integers). The same files, the same fields. (How many
    entries is not compared: a job shorter than log_avg_msec leaves fio's bw and iops logs
    empty, where iobench writes the last, partial interval.)"""
    names, widths = [], set()
    for name in sorted(run.files()):
        if not re.search(r'_(bw|iops|lat|clat|slat)\.([0-9]+)\.log$', name):
            continue
        names.append(re.sub(r'^.*/', '', name))
        for line in run.text(name).splitlines():
            fields = [x.strip() for x in line.split(',')]
            need(all(re.fullmatch(r'[0-9]+', x) for x in fields), '%s: %r' % (name, line))
            widths.add(len(fields))
    need(names, 'no logs')
    return {'logs': Exact(names), 'fields per line': Exact(sorted(widths))}


# ---- etcd's disk check ("Using fio to tell whether your storage is fast enough for etcd"):
# the 99th percentile of fdatasync, from JSON or from the normal output -----------------

def etcd_json(run):
    need(run.rc == 0 and run.doc is not None, 'no JSON')
    p99 = run.doc['jobs'][0]['sync']['lat_ns']['percentile']['99.000000']
    return {'sync p99 ns': p99, 'sync total_ios': run.doc['jobs'][0]['sync']['total_ios']}


def etcd_normal(run):
    need(run.rc == 0, 'fio failed')
    text = run.out
    need('fsync/fdatasync/sync_file_range:' in text, 'no fsync/fdatasync block')
    block = text.split('fsync/fdatasync/sync_file_range:', 1)[1]
    unit = re.search(r'sync percentiles \((\w+)\)', block)
    p99 = re.search(r'99\.00th=\[\s*([0-9]+)\]', block)
    need(unit and p99, 'no sync percentiles')
    return {'unit': unit.group(1) in ('nsec', 'usec', 'msec'), 'p99': p99.group(1)}


# ---- Phoronix Test Suite pts/fio (results-definition.xml): the value is matched in the
# JSON text, fio's own layout: `"iops" : 1234.5,` in the direction's block -------------

def phoronix(run):
    need(run.rc == 0, 'fio failed')
    block = run.out.split('"read" : {', 1)
    need(len(block) == 2, 'no "read" : { block')
    got = {}
    for key in ('bw', 'iops'):
        m = re.search(r'\n\s*"%s" : ([0-9.]+),\n' % key, block[1])
        need(m, 'no "%s" : N, line' % key)
        got[key] = m.group(1)
    return got


# ---- The Prometheus exporters of fio's terse lines (one metric per field; a line whose
# second field does not start with "fio-" is not fio's and is skipped) ------------------

TERSE_METRICS = {  # 0-based fields of terse v3
    'read_kb': 5, 'read_bw': 6, 'read_iops': 7, 'read_runtime': 8, 'read_clat_mean': 15, 'read_clat_p99': 29,
    'read_lat_mean': 39, 'read_bw_mean': 44, 'write_kb': 46, 'write_bw': 47, 'write_iops': 48,
    'write_clat_mean': 56, 'write_lat_mean': 80, 'cpu_usr': 87, 'cpu_sys': 88, 'ctx': 89,
}


def prometheus_terse(run):
    need(run.rc == 0, 'fio failed')
    samples = []
    for line in run.out.splitlines():
        f = line.split(';')
        if len(f) < 90 or f[0] != '3' or not f[1].startswith('fio-'):
            continue  # not a fio terse v3 line
        s = {'job': Exact(f[2]), 'version': re.match(r'fio-([0-9]+)\.([0-9]+)', f[1]) is not None}
        for name, i in TERSE_METRICS.items():
            v = f[i].rstrip('%')
            if '%=' in v:
                v = v.split('%=')[1]
            s[name] = float(v)
        samples.append(s)
    need(samples, 'no fio terse lines: every line skipped')
    return {'samples': samples}


# ---- Reading the normal output as the cloud providers' guides do (Azure, GCP, AWS): the
# direction lines `read: IOPS=..., BW=...` and the group's `READ: bw=..., io=...` --------

def normal_summary(run):
    need(run.rc == 0, 'fio failed')
    got = {}
    for line in run.out.splitlines():
        m = re.match(r'\s+(read|write): IOPS=([^,]+), BW=(\S+)', line)
        if m:
            got.setdefault(m.group(1), []).append((m.group(2), m.group(3)))
        m = re.match(r'\s+(READ|WRITE): bw=(\S+) .*io=(\S+) .*run=(\S+)', line)
        if m:
            got.setdefault(m.group(1), []).append((m.group(2), m.group(3)))
    need(got, 'no read:/write: or READ:/WRITE: lines')
    return got


# ---- Scripts that read jobs[] from JSON (SNIA-style rounds, the Kubernetes examples,
# fio's examples run with --output-format=json) ----------------------------------------

def jobs_json(run):
    need(run.rc == 0 and run.doc is not None, 'no JSON')
    got = []
    for j in run.doc['jobs']:
        got.append({'jobname': Exact(j['jobname']), 'bs': Exact(j['job options'].get('bs')),
                    'iops': j['read']['iops'] + j['write']['iops'], 'bw': j['read']['bw'] + j['write']['bw'],
                    'clat p99': [j[d]['clat_ns'].get('percentile', {}).get('99.000000')
                                 for d in ('read', 'write') if j[d]['total_ios']],
                    'lat mean': [j[d]['lat_ns']['mean'] for d in ('read', 'write') if j[d]['total_ios']]})
    return {'jobs': got}


# ---- fio's tools/fio_jsonplus_clat2csv: json+ bins, {nanoseconds: count} ---------------

def clat2csv(run):
    need(run.rc == 0 and run.doc is not None, 'no JSON')
    got = {}
    for j in run.doc['jobs']:
        for d in ('read', 'write'):
            if not j[d]['total_ios']:
                continue
            bins = j[d]['clat_ns']['bins']
            need(bins, 'no bins')
            rows = sorted((int(k), v) for k, v in bins.items())
            need(sum(v for _, v in rows) == j[d]['clat_ns']['N'], 'bins do not add up to N')
            got['%s.%s' % (j['jobname'], d)] = kind(rows[0])
    return got
