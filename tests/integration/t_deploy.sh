#!/bin/sh
# Issue 7 (part): the Kubernetes manifests parse, have the expected kinds, mount the PVC at
# /data, ask for no privilege, set resource requests; their job file parses.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
if ! /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
	skip "Kubernetes manifests" "python3-yaml is not installed"
	exit 0
fi
check "the manifests: kinds, /data mount, unprivileged, requests, an Indexed Job" /usr/bin/python3 - "$TOP/deploy/k8s" <<'PY'
import glob, os, sys, yaml
docs = []
for f in sorted(glob.glob(os.path.join(sys.argv[1], '*.yaml'))):
    docs += [d for d in yaml.safe_load_all(open(f)) if d]
kinds = sorted(d['kind'] for d in docs)
assert kinds == ['ConfigMap', 'Job', 'Job', 'PersistentVolumeClaim'], kinds
jobs = [d for d in docs if d['kind'] == 'Job']
assert any(j['spec'].get('completionMode') == 'Indexed' for j in jobs)
for j in jobs:
    pod = j['spec']['template']['spec']
    assert not pod.get('hostNetwork') and not pod.get('hostPID')
    assert pod['securityContext']['runAsNonRoot'] is True
    for c in pod['containers']:
        sc = c.get('securityContext', {})
        assert sc.get('privileged') is False and sc.get('allowPrivilegeEscalation') is False
        assert sc['capabilities']['drop'] == ['ALL']
        assert c['resources']['requests']['cpu'] and c['resources']['requests']['memory']
        mounts = {m['name']: m['mountPath'] for m in c['volumeMounts']}
        assert mounts['data'] == '/data', mounts
    vols = {v['name']: v for v in pod['volumes']}
    assert vols['data']['persistentVolumeClaim']['claimName'] == 'iobench-data'
print('#   %d documents: %s' % (len(docs), ', '.join(kinds)))
PY
/usr/bin/python3 -c "
import yaml
d = yaml.safe_load(open('$TOP/deploy/k8s/configmap.yaml'))
open('$T/cm.fio', 'w').write(d['data']['seq-read.fio'])"
"$IOBENCH" --parse-only cm.fio 2>err.txt
check "the ConfigMap's job file parses" sh -c "[ $? -eq 0 ] && [ ! -s err.txt ]"
"$IOBENCH" --parse-only "$TOP/deploy/job-seq-read.fio" 2>err2.txt
check "the host copy of the job file parses" sh -c "[ $? -eq 0 ] && [ ! -s err2.txt ]"
check "Dockerfile: Debian build stage, scratch final stage with only the binary, jobs and /data, UID 65532, WORKDIR /data, ENTRYPOINT iobench" \
	/usr/bin/python3 - "$TOP/Dockerfile" <<'PY'
import json, sys
lines, cur = [], ''
for raw in open(sys.argv[1]):
    l = raw.rstrip('\n')
    if l.lstrip().startswith('#') or not l.strip():
        continue
    cur += l[:-1] + ' ' if l.endswith('\\') else l
    if not l.endswith('\\'):
        lines.append(cur.strip()); cur = ''
stages, st = [], None
for l in lines:
    ins, _, arg = l.partition(' ')
    ins = ins.upper()
    if ins == 'FROM':
        st = {'from': arg, 'ins': []}; stages.append(st)
    else:
        st['ins'].append((ins, arg))
assert len(stages) == 2, stages
assert stages[0]['from'].startswith('debian:bookworm'), stages[0]['from']
assert any(i == 'RUN' and 'make static' in a for i, a in stages[0]['ins'])
final = stages[1]
assert final['from'] == 'scratch', final['from']
d = {}
for i, a in final['ins']:
    d.setdefault(i, []).append(a)
assert set(d) <= {'COPY', 'USER', 'WORKDIR', 'ENTRYPOINT', 'CMD'}, set(d)
assert all(a.split()[0].startswith('--from=') for a in d['COPY'])
dests = sorted(a.split()[-1] for a in d['COPY'])
assert dests == ['/bin/iobench', '/data/', '/jobs/'], dests
assert d['USER'] == ['65532:65532'] and d['WORKDIR'] == ['/data']
assert json.loads(d['ENTRYPOINT'][0]) == ['/bin/iobench']
PY
