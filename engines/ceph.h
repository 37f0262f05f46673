/* What the two Ceph engines (engines/rbd.c, engines/rados.c) share: librados's declarations
 * and the cluster connection (a handle for the user, the ceph.conf, CEPH_ARGS, mon_host, the
 * connection and the pool), with one wording for its errors. Implemented in engines/ceph.c.
 * Only those three files include this header (docs/architecture.md, tests/tools/arch_check.py);
 * the static build has neither engine, and this header declares nothing for it. */
#ifndef IOBENCH_ENGINES_CEPH_H
#define IOBENCH_ENGINES_CEPH_H
#ifndef IOBENCH_STATIC

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "engines/engine.h"

#if __has_include(<rados/librados.h>) && !defined(IOBENCH_NO_CEPH_HEADERS)
#include <rados/librados.h>
#else
/* Debian's librados-dev is not installed: the declarations used, as Ceph 16's librados.h has
 * them (only their types are used: the functions are looked up at run time). */
typedef void *rados_t;
typedef void *rados_ioctx_t;
typedef void *rados_completion_t;
typedef void *rados_write_op_t;
typedef void (*rados_callback_t)(rados_completion_t cb, void *arg);
int rados_create2(rados_t *pcluster, const char *const clustername, const char *const name, uint64_t flags);
int rados_conf_read_file(rados_t cluster, const char *path);
int rados_conf_parse_env(rados_t cluster, const char *var);
int rados_conf_set(rados_t cluster, const char *option, const char *value);
int rados_conf_get(rados_t cluster, const char *option, char *buf, size_t len);
int rados_connect(rados_t cluster);
void rados_shutdown(rados_t cluster);
int rados_ioctx_create(rados_t cluster, const char *pool_name, rados_ioctx_t *ioctx);
void rados_ioctx_destroy(rados_ioctx_t io);
int rados_write(rados_ioctx_t io, const char *oid, const char *buf, size_t len, uint64_t off);
int rados_stat(rados_ioctx_t io, const char *o, uint64_t *psize, time_t *pmtime);
int rados_remove(rados_ioctx_t io, const char *oid);
int rados_aio_create_completion2(void *cb_arg, rados_callback_t cb_complete, rados_completion_t *pc);
int rados_aio_write(rados_ioctx_t io, const char *oid, rados_completion_t completion, const char *buf, size_t len,
		    uint64_t off);
int rados_aio_read(rados_ioctx_t io, const char *oid, rados_completion_t completion, char *buf, size_t len,
		   uint64_t off);
int rados_aio_get_return_value(rados_completion_t c);
void rados_aio_release(rados_completion_t c);
rados_write_op_t rados_create_write_op(void);
void rados_release_write_op(rados_write_op_t write_op);
void rados_write_op_zero(rados_write_op_t write_op, uint64_t offset, uint64_t len);
int rados_aio_write_op_operate(rados_write_op_t write_op, rados_ioctx_t io, rados_completion_t completion,
			       const char *oid, time_t *mtime, int flags);
#endif

/* librados's functions for the connection (the engines load the others they use). */
#define CEPH_CONN_FUNCS(X)                                                                                   \
	X(rados_create2) X(rados_conf_read_file) X(rados_conf_parse_env) X(rados_conf_set) X(rados_conf_get) \
	X(rados_connect) X(rados_shutdown) X(rados_ioctx_create) X(rados_ioctx_destroy)

struct ceph_api {
#define CEPH_MEMBER(f) __typeof__(f) *f;
	CEPH_CONN_FUNCS(CEPH_MEMBER)
};

/* A connection: the cluster and the pool. */
struct ceph_conn {
	rados_t cluster;
	rados_ioctx_t io;
};

/* Where to connect, as the engine's options say ("" for what was not given). */
struct ceph_target {
	const char *clustername; /* default ceph */
	const char *clientname;  /* the user without "client." (default admin); TYPE.ID with clustername */
	const char *conf;        /* conf= path, or "" / NULL: librados's search (CEPH_CONF, /etc/ceph/...) */
	const char *conf_hint;   /* how this engine is given a ceph.conf, for the hint of "no monitors" */
	const char *pool;
	const char *set_key;     /* one setting before connecting (rbd_cache = false), or NULL */
	const char *set_value;
};

/* Load librados's connection functions into a: 0, or -errno with why filled. */
int ceph_load(struct ceph_api *a, char *why, size_t len);
/* Connect to the cluster and open the pool: 0, or -errno with why filled (c is then safe to
 * give to ceph_disconnect). */
int ceph_connect_pool(const struct ceph_api *a, const struct ceph_target *t, struct ceph_conn *c, char *why,
		      size_t len);
void ceph_disconnect(const struct ceph_api *a, struct ceph_conn *c);

#endif
#endif
