# A single-node Ceph for tests (sourced by tests/ceph/t_ceph.sh; POSIX sh).
#
# One mon, one mgr and one bluestore OSD on a loop device over a sparse file, all on
# 127.0.0.1 (and, when asked, one MDS with a CephFS mounted through ceph-fuse), with every path (data, run, log, admin sockets, pid files, keyrings) under
# $C and a private ceph.conf ($C/ceph.conf). Facts behind the settings:
# ../shared/reference/ceph-single-node.md (a one-OSD cluster needs pool size 1 allowed and its
# warning off; HEALTH_OK comes ~25 s after the mon starts).
#
# ceph_start: start it (returns non-zero, with the reason on stderr, when it cannot);
# ceph_wait_ok SECONDS: wait for HEALTH_OK; ceph_rgw_start: a RADOS Gateway (S3) on
# 127.0.0.1:8000 (beast with tcp_nodelay=1: without it each small reply on a kept-alive
# connection waits for the client's delayed ACK, ~40 ms: 4 KiB GETs took 43 ms with curl
# as with iobench, while the gateway logged under 4 ms); ceph_fs_start: an MDS (mds.a) and a CephFS `cephfs` (pools cephfs_data,
# cephfs_metadata); ceph_fuse_mount DIR: that CephFS mounted at DIR with ceph-fuse (the
# kernel here has no ceph module: Rook's `mounter: fuse`); ceph_stop: unmount the CephFS,
# stop every daemon by its pid file and detach the loop device (idempotent, safe to call from
# a trap).

CEPH_OSD_SIZE=${CEPH_OSD_SIZE:-6G}

ceph_conf() {
	fsid=$1
	cat >"$C/ceph.conf" <<EOF
[global]
fsid = $fsid
mon_host = [v2:127.0.0.1:3300,v1:127.0.0.1:6789]
public_network = 127.0.0.0/8
ms_bind_ipv4 = true
ms_bind_ipv6 = false
auth_cluster_required = cephx
auth_service_required = cephx
auth_client_required = cephx
keyring = $C/client.admin.keyring
run_dir = $C/run
admin_socket = $C/run/\$cluster-\$name.asok
log_file = $C/log/\$cluster-\$name.log
pid_file = $C/run/\$type.\$id.pid
crash_dir = $C/crash
osd_pool_default_size = 1
osd_pool_default_min_size = 1
osd_pool_default_pg_autoscale_mode = off
osd_pool_default_pg_num = 8
mon_allow_pool_size_one = true
mon_allow_pool_delete = true
mon_warn_on_pool_no_redundancy = false
mon_data_avail_warn = 5
mon_data_avail_crit = 2
auth_allow_insecure_global_id_reclaim = false
osd_crush_chooseleaf_type = 0
client_mount_timeout = 20
[mon]
mon_data = $C/mon-\$id
keyring = $C/mon-\$id/keyring
[mgr]
mgr_data = $C/mgr-\$id
keyring = $C/mgr-\$id/keyring
[osd]
osd_data = $C/osd-\$id
keyring = $C/osd-\$id/keyring
osd_objectstore = bluestore
osd_memory_target = 1073741824
[mds]
mds_data = $C/mds-\$id
keyring = $C/mds-\$id/keyring
mds_beacon_interval = 1
mds_beacon_grace = 10
mds_reconnect_timeout = 3
mds_ping_interval = 1
[client.rgw.gw]
rgw_frontends = beast endpoint=127.0.0.1:8000 tcp_nodelay=1
rgw_data = $C/rgw-gw
keyring = $C/rgw-gw/keyring
EOF
}

# Start a daemon; it forks and writes its pid file ($C/run/TYPE.ID.pid).
ceph_daemon() { # ceph-mon|ceph-mgr|ceph-osd id
	"$1" -c "$C/ceph.conf" -i "$2" >>"$C/log/start.log" 2>&1
}

ceph_start() {
	mkdir -p "$C/run" "$C/log" "$C/crash" "$C/mon-a" "$C/mgr-x" "$C/osd-0" || return 1
	fsid=$(cat /proc/sys/kernel/random/uuid)
	ceph_conf "$fsid"
	export CEPH_CONF="$C/ceph.conf"
	log=$C/log/setup.log
	{
		ceph-authtool --create-keyring "$C/mon.keyring" --gen-key -n mon. --cap mon 'allow *' &&
			ceph-authtool --create-keyring "$C/client.admin.keyring" --gen-key -n client.admin \
				--cap mon 'allow *' --cap osd 'allow *' --cap mgr 'allow *' --cap mds 'allow *' &&
			ceph-authtool "$C/mon.keyring" --import-keyring "$C/client.admin.keyring" &&
			monmaptool --create --fsid "$fsid" --addv a '[v2:127.0.0.1:3300,v1:127.0.0.1:6789]' "$C/monmap" &&
			ceph-mon -c "$C/ceph.conf" --mkfs -i a --monmap "$C/monmap" --keyring "$C/mon.keyring"
	} >>"$log" 2>&1 || { echo "ceph: cannot make the mon (see $log)" >&2; return 1; }
	ceph_daemon ceph-mon a || { echo "ceph: ceph-mon does not start" >&2; return 1; }
	ceph auth get-or-create mgr.x mon 'allow profile mgr' osd 'allow *' mds 'allow *' \
		-o "$C/mgr-x/keyring" >>"$log" 2>&1 || { echo "ceph: the mon does not answer (see $log)" >&2; return 1; }
	ceph_daemon ceph-mgr x || { echo "ceph: ceph-mgr does not start" >&2; return 1; }
	truncate -s "$CEPH_OSD_SIZE" "$C/osd0.img" || return 1
	loop=$(losetup -f --show "$C/osd0.img") || { echo "ceph: no free loop device" >&2; return 1; }
	echo "$loop" >"$C/loop"
	uuid=$(cat /proc/sys/kernel/random/uuid)
	{
		ln -s "$loop" "$C/osd-0/block" &&
			id=$(ceph osd new "$uuid") && [ "$id" = 0 ] &&
			ceph auth get-or-create osd.0 mon 'allow profile osd' mgr 'allow profile osd' osd 'allow *' \
				-o "$C/osd-0/keyring" &&
			ceph-osd -c "$C/ceph.conf" -i 0 --mkfs --osd-uuid "$uuid"
	} >>"$log" 2>&1 || { echo "ceph: cannot make the OSD on $loop (see $log)" >&2; return 1; }
	ceph_daemon ceph-osd 0 || { echo "ceph: ceph-osd does not start" >&2; return 1; }
}

# HEALTH_OK with the mgr active, the OSD up and every PG active+clean.
ceph_ready() {
	[ "$(timeout 10 ceph health 2>/dev/null)" = HEALTH_OK ] || return 1
	timeout 10 ceph mgr stat -f json 2>/dev/null | jq -e '.available' >/dev/null || return 1
	timeout 10 ceph osd stat -f json 2>/dev/null | jq -e '.num_up_osds == 1' >/dev/null || return 1
	timeout 10 ceph pg stat -f json 2>/dev/null |
		jq -e '[.pg_summary.num_pg_by_state[] | select(.name != "active+clean")] | length == 0' >/dev/null
}

ceph_wait_ok() { # seconds
	n=0
	while [ "$n" -lt $(($1 * 2)) ]; do
		ceph_ready && return 0
		sleep 0.5
		n=$((n + 1))
	done
	echo "ceph: not ready after $1 s: $(timeout 10 ceph -s 2>&1 | tr '\n' ' ' | tr -s ' ')" >&2
	return 1
}

# An RBD pool with an image of $2 MiB (name $1/$3), and a RADOS pool $4.
ceph_pools() { # rbd-pool image-MiB image rados-pool
	{
		ceph osd pool create "$1" 16 16 && rbd pool init "$1" && rbd create --size "$2" "$1/$3" &&
			ceph osd pool create "$4" 16 16 && ceph osd pool application enable "$4" rados
	} >>"$C/log/setup.log" 2>&1 || { echo "ceph: cannot make the pools (see $C/log/setup.log)" >&2; return 1; }
}

# The RADOS Gateway, client.rgw.gw, answering S3 on 127.0.0.1:8000 (its pools are made on
# its first start: ~10-20 s).
ceph_rgw_start() {
	mkdir -p "$C/rgw-gw"
	ceph auth get-or-create client.rgw.gw mon 'allow rw' osd 'allow rwx' -o "$C/rgw-gw/keyring" \
		>>"$C/log/setup.log" 2>&1 || { echo "ceph: no key for the gateway" >&2; return 1; }
	radosgw -c "$C/ceph.conf" -n client.rgw.gw >>"$C/log/start.log" 2>&1 || { echo "ceph: radosgw does not start" >&2; return 1; }
	n=0
	while [ $n -lt 240 ]; do
		curl -s -o /dev/null -f http://127.0.0.1:8000/ && return 0
		sleep 0.5
		n=$((n + 1))
	done
	echo "ceph: radosgw does not answer on 127.0.0.1:8000 after 120 s" >&2
	return 1
}

# The MDS mds.a and a CephFS on two new pools; waits until a rank is up:active (a few s).
ceph_fs_start() {
	mkdir -p "$C/mds-a"
	{
		ceph auth get-or-create mds.a mon 'allow profile mds' osd 'allow rwx' mds 'allow' mgr 'allow profile mds' \
			-o "$C/mds-a/keyring" &&
			ceph osd pool create cephfs_metadata 8 8 && ceph osd pool create cephfs_data 8 8 &&
			ceph fs new cephfs cephfs_metadata cephfs_data &&
			ceph fs set cephfs standby_count_wanted 0
	} >>"$C/log/setup.log" 2>&1 || { echo "ceph: cannot make the CephFS (see $C/log/setup.log)" >&2; return 1; }
	ceph-mds -c "$C/ceph.conf" -i a >>"$C/log/start.log" 2>&1 || { echo "ceph: ceph-mds does not start" >&2; return 1; }
	n=0
	while [ $n -lt 120 ]; do
		timeout 10 ceph fs status cephfs -f json 2>/dev/null | jq -e '[(.mdsmap // [])[] | select(.state == "active")] | length == 1' \
			>/dev/null && return 0
		sleep 0.5
		n=$((n + 1))
	done
	echo "ceph: no active MDS after 60 s: $(timeout 10 ceph fs status 2>&1 | tr '\n' ' ' | tr -s ' ')" >&2
	return 1
}

# The CephFS mounted at DIR through ceph-fuse as client.admin (its pid file:
# $C/run/ceph-fuse.pid; the mount point in $C/fuse-mnt for ceph_stop).
ceph_fuse_mount() { # dir
	mkdir -p "$1" || return 1
	echo "$1" >"$C/fuse-mnt"
	ceph-fuse -c "$C/ceph.conf" --id admin --pid-file "$C/run/ceph-fuse.pid" \
		--admin-socket "$C/run/ceph-fuse.asok" --client_fs cephfs "$1" \
		>>"$C/log/start.log" 2>&1 || { echo "ceph: ceph-fuse cannot mount the CephFS at $1 (see $C/log/start.log)" >&2; return 1; }
	grep -q " $1 fuse.ceph-fuse " /proc/mounts || { echo "ceph: ceph-fuse returned but $1 is not mounted" >&2; return 1; }
}

# Unmount the ceph-fuse mount (lazily if it is busy) and stop ceph-fuse.
ceph_fuse_umount() {
	[ -s "$C/fuse-mnt" ] || return 0
	m=$(cat "$C/fuse-mnt")
	if grep -q " $m fuse" /proc/mounts; then
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	fi
	ceph_stop_pidfile "$C/run/ceph-fuse.pid"
	rm -f "$C/fuse-mnt"
}

# Is process p running (not gone, not a zombie waiting for its parent)?
ceph_alive() {
	s=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)
	[ -n "$s" ] && [ "$s" != Z ]
}

# Stop the process a pid file names, if it is still a Ceph daemon: TERM, then KILL after 10 s.
ceph_stop_pidfile() {
	[ -s "$1" ] || return 0
	p=$(cat "$1")
	case $(cat "/proc/$p/comm" 2>/dev/null) in ceph-* | radosgw) ;; *) rm -f "$1"; return 0 ;; esac
	kill "$p" 2>/dev/null
	i=0
	while ceph_alive "$p" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	kill -9 "$p" 2>/dev/null
	while ceph_alive "$p"; do sleep 0.1; done
	rm -f "$1"
}

ceph_stop() {
	[ -n "${C:-}" ] && [ -d "$C" ] || return 0
	ceph_fuse_umount
	for t in client.rgw.gw mds.a osd.0 mgr.x mon.a; do ceph_stop_pidfile "$C/run/$t.pid"; done
	if [ -s "$C/loop" ]; then
		losetup -d "$(cat "$C/loop")" 2>/dev/null
		rm -f "$C/loop"
	fi
}
