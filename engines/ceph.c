/* The cluster connection of the two Ceph engines (engines/ceph.h): one librados handle
 * configured as Ceph's own tools do (the ceph.conf given or found, then CEPH_ARGS), refused
 * in one line when there is no mon_host to go to, connected, with the pool opened. */
#include "engines/ceph.h"

#ifdef IOBENCH_STATIC
typedef int ceph_compiled_out; /* neither Ceph engine is in the static build */
#else
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define SYM(f) { #f, offsetof(struct ceph_api, f) },
static const struct engine_symbol ceph_syms[] = { CEPH_CONN_FUNCS(SYM) };
#undef SYM

int ceph_load(struct ceph_api *a, char *why, size_t len)
{
	return engine_load_library("librados.so.2", "librados2", ceph_syms, sizeof(ceph_syms) / sizeof(ceph_syms[0]),
				   a, why, len);
}

void ceph_disconnect(const struct ceph_api *a, struct ceph_conn *c)
{
	if (c->io)
		a->rados_ioctx_destroy(c->io);
	if (c->cluster)
		a->rados_shutdown(c->cluster);
	memset(c, 0, sizeof(*c));
}

/* The cluster handle for the user ("client.ID", or TYPE.ID as given with clustername, as
 * fio): the ceph.conf, then CEPH_ARGS, a mon_host to go to, one setting; connected. */
static int ceph_configure(const struct ceph_api *a, const struct ceph_target *t, struct ceph_conn *c, char *why,
			  size_t len)
{
	char user[160];
	const char *cluster = t->clustername && t->clustername[0] ? t->clustername : "ceph";
	const char *id = t->clientname && t->clientname[0] ? t->clientname : "admin";
	const char *conf = t->conf && t->conf[0] ? t->conf : NULL;
	bool full = t->clustername && t->clustername[0] && strchr(id, '.');
	snprintf(user, sizeof(user), "%s%s", full ? "" : "client.", id);
	int ret = a->rados_create2(&c->cluster, cluster, user, 0);
	if (ret < 0) {
		c->cluster = NULL;
		snprintf(why, len, "cannot make a handle for cluster '%s' as %s: %s", cluster, user, strerror(-ret));
		return ret;
	}
	ret = a->rados_conf_read_file(c->cluster, conf);
	if (ret < 0 && (conf || (ret != -ENOENT && ret != -EINVAL))) {
		if (conf)
			snprintf(why, len, "conf: cannot read '%.300s': %s", conf, strerror(-ret));
		else
			snprintf(why, len, "cannot read the Ceph configuration (CEPH_CONF, /etc/ceph/%s.conf): %s",
				 cluster, strerror(-ret));
		return ret;
	}
	bool no_conf = ret < 0;
	if ((ret = a->rados_conf_parse_env(c->cluster, NULL)) < 0) {
		snprintf(why, len, "CEPH_ARGS: %s", strerror(-ret));
		return ret;
	}
	char mons[256] = "";
	if (a->rados_conf_get(c->cluster, "mon_host", mons, sizeof(mons)) < 0 || !mons[0]) {
		snprintf(why, len, "no monitors to connect to: %s (%s)",
			 no_conf ? "no ceph.conf found" : "the ceph.conf has no mon_host", t->conf_hint);
		return -ENOENT;
	}
	if (t->set_key && (ret = a->rados_conf_set(c->cluster, t->set_key, t->set_value)) < 0) {
		snprintf(why, len, "cannot set %s = %s: %s", t->set_key, t->set_value, strerror(-ret));
		return ret;
	}
	if ((ret = a->rados_connect(c->cluster)) < 0)
		snprintf(why, len, "cannot connect to the cluster (mon_host %s) as %s: %s%s", mons, user, strerror(-ret),
			 ret == -ETIMEDOUT ? " (client_mount_timeout passed)" : "");
	return ret;
}

int ceph_connect_pool(const struct ceph_api *a, const struct ceph_target *t, struct ceph_conn *c, char *why,
		      size_t len)
{
	memset(c, 0, sizeof(*c));
	int ret = ceph_configure(a, t, c, why, len);
	if (ret)
		return ret;
	if ((ret = a->rados_ioctx_create(c->cluster, t->pool, &c->io)) < 0) {
		c->io = NULL;
		snprintf(why, len, "pool '%s': %s", t->pool, ret == -ENOENT ? "no such pool" : strerror(-ret));
	}
	return ret;
}
#endif
