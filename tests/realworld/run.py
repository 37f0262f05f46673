#!/usr/bin/env python3
"""Real-world job files and command lines, run with fio 3.33 and with iobench, read as
their consumers read them (consumers.py).

Usage: run.py IOBENCH WORKDIR [NAME...]   (names: only those cases)

For each case: one TAP line for the job (both exit 0; for JSON output the same key paths
with the same types; for terse the same field count and kinds), and one per consumer (it
gets a value of the same kind from both runs: see consumers.kind). fio and iobench of a
case run at the same time, each in its own directory, and two cases at a time (fio's
start-up is mostly waiting); the figures are never compared.
"""
import concurrent.futures, json, os, re, shlex, subprocess, sys, threading, time

sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tools'))
import consumers as C  # noqa: E402
import jsonshape  # noqa: E402

JOBS = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'jobs')


class Case:
    def __init__(self, name, source, args, uses, files=(), dirs=(), env=None, output=None, idle_prof=False):
        self.name, self.source, self.uses = name, source, uses
        self.args = shlex.split(args) if isinstance(args, str) else args
        self.files, self.dirs, self.env, self.output = files, dirs, env or {}, output
        self.idle_prof = idle_prof  # kbench runs with --idle-prof=percpu where the program has it


D = '{DIR}'
DB = '--randrepeat=0 --verify=0 --ioengine=libaio --direct=1 --filename={DIR}/fiotest --time_based ' \
     '--ramp_time=50ms --runtime=200ms'
YABS = '--ioengine=libaio --rw=randrw --rwmixread=50 --iodepth=64 --numjobs=2 --size=16M --runtime=200ms ' \
       '--gtod_reduce=1 --direct=1 --filename={DIR}/test.fio --group_reporting --minimal'
GCP = '--directory={DIR} --size=4M --time_based --runtime=200ms --ramp_time=50ms --ioengine=libaio --direct=1 ' \
      '--verify=0 --group_reporting=1'
AWS = '--directory={DIR} --ioengine=psync --name fio_test_file --direct=1 --size=4M --time_based --runtime=200ms ' \
      '--group_reporting --norandommap'
ETCD = '--rw=write --ioengine=sync --fdatasync=1 --directory={DIR}/test-data --size=230k --bs=2300 --name=mytest'
FIOPLOT_ENV = {'MODE': 'randwrite', 'BLOCK_SIZE': '4k', 'ENGINE': 'libaio', 'IODEPTH': '2', 'NUMJOBS': '1',
               'DIRECT': '1', 'INVALIDATE': '1', 'LOOPS': '1', 'SIZE': '8m', 'RUNTIME': '300ms',
               'OUTPUT': D, 'LOGINTERVAL': '100'}

CASES = [
    Case('kubestr-default', 'kubestr default-fio', '--directory {DIR} {JOBS}/kubestr-default.fio --output-format=json',
         {'kubestr': C.kubestr}),
    Case('kubestr-four', 'kubestr (four jobs)', '--directory {DIR} {JOBS}/kubestr-four.fio --output-format=json',
         {'kubestr': C.kubestr}),
    Case('kubestr-waitfor', 'kubestr --fiofile, wait_for by name',
         '--directory {DIR} {JOBS}/kubestr-waitfor.fio --output-format=json', {'kubestr': C.kubestr}),
    Case('dbench-read-iops', 'dbench', DB + ' --gtod_reduce=1 --name=read_iops --bs=4K --iodepth=64 --size=16M '
         '--readwrite=randread', {'dbench READ_IOPS_VAL': C.dbench('read', 'iops')}),
    Case('dbench-write-iops', 'dbench', DB + ' --gtod_reduce=1 --name=write_iops --bs=4K --iodepth=64 --size=16M '
         '--readwrite=randwrite', {'dbench WRITE_IOPS_VAL': C.dbench('write', 'iops')}),
    Case('dbench-read-bw', 'dbench', DB + ' --gtod_reduce=1 --name=read_bw --bs=128K --iodepth=64 --size=16M '
         '--readwrite=randread', {'dbench READ_BW_VAL': C.dbench('read', 'bw')}),
    Case('dbench-write-bw', 'dbench', DB + ' --gtod_reduce=1 --name=write_bw --bs=128K --iodepth=64 --size=16M '
         '--readwrite=randwrite', {'dbench WRITE_BW_VAL': C.dbench('write', 'bw')}),
    Case('dbench-read-latency', 'dbench', DB + ' --name=read_latency --bs=4K --iodepth=4 --size=16M '
         '--readwrite=randread', {'dbench READ_LATENCY_VAL': C.dbench_latency}),
    Case('dbench-write-latency', 'dbench', DB + ' --name=write_latency --bs=4K --iodepth=4 --size=16M '
         '--readwrite=randwrite', {'dbench WRITE_LATENCY_VAL': C.dbench_latency}),
    Case('dbench-read-seq', 'dbench', DB + ' --gtod_reduce=1 --name=read_seq --bs=1M --iodepth=16 --size=4M '
         '--readwrite=read --thread --numjobs=4 --offset_increment=4M', {'dbench READ_SEQ_VAL': C.dbench_seq('READ')}),
    Case('dbench-write-seq', 'dbench', DB + ' --gtod_reduce=1 --name=write_seq --bs=1M --iodepth=16 --size=4M '
         '--readwrite=write --thread --numjobs=4 --offset_increment=4M',
         {'dbench WRITE_SEQ_VAL': C.dbench_seq('WRITE')}),
    Case('dbench-rw-mix', 'dbench', DB + ' --gtod_reduce=1 --name=rw_mix --bs=4k --iodepth=64 --size=16M '
         '--readwrite=randrw --rwmixread=75', {'dbench RW_MIX_R/W_IOPS': C.dbench_mix}),
    Case('yabs-setup', 'yabs.sh warm-up', '--name=setup --ioengine=libaio --rw=read --bs=64k --iodepth=64 '
         '--numjobs=2 --size=16M --runtime=1 --gtod_reduce=1 --filename={DIR}/test.fio --direct=1 --minimal',
         {'yabs (output discarded)': C.exit_ok}),
    Case('yabs-rand-rw-4k', 'yabs.sh', '--name=rand_rw_4k --bs=4k ' + YABS, {'yabs fields 7/8/48/49': C.yabs('rand_rw_4k')}),
    Case('yabs-rand-rw-64k', 'yabs.sh', '--name=rand_rw_64k --bs=64k ' + YABS,
         {'yabs fields 7/8/48/49': C.yabs('rand_rw_64k')}),
    Case('yabs-rand-rw-1m', 'yabs.sh', '--name=rand_rw_1m --bs=1m ' + YABS, {'yabs fields 7/8/48/49': C.yabs('rand_rw_1m')}),
    Case('kbench-iops', 'kbench', '{JOBS}/kbench-iops.fio --filename={DIR}/test.img --size=16m --output-format=json',
         {'kbench parse_iops': C.kbench('iops_mean')}, idle_prof=True),
    Case('kbench-bw', 'kbench', '{JOBS}/kbench-bw.fio --filename={DIR}/test.img --size=16m --output-format=json',
         {'kbench parse_bw': C.kbench('bw_mean')}, idle_prof=True),
    Case('kbench-lat', 'kbench', '{JOBS}/kbench-lat.fio --filename={DIR}/test.img --size=16m --output-format=json',
         {'kbench parse_lat': C.kbench('lat_ns.mean')}, idle_prof=True),
    Case('fioplot-generated', "fio-plot bench_fio's [FIOJOB] file",
         '--output-format=json --output={DIR}/randread-4-2.json {JOBS}/fioplot-generated.fio',
         {'fio-plot jsonparsing': C.fioplot, 'fio-plot logs': C.fioplot_logs}, files=[('target.img', 8)],
         output='randread-4-2.json'),
    Case('fioplot-template', "fio-plot's fio-job-template.fio",
         '--output-format=json --output={DIR}/randwrite-2-1.json {JOBS}/fioplot-template.fio',
         {'fio-plot jsonparsing': C.fioplot, 'fio-plot logs': C.fioplot_logs}, env=FIOPLOT_ENV,
         output='randwrite-2-1.json'),
    Case('fioplot-precondition', "fio-plot's precondition.fio",
         '--output-format=json --output={DIR}/precondition.json {JOBS}/fioplot-precondition.fio '
         '--filename={DIR}/dev.img', {'fio-plot jsonparsing': C.fioplot, 'fio-plot logs': C.fioplot_logs},
         files=[('dev.img', 8)], output='precondition.json'),
    Case('azure-maxiops', 'Azure disk benchmark (random read)', '{JOBS}/azure-maxiops.fio',
         {'read as the guide does': C.normal_summary}),
    Case('azure-maxwrite', 'Azure disk benchmark (two disks)', '{JOBS}/azure-maxwrite.fio',
         {'read as the guide does': C.normal_summary}, dirs=['disk1', 'disk2']),
    Case('azure-mixed', 'Azure disk benchmark (mixed)', '{JOBS}/azure-mixed.fio',
         {'read as the guide does': C.normal_summary}),
    Case('gcp-write-throughput', 'GCP persistent disk benchmark', '--name=write_throughput --numjobs=4 --bs=1M '
         '--iodepth=64 --rw=write --iodepth_batch_submit=64 --iodepth_batch_complete_max=64 ' + GCP,
         {'read as the guide does': C.normal_summary}),
    Case('gcp-write-iops', 'GCP persistent disk benchmark', '--name=write_iops --bs=4K --iodepth=256 --rw=randwrite '
         '--iodepth_batch_submit=256 --iodepth_batch_complete_max=256 ' + GCP,
         {'read as the guide does': C.normal_summary}),
    Case('gcp-read-throughput', 'GCP persistent disk benchmark', '--name=read_throughput --numjobs=4 --bs=1M '
         '--iodepth=64 --rw=read --iodepth_batch_submit=64 --iodepth_batch_complete_max=64 ' + GCP,
         {'read as the guide does': C.normal_summary}),
    Case('gcp-read-iops', 'GCP persistent disk benchmark', '--name=read_iops --bs=4K --iodepth=256 --rw=randread '
         '--iodepth_batch_submit=256 --iodepth_batch_complete_max=256 ' + GCP,
         {'read as the guide does': C.normal_summary}),
    Case('gcp-fill-disk', 'GCP persistent disk benchmark (fill)', '--name=fill_disk --filename={DIR}/disk.img '
         '--filesize=16M --ioengine=libaio --direct=1 --verify=0 --randrepeat=0 --bs=128K --iodepth=64 '
         '--rw=randwrite --iodepth_batch_submit=64 --iodepth_batch_complete_max=64',
         {'read as the guide does': C.normal_summary}),
    Case('aws-ebs-randwrite', 'AWS EBS benchmark', AWS + ' --rw=randwrite --bs=16k --numjobs=4',
         {'read as the guide does': C.normal_summary}),
    Case('aws-ebs-randread', 'AWS EBS benchmark', AWS + ' --rw=randread --bs=16k --numjobs=4',
         {'read as the guide does': C.normal_summary}),
    Case('aws-ebs-throughput', 'AWS EBS benchmark (st1/sc1)', AWS + ' --rw=randread --bs=1024k --numjobs=2',
         {'read as the guide does': C.normal_summary}),
    Case('phoronix-fio', 'Phoronix Test Suite pts/fio', '{JOBS}/phoronix-fio.fio --output-format=json',
         {'pts results-definition': C.phoronix}),
    Case('k8s-pvc-configmap', 'fio ConfigMap for a Kubernetes PVC', '{JOBS}/k8s-pvc-configmap.fio --output-format=json',
         {'jobs[] from JSON': C.jobs_json}),
    Case('snia-precondition', 'SNIA PTS-style preconditioning', '--name=precondition --filename={DIR}/dev.img '
         '--rw=write --bs=128k --iodepth=32 --ioengine=libaio --direct=1 --loops=2 --size=100% --output-format=json',
         {'jobs[] from JSON': C.jobs_json}, files=[('dev.img', 8)]),
    Case('snia-iops', 'SNIA PTS-style IOPS round', '{JOBS}/snia-iops.fio --output-format=json',
         {'jobs[] from JSON': C.jobs_json}, files=[('dev.img', 8)]),
    Case('fio-example-ssd', "fio's examples/ssd-test.fio", '{JOBS}/fio-example-ssd.fio --output-format=json',
         {'jobs[] from JSON': C.jobs_json}),
    Case('etcd-json', "etcd's disk check (JSON)", ETCD + ' --output-format=json', {'etcd sync p99': C.etcd_json},
         dirs=['test-data']),
    Case('etcd-normal', "etcd's disk check (normal output)", ETCD, {'etcd sync percentiles': C.etcd_normal},
         dirs=['test-data']),
    Case('prometheus-terse', 'a Prometheus exporter of terse lines', '--name=randrw --filename={DIR}/t.img --size=8m '
         '--rw=randrw --bs=4k --ioengine=libaio --iodepth=8 --direct=1 --numjobs=2 --output-format=terse',
         {'exporter fields': C.prometheus_terse}),
    Case('jsonplus-clat2csv', "fio's tools/fio_jsonplus_clat2csv", '--name=hist --filename={DIR}/h.img --size=8m '
         '--rw=randread --ioengine=libaio --iodepth=4 --output-format=json+', {'clat bins': C.clat2csv}),
]


class Run:
    """One finished run of a case: what consumers read."""

    def __init__(self, prog, case, top, version, idle_prof):
        self.dir = os.path.join(top, case.name, 'fio' if prog == 'fio' else 'iobench')
        self.version, self.idle_prof, self.case, self.prog = version, idle_prof, case, prog

    def start(self):
        os.makedirs(self.dir, exist_ok=True)
        for name, mib in self.case.files:
            with open(os.path.join(self.dir, name), 'wb') as f:
                f.write(os.urandom(1 << 20) * mib)
        for d in self.case.dirs:
            os.makedirs(os.path.join(self.dir, d), exist_ok=True)
        sub = {'{DIR}': self.dir, '{JOBS}': JOBS}

        def fill(s):
            for k, v in sub.items():
                s = s.replace(k, v)
            return s
        env = dict(os.environ, DIR=self.dir, **{k: fill(v) for k, v in self.case.env.items()})
        args = [fill(a) for a in self.case.args] + (['--idle-prof=percpu'] if self.idle_prof else [])
        self.t0 = time.time()
        self.p = subprocess.Popen([self.prog] + args, cwd=self.dir, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, errors='replace')

    def finish(self):
        self.out, self.err = self.p.communicate(timeout=120)
        self.rc, self.secs = self.p.returncode, time.time() - self.t0
        text = self.text(self.case.output) if self.case.output else self.out
        if self.prog == 'fio' and '\n{' in text and not text.startswith('{'):
            text = text[text.index('\n{') + 1:]  # fio's notes before the JSON
        try:
            self.doc = json.loads(text)
        except ValueError:
            self.doc = None

    def text(self, name):
        try:
            with open(os.path.join(self.dir, name), errors='replace') as f:
                return f.read()
        except OSError:
            return ''

    def files(self):
        return [os.path.relpath(os.path.join(r, f), self.dir) for r, _, fs in os.walk(self.dir) for f in fs]


def key_kind(v):
    """What a consumer can do with a value (consumers.kind: True and False differ, a string's
    shape counts, null is 'absent'); a dict or list by its type."""
    return C.kind(v) if not isinstance(v, (dict, list)) else type(v).__name__


def terse_kinds(text):
    return [[C.kind(f) for f in line.split(';')] for line in text.splitlines() if re.match(r'[345];', line)]


def tap(ok, desc, why=''):
    print(('ok - ' if ok else 'not ok - ') + desc)
    if not ok:
        for line in str(why).splitlines()[:10]:
            print('#   ' + line[:300])
    return ok


def check_job(case, f, i):
    if not tap(f.rc == 0 and i.rc == 0, '%s (%s): fio and iobench run it' % (case.name, case.source),
               'fio: exit %d %s\niobench: exit %d %s' % (f.rc, f.err.strip()[-300:], i.rc, i.err.strip()[-300:])):
        return False
    if f.doc is not None:
        diff = jsonshape.diff(f.doc, i.doc, kind=key_kind, extra=False)  # iobench may have more
        tap(not diff, '%s: the same JSON keys with the same types' % case.name, '\n'.join(diff))
    elif re.match(r'[345];', f.out):
        ka, kb = terse_kinds(f.out), terse_kinds(i.out)
        tap(ka == kb, '%s: the same terse lines, fields and kinds' % case.name,
            'fio %s\niobench %s' % ([len(x) for x in ka], [len(x) for x in kb]))
    return True


def check_consumers(case, f, i):
    for name, consumer in case.uses.items():
        vals = {}
        for who, run in (('fio', f), ('iobench', i)):
            try:
                vals[who] = consumer(run)
            except Exception as e:  # the tool's own failure, or a key it cannot find
                vals[who] = e
        if isinstance(vals['fio'], Exception):
            tap(False, '%s: %s: reads fio\'s output' % (case.name, name), repr(vals['fio']))
            continue
        if isinstance(vals['iobench'], Exception):
            tap(False, '%s: %s: reads iobench\'s output' % (case.name, name), repr(vals['iobench']))
            continue
        # Exact values name the run's own directory: the same job in another place.
        ka = json.loads(json.dumps(C.kind(vals['fio'])).replace(f.dir, '{DIR}'))
        kb = json.loads(json.dumps(C.kind(vals['iobench'])).replace(i.dir, '{DIR}'))
        tap(ka == kb, '%s: %s gets values of the same kind from both' % (case.name, name),
            'fio     %s\niobench %s\nvalues: fio %.300s\n        iobench %.300s' % (ka, kb, vals['fio'], vals['iobench']))


def supports_idle_prof(iobench):
    p = subprocess.run([iobench, '--idle-prof=percpu', '--name=x', '--ioengine=null', '--size=4k', '--parse-only'],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return p.returncode == 0


def main():
    iobench, work = sys.argv[1], sys.argv[2]
    only = set(sys.argv[3:])
    fio_version = subprocess.run(['fio', '--version'], stdout=subprocess.PIPE, text=True).stdout
    ib_version = subprocess.run([iobench, '--version'], stdout=subprocess.PIPE, text=True).stdout
    idle = supports_idle_prof(iobench)
    if not idle:
        print('ok - kbench with --idle-prof=percpu (cpu_idleness.system) # SKIP iobench has no --idle-prof yet; '
              'the kbench cases run without it')
    def run_case(case):
        f = Run('fio', case, work, fio_version, case.idle_prof and idle)
        i = Run(iobench, case, work, ib_version, case.idle_prof and idle)
        f.start()
        i.start()
        waits = [threading.Thread(target=r.finish) for r in (f, i)]
        for w in waits:
            w.start()
        for w in waits:
            w.join()
        return case, f, i

    cases = [c for c in CASES if not only or c.name in only]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for case, f, i in pool.map(run_case, cases):
            print('# %s: fio %.1fs, iobench %.1fs' % (case.name, f.secs, i.secs))
            if check_job(case, f, i):
                check_consumers(case, f, i)
            sys.stdout.flush()
            subprocess.run(['rm', '-rf', os.path.join(work, case.name)])


main()
