/* posixaio: POSIX asynchronous I/O (aio_read(3)/aio_write(3), glibc's thread pool). POSIX
 * AIO has no trim: a trim is done at once (trim_range: BLKDISCARD, or a punched hole). */
#include <aio.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"

struct posixaio_data {
	struct aiocb *cbs;             /* one per io_unit, by index */
	const struct aiocb **inflight; /* for aio_suspend */
	struct io_unit **busy;
	unsigned nr_busy;
};

static void posixaio_cleanup(struct engine_ctx *ctx)
{
	struct posixaio_data *pd = ctx->priv;
	if (!pd)
		return;
	free(pd->cbs);
	free(pd->inflight);
	free(pd->busy);
	free(pd);
}

/* glibc runs POSIX AIO on threads it starts at the first request; where none can start (a
 * container's pids limit, RLIMIT_NPROC) every request fails with EAGAIN. Find that out at
 * init, where it can be explained, with one request that does nothing (a read of fd -1). */
static int probe_threads(struct engine_ctx *ctx)
{
	char byte;
	struct aiocb cb = { .aio_fildes = -1, .aio_buf = &byte, .aio_nbytes = 1 };
	if (aio_read(&cb) < 0) {
		int err = -errno;
		if (err == -EAGAIN)
			snprintf(ctx->why, sizeof(ctx->why), "glibc's POSIX AIO could not start a thread "
				 "(a pids limit or RLIMIT_NPROC?); raise it or use ioengine=libaio");
		return err;
	}
	const struct aiocb *list[] = { &cb };
	while (aio_error(&cb) == EINPROGRESS)
		aio_suspend(list, 1, NULL);
	aio_return(&cb);
	return 0;
}

static int posixaio_init(struct engine_ctx *ctx)
{
	struct posixaio_data *pd = calloc(1, sizeof(*pd));
	if (!pd)
		return -ENOMEM;
	ctx->priv = pd;
	pd->cbs = calloc(ctx->nr_units, sizeof(*pd->cbs));
	pd->inflight = calloc(ctx->depth, sizeof(*pd->inflight));
	pd->busy = calloc(ctx->depth, sizeof(*pd->busy));
	if (!pd->cbs || !pd->inflight || !pd->busy) {
		posixaio_cleanup(ctx);
		ctx->priv = NULL;
		return -ENOMEM;
	}
	int ret = probe_threads(ctx);
	if (ret) {
		posixaio_cleanup(ctx);
		ctx->priv = NULL;
	}
	return ret;
}

static int posixaio_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct posixaio_data *pd = ctx->priv;
	struct aiocb *cb = &pd->cbs[u->index];
	if (u->ddir == DDIR_TRIM) {
		u->result = engine_trim(ctx, u, u->len);
		return Q_COMPLETED;
	}
	if (pd->nr_busy >= ctx->depth)
		return Q_BUSY;
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = u->fd;
	cb->aio_buf = u->buf;
	cb->aio_nbytes = u->len;
	cb->aio_offset = (off_t)u->offset;
	int r = u->ddir == DDIR_READ ? aio_read(cb) : aio_write(cb);
	if (r < 0) {
		u->result = -errno;
		return Q_COMPLETED;
	}
	pd->busy[pd->nr_busy++] = u;
	return Q_QUEUED;
}

/* Move finished requests from busy to done[have..max); returns how many are there now. */
static unsigned collect(struct posixaio_data *pd, struct io_unit **done, unsigned have, unsigned max)
{
	unsigned n = have;
	for (unsigned i = 0; i < pd->nr_busy && n < max;) {
		struct io_unit *u = pd->busy[i];
		struct aiocb *cb = &pd->cbs[u->index];
		int err = aio_error(cb);
		if (err == EINPROGRESS) {
			i++;
			continue;
		}
		ssize_t r = aio_return(cb);
		u->result = err ? -err : r;
		done[n++] = u;
		pd->busy[i] = pd->busy[--pd->nr_busy];
	}
	return n;
}

static int posixaio_getevents(struct engine_ctx *ctx, unsigned min, unsigned max,
			      const struct timespec *timeout)
{
	struct posixaio_data *pd = ctx->priv;
	unsigned n = collect(pd, ctx->events, 0, max);
	while (n < min && pd->nr_busy) {
		for (unsigned i = 0; i < pd->nr_busy; i++)
			pd->inflight[i] = &pd->cbs[pd->busy[i]->index];
		int r = aio_suspend(pd->inflight, (int)pd->nr_busy, timeout);
		if (r < 0 && errno == EAGAIN)
			return (int)n; /* timed out */
		if (r < 0 && errno != EINTR)
			return -errno;
		n = collect(pd, ctx->events, n, max);
	}
	return (int)n;
}

const struct engine_ops posixaio_engine_ops = {
	.name = "posixaio",
	.flags = ENGINE_TRIM,
	.init = posixaio_init,
	.cleanup = posixaio_cleanup,
	.queue = posixaio_queue,
	.getevents = posixaio_getevents,
};
