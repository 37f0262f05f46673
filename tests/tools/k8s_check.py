#!/usr/bin/python3
"""Offline checks of deploy/k8s/*.yaml (Debian's python3-kubernetes and python3-yaml):
1. schema: every document's keys and value types are those of the Kubernetes API models
   (kubernetes.client.V1Job, ...), recursively, and the models' required fields are there;
2. Pod Security "restricted": non-root, no privilege escalation, capabilities dropped, the
   RuntimeDefault seccomp profile, only allowed volume types, no host namespaces;
3. what the pods need: a pinned image tag (the Makefile's VERSION) with IfNotPresent, CPU
   and memory requests and limits, results written to the volume with --output;
4. the claim is ReadWriteOnce and holds what the jobs write (derived from the ConfigMap's
   job file: size x numjobs x pods, plus a tenth).
Prints one line per problem (exit 1), or a summary (exit 0)."""
import glob
import os
import re
import sys

import kubernetes.client as kc
import yaml

k8s_dir, version = sys.argv[1], sys.argv[2]
problems = []
PRIMITIVE = {'str': str, 'int': int, 'bool': bool, 'float': (int, float), 'object': object}


def model_check(value, typ, path):
    """value against an openapi type string: 'V1PodSpec', 'list[V1Container]', 'dict(str, str)'."""
    if typ.startswith('list['):
        if not isinstance(value, list):
            problems.append('%s: expected a list' % path)
            return
        for i, v in enumerate(value):
            model_check(v, typ[5:-1], '%s[%d]' % (path, i))
        return
    if typ.startswith('dict('):
        inner = typ[5:-1].split(', ', 1)[1]
        if not isinstance(value, dict):
            problems.append('%s: expected a map' % path)
            return
        for k, v in value.items():
            model_check(v, inner, '%s.%s' % (path, k))
        return
    if typ in PRIMITIVE:
        if typ == 'str' and isinstance(value, (int, float)) and path.endswith(('cpu', 'memory', 'storage')):
            return  # resource quantities may be numbers
        if not isinstance(value, PRIMITIVE[typ]) or (typ == 'int' and isinstance(value, bool)):
            problems.append('%s: %r is not a %s' % (path, value, typ))
        return
    cls = getattr(kc, typ, None)
    if cls is None:
        problems.append('%s: unknown model %s' % (path, typ))
        return
    if not isinstance(value, dict):
        problems.append('%s: expected an object (%s)' % (path, typ))
        return
    by_json = {j: a for a, j in cls.attribute_map.items()}
    for key, v in value.items():
        if key not in by_json:
            problems.append('%s: %s has no field %r' % (path, typ, key))
            continue
        model_check(v, cls.openapi_types[by_json[key]], '%s.%s' % (path, key))
    try:  # the model's own required-field validation
        cls(**{by_json[k]: None if isinstance(v, (dict, list)) else v for k, v in value.items() if k in by_json
               and not isinstance(v, (dict, list))},
            **{by_json[k]: object() for k, v in value.items() if k in by_json and isinstance(v, (dict, list))})
    except (ValueError, TypeError) as e:
        problems.append('%s: %s' % (path, e))


def restricted(pod, name):
    sc = pod.get('securityContext', {})
    for key in ('hostNetwork', 'hostPID', 'hostIPC'):
        if pod.get(key):
            problems.append('%s: %s' % (name, key))
    if sc.get('seccompProfile', {}).get('type') != 'RuntimeDefault':
        problems.append('%s: the pod has no RuntimeDefault seccomp profile' % name)
    for v in pod.get('volumes', []):
        kinds = set(v) - {'name'}
        if not kinds <= {'configMap', 'persistentVolumeClaim', 'emptyDir', 'ephemeral', 'secret', 'projected',
                         'downwardAPI'}:
            problems.append('%s: volume %s of kind %s is not allowed under restricted' % (name, v['name'], kinds))
    for c in pod.get('containers', []):
        csc = c.get('securityContext', {})
        where = '%s/%s' % (name, c['name'])
        if not (csc.get('runAsNonRoot') or sc.get('runAsNonRoot')):
            problems.append('%s: runAsNonRoot not set' % where)
        if csc.get('allowPrivilegeEscalation') is not False:
            problems.append('%s: allowPrivilegeEscalation is not false' % where)
        if csc.get('capabilities', {}).get('drop') != ['ALL'] or csc.get('capabilities', {}).get('add'):
            problems.append('%s: capabilities are not exactly drop ALL' % where)
        if csc.get('privileged'):
            problems.append('%s: privileged' % where)
        if not csc.get('readOnlyRootFilesystem'):
            problems.append('%s: the root file system is writable' % where)
        res = c.get('resources', {})
        for part in ('requests', 'limits'):
            for what in ('cpu', 'memory'):
                if what not in res.get(part, {}):
                    problems.append('%s: no %s %s' % (where, what, part[:-1]))
        img = c['image']
        if c.get('imagePullPolicy') != 'IfNotPresent' or img.endswith(':latest') or ':' not in img:
            problems.append('%s: image %s must be pinned, with imagePullPolicy IfNotPresent' % (where, img))
        if img.startswith('iobench:') and img != 'iobench:' + version:
            problems.append('%s: image %s is not iobench:%s (the Makefile VERSION)' % (where, img, version))


def gib(q):
    m = re.match(r'^(\d+)(Ki|Mi|Gi|Ti)?$', str(q))
    return int(m.group(1)) * {None: 1 / 2**30, 'Ki': 1 / 2**20, 'Mi': 1 / 2**10, 'Gi': 1, 'Ti': 1024}[m.group(2)]


def size_gib(text):
    m = re.search(r'^\s*size=(\d+)([kmgt]?)\s*$', text, re.M)
    return int(m.group(1)) * {'': 1 / 2**30, 'k': 1 / 2**20, 'm': 1 / 2**10, 'g': 1, 't': 1024}[m.group(2)]


docs = []
for f in sorted(glob.glob(os.path.join(k8s_dir, '*.yaml'))):
    for d in yaml.safe_load_all(open(f)):
        if d:
            docs.append((os.path.basename(f), d))
for f, d in docs:
    kind, api = d.get('kind'), d.get('apiVersion', '')
    model = 'V1' + kind if api in ('v1', 'batch/v1', 'apps/v1') else None
    if not model or not hasattr(kc, model):
        problems.append('%s: %s %s is not a known kind' % (f, api, kind))
        continue
    model_check(d, model, f)
    if kind == 'Job':
        pod = d['spec']['template']['spec']
        restricted(pod, f)
        if f in ('job.yaml', 'indexed-job.yaml'):
            args = pod.get('containers', [{}])[0].get('args', [])
            if not any(a.startswith('--output=/data/') for a in args):
                problems.append('%s: the result is not written to the volume (--output=/data/...)' % f)
pvcs = [d for f, d in docs if d['kind'] == 'PersistentVolumeClaim']
cms = [d for f, d in docs if d['kind'] == 'ConfigMap']
jobs = {f: d for f, d in docs if d['kind'] == 'Job'}
if len(pvcs) == 1 and cms:
    pvc = pvcs[0]
    if pvc['spec']['accessModes'] != ['ReadWriteOnce']:
        problems.append('pvc.yaml: the claim is not ReadWriteOnce')
    job_text = list(cms[0]['data'].values())[0]
    numjobs = int((re.search(r'^\s*numjobs=(\d+)', job_text, re.M) or [0, 1])[1])
    pods = max(int(j['spec'].get('parallelism', 1)) for j in jobs.values())
    need = size_gib(job_text) * numjobs * pods * 1.1
    have = gib(pvc['spec']['resources']['requests']['storage'])
    if have < need:
        problems.append('pvc.yaml: %g GiB asked, the jobs write %g GiB (with a tenth to spare)' % (have, need))
    print('#   claim %g GiB for %d pod(s) x %d job(s) x %g GiB + 10%% = %g GiB' %
          (have, pods, numjobs, size_gib(job_text), need))
for p in problems:
    print('k8s:', p)
print('#   %d documents checked against the Kubernetes %s models' % (len(docs), kc.__name__))
sys.exit(1 if problems else 0)
