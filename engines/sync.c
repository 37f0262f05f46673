/* sync: lseek(2) then read(2)/write(2), one I/O at a time. */
#include <errno.h>
#include <unistd.h>

#include "core/engine.h"

static int sync_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	ssize_t r = -1;
	if (lseek(u->fd, (off_t)u->offset, SEEK_SET) >= 0)
		do
			r = u->ddir == DDIR_READ ? read(u->fd, u->buf, u->len) : write(u->fd, u->buf, u->len);
		while (r < 0 && errno == EINTR);
	u->result = r < 0 ? -errno : r;
	return Q_COMPLETED;
}

const struct engine_ops sync_engine_ops = {
	.name = "sync",
	.flags = ENGINE_SYNC,
	.queue = sync_queue,
};
