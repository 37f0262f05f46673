/* io_submit_mode=offload: the job's thread hands each I/O to a pool of iodepth submitter
 * threads, which do it through the job's (synchronous) engine, each with its own engine
 * state and its own descriptors (reopened from the job's, so no two share a file offset),
 * and hand it back. To the loop this is an asynchronous engine of depth iodepth: a wrapper
 * around the real one (the worker swaps it in, core/worker/wextra.h). Latencies run from the hand
 * over, so a backed-up device shows in them (fio's reason for the mode). The queues have
 * locks: this mode trades that for issuing at its own pace. */
#include "core/worker/offload.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/worker/worker_int.h"

struct helper {
	struct offload *off;
	pthread_t tid;
	bool started, inited;
	struct engine_ctx ctx;
	struct io_unit *event;
	int *fds;          /* its own, by file index (-1: not yet open) */
	int *from;         /* the job's descriptor each was reopened from */
};

/* A ring of units, with its lock and a condition for waiters. */
struct ring {
	struct io_unit **v;
	unsigned cap, head, n;
};

struct offload {
	struct engine_ops ops;            /* what the loop calls: the wrapper */
	const struct engine_ops *real;
	struct wstate *s;
	unsigned nhelpers, nfiles;
	struct helper *helpers;
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	struct ring sub, comp;
	bool quit;
};

static void ring_put(struct ring *r, struct io_unit *u)
{
	r->v[(r->head + r->n++) % r->cap] = u;
}

static struct io_unit *ring_get(struct ring *r)
{
	struct io_unit *u = r->v[r->head];
	r->head = (r->head + 1) % r->cap;
	r->n--;
	return u;
}

/* The helper's descriptor for the unit's file: the job's, reopened (O_DIRECT and all). */
static int helper_fd(struct helper *h, const struct io_unit *u)
{
	unsigned k = u->file_index;
	if (k >= h->off->nfiles)
		return -EINVAL;
	if (h->fds[k] >= 0 && h->from[k] == u->fd)
		return h->fds[k];
	if (h->fds[k] >= 0)
		h->off->real->close_file ? (void)h->off->real->close_file(&h->ctx, h->fds[k]) : (void)close(h->fds[k]);
	h->fds[k] = -1;
	if (u->fd < 0) /* the null engine has none */
		return -1;
	char path[64];
	int flags = fcntl(u->fd, F_GETFL);
	if (flags < 0)
		return -errno;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", u->fd);
	int ret = engine_open_file(h->off->real, &h->ctx, path, flags & ~(O_CREAT | O_TRUNC | O_EXCL), &h->fds[k]);
	if (ret)
		return ret;
	h->from[k] = u->fd;
	return h->fds[k];
}

/* One I/O through the real engine, to its completion. */
static void helper_do(struct helper *h, struct io_unit *u)
{
	const struct engine_ops *real = h->off->real;
	int fd = helper_fd(h, u), job_fd = u->fd, r;
	if (fd < -1) {
		u->result = fd;
		return;
	}
	u->fd = fd;
	while ((r = engine_queue(real, &h->ctx, u)) == Q_BUSY) {
		engine_commit(real, &h->ctx);
		engine_getevents(real, &h->ctx, 1, 1, NULL);
	}
	if (r == Q_QUEUED) {
		engine_commit(real, &h->ctx);
		while (engine_getevents(real, &h->ctx, 1, 1, NULL) == 0)
			;
	} else if (r < 0) {
		u->result = r;
	}
	u->fd = job_fd;
}

static void *helper_main(void *p)
{
	struct helper *h = p;
	struct offload *off = h->off;
	pthread_mutex_lock(&off->lock);
	for (;;) {
		while (!off->sub.n && !off->quit)
			pthread_cond_wait(&off->work, &off->lock);
		if (off->quit)
			break;
		struct io_unit *u = ring_get(&off->sub);
		pthread_mutex_unlock(&off->lock);
		helper_do(h, u);
		pthread_mutex_lock(&off->lock);
		ring_put(&off->comp, u);
		pthread_cond_signal(&off->done);
	}
	pthread_mutex_unlock(&off->lock);
	return NULL;
}

/* ---- the wrapper's hooks ---- */

static int off_init(struct engine_ctx *ctx)
{
	struct offload *off = ctx->priv;
	for (unsigned i = 0; i < off->nhelpers; i++) {
		struct helper *h = &off->helpers[i];
		h->ctx = *ctx;
		h->ctx.priv = NULL;
		h->ctx.depth = 1;
		h->ctx.events = &h->event;
		h->ctx.fds = h->fds;
		int ret = engine_init(off->real, &h->ctx);
		if (ret) {
			snprintf(ctx->why, sizeof(ctx->why), "%s", h->ctx.why);
			return ret;
		}
		h->inited = true;
	}
	return 0;
}

static int off_post_open(struct engine_ctx *ctx)
{
	struct offload *off = ctx->priv;
	for (unsigned i = 0; i < off->nhelpers; i++) {
		int err = pthread_create(&off->helpers[i].tid, NULL, helper_main, &off->helpers[i]);
		if (err)
			return -err;
		off->helpers[i].started = true;
	}
	return 0;
}

static int off_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct offload *off = ctx->priv;
	pthread_mutex_lock(&off->lock);
	ring_put(&off->sub, u);
	pthread_cond_signal(&off->work);
	pthread_mutex_unlock(&off->lock);
	return Q_QUEUED;
}

static int off_getevents(struct engine_ctx *ctx, unsigned min, unsigned max, const struct timespec *timeout)
{
	struct offload *off = ctx->priv;
	struct timespec until;
	if (timeout) {
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_sec += timeout->tv_sec + (until.tv_nsec + timeout->tv_nsec) / 1000000000L;
		until.tv_nsec = (until.tv_nsec + timeout->tv_nsec) % 1000000000L;
	}
	pthread_mutex_lock(&off->lock);
	while (off->comp.n < min)
		if (timeout ? pthread_cond_timedwait(&off->done, &off->lock, &until) == ETIMEDOUT
			    : pthread_cond_wait(&off->done, &off->lock) != 0)
			break;
	unsigned n = 0;
	while (off->comp.n && n < max)
		ctx->events[n++] = ring_get(&off->comp);
	pthread_mutex_unlock(&off->lock);
	return (int)n;
}

static void off_cleanup(struct engine_ctx *ctx)
{
	struct offload *off = ctx->priv;
	if (!off)
		return;
	pthread_mutex_lock(&off->lock);
	off->quit = true;
	pthread_cond_broadcast(&off->work);
	pthread_mutex_unlock(&off->lock);
	for (unsigned i = 0; i < off->nhelpers; i++) {
		struct helper *h = &off->helpers[i];
		if (h->started)
			pthread_join(h->tid, NULL);
		for (unsigned k = 0; k < off->nfiles; k++)
			if (h->fds[k] >= 0)
				engine_close_file(off->real, &h->ctx, h->fds[k]);
		if (h->inited)
			engine_cleanup(off->real, &h->ctx);
	}
}

/* The job's own descriptors: plain ones (fsync, and what the helpers reopen). An engine
 * without files (http: its objects are named after them) opens each in every helper. */
static int off_open_file(struct engine_ctx *ctx, const char *path, int flags, int *fd)
{
	struct offload *off = ctx->priv;
	if (off->real->flags & ENGINE_NO_FILE) {
		*fd = -1;
		for (unsigned i = 0; i < off->nhelpers; i++) {
			int hfd = -1, ret = engine_open_file(off->real, &off->helpers[i].ctx, path, flags, &hfd);
			if (ret) {
				snprintf(ctx->why, sizeof(ctx->why), "%s", off->helpers[i].ctx.why);
				return ret;
			}
		}
		return 0;
	}
	int f = open(path, flags | O_CLOEXEC, 0644);
	if (f < 0)
		return -errno;
	*fd = f;
	return 0;
}

static int off_close_file(struct engine_ctx *ctx, int fd)
{
	struct offload *off = ctx->priv;
	if (off->real->flags & ENGINE_NO_FILE) {
		for (unsigned i = 0; i < off->nhelpers; i++)
			engine_close_file(off->real, &off->helpers[i].ctx, -1);
		return 0;
	}
	return fd >= 0 && close(fd) < 0 ? -errno : 0;
}

/* ---- the worker's side ---- */

void offload_free(struct offload *off)
{
	if (!off)
		return;
	for (unsigned i = 0; off->helpers && i < off->nhelpers; i++) {
		free(off->helpers[i].fds);
		free(off->helpers[i].from);
	}
	free(off->helpers);
	free(off->sub.v);
	free(off->comp.v);
	pthread_mutex_destroy(&off->lock);
	pthread_cond_destroy(&off->work);
	pthread_cond_destroy(&off->done);
	free(off);
}

static int helpers_alloc(struct offload *off)
{
	if (!(off->helpers = calloc(off->nhelpers, sizeof(*off->helpers))))
		return -ENOMEM;
	for (unsigned i = 0; i < off->nhelpers; i++) {
		struct helper *h = &off->helpers[i];
		h->off = off;
		h->fds = malloc(off->nfiles * sizeof(*h->fds));
		h->from = malloc(off->nfiles * sizeof(*h->from));
		if (!h->fds || !h->from)
			return -ENOMEM;
		for (unsigned k = 0; k < off->nfiles; k++)
			h->fds[k] = h->from[k] = -1;
	}
	return 0;
}

struct offload *offload_new(struct wstate *s, const struct engine_ops *real, unsigned depth, unsigned nfiles)
{
	struct offload *off = calloc(1, sizeof(*off));
	if (!off)
		return NULL;
	pthread_condattr_t mono; /* off_getevents' deadline is on CLOCK_MONOTONIC */
	pthread_condattr_init(&mono);
	pthread_condattr_setclock(&mono, CLOCK_MONOTONIC);
	pthread_mutex_init(&off->lock, NULL);
	pthread_cond_init(&off->work, NULL);
	pthread_cond_init(&off->done, &mono);
	pthread_condattr_destroy(&mono);
	off->real = real;
	off->s = s;
	off->nhelpers = depth ? depth : 1;
	off->nfiles = nfiles ? nfiles : 1;
	off->sub.cap = off->comp.cap = off->nhelpers;
	off->sub.v = calloc(off->nhelpers, sizeof(*off->sub.v));
	off->comp.v = calloc(off->nhelpers, sizeof(*off->comp.v));
	if (!off->sub.v || !off->comp.v || helpers_alloc(off)) {
		offload_free(off);
		return NULL;
	}
	off->ops = (struct engine_ops){
		.name = real->name,
		.flags = real->flags & ~(unsigned)ENGINE_SYNC,
		.options = real->options,
		.options_size = real->options_size,
		.init = off_init,
		.cleanup = off_cleanup,
		.open_file = off_open_file,
		.close_file = off_close_file,
		.post_open = off_post_open,
		.queue = off_queue,
		.getevents = off_getevents,
	};
	return off;
}

const struct engine_ops *offload_ops(struct offload *off)
{
	return &off->ops;
}
