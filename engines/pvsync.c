/* pvsync: preadv(2)/pwritev(2) with one iovec, one I/O at a time. */
#include <errno.h>
#include <sys/uio.h>

#include "core/engine.h"

static int pvsync_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct iovec iov = { u->buf, u->len };
	ssize_t r;
	do
		r = u->ddir == DDIR_READ ? preadv(u->fd, &iov, 1, (off_t)u->offset)
					 : pwritev(u->fd, &iov, 1, (off_t)u->offset);
	while (r < 0 && errno == EINTR);
	u->result = r < 0 ? -errno : r;
	return Q_COMPLETED;
}

const struct engine_ops pvsync_engine_ops = {
	.name = "pvsync",
	.flags = ENGINE_SYNC,
	.queue = pvsync_queue,
};
