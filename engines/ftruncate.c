/* ftruncate: every write is one ftruncate(2) that sets the file's size to the write's
 * offset, as fio's engine (the block size only steps the offsets). Nothing else moves;
 * a write that succeeds counts its length. It measures how fast the file system grows and
 * shrinks a file: rw=write grows it block by block, rw=randwrite jumps its size about. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "engines/engine.h"

/* Only writes have a meaning here; fio fails the job at its first read or trim. */
static int ftruncate_resolve(struct job_opts *o, void *eng_opts, char *why, size_t len)
{
	if (!job_has_dir(o, DDIR_READ) && !job_has_dir(o, DDIR_TRIM))
		return 0;
	snprintf(why, len, "rw=%s: the ftruncate engine only writes (rw=write or randwrite: each write sets the "
		 "file's size to its offset)", o->rw_text);
	return -EINVAL;
}

static int ftruncate_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	int r;
	if (u->ddir != DDIR_WRITE) {
		u->result = -EINVAL;
		return Q_COMPLETED;
	}
	do
		r = ftruncate(u->fd, (off_t)u->offset);
	while (r < 0 && errno == EINTR);
	u->result = r < 0 ? -errno : (int64_t)u->len;
	return Q_COMPLETED;
}

const struct engine_ops ftruncate_engine_ops = {
	.name = "ftruncate",
	.flags = ENGINE_SYNC,
	.resolve = ftruncate_resolve,
	.queue = ftruncate_queue,
};
