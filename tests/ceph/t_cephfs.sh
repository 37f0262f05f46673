# CephFS through ceph-fuse (sourced by tests/ceph/t_ceph.sh, inside its namespaces, once the
# cluster is HEALTH_OK; uses its ok/notok/check, $O, $C, $T, $TOP and $IOBENCH). The kernel
# here has no ceph module, so the file system is mounted as Rook's `mounter: fuse` does:
# - an MDS (mds.a) and a CephFS `cephfs` on two new pools, mounted with ceph-fuse at $T/cephfs
#   (this mount namespace only; ceph_stop unmounts it and stops ceph-fuse and the MDS);
# - the Rook user's bs x rw sweep, in one command, as CSV: bs 4k,64k,1m x rw
#   read,write,randread,randwrite, direct=1, libaio, 8 MiB per point (size-bound): one row per
#   point, the columns of docs/output.md, every row's bytes the size and its IOPS its bytes over
#   its runtime;
# - fio 3.33 on the same mount for four of the sweep's points: the same io_bytes and total_ios,
#   JSON shapes and files (tests/tools/fio_diff.py, in a directory on the mount);
# - host against pod: 4k randread QD32 and 4m read QD32 (time-based, CEPH_RUNTIME s each),
#   fio and iobench, on the host mount and in a pod sandbox (nobody, no capabilities, new mount
#   and pid namespaces, the mount bind-mounted at /mnt, as tests/gluster/ does), in
#   CEPHFS_PAIRS alternating rounds (default 2); `iobench --compare` host pod; the medians as
#   a table.
M=$T/cephfs
t0=$(date +%s)
if ceph_fs_start && ceph_fuse_mount "$M" && ceph_wait_ok 60; then
	ok "cephfs: an MDS and a CephFS (cephfs_metadata, cephfs_data) mounted with ceph-fuse at $M, HEALTH_OK, in $(($(date +%s) - t0)) s"
	FS_UP=1
else
	notok "cephfs: an MDS and a CephFS mounted with ceph-fuse"
	tail -5 "$C/log/setup.log" "$C/log/start.log" 2>/dev/null | sed 's/^/#   /'
	FS_UP=0
fi

if [ "$FS_UP" = 1 ]; then
	# ---- the Rook user's sweep, as CSV ----
	mkdir -p "$M/sweep"
	t0=$(date +%s)
	"$IOBENCH" --sweep=bs=4k,64k,1m --sweep=rw=read,write,randread,randwrite --name=rook \
		--filename="$M/sweep/test" --direct=1 --ioengine=libaio --iodepth=16 --size=8m --runtime=30 \
		--output-format=csv >"$O/cephfs-sweep.csv" 2>"$O/cephfs-sweep.err"
	rc=$?
	took=$(($(date +%s) - t0))
	check "cephfs sweep: bs 4k,64k,1m x rw read,write,randread,randwrite in one command, exit 0, $took s (< 60)" \
		sh -c "[ $rc -eq 0 ] && [ $took -lt 60 ] && [ \$(grep -c '^\[[0-9]*/12\] bs=' '$O/cephfs-sweep.err') -eq 12 ]"
	check "cephfs sweep CSV: a header and one row per point, in sweep order, every row's bytes the 8 MiB asked and its IOPS its I/Os over its runtime" \
		python3 - "$O/cephfs-sweep.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head, rows = rows[0], rows[1:]
want = ['jobname', 'groupid', 'rw', 'bs', 'iodepth', 'numjobs', 'ioengine', 'direct', 'runtime_ms',
        'read_iops', 'read_bw_kib', 'read_io_bytes']
bad = []
if head[:12] != want or head[-2:] != ['bs', 'rw'] or 'write_io_bytes' not in head or 'trim_io_bytes' not in head:
    bad.append('header %s' % head)
points = [(b, r) for b in ('4k', '64k', '1m') for r in ('read', 'write', 'randread', 'randwrite')]
if [(r[-2], r[-1]) for r in rows] != points:
    bad.append('points %s' % [(r[-2], r[-1]) for r in rows])
size = {'4k': 4096, '64k': 65536, '1m': 1 << 20}
for r in rows:
    d = dict(zip(head[:-2], r[:-2]))
    rd = d['rw'].endswith('read')
    got = (int(d['read_io_bytes']), int(d['write_io_bytes']), int(d['trim_io_bytes']))
    if got != ((8 << 20, 0, 0) if rd else (0, 8 << 20, 0)) or d['bs'] != r[-2] or d['rw'] != r[-1] \
            or (d['ioengine'], d['direct'], d['iodepth']) != ('libaio', '1', '16'):
        bad.append('row %s: bytes %s' % (r[-2:], got))
        continue
    ios = (8 << 20) / size[r[-2]]
    iops = float(d['read_iops' if rd else 'write_iops'])
    ms = int(d['runtime_ms'])
    if not (ms > 0 and 0.9 < iops * ms / 1000 / ios < 1.1):
        bad.append('row %s: %s IOPS x %d ms for %d I/Os' % (r[-2:], iops, ms, ios))
for b in bad:
    print('#   ' + b)
sys.exit(1 if bad or len(rows) != 12 else 0)
PY
	sed 's/^/#   /' "$O/cephfs-sweep.csv" | cut -d, -f1-12 | head -13
	rm -rf "$M/sweep"

	# ---- fio 3.33 on the same mount, points of the sweep: the same work ----
	J="--direct=1 --ioengine=libaio --iodepth=16 --size=8m"
	cat >"$O/cephfs-cases" <<EOF
cephfs-4k-randwrite | --name=p $J --bs=4k --rw=randwrite | jobs,ios,keys,clean,files
cephfs-4k-randread | --name=p $J --bs=4k --rw=randread | jobs,ios,keys,clean,files
cephfs-64k-read | --name=p $J --bs=64k --rw=read | jobs,ios,keys,clean,files
cephfs-1m-write | --name=p $J --bs=1m --rw=write | jobs,ios,keys,clean,files
EOF
	python3 "$TOP/tests/tools/fio_diff.py" "$IOBENCH" "$M/diff" <"$O/cephfs-cases"
	rm -rf "$M/diff"

	# ---- host against pod: 4k randread QD32, 4m read QD32; fio and iobench ----
	RT=${CEPH_RUNTIME:-4}
	mkdir -p "$M/fig" "$T/pod"
	chmod 777 "$M/fig" "$T/pod"
	chmod 755 "$T"
	cp "$IOBENCH" "$T/pod/iobench"
	chmod 755 "$T/pod/iobench"
	"$IOBENCH" --name=lay --filename="$M/fig/testfile" --rw=write --bs=4m --size=256m --direct=1 --ioengine=libaio \
		--iodepth=8 --output-format=json >/dev/null 2>"$O/lay.err"
	chmod 666 "$M/fig/testfile"
	RR="--name=rr --rw=randread --bs=4k --iodepth=32"
	SR="--name=Sequ_Read_Testing --rw=read --bs=4m --iodepth=32"
	podrun() { # out.json, program, args... (in the sandbox: the mount at /mnt)
		out=$1
		shift
		unshare -m -p -f --mount-proc sh -c "
			mount --make-rprivate /
			mount --bind '$M/fig' /mnt
			setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all $* >'$out' 2>'$out.err'
			echo \$? >'$out.rc'
		"
	}
	# CEPHFS_PAIRS alternating rounds (default 2) of iobench and fio, each on the host and in
	# the pod; the figure is the median (of 2: the mean).
	PAIRS=${CEPHFS_PAIRS:-2}
	median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
	: >"$O/cephfs-figures"
	for job in rr sr; do
		case $job in rr) args=$RR expr='.jobs[0].read.iops' ;; *) args=$SR expr='.jobs[0].read.bw / 1024' ;; esac
		common="--size=256m --direct=1 --ioengine=libaio --runtime=$RT --time_based --output-format=json"
		rm -f "$O/$job".*.fig
		fails=0
		i=0
		while [ $i -lt "$PAIRS" ]; do
			for p in iobench fio; do
				prog=$IOBENCH pprog=$T/pod/iobench
				[ $p = fio ] && prog=fio pprog=/usr/bin/fio
				# shellcheck disable=SC2086
				"$prog" $args $common --filename="$M/fig/testfile" >"$T/pod/$job-$p-host.json" 2>"$T/pod/$job-$p-host.err" ||
					fails=$((fails + 1))
				podrun "$T/pod/$job-$p-pod.json" "$pprog" $args $common --filename=/mnt/testfile
				[ "$(cat "$T/pod/$job-$p-pod.json.rc")" = 0 ] || fails=$((fails + 1))
				jq "$expr" "$T/pod/$job-$p-host.json" >>"$O/$job.$p-host.fig" 2>/dev/null || echo 0 >>"$O/$job.$p-host.fig"
				jq "$expr" "$T/pod/$job-$p-pod.json" >>"$O/$job.$p-pod.fig" 2>/dev/null || echo 0 >>"$O/$job.$p-pod.fig"
			done
			i=$((i + 1))
		done
		line=$job
		for f in iobench-host iobench-pod fio-host fio-pod; do line="$line $(median <"$O/$job.$f.fig")"; done
		echo "$line" >>"$O/cephfs-figures"
		check "cephfs $job: iobench and fio, $PAIRS times each on the host and in the pod sandbox (nobody, own mount and pid namespaces): exit 0, all measured (${line#* })" \
			sh -c "[ $fails -eq 0 ] && ! cat '$O/$job'.*.fig | grep -qx 0"
		"$IOBENCH" --compare "$T/pod/$job-iobench-host.json" "$T/pod/$job-iobench-pod.json" >"$O/$job-cmp.txt" 2>&1
		check "cephfs $job: iobench --compare host pod" sh -c "[ $? -eq 0 ] && grep -q iops '$O/$job-cmp.txt'"
	done
	rm -f "$M/fig/testfile"
	echo
	echo "| CephFS (ceph-fuse), median of $PAIRS, ${RT} s each | iobench host | iobench pod | fio host | fio pod | iobench/fio host |"
	echo "|---|---|---|---|---|---|"
	while read -r job ih ip fh fp; do
		unit=IOPS name="4k randread QD32"
		[ "$job" = sr ] && unit=MiB/s name="4m read QD32"
		printf '| %s | %.0f %s | %.0f %s | %.0f %s | %.0f %s | %s |\n' "$name" "$ih" "$unit" "$ip" "$unit" "$fh" "$unit" \
			"$fp" "$unit" "$(awk -v a="$ih" -v b="$fh" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
	done <"$O/cephfs-figures"
	echo
fi
