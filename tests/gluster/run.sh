#!/bin/sh
# `make test-gluster`: a single-node GlusterFS volume on this machine, the host-vs-pod
# sequential read and a filecreate job on it, and the same jobs on a local ext4 for scale.
#
# Everything runs in new mount and network namespaces (unshare -m -n): glusterd's state, run
# and log directories are bind-mounted from a temporary directory, /etc/hosts gains a name
# for 127.0.0.1 (gluster refuses "localhost" as a brick host), ports live on a private
# loopback. The brick is a loop-mounted xfs image. Teardown stops only the processes this
# script started, by their pid files, then unmounts and detaches what it made.
# Prints TAP lines, a figures table (markdown), and one summary line.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
IOBENCH=${IOBENCH:-$TOP/iobench}
if [ "$(id -u)" != 0 ]; then
	echo "test-gluster: needs root (loop devices, mounts, namespaces)" >&2
	exit 1
fi
for c in glusterd gluster glusterfs mkfs.xfs mkfs.ext4 losetup unshare setpriv jq ip; do
	command -v "$c" >/dev/null 2>&1 || { echo "test-gluster: $c is missing" >&2; exit 1; }
done
T=$(mktemp -d /tmp/iobench-gluster.XXXXXX)
chmod 755 "$T"
export T IOBENCH TOP
unshare -m -n --fork sh "$TOP/tests/gluster/inner.sh"
rc=$?
rm -rf "$T"
exit $rc
