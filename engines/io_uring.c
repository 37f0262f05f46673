/* io_uring: submission and completion rings through liburing. */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>

#include "core/engine.h"

struct uring_data {
	struct io_uring ring;
	bool ring_ready;
	struct io_unit **done;
};

static void uring_cleanup(struct engine_ctx *ctx)
{
	struct uring_data *ud = ctx->priv;
	if (!ud)
		return;
	if (ud->ring_ready)
		io_uring_queue_exit(&ud->ring);
	free(ud->done);
	free(ud);
}

static int uring_init(struct engine_ctx *ctx)
{
	struct uring_data *ud = calloc(1, sizeof(*ud));
	if (!ud)
		return -ENOMEM;
	ctx->priv = ud;
	ud->done = calloc(ctx->depth, sizeof(*ud->done));
	if (!ud->done) {
		uring_cleanup(ctx);
		ctx->priv = NULL;
		return -ENOMEM;
	}
	int ret = io_uring_queue_init(ctx->depth, &ud->ring, 0);
	if (ret < 0) {
		uring_cleanup(ctx);
		ctx->priv = NULL;
		return ret;
	}
	ud->ring_ready = true;
	return 0;
}

static int uring_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct uring_data *ud = ctx->priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ud->ring);
	if (!sqe)
		return Q_BUSY;
	if (u->ddir == DDIR_READ)
		io_uring_prep_read(sqe, u->fd, u->buf, (unsigned)u->len, u->offset);
	else
		io_uring_prep_write(sqe, u->fd, u->buf, (unsigned)u->len, u->offset);
	io_uring_sqe_set_data(sqe, u);
	return Q_QUEUED;
}

static int uring_commit(struct engine_ctx *ctx)
{
	struct uring_data *ud = ctx->priv;
	for (;;) {
		int ret = io_uring_submit(&ud->ring);
		if (ret >= 0)
			return 0;
		if (ret != -EINTR && ret != -EAGAIN)
			return ret;
	}
}

static unsigned uring_harvest(struct uring_data *ud, unsigned have, unsigned max)
{
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;
	io_uring_for_each_cqe(&ud->ring, head, cqe) {
		if (have + n >= max)
			break;
		struct io_unit *u = io_uring_cqe_get_data(cqe);
		u->result = cqe->res;
		ud->done[have + n] = u;
		n++;
	}
	io_uring_cq_advance(&ud->ring, n);
	return n;
}

static int uring_getevents(struct engine_ctx *ctx, unsigned min, unsigned max,
			   const struct timespec *timeout)
{
	struct uring_data *ud = ctx->priv;
	unsigned have = uring_harvest(ud, 0, max);
	while (have < min) {
		struct io_uring_cqe *cqe;
		int ret;
		if (timeout) {
			struct __kernel_timespec ts = { timeout->tv_sec, timeout->tv_nsec };
			ret = io_uring_wait_cqes(&ud->ring, &cqe, min - have, &ts, NULL);
			if (ret == -ETIME)
				return (int)(have + uring_harvest(ud, have, max));
		} else {
			ret = io_uring_wait_cqe_nr(&ud->ring, &cqe, min - have);
		}
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN)
			return ret;
		have += uring_harvest(ud, have, max);
	}
	return (int)have;
}

static struct io_unit *uring_event(struct engine_ctx *ctx, unsigned i)
{
	struct uring_data *ud = ctx->priv;
	return ud->done[i];
}

const struct engine_ops io_uring_engine_ops = {
	.name = "io_uring",
	.init = uring_init,
	.cleanup = uring_cleanup,
	.queue = uring_queue,
	.commit = uring_commit,
	.getevents = uring_getevents,
	.event = uring_event,
};
