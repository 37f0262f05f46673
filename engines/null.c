/* null: completes every I/O (reads, writes and trims) without touching a file; measures the
 * engine's own cost. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"

struct null_data {
	struct io_unit **queued;
	unsigned nr_queued;
	unsigned nr_ready;
};

static int null_init(struct engine_ctx *ctx)
{
	struct null_data *nd = calloc(1, sizeof(*nd));
	if (!nd)
		return -ENOMEM;
	nd->queued = calloc(ctx->depth, sizeof(*nd->queued));
	if (!nd->queued) {
		free(nd);
		return -ENOMEM;
	}
	ctx->priv = nd;
	return 0;
}

static void null_cleanup(struct engine_ctx *ctx)
{
	struct null_data *nd = ctx->priv;
	if (nd)
		free(nd->queued);
	free(nd);
}

static int null_open(struct engine_ctx *ctx, const char *path, int flags, int *fd)
{
	*fd = -1;
	return 0;
}

static int null_close(struct engine_ctx *ctx, int fd)
{
	return 0;
}

static int null_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct null_data *nd = ctx->priv;
	u->result = (int64_t)u->len;
	if (ctx->depth == 1)
		return Q_COMPLETED;
	if (nd->nr_queued >= ctx->depth)
		return Q_BUSY;
	nd->queued[nd->nr_queued++] = u;
	return Q_QUEUED;
}

static int null_commit(struct engine_ctx *ctx)
{
	struct null_data *nd = ctx->priv;
	nd->nr_ready = nd->nr_queued;
	return 0;
}

static int null_getevents(struct engine_ctx *ctx, unsigned min, unsigned max,
			  const struct timespec *timeout)
{
	struct null_data *nd = ctx->priv;
	unsigned n = nd->nr_ready < max ? nd->nr_ready : max;
	/* Hand out the oldest n; keep the rest queued in order. */
	memcpy(ctx->events, nd->queued, n * sizeof(*nd->queued));
	unsigned left = nd->nr_queued - n;
	if (left)
		memmove(nd->queued, nd->queued + n, left * sizeof(*nd->queued));
	nd->nr_queued = left;
	nd->nr_ready -= n;
	return (int)n;
}

const struct engine_ops null_engine_ops = {
	.name = "null",
	.flags = ENGINE_NO_FILE | ENGINE_TRIM,
	.init = null_init,
	.cleanup = null_cleanup,
	.open_file = null_open,
	.close_file = null_close,
	.queue = null_queue,
	.commit = null_commit,
	.getevents = null_getevents,
};
