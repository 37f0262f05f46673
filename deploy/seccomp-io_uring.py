#!/usr/bin/env python3
"""A seccomp profile that is a container runtime's default plus the three io_uring system
calls (io_uring_setup, io_uring_enter, io_uring_register), for running iobench with
ioengine=io_uring in a container whose default profile refuses them (podman's, Docker >= 25's,
containerd 2's).

    deploy/seccomp-io_uring.py /usr/share/containers/seccomp.json > iobench-io_uring.json
    podman run --security-opt seccomp=iobench-io_uring.json ...
    # Kubernetes: put the file on each node under the kubelet's seccomp directory
    # (/var/lib/kubelet/seccomp/profiles/) and use
    #   securityContext: { seccompProfile: { type: Localhost, localhostProfile: profiles/iobench-io_uring.json } }

The default profile is read, not copied here: it stays the runtime's own (podman's is in
containers-common; Docker's is moby's profiles/seccomp/default.json)."""
import json
import sys

IO_URING = ['io_uring_setup', 'io_uring_enter', 'io_uring_register']

if len(sys.argv) != 2:
    sys.exit('usage: seccomp-io_uring.py DEFAULT_PROFILE.json > PROFILE.json')
profile = json.load(open(sys.argv[1]))
have = {n for rule in profile.get('syscalls', []) if rule.get('action') == 'SCMP_ACT_ALLOW'
        for n in rule.get('names', [])}
missing = [n for n in IO_URING if n not in have]
if missing:
    profile.setdefault('syscalls', []).append({'names': missing, 'action': 'SCMP_ACT_ALLOW', 'args': [],
                                               'comment': 'iobench: ioengine=io_uring'})
json.dump(profile, sys.stdout, indent=2)
sys.stdout.write('\n')
