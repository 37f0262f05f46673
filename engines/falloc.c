/* falloc: every I/O is one fallocate(2) of its range, as fio's engine: a read allocates
 * without changing the file's size (FALLOC_FL_KEEP_SIZE), a write allocates and may grow
 * the file (mode 0), a trim punches a hole (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE).
 * No data moves; an I/O that succeeds counts its length. What it measures is the file
 * system's block allocator (and, for trims, its hole punching). */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>

#include "engines/engine.h"

/* fallocate needs a descriptor open for writing, whatever the direction. */
static int falloc_open(struct engine_ctx *ctx, const char *path, int flags, int *fd)
{
	int f = open(path, (flags & ~O_ACCMODE) | O_RDWR | O_CLOEXEC, 0644);
	if (f < 0)
		return -errno;
	*fd = f;
	return 0;
}

static int falloc_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	static const int mode[DDIR_NR] = {
		[DDIR_READ] = FALLOC_FL_KEEP_SIZE,
		[DDIR_WRITE] = 0,
		[DDIR_TRIM] = FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE,
	};
	int r;
	do
		r = fallocate(u->fd, mode[u->ddir], (off_t)u->offset, (off_t)u->len);
	while (r < 0 && errno == EINTR);
	u->result = r < 0 ? -errno : (int64_t)u->len;
	return Q_COMPLETED;
}

const struct engine_ops falloc_engine_ops = {
	.name = "falloc",
	.flags = ENGINE_SYNC | ENGINE_TRIM | ENGINE_ALTERS_ON_READ, /* a read allocates, a trim punches a hole */
	.open_file = falloc_open,
	.queue = falloc_queue,
};
