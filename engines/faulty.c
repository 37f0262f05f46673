/* faulty: a test engine. psync's I/O, but I/Os from the fault_after-th on fail with
 * fault_errno (EIO by default) or, with fault_short=1, transfer only half their bytes, to show how a faulting device is reported where no
 * device-mapper "error" target is at hand. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/engine.h"

struct faulty_data {
	uint64_t count;
};

static int faulty_init(struct engine_ctx *ctx)
{
	ctx->priv = calloc(1, sizeof(struct faulty_data));
	return ctx->priv ? 0 : -ENOMEM;
}

static void faulty_cleanup(struct engine_ctx *ctx)
{
	free(ctx->priv);
}

static int faulty_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct faulty_data *fd = ctx->priv;
	bool fault = ++fd->count >= ctx->opts->fault_after;
	if (fault && !ctx->opts->fault_short) {
		u->result = -(int64_t)ctx->opts->fault_errno;
		return Q_COMPLETED;
	}
	size_t len = fault ? u->len / 2 : u->len;
	ssize_t r;
	do
		r = u->ddir == DDIR_READ ? pread(u->fd, u->buf, len, (off_t)u->offset)
					 : pwrite(u->fd, u->buf, len, (off_t)u->offset);
	while (r < 0 && errno == EINTR);
	u->result = r < 0 ? -errno : r;
	return Q_COMPLETED;
}

const struct engine_ops faulty_engine_ops = {
	.name = "faulty",
	.flags = ENGINE_SYNC,
	.init = faulty_init,
	.cleanup = faulty_cleanup,
	.queue = faulty_queue,
};
