/* nbd: I/O to a Network Block Device export through libnbd, from user space (no kernel nbd
 * module): what a VM or a backup tool sees of an NBD server (nbdkit, qemu-nbd, nbd-server).
 * libnbd is loaded at run time (Debian's libnbd0), only when a job asks for this engine.
 * The export is the job's one "file"; without size= the job covers the whole export. Each
 * clone has its own connection (uri=, as fio). Completions are reaped without a thread per
 * I/O: libnbd's aio_* calls queue the commands on the connection, and the reaper waits on
 * the connection's socket (nbd_aio_get_fd, in the direction libnbd asks for) and lets libnbd
 * read the replies (nbd_aio_notify_*), whose completion callbacks run in this same thread. */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/engine.h"

struct nbd_opts {
	char uri[4096];
};

static const struct option_def nbd_options[] = {
	{ .name = "uri", .type = OPT_STR, .offset = offsetof(struct nbd_opts, uri),
	  .size = sizeof(((struct nbd_opts *)0)->uri),
	  .help = "NBD URI of the export: nbd://HOST[:PORT][/EXPORT], nbd+unix:///EXPORT?socket=PATH, nbds://..." },
	{ NULL },
};

#define NBD_LIBRARY "libnbd.so.0"

#ifdef IOBENCH_STATIC
const struct engine_ops nbd_engine_ops = {
	.name = "nbd",
	.flags = ENGINE_NO_FILE | ENGINE_REMOTE | ENGINE_TRIM | ENGINE_COMPILED_OUT,
	.library = NBD_LIBRARY,
	.options = nbd_options,
	.options_size = sizeof(struct nbd_opts),
};
#else

#if __has_include(<libnbd.h>) && !defined(IOBENCH_NO_NBD_HEADERS)
#include <libnbd.h>
#else
/* Debian's libnbd-dev is not installed: the declarations used here, as libnbd 1.14's
 * libnbd.h has them (only their types are used: the functions are looked up at run time). */
struct nbd_handle;
typedef struct {
	int (*callback)(void *user_data, int *error);
	void *user_data;
	void (*free)(void *user_data);
} nbd_completion_callback;
#define NBD_NULL_COMPLETION ((nbd_completion_callback){ .callback = NULL })
#define LIBNBD_AIO_DIRECTION_READ 1
#define LIBNBD_AIO_DIRECTION_WRITE 2
struct nbd_handle *nbd_create(void);
void nbd_close(struct nbd_handle *h);
const char *nbd_get_error(void);
int nbd_get_errno(void);
int nbd_connect_uri(struct nbd_handle *h, const char *uri);
int nbd_is_read_only(struct nbd_handle *h);
int nbd_can_flush(struct nbd_handle *h);
int nbd_can_trim(struct nbd_handle *h);
int64_t nbd_get_size(struct nbd_handle *h);
int nbd_shutdown(struct nbd_handle *h, uint32_t flags);
int nbd_flush(struct nbd_handle *h, uint32_t flags);
int64_t nbd_aio_pread(struct nbd_handle *h, void *buf, size_t count, uint64_t offset, nbd_completion_callback cb,
		      uint32_t flags);
int64_t nbd_aio_pwrite(struct nbd_handle *h, const void *buf, size_t count, uint64_t offset,
		       nbd_completion_callback cb, uint32_t flags);
int64_t nbd_aio_trim(struct nbd_handle *h, uint64_t count, uint64_t offset, nbd_completion_callback cb,
		     uint32_t flags);
int nbd_aio_get_fd(struct nbd_handle *h);
unsigned nbd_aio_get_direction(struct nbd_handle *h);
int nbd_aio_notify_read(struct nbd_handle *h);
int nbd_aio_notify_write(struct nbd_handle *h);
int nbd_aio_in_flight(struct nbd_handle *h);
#endif

#define NBD_FUNCS(X)                                                                                             \
	X(nbd_create) X(nbd_close) X(nbd_get_error) X(nbd_get_errno) X(nbd_connect_uri) X(nbd_is_read_only)      \
	X(nbd_can_flush) X(nbd_can_trim) X(nbd_get_size) X(nbd_shutdown) X(nbd_flush) X(nbd_aio_pread)           \
	X(nbd_aio_pwrite) X(nbd_aio_trim) X(nbd_aio_get_fd) X(nbd_aio_get_direction) X(nbd_aio_notify_read)      \
	X(nbd_aio_notify_write) X(nbd_aio_in_flight)

struct nbd_api {
#define MEMBER(f) __typeof__(f) *f;
	NBD_FUNCS(MEMBER)
#undef MEMBER
};

#define SYM(f) { #f, offsetof(struct nbd_api, f) },
static const struct engine_symbol nbd_syms[] = { NBD_FUNCS(SYM) };
#undef SYM

static int nbd_load(struct nbd_api *a, char *why, size_t len)
{
	return engine_load_library(NBD_LIBRARY, "libnbd0", nbd_syms, sizeof(nbd_syms) / sizeof(nbd_syms[0]), a, why,
				   len);
}

/* libnbd's reason for the last failure in this thread, without its "nbd_xxx: " prefix. */
static const char *nbd_reason(const struct nbd_api *a)
{
	const char *e = a->nbd_get_error();
	if (!e)
		return "unknown error";
	const char *colon = strncmp(e, "nbd_", 4) == 0 ? strstr(e, ": ") : NULL;
	return colon ? colon + 2 : e;
}

static int nbd_errno(const struct nbd_api *a)
{
	int e = a->nbd_get_errno();
	return e > 0 ? -e : -EIO;
}

/* A connection to uri=, negotiated (the export's size and flags known); NULL with why. */
static struct nbd_handle *nbd_open_uri(const struct nbd_api *a, const struct nbd_opts *no, int *err, char *why,
				       size_t len)
{
	if (!no->uri[0]) {
		snprintf(why, len, "uri: not given (the NBD server's URI: nbd://HOST[:PORT]/EXPORT or "
				   "nbd+unix:///EXPORT?socket=PATH)");
		*err = -EINVAL;
		return NULL;
	}
	struct nbd_handle *h = a->nbd_create();
	if (!h) {
		snprintf(why, len, "cannot make an NBD handle: %s", nbd_reason(a));
		*err = nbd_errno(a);
		return NULL;
	}
	if (a->nbd_connect_uri(h, no->uri) < 0) {
		snprintf(why, len, "uri '%.1024s': %s", no->uri, nbd_reason(a));
		*err = nbd_errno(a);
		a->nbd_close(h);
		return NULL;
	}
	return h;
}

/* Before the run: the library loads, the server answers, the export's size; a job that
 * writes or trims needs an export that takes them. */
static int nbd_probe(const struct job_opts *o, const void *eng_opts, uint64_t *bytes, char *why, size_t len)
{
	struct nbd_api a;
	int ret = nbd_load(&a, why, len);
	if (ret)
		return ret;
	struct nbd_handle *h = nbd_open_uri(&a, eng_opts, &ret, why, len);
	if (!h)
		return ret;
	int64_t size = a.nbd_get_size(h);
	const char *uri = ((const struct nbd_opts *)eng_opts)->uri;
	if (size < 0) {
		snprintf(why, len, "uri '%.1024s': cannot read the export's size: %s", uri, nbd_reason(&a));
		ret = nbd_errno(&a);
	} else if (job_writes(o) && a.nbd_is_read_only(h) == 1) {
		snprintf(why, len, "uri '%.1024s': the export is read-only and rw=%s writes", uri, o->rw_text);
		ret = -EROFS;
	} else if (job_has_dir(o, DDIR_TRIM) && a.nbd_can_trim(h) != 1) {
		snprintf(why, len, "uri '%.1024s': the server does not take trims (rw=%s)", uri, o->rw_text);
		ret = -EOPNOTSUPP;
	}
	*bytes = size > 0 ? (uint64_t)size : 0;
	a.nbd_shutdown(h, 0);
	a.nbd_close(h);
	return ret;
}

struct nbd_data;
/* An I/O unit's side here: what its completion callback needs. */
struct nbd_io {
	struct nbd_data *d;
	struct io_unit *u;
};

struct nbd_data {
	struct nbd_api a;
	struct nbd_handle *h;
	bool can_flush;
	struct nbd_io *ios;      /* by unit index */
	struct io_unit **done;   /* completed (by callbacks, or refused when issued), not handed out */
	unsigned nr_done;
	unsigned inflight;       /* issued, callback not run yet */
};

/* libnbd calls this in the reaping thread, from nbd_aio_notify_* (or nbd_flush). */
static int nbd_complete(void *user_data, int *error)
{
	struct nbd_io *io = user_data;
	struct nbd_data *d = io->d;
	io->u->result = *error ? -*error : (int64_t)io->u->len;
	d->done[d->nr_done++] = io->u;
	d->inflight--;
	return 1; /* retire the command: nothing is asked of it later */
}

/* Wait until the socket is ready in the direction libnbd wants (reading replies, and
 * sending the rest of a command the socket had no room for), or the deadline (NULL: none)
 * passes; then let libnbd go on. 1 when it went on, 0 once the deadline passed, -errno when
 * the connection failed. (Both directions: a large write the server reads before it answers
 * needs them.) */
static int nbd_wait(struct nbd_data *d, const struct timespec *deadline)
{
	int fd = d->a.nbd_aio_get_fd(d->h);
	if (fd < 0)
		return nbd_errno(&d->a);
	short events = POLLIN;
	if (d->a.nbd_aio_get_direction(d->h) & LIBNBD_AIO_DIRECTION_WRITE)
		events |= POLLOUT;
	int revents = engine_poll_fd(fd, events, deadline);
	if (revents == -ETIME)
		return 0;
	if (revents == -EINTR)
		return 1;
	if (revents < 0)
		return revents;
	if ((revents & POLLOUT) && d->a.nbd_aio_notify_write(d->h) < 0)
		return nbd_errno(&d->a);
	if ((revents & (POLLIN | POLLHUP | POLLERR)) && d->a.nbd_aio_notify_read(d->h) < 0)
		return nbd_errno(&d->a);
	return revents || !deadline ? 1 : 0;
}

static void nbd_cleanup(struct engine_ctx *ctx)
{
	struct nbd_data *d = ctx->priv;
	if (!d)
		return;
	if (d->h) {
		/* I/Os the job gave up on are still libnbd's: let them finish (30 s at most) so
		 * their callbacks run while their buffers are there, then say goodbye. */
		struct timespec limit = engine_deadline(&(struct timespec){ 30, 0 });
		while (d->inflight && nbd_wait(d, &limit) > 0)
			d->nr_done = 0;
		d->a.nbd_shutdown(d->h, 0);
		d->a.nbd_close(d->h);
	}
	free(d->ios);
	free(d->done);
	free(d);
}

static int nbd_init(struct engine_ctx *ctx)
{
	struct nbd_data *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	ctx->priv = d;
	d->ios = calloc(ctx->nr_units, sizeof(*d->ios));
	d->done = calloc(ctx->nr_units, sizeof(*d->done));
	if (!d->ios || !d->done)
		return -ENOMEM;
	for (unsigned i = 0; i < ctx->nr_units; i++)
		d->ios[i] = (struct nbd_io){ .d = d, .u = &ctx->units[i] };
	int ret = nbd_load(&d->a, ctx->why, sizeof(ctx->why));
	if (ret)
		return ret;
	d->h = nbd_open_uri(&d->a, ctx->eng_opts, &ret, ctx->why, sizeof(ctx->why));
	if (!d->h)
		return ret;
	d->can_flush = d->a.nbd_can_flush(d->h) == 1;
	return 0;
}

static int nbd_open_export(struct engine_ctx *ctx, const char *path, int flags, int *fd)
{
	*fd = -1; /* the export is open already: every file of the job is it */
	return 0;
}

/* fsync=N and end_fsync: the server's cache made durable (NBD_CMD_FLUSH), when it has one. */
static int nbd_sync_export(struct engine_ctx *ctx, unsigned file_index)
{
	struct nbd_data *d = ctx->priv;
	if (!d->can_flush)
		return 0;
	return d->a.nbd_flush(d->h, 0) < 0 ? nbd_errno(&d->a) : 0;
}

/* libnbd queues the command on the connection and sends what the socket takes at once. */
static int nbd_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct nbd_data *d = ctx->priv;
	struct nbd_io *io = &d->ios[u->index];
	nbd_completion_callback cb = { .callback = nbd_complete, .user_data = io };
	int64_t cookie;
	if (u->ddir == DDIR_READ)
		cookie = d->a.nbd_aio_pread(d->h, u->buf, u->len, u->offset, cb, 0);
	else if (u->ddir == DDIR_WRITE)
		cookie = d->a.nbd_aio_pwrite(d->h, u->buf, u->len, u->offset, cb, 0);
	else
		cookie = d->a.nbd_aio_trim(d->h, u->len, u->offset, cb, 0);
	if (cookie < 0) { /* refused (too large, the link is down): this I/O fails with the reason */
		u->result = nbd_errno(&d->a);
		d->done[d->nr_done++] = u;
	} else {
		d->inflight++;
	}
	return Q_QUEUED;
}

static int nbd_getevents(struct engine_ctx *ctx, unsigned min, unsigned max, const struct timespec *timeout)
{
	struct nbd_data *d = ctx->priv;
	struct timespec deadline = timeout ? engine_deadline(timeout) : (struct timespec){ 0 };
	for (;;) {
		if (d->nr_done >= min || d->nr_done >= max || (!d->inflight && d->nr_done)) {
			unsigned n = d->nr_done < max ? d->nr_done : max;
			memcpy(ctx->events, d->done, n * sizeof(*d->done));
			memmove(d->done, d->done + n, (d->nr_done - n) * sizeof(*d->done));
			d->nr_done -= n;
			return (int)n;
		}
		if (!d->inflight)
			return 0;
		int ret = nbd_wait(d, timeout ? &deadline : NULL);
		if (ret < 0) {
			snprintf(ctx->why, sizeof(ctx->why), "the NBD connection failed: %s", nbd_reason(&d->a));
			return ret;
		}
		if (ret == 0 && d->nr_done < min)
			min = d->nr_done; /* the deadline passed: hand out what there is */
	}
}

const struct engine_ops nbd_engine_ops = {
	.name = "nbd",
	.flags = ENGINE_NO_FILE | ENGINE_REMOTE | ENGINE_TRIM,
	.library = NBD_LIBRARY,
	.options = nbd_options,
	.options_size = sizeof(struct nbd_opts),
	.probe = nbd_probe,
	.init = nbd_init,
	.cleanup = nbd_cleanup,
	.open_file = nbd_open_export,
	.sync_file = nbd_sync_export,
	.queue = nbd_queue,
	.getevents = nbd_getevents,
};
#endif
