/* splice: the data goes through a pipe, as fio's engine: a write hands the buffer's pages
 * to the pipe with vmsplice(2), then splice(2) moves them from the pipe into the file at
 * the offset; a read splices the file's range into the pipe and reads it out into the
 * buffer. Each I/O goes in pieces of the pipe's capacity (raised to the block size where
 * the kernel allows). Trims are the sync engines': BLKDISCARD, or a punched hole. It measures the kernel's zero-copy path against plain read/write. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engines/engine.h"

struct splice_data {
	int pipe[2]; /* [0] read end, [1] write end */
	size_t chunk; /* the pipe's capacity: bytes per piece */
};

static int splice_init(struct engine_ctx *ctx)
{
	struct splice_data *sd = calloc(1, sizeof(*sd));
	if (!sd)
		return -ENOMEM;
	ctx->priv = sd;
	sd->pipe[0] = sd->pipe[1] = -1;
	if (pipe2(sd->pipe, O_CLOEXEC) < 0)
		return -errno;
	/* Larger than /proc/sys/fs/pipe-max-size needs CAP_SYS_RESOURCE: keep what we get. */
	if (ctx->buf_len > 0)
		fcntl(sd->pipe[1], F_SETPIPE_SZ, (int)(ctx->buf_len < (1u << 30) ? ctx->buf_len : 1u << 30));
	int sz = fcntl(sd->pipe[1], F_GETPIPE_SZ);
	sd->chunk = sz > 0 ? (size_t)sz : 65536;
	return 0;
}

static void splice_cleanup(struct engine_ctx *ctx)
{
	struct splice_data *sd = ctx->priv;
	if (!sd)
		return;
	for (int i = 0; i < 2; i++)
		if (sd->pipe[i] >= 0)
			close(sd->pipe[i]);
	free(sd);
}

/* Move n bytes out of the pipe: into the file at *off (write), or into buf (read). */
static ssize_t drain_pipe(struct splice_data *sd, int fd, loff_t *off, char *buf, size_t n)
{
	size_t done = 0;
	while (done < n) {
		ssize_t r = buf ? read(sd->pipe[0], buf + done, n - done)
				: splice(sd->pipe[0], NULL, fd, off, n - done, SPLICE_F_MOVE);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		done += (size_t)r;
	}
	return (ssize_t)done;
}

static int64_t splice_write(struct splice_data *sd, const struct io_unit *u)
{
	loff_t off = (loff_t)u->offset;
	uint64_t done = 0;
	while (done < u->len) {
		size_t want = u->len - done < sd->chunk ? (size_t)(u->len - done) : sd->chunk;
		struct iovec iov = { (char *)u->buf + done, want };
		ssize_t n = vmsplice(sd->pipe[1], &iov, 1, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : (int64_t)done;
		ssize_t r = drain_pipe(sd, u->fd, &off, NULL, (size_t)n);
		if (r < 0)
			return r;
		done += (uint64_t)n;
	}
	return (int64_t)done;
}

static int64_t splice_read(struct splice_data *sd, const struct io_unit *u)
{
	loff_t off = (loff_t)u->offset;
	uint64_t done = 0;
	while (done < u->len) {
		size_t want = u->len - done < sd->chunk ? (size_t)(u->len - done) : sd->chunk;
		ssize_t n = splice(u->fd, &off, sd->pipe[1], NULL, want, SPLICE_F_MOVE);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) /* 0: the end of the file */
			return n < 0 ? -errno : (int64_t)done;
		ssize_t r = drain_pipe(sd, -1, NULL, (char *)u->buf + done, (size_t)n);
		if (r < 0)
			return r;
		done += (uint64_t)n;
	}
	return (int64_t)done;
}

static int splice_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct splice_data *sd = ctx->priv;
	if (u->ddir == DDIR_TRIM) { /* as the sync engines: BLKDISCARD, or a punched hole */
		u->result = engine_trim(ctx, u, u->len);
		return Q_COMPLETED;
	}
	u->result = u->ddir == DDIR_WRITE ? splice_write(sd, u) : splice_read(sd, u);
	return Q_COMPLETED;
}

const struct engine_ops splice_engine_ops = {
	.name = "splice",
	.flags = ENGINE_SYNC | ENGINE_TRIM,
	.init = splice_init,
	.cleanup = splice_cleanup,
	.queue = splice_queue,
};
