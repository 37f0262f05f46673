#!/bin/sh
# Issue 7 (part): the Kubernetes manifests parse, have the expected kinds, mount the PVC at
# /data, ask for no privilege, set resource requests; their job file parses.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
if ! /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
	skip "Kubernetes manifests" "python3-yaml is not installed"
	exit 0
fi
# Issue 18: what a restricted cluster admits, checked offline against the Kubernetes API
# models (Debian's python3-kubernetes): schema, Pod Security "restricted", pinned image,
# requests and limits, results on the volume, a ReadWriteOnce claim that holds the jobs.
if ! /usr/bin/python3 -c 'import kubernetes' 2>/dev/null; then
	skip "the manifests against the Kubernetes API models" "python3-kubernetes is not installed"
else
	VERSION=$(sed -n 's/^VERSION *:= *//p' "$TOP/Makefile")
	/usr/bin/python3 "$TOP/tests/tools/k8s_check.py" "$TOP/deploy/k8s" "$VERSION" >k8s.txt 2>&1
	rc=$?
	sed 's/^/#   /' k8s.txt | grep -v '^#   #'
	check "the manifests: Kubernetes API schema, Pod Security restricted, iobench:$VERSION IfNotPresent, requests and limits, results on the volume, the claim holds what the jobs write" [ $rc -eq 0 ]
	grep '^#   ' k8s.txt
	cp -r "$TOP/deploy/k8s" bad
	sed -i 's/imagePullPolicy: IfNotPresent/imagePullPolicy: Always/' bad/job.yaml
	sed -i 's/storage: 45Gi/storage: 20Gi/' bad/pvc.yaml
	sed -i 's/      containers:/      containerz:/' bad/collect.yaml
	sed -i '0,/seccompProfile:/s//seccompProfilx:/' bad/indexed-job.yaml
	/usr/bin/python3 "$TOP/tests/tools/k8s_check.py" bad "$VERSION" >bad.txt 2>&1
	check "... and the checker refuses a pull-Always image, a 20Gi claim, an unknown field, a missing seccomp profile" \
		sh -c "[ \$(grep -c '^k8s:' bad.txt) -ge 5 ] && grep -q 'no field .containerz.' bad.txt && grep -q '20 GiB asked' bad.txt && grep -q 'RuntimeDefault' bad.txt && grep -q 'IfNotPresent' bad.txt"
fi
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
