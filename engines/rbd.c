/* rbd: I/O to a Ceph RBD image through librbd, from user space (no kernel rbd module): what
 * a VM or a Rook/CSI volume in librbd mode sees of the cluster. librbd and librados are
 * loaded at run time (Debian's librbd1, librados2), only when a job asks for this engine.
 * The image is the job's one "file"; without size= the job covers the whole image.
 * Completions are reaped without a thread per I/O: librbd signals an eventfd and
 * rbd_poll_io_events hands them over (busy_poll=1 spins on it instead of sleeping).
 * direct=1 turns the librbd cache off; otherwise the image is flushed once after opening, so
 * the cache is in writeback from the start (both as fio 3.33). */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "engines/engine.h"

struct rbd_opts {
	char clustername[128];
	char rbdname[256];
	char pool[256];
	char clientname[128];
	bool busy_poll;
};

#define OFFS(f) offsetof(struct rbd_opts, f)
#define SZ(f) sizeof(((struct rbd_opts *)0)->f)
static const struct option_def rbd_options[] = {
	{ .name = "clustername", .type = OPT_STR, .offset = OFFS(clustername), .size = SZ(clustername),
	  .help = "Name of the Ceph cluster (its ceph.conf is /etc/ceph/NAME.conf; default ceph)" },
	{ .name = "rbdname", .type = OPT_STR, .offset = OFFS(rbdname), .size = SZ(rbdname),
	  .help = "The RBD image to do I/O to" },
	{ .name = "pool", .type = OPT_STR, .offset = OFFS(pool), .size = SZ(pool),
	  .help = "The Ceph pool holding the RBD image" },
	{ .name = "clientname", .type = OPT_STR, .offset = OFFS(clientname), .size = SZ(clientname),
	  .help = "Ceph user without 'client.' (default admin); with clustername, TYPE.ID in full" },
	{ .name = "busy_poll", .type = OPT_BOOL, .offset = OFFS(busy_poll), .def = "0",
	  .help = "Poll for completions without sleeping (lower latency, a busy CPU)" },
	{ NULL },
};

#define RBD_LIBRARY "librbd.so.1"

#ifdef IOBENCH_STATIC
const struct engine_ops rbd_engine_ops = {
	.name = "rbd",
	.flags = ENGINE_NO_FILE | ENGINE_REMOTE | ENGINE_TRIM | ENGINE_COMPILED_OUT,
	.library = RBD_LIBRARY,
	.options = rbd_options,
	.options_size = sizeof(struct rbd_opts),
};
#else

#include "engines/ceph.h"

#if __has_include(<rbd/librbd.h>) && !defined(IOBENCH_NO_CEPH_HEADERS)
#include <rbd/librbd.h>
#else
/* Debian's librbd-dev is not installed: the declarations used here, as Ceph 16's librbd.h
 * has them (only their types are used: the functions are looked up at run time). */
typedef void *rbd_image_t;
typedef void *rbd_completion_t;
typedef void (*rbd_callback_t)(rbd_completion_t cb, void *arg);
enum { EVENT_TYPE_EVENTFD = 2 };
int rbd_open(rados_ioctx_t io, const char *name, rbd_image_t *image, const char *snap_name);
int rbd_open_read_only(rados_ioctx_t io, const char *name, rbd_image_t *image, const char *snap_name);
int rbd_close(rbd_image_t image);
int rbd_get_size(rbd_image_t image, uint64_t *size);
int rbd_set_image_notification(rbd_image_t image, int fd, int type);
int rbd_aio_create_completion(void *cb_arg, rbd_callback_t complete_cb, rbd_completion_t *c);
int rbd_aio_write(rbd_image_t image, uint64_t off, size_t len, const char *buf, rbd_completion_t c);
int rbd_aio_read(rbd_image_t image, uint64_t off, size_t len, char *buf, rbd_completion_t c);
int rbd_aio_discard(rbd_image_t image, uint64_t off, uint64_t len, rbd_completion_t c);
ssize_t rbd_aio_get_return_value(rbd_completion_t c);
void *rbd_aio_get_arg(rbd_completion_t c);
void rbd_aio_release(rbd_completion_t c);
int rbd_flush(rbd_image_t image);
int rbd_invalidate_cache(rbd_image_t image);
int rbd_poll_io_events(rbd_image_t image, rbd_completion_t *comps, int numcomp);
#endif

/* librbd's functions used (librados's, for the connection, are ceph.h's). */
#define RBD_FUNCS(X)                                                                                      \
	X(rbd_open) X(rbd_open_read_only) X(rbd_close) X(rbd_get_size) X(rbd_set_image_notification)      \
	X(rbd_aio_create_completion) X(rbd_aio_write) X(rbd_aio_read) X(rbd_aio_discard)                  \
	X(rbd_aio_get_return_value) X(rbd_aio_get_arg) X(rbd_aio_release) X(rbd_flush) X(rbd_invalidate_cache) \
	X(rbd_poll_io_events)

struct rbd_api {
	struct ceph_api ceph;
#define MEMBER(f) __typeof__(f) *f;
	RBD_FUNCS(MEMBER)
#undef MEMBER
};

#define SYM(f) { #f, offsetof(struct rbd_api, f) },
static const struct engine_symbol rbd_syms[] = { RBD_FUNCS(SYM) };
#undef SYM

/* A connection: the cluster and the pool, the image. */
struct rbd_conn {
	struct ceph_conn ceph;
	rbd_image_t image;
};

static int rbd_load(struct rbd_api *a, char *why, size_t len)
{
	int ret = ceph_load(&a->ceph, why, len);
	return ret ? ret
		   : engine_load_library("librbd.so.1", "librbd1", rbd_syms, sizeof(rbd_syms) / sizeof(rbd_syms[0]),
					 a, why, len);
}

static void rbd_disconnect(const struct rbd_api *a, struct rbd_conn *c)
{
	if (c->image)
		a->rbd_close(c->image);
	c->image = NULL;
	ceph_disconnect(&a->ceph, &c->ceph);
}

static int rbd_connect(const struct rbd_api *a, const struct rbd_opts *ro, bool direct, bool read_only,
		       struct rbd_conn *c, char *why, size_t len)
{
	memset(c, 0, sizeof(*c));
	if (!ro->pool[0] || !ro->rbdname[0]) {
		snprintf(why, len, "%s: not given (the %s)", !ro->pool[0] ? "pool" : "rbdname",
			 !ro->pool[0] ? "Ceph pool holding the image" : "RBD image to do I/O to");
		return -EINVAL;
	}
	/* librados finds the ceph.conf as for Ceph's tools (CEPH_CONF, /etc/ceph/$cluster.conf,
	 * ~/.ceph/, ./); direct=1 turns the librbd cache off (as fio). */
	const struct ceph_target t = { .clustername = ro->clustername, .clientname = ro->clientname,
				       .conf_hint = "set CEPH_CONF to a ceph.conf with mon_host", .pool = ro->pool,
				       .set_key = direct ? "rbd_cache" : NULL, .set_value = "false" };
	int ret = ceph_connect_pool(&a->ceph, &t, &c->ceph, why, len);
	if (ret)
		return ret;
	ret = (read_only ? a->rbd_open_read_only : a->rbd_open)(c->ceph.io, ro->rbdname, &c->image, NULL);
	if (ret < 0) {
		c->image = NULL;
		snprintf(why, len, "image '%s' in pool '%s': %s", ro->rbdname, ro->pool,
			 ret == -ENOENT ? "no such image" : strerror(-ret));
	}
	return ret;
}

/* Before the run: the libraries load, the cluster answers, the image is there; its size. */
static int rbd_probe(const struct job_opts *o, const void *eng_opts, uint64_t *bytes, char *why, size_t len)
{
	struct rbd_api a;
	struct rbd_conn c;
	int ret = rbd_load(&a, why, len);
	if (ret)
		return ret;
	ret = rbd_connect(&a, eng_opts, false, true, &c, why, len);
	if (!ret && (ret = a.rbd_get_size(c.image, bytes)) < 0)
		snprintf(why, len, "cannot read the size of image '%s': %s", ((const struct rbd_opts *)eng_opts)->rbdname,
			 strerror(-ret));
	rbd_disconnect(&a, &c);
	return ret;
}

struct rbd_data {
	struct rbd_api a;
	struct rbd_conn c;
	int efd;                 /* librbd signals completions here */
	bool busy_poll;
	struct io_unit **pending; /* queued, submitted by commit */
	unsigned nr_pending;
	struct io_unit **failed;  /* refused when submitted: handed out by the next getevents */
	unsigned nr_failed;
	rbd_completion_t *comps;  /* rbd_poll_io_events' array */
	unsigned inflight;        /* submitted, not yet reaped */
};

static int rbd_reap(struct rbd_data *d, struct io_unit **out, unsigned max);

static void rbd_cleanup(struct engine_ctx *ctx)
{
	struct rbd_data *d = ctx->priv;
	if (!d)
		return;
	/* I/Os the job gave up on are still librbd's: wait for them (their buffers live until
	 * cleanup returns), then release their completions. */
	for (unsigned naps = 0; d->c.image && d->inflight && naps < 300;) /* 30 s at most */
		if (rbd_reap(d, ctx->events, ctx->depth) == 0 && d->inflight)
			naps++, poll(&(struct pollfd){ .fd = d->efd, .events = POLLIN }, 1, 100);
	rbd_disconnect(&d->a, &d->c);
	if (d->efd >= 0)
		close(d->efd);
	free(d->pending);
	free(d->failed);
	free(d->comps);
	free(d);
}

static int rbd_init(struct engine_ctx *ctx)
{
	const struct rbd_opts *ro = ctx->eng_opts;
	struct rbd_data *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	ctx->priv = d;
	d->efd = -1;
	d->busy_poll = ro->busy_poll;
	d->pending = calloc(ctx->depth, sizeof(*d->pending));
	d->failed = calloc(ctx->depth, sizeof(*d->failed));
	d->comps = calloc(ctx->depth, sizeof(*d->comps));
	if (!d->pending || !d->failed || !d->comps)
		return -ENOMEM;
	int ret = rbd_load(&d->a, ctx->why, sizeof(ctx->why));
	if (!ret)
		ret = rbd_connect(&d->a, ro, ctx->opts->direct, false, &d->c, ctx->why, sizeof(ctx->why));
	if (ret)
		return ret;
	d->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (d->efd < 0)
		return -errno;
	ret = d->a.rbd_set_image_notification(d->c.image, d->efd, EVENT_TYPE_EVENTFD);
	if (ret < 0) {
		snprintf(ctx->why, sizeof(ctx->why), "cannot have librbd signal completions on an eventfd");
		return ret;
	}
	if (!ctx->opts->direct)
		d->a.rbd_flush(d->c.image);
	if (ctx->opts->invalidate)
		d->a.rbd_invalidate_cache(d->c.image);
	return 0;
}

static int rbd_open_image(struct engine_ctx *ctx, const char *path, int flags, int *fd)
{
	*fd = -1; /* the image is open already: every file of the job is it */
	return 0;
}

/* fsync=N and end_fsync: librbd's cache written back to the cluster. */
static int rbd_sync_image(struct engine_ctx *ctx, unsigned file_index)
{
	struct rbd_data *d = ctx->priv;
	int ret = d->a.rbd_flush(d->c.image);
	return ret < 0 ? ret : 0;
}

static int rbd_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct rbd_data *d = ctx->priv;
	if (d->nr_pending >= ctx->depth)
		return Q_BUSY;
	d->pending[d->nr_pending++] = u;
	return Q_QUEUED;
}

static int rbd_submit(struct rbd_data *d, struct io_unit *u)
{
	rbd_completion_t c;
	int ret = d->a.rbd_aio_create_completion(u, NULL, &c);
	if (ret < 0)
		return ret;
	if (u->ddir == DDIR_READ)
		ret = d->a.rbd_aio_read(d->c.image, u->offset, u->len, u->buf, c);
	else if (u->ddir == DDIR_WRITE)
		ret = d->a.rbd_aio_write(d->c.image, u->offset, u->len, u->buf, c);
	else
		ret = d->a.rbd_aio_discard(d->c.image, u->offset, u->len, c);
	if (ret < 0)
		d->a.rbd_aio_release(c);
	return ret;
}

static int rbd_commit(struct engine_ctx *ctx)
{
	struct rbd_data *d = ctx->priv;
	for (unsigned i = 0; i < d->nr_pending; i++) {
		struct io_unit *u = d->pending[i];
		int ret = rbd_submit(d, u);
		if (ret < 0) { /* this I/O fails with the reason; the others go on */
			u->result = ret;
			d->failed[d->nr_failed++] = u;
		} else {
			d->inflight++;
		}
	}
	d->nr_pending = 0;
	return 0;
}

/* What librbd has finished, at most max, into out; 0 when nothing is there yet. */
static int rbd_reap(struct rbd_data *d, struct io_unit **out, unsigned max)
{
	int n = d->a.rbd_poll_io_events(d->c.image, d->comps, (int)max);
	for (int i = 0; i < n; i++) {
		struct io_unit *u = d->a.rbd_aio_get_arg(d->comps[i]);
		ssize_t r = d->a.rbd_aio_get_return_value(d->comps[i]);
		d->a.rbd_aio_release(d->comps[i]);
		/* Reads return the bytes read; writes and discards 0 when done. */
		u->result = r < 0 ? r : u->ddir == DDIR_READ ? r : (int64_t)u->len;
		out[i] = u;
	}
	if (n > 0)
		d->inflight -= (unsigned)n;
	return n < 0 ? 0 : n;
}

static int rbd_getevents(struct engine_ctx *ctx, unsigned min, unsigned max, const struct timespec *timeout)
{
	struct rbd_data *d = ctx->priv;
	unsigned n = 0;
	while (d->nr_failed && n < max)
		ctx->events[n++] = d->failed[--d->nr_failed];
	struct timespec deadline = timeout ? engine_deadline(timeout) : (struct timespec){ 0 };
	for (;;) {
		uint64_t count;
		if (!d->busy_poll && read(d->efd, &count, sizeof(count)) < 0 && errno != EAGAIN)
			return -errno;
		if (n < max)
			n += (unsigned)rbd_reap(d, ctx->events + n, max - n);
		if (n >= min || n >= max || !engine_wait_fd(d->busy_poll ? -1 : d->efd, timeout ? &deadline : NULL))
			return (int)n;
	}
}

const struct engine_ops rbd_engine_ops = {
	.name = "rbd",
	.flags = ENGINE_NO_FILE | ENGINE_REMOTE | ENGINE_TRIM,
	.library = RBD_LIBRARY,
	.options = rbd_options,
	.options_size = sizeof(struct rbd_opts),
	.probe = rbd_probe,
	.init = rbd_init,
	.cleanup = rbd_cleanup,
	.open_file = rbd_open_image,
	.sync_file = rbd_sync_image,
	.queue = rbd_queue,
	.commit = rbd_commit,
	.getevents = rbd_getevents,
};
#endif
