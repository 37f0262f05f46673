/* rados: I/O to Ceph RADOS objects through librados, the object store under RBD, CephFS
 * and RGW. Each of the job's files is an object of that name in the pool (rw.0.0, ...).
 * librados is loaded at run time (Debian's librados2), only when a job asks for it.
 * Unlike fio 3.33: every completion's result is checked (a write past osd_max_object_size
 * fails with EFBIG instead of being counted as done), a job that reads first writes its
 * objects up to their size (as fio lays out files; fio reads empty objects), and the objects
 * the job created are removed when it ends (fio leaves them all). librados calls back on
 * its own thread; the callback puts the I/O on a lock-free list and signals an eventfd
 * (busy_poll=1: the reaper spins on the list instead). */
#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "engines/engine.h"

struct rados_opts {
	char clustername[128];
	char pool[256];
	char clientname[128];
	char conf[4096];
	bool busy_poll;
	bool touch_objects;
};

#define OFFS(f) offsetof(struct rados_opts, f)
#define SZ(f) sizeof(((struct rados_opts *)0)->f)
static const struct option_def rados_options[] = {
	{ .name = "clustername", .type = OPT_STR, .offset = OFFS(clustername), .size = SZ(clustername),
	  .help = "Name of the Ceph cluster (default ceph)" },
	{ .name = "pool", .type = OPT_STR, .offset = OFFS(pool), .size = SZ(pool),
	  .help = "The Ceph pool the objects are in" },
	{ .name = "clientname", .type = OPT_STR, .offset = OFFS(clientname), .size = SZ(clientname),
	  .help = "Ceph user without 'client.' (default admin); with clustername, TYPE.ID in full" },
	{ .name = "conf", .type = OPT_STR, .offset = OFFS(conf), .size = SZ(conf),
	  .help = "Path of the ceph.conf (default: librados's search: CEPH_CONF, /etc/ceph/CLUSTER.conf, ...)" },
	{ .name = "busy_poll", .type = OPT_BOOL, .offset = OFFS(busy_poll), .def = "0",
	  .help = "Poll for completions without sleeping (lower latency, a busy CPU)" },
	{ .name = "touch_objects", .type = OPT_BOOL, .offset = OFFS(touch_objects), .def = "1",
	  .help = "Create the objects that do not exist before the job starts" },
	{ NULL },
};

#define RADOS_LIBRARY "librados.so.2"

#ifdef IOBENCH_STATIC
const struct engine_ops rados_engine_ops = {
	.name = "rados",
	.flags = ENGINE_NO_FILE | ENGINE_REMOTE | ENGINE_CHANGES_FILES | ENGINE_TRIM | ENGINE_SIZED_FILES | ENGINE_COMPILED_OUT,
	.library = RADOS_LIBRARY,
	.options = rados_options,
	.options_size = sizeof(struct rados_opts),
};
#else

#include "engines/ceph.h"

/* librados's functions for the objects (the connection's are ceph.h's). */
#define RADOS_FUNCS(X)                                                                                   \
	X(rados_write) X(rados_stat) X(rados_remove) X(rados_aio_create_completion2) X(rados_aio_write)  \
	X(rados_aio_read) X(rados_aio_get_return_value) X(rados_aio_release) X(rados_create_write_op)    \
	X(rados_release_write_op) X(rados_write_op_zero) X(rados_aio_write_op_operate)

struct rados_api {
	struct ceph_api ceph;
#define MEMBER(f) __typeof__(f) *f;
	RADOS_FUNCS(MEMBER)
#undef MEMBER
};

#define SYM(f) { #f, offsetof(struct rados_api, f) },
static const struct engine_symbol rados_syms[] = { RADOS_FUNCS(SYM) };
#undef SYM

static int rados_connect_pool(const struct rados_api *a, const struct rados_opts *ro, struct ceph_conn *c,
			      char *why, size_t len)
{
	memset(c, 0, sizeof(*c));
	if (!ro->pool[0]) {
		snprintf(why, len, "pool: not given (the Ceph pool the objects are in)");
		return -EINVAL;
	}
	const struct ceph_target t = { .clustername = ro->clustername, .clientname = ro->clientname,
				       .conf = ro->conf, .conf_hint = "give conf= a ceph.conf with mon_host",
				       .pool = ro->pool };
	return ceph_connect_pool(&a->ceph, &t, c, why, len);
}

static int rados_load(struct rados_api *a, char *why, size_t len)
{
	int ret = ceph_load(&a->ceph, why, len);
	return ret ? ret
		   : engine_load_library("librados.so.2", "librados2", rados_syms,
					 sizeof(rados_syms) / sizeof(rados_syms[0]), a, why, len);
}

/* Before the run: the library loads, the cluster answers, the pool is there. */
static int rados_probe(const struct job_opts *o, const void *eng_opts, uint64_t *bytes, char *why, size_t len)
{
	struct rados_api a;
	struct ceph_conn c;
	*bytes = 0; /* objects have no size of their own: size= says */
	if (!o->size && !o->filesize_lo) {
		snprintf(why, len, "size: not given (objects have no size of their own: size= is the job's, "
			 "split over its nrfiles objects)");
		return -EINVAL;
	}
	int ret = rados_load(&a, why, len);
	if (ret)
		return ret;
	ret = rados_connect_pool(&a, eng_opts, &c, why, len);
	ceph_disconnect(&a.ceph, &c);
	return ret;
}

struct rados_data;
/* An I/O unit's side here: the completion librados calls back with. */
struct rados_io {
	struct engine_done done; /* on the done list */
	struct io_unit *u;
	rados_completion_t c;
	rados_write_op_t op; /* a trim's: zero the range */
	struct rados_data *d;
};

struct rados_obj {
	char *name;
	bool created; /* not there when the job started: removed when it ends */
};

struct rados_data {
	struct rados_api a;
	struct ceph_conn c;
	int efd;
	bool busy_poll;
	struct rados_obj *objs;
	unsigned nr_objs;
	struct rados_io *ios;         /* by unit index */
	struct engine_donelist done;  /* pushed by librados's thread, popped by the reaper */
	struct io_unit **pending;
	unsigned nr_pending;
	struct io_unit **failed;      /* refused when submitted: handed out by the next getevents */
	unsigned nr_failed;
	unsigned inflight;
};

/* librados's thread: the I/O is done; push it (lock-free) and wake the reaper. */
static void rados_complete(rados_completion_t c, void *arg)
{
	struct rados_io *io = arg;
	struct rados_data *d = io->d;
	engine_donelist_push(&d->done, &io->done);
	if (!d->busy_poll)
		eventfd_write(d->efd, 1);
}

static int rados_reap(struct rados_data *d, struct io_unit **out, unsigned max);

/* Remove the objects this job created; wait for I/Os the job gave up on first. */
static void rados_cleanup(struct engine_ctx *ctx)
{
	struct rados_data *d = ctx->priv;
	if (!d)
		return;
	for (unsigned naps = 0; d->c.io && d->inflight && naps < 300;) /* 30 s at most */
		if (rados_reap(d, ctx->events, ctx->depth) == 0 && d->inflight)
			naps++, poll(&(struct pollfd){ .fd = d->efd, .events = POLLIN }, 1, 100);
	for (unsigned i = 0; i < d->nr_objs; i++) {
		if (d->objs[i].created && d->c.io && !d->inflight) {
			int ret = d->a.rados_remove(d->c.io, d->objs[i].name);
			if (ret < 0 && ret != -ENOENT)
				fprintf(stderr, "iobench: rados: cannot remove object '%s': %s\n", d->objs[i].name,
					strerror(-ret));
		}
		free(d->objs[i].name);
	}
	ceph_disconnect(&d->a.ceph, &d->c);
	if (d->efd >= 0)
		close(d->efd);
	free(d->objs);
	free(d->ios);
	free(d->pending);
	free(d->failed);
	free(d);
}

static int rados_init(struct engine_ctx *ctx)
{
	struct rados_data *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	ctx->priv = d;
	d->efd = -1;
	d->busy_poll = ((const struct rados_opts *)ctx->eng_opts)->busy_poll;
	engine_donelist_init(&d->done);
	d->objs = calloc(ctx->nr_fds ? ctx->nr_fds : 1, sizeof(*d->objs));
	d->ios = calloc(ctx->nr_units, sizeof(*d->ios));
	d->pending = calloc(ctx->depth, sizeof(*d->pending));
	d->failed = calloc(ctx->depth, sizeof(*d->failed));
	if (!d->objs || !d->ios || !d->pending || !d->failed)
		return -ENOMEM;
	for (unsigned i = 0; i < ctx->nr_units; i++)
		d->ios[i] = (struct rados_io){ .u = &ctx->units[i], .d = d };
	if ((d->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0)
		return -errno;
	int ret = rados_load(&d->a, ctx->why, sizeof(ctx->why));
	return ret ? ret : rados_connect_pool(&d->a, ctx->eng_opts, &d->c, ctx->why, sizeof(ctx->why));
}

/* A file is an object: its name is kept by index (files open in order, 0 first). */
static int rados_open_object(struct engine_ctx *ctx, const char *path, int flags, int *fd)
{
	struct rados_data *d = ctx->priv;
	*fd = -1;
	if (d->nr_objs >= ctx->nr_fds)
		return -EINVAL;
	if (!(d->objs[d->nr_objs].name = strdup(path)))
		return -ENOMEM;
	d->nr_objs++;
	return 0;
}

/* Write object o from byte `from` up to `to`, in 4 MiB writes of pseudo-random bytes. */
static int rados_fill(struct rados_data *d, const struct rados_obj *o, uint64_t from, uint64_t to)
{
	enum { CHUNK = 4 << 20 };
	uint64_t *buf = malloc(CHUNK), x = 0x9e3779b97f4a7c15ULL;
	if (!buf)
		return -ENOMEM;
	for (size_t i = 0; i < CHUNK / sizeof(*buf); i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		buf[i] = x;
	}
	int ret = 0;
	for (uint64_t off = from; off < to && !ret; off += CHUNK) {
		size_t n = to - off < CHUNK ? (size_t)(to - off) : CHUNK;
		ret = d->a.rados_write(d->c.io, o->name, (const char *)buf, n, off);
	}
	free(buf);
	return ret;
}

/* Before the job: which objects exist; touch_objects creates the others, and a job that
 * reads has its objects written up to their size (as laying out files). */
static int rados_post_open(struct engine_ctx *ctx)
{
	struct rados_data *d = ctx->priv;
	const struct rados_opts *ro = ctx->eng_opts;
	bool reads = ctx->opts->rw & RW_READ;
	for (unsigned i = 0; i < d->nr_objs; i++) {
		struct rados_obj *o = &d->objs[i];
		uint64_t size = 0;
		time_t mtime;
		int ret = d->a.rados_stat(d->c.io, o->name, &size, &mtime);
		if (ret < 0 && ret != -ENOENT) {
			snprintf(ctx->why, sizeof(ctx->why), "object '%.200s': %s", o->name, strerror(-ret));
			return ret;
		}
		o->created = ret == -ENOENT;
		if (o->created && ro->touch_objects && !reads)
			ret = d->a.rados_write(d->c.io, o->name, "", 0, 0);
		else if (reads && size < ctx->file_sizes[i])
			ret = rados_fill(d, o, size, ctx->file_sizes[i]);
		else
			ret = 0;
		if (ret < 0) {
			snprintf(ctx->why, sizeof(ctx->why), "cannot %s object '%.200s' (%llu bytes): %s",
				 reads ? "write" : "create", o->name, (unsigned long long)ctx->file_sizes[i],
				 strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static int rados_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct rados_data *d = ctx->priv;
	if (d->nr_pending >= ctx->depth)
		return Q_BUSY;
	d->pending[d->nr_pending++] = u;
	return Q_QUEUED;
}

static void rados_release_op(struct rados_data *d, struct rados_io *io)
{
	if (io->op)
		d->a.rados_release_write_op(io->op);
	io->op = NULL;
}

static int rados_submit(struct rados_data *d, struct io_unit *u)
{
	struct rados_io *io = &d->ios[u->index];
	const char *oid = d->objs[u->file_index].name;
	int ret = d->a.rados_aio_create_completion2(io, rados_complete, &io->c);
	if (ret < 0)
		return ret;
	if (u->ddir == DDIR_READ) {
		ret = d->a.rados_aio_read(d->c.io, oid, io->c, u->buf, u->len, u->offset);
	} else if (u->ddir == DDIR_WRITE) {
		ret = d->a.rados_aio_write(d->c.io, oid, io->c, u->buf, u->len, u->offset);
	} else if (!(io->op = d->a.rados_create_write_op())) {
		ret = -ENOMEM;
	} else { /* a trim zeroes the range (as fio 3.33): at the object's end the OSD truncates */
		d->a.rados_write_op_zero(io->op, u->offset, u->len);
		ret = d->a.rados_aio_write_op_operate(io->op, d->c.io, io->c, oid, NULL, 0);
	}
	if (ret < 0) {
		d->a.rados_aio_release(io->c);
		rados_release_op(d, io);
	}
	return ret;
}

static int rados_commit(struct engine_ctx *ctx)
{
	struct rados_data *d = ctx->priv;
	for (unsigned i = 0; i < d->nr_pending; i++) {
		struct io_unit *u = d->pending[i];
		int ret = rados_submit(d, u);
		if (ret < 0) {
			u->result = ret;
			d->failed[d->nr_failed++] = u;
		} else {
			d->inflight++;
		}
	}
	d->nr_pending = 0;
	return 0;
}

/* What librados has finished, at most max, into out. */
static int rados_reap(struct rados_data *d, struct io_unit **out, unsigned max)
{
	unsigned n = 0;
	struct engine_done *e;
	while (n < max && (e = engine_donelist_pop(&d->done))) {
		struct rados_io *io = engine_done_entry(e, struct rados_io, done);
		int r = d->a.rados_aio_get_return_value(io->c);
		d->a.rados_aio_release(io->c);
		rados_release_op(d, io);
		/* Reads return the bytes read; writes and trims 0 when done. */
		io->u->result = r < 0 ? r : io->u->ddir == DDIR_READ ? r : (int64_t)io->u->len;
		out[n++] = io->u;
	}
	d->inflight -= n;
	return (int)n;
}

static int rados_getevents(struct engine_ctx *ctx, unsigned min, unsigned max, const struct timespec *timeout)
{
	struct rados_data *d = ctx->priv;
	unsigned n = 0;
	while (d->nr_failed && n < max)
		ctx->events[n++] = d->failed[--d->nr_failed];
	struct timespec deadline = timeout ? engine_deadline(timeout) : (struct timespec){ 0 };
	for (;;) {
		eventfd_t count;
		if (!d->busy_poll && eventfd_read(d->efd, &count) < 0 && errno != EAGAIN)
			return -errno;
		if (n < max)
			n += (unsigned)rados_reap(d, ctx->events + n, max - n);
		if (n >= min || n >= max || !engine_wait_fd(d->busy_poll ? -1 : d->efd, timeout ? &deadline : NULL))
			return (int)n;
	}
}

const struct engine_ops rados_engine_ops = {
	.name = "rados",
	.flags = ENGINE_NO_FILE | ENGINE_REMOTE | ENGINE_CHANGES_FILES | ENGINE_TRIM | ENGINE_SIZED_FILES,
	.library = RADOS_LIBRARY,
	.options = rados_options,
	.options_size = sizeof(struct rados_opts),
	.probe = rados_probe,
	.init = rados_init,
	.cleanup = rados_cleanup,
	.open_file = rados_open_object,
	.post_open = rados_post_open,
	.queue = rados_queue,
	.commit = rados_commit,
	.getevents = rados_getevents,
};
#endif
