/* psync: pread(2)/pwrite(2), one I/O at a time. */
#include <errno.h>
#include <unistd.h>

#include "core/engine.h"

static int psync_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	ssize_t r;
	do {
		if (u->ddir == DDIR_READ)
			r = pread(u->fd, u->buf, u->len, (off_t)u->offset);
		else
			r = pwrite(u->fd, u->buf, u->len, (off_t)u->offset);
	} while (r < 0 && errno == EINTR);
	u->result = r < 0 ? -errno : r;
	return Q_COMPLETED;
}

const struct engine_ops psync_engine_ops = {
	.name = "psync",
	.flags = ENGINE_SYNC,
	.queue = psync_queue,
};
