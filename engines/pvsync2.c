/* pvsync2: preadv2(2)/pwritev2(2), with RWF_HIPRI (polled completion) when hipri=1. */
#include <errno.h>
#include <sys/uio.h>

#include "core/engine.h"

static int pvsync2_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct iovec iov = { u->buf, u->len };
	int flags = ctx->opts && ctx->opts->hipri ? RWF_HIPRI : 0;
	ssize_t r;
	do
		r = u->ddir == DDIR_READ ? preadv2(u->fd, &iov, 1, (off_t)u->offset, flags)
					 : pwritev2(u->fd, &iov, 1, (off_t)u->offset, flags);
	while (r < 0 && errno == EINTR);
	u->result = r < 0 ? -errno : r;
	return Q_COMPLETED;
}

const struct engine_ops pvsync2_engine_ops = {
	.name = "pvsync2",
	.flags = ENGINE_SYNC,
	.queue = pvsync2_queue,
};
