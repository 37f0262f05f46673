/* libaio: Linux native AIO (io_submit/io_getevents); asynchronous with O_DIRECT. AIO has no
 * trim: as fio, a trim waits for the queued I/Os to be submitted and is done at once
 * (trim_range: BLKDISCARD, or a punched hole in a file). */
#include <errno.h>
#include <stddef.h>
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "engines/engine.h"

#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO (1 << 1) /* linux/aio_abi.h's: aio_reqprio is the I/O's priority */
#endif

struct libaio_data {
	io_context_t ctx;
	struct iocb *iocbs;      /* one per io_unit, by index */
	struct iocb **pending;   /* queued, not yet submitted */
	unsigned nr_pending;
	struct io_event *events;
};

struct libaio_opts {
	int userspace_reap; /* -1 not given: the ring first, as with 1 */
	bool nowait;
};

static const struct option_def libaio_options[] = {
	{ .name = "userspace_reap", .type = OPT_TRIBOOL, .offset = offsetof(struct libaio_opts, userspace_reap),
	  .help = "Reap completions from the ring in user space (the default; 0: always io_getevents)" },
	{ .name = "nowait", .type = OPT_BOOL, .offset = offsetof(struct libaio_opts, nowait), .def = "0",
	  .help = "RWF_NOWAIT on reads and writes: one that would block fails with EAGAIN" },
	{ NULL },
};

static void libaio_cleanup(struct engine_ctx *ctx)
{
	struct libaio_data *ld = ctx->priv;
	if (!ld)
		return;
	if (ld->ctx)
		io_destroy(ld->ctx);
	free(ld->iocbs);
	free(ld->pending);
	free(ld->events);
	free(ld);
}

static long long read_sysctl(const char *path)
{
	FILE *f = fopen(path, "re");
	long long v = -1;
	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* io_setup refused (err): say why where the environment is the cause. Failure path only. */
static void libaio_explain(struct engine_ctx *ctx, int err)
{
	if (err == -EAGAIN) {
		/* Contexts count against one system-wide budget, fs.aio-max-nr, by the depth asked. */
		long long max = read_sysctl("/proc/sys/fs/aio-max-nr");
		long long used = read_sysctl("/proc/sys/fs/aio-nr");
		snprintf(ctx->why, sizeof(ctx->why), "io_setup for iodepth=%u exceeds fs.aio-max-nr "
			 "(%lld, of which %lld in use system-wide); raise it (sysctl fs.aio-max-nr) or "
			 "lower iodepth", ctx->depth, max, used);
	} else if (err == -ENOSYS || err == -EPERM) {
		snprintf(ctx->why, sizeof(ctx->why), "io_setup is refused, likely by a seccomp profile "
			 "or a kernel built without AIO; use ioengine=psync");
	}
}

static int libaio_init(struct engine_ctx *ctx)
{
	struct libaio_data *ld = calloc(1, sizeof(*ld));
	if (!ld)
		return -ENOMEM;
	ctx->priv = ld;
	ld->iocbs = calloc(ctx->nr_units, sizeof(*ld->iocbs));
	ld->pending = calloc(ctx->depth, sizeof(*ld->pending));
	ld->events = calloc(ctx->depth, sizeof(*ld->events));
	if (!ld->iocbs || !ld->pending || !ld->events) {
		libaio_cleanup(ctx);
		ctx->priv = NULL;
		return -ENOMEM;
	}
	int ret = io_setup((int)ctx->depth, &ld->ctx);
	if (ret < 0) {
		libaio_explain(ctx, ret);
		ld->ctx = 0;
		libaio_cleanup(ctx);
		ctx->priv = NULL;
		return ret;
	}
	return 0;
}

static int libaio_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct libaio_data *ld = ctx->priv;
	if (ld->nr_pending >= ctx->depth || (u->ddir == DDIR_TRIM && ld->nr_pending))
		return Q_BUSY;
	if (u->ddir == DDIR_TRIM) {
		u->result = engine_trim(ctx, u, u->len);
		return Q_COMPLETED;
	}
	struct iocb *cb = &ld->iocbs[u->index];
	if (u->ddir == DDIR_READ)
		io_prep_pread(cb, u->fd, u->buf, u->len, (long long)u->offset);
	else
		io_prep_pwrite(cb, u->fd, u->buf, u->len, (long long)u->offset);
	if (((const struct libaio_opts *)ctx->eng_opts)->nowait)
		cb->aio_rw_flags = RWF_NOWAIT;
	if (u->ioprio) { /* its own priority (cmdprio); else the thread's */
		cb->aio_reqprio = u->ioprio;
		cb->u.c.flags |= IOCB_FLAG_IOPRIO;
	}
	cb->data = u;
	ld->pending[ld->nr_pending++] = cb;
	return Q_QUEUED;
}

static int libaio_commit(struct engine_ctx *ctx)
{
	struct libaio_data *ld = ctx->priv;
	unsigned done = 0;
	while (done < ld->nr_pending) {
		int ret = io_submit(ld->ctx, (long)(ld->nr_pending - done), ld->pending + done);
		if (ret > 0) {
			done += (unsigned)ret;
			continue;
		}
		if (ret == -EINTR || ret == -EAGAIN || ret == 0)
			continue;
		/* Fail the first unsubmitted iocb; the rest are tried again by the caller. */
		ld->nr_pending = 0;
		return ret;
	}
	ld->nr_pending = 0;
	return 0;
}

/* The completion ring the kernel shares with user space (see linux/fs/aio.c). */
struct aio_ring {
	unsigned id, nr, head, tail, magic, compat_features, incompat_features, header_length;
	struct io_event events[];
};
#define AIO_RING_MAGIC 0xa10a10a1

/* userspace_reap: take completions off the ring without a system call. */
static int user_reap(struct libaio_data *ld, unsigned max)
{
	struct aio_ring *ring = (struct aio_ring *)ld->ctx;
	if (ring->magic != AIO_RING_MAGIC)
		return -1;
	unsigned head = ring->head, n = 0, nr = ring->nr;
	unsigned tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	if (head == tail)
		return 0;
	while (head != tail && n < max) {
		ld->events[n++] = ring->events[head];
		if (++head == nr) /* no division per event */
			head = 0;
	}
	__atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
	return (int)n;
}

static int libaio_getevents(struct engine_ctx *ctx, unsigned min, unsigned max,
			    const struct timespec *timeout)
{
	struct libaio_data *ld = ctx->priv;
	const struct libaio_opts *lo = ctx->eng_opts;
	int ret = -1;
	/* Completions already on the shared ring need no system call (userspace_reap; also the
	 * default unless userspace_reap=0 is given). */
	if (!lo || lo->userspace_reap)
		ret = user_reap(ld, max);
	if (ret >= 0 && (unsigned)ret >= min && ret > 0)
		goto got;
	if (ret > 0) { /* some from the ring; the rest through the kernel */
		int more;
		do
			more = io_getevents(ld->ctx, (long)(min - (unsigned)ret), (long)(max - (unsigned)ret),
					    ld->events + ret, (struct timespec *)timeout);
		while (more == -EINTR);
		if (more < 0)
			return more;
		ret += more;
		goto got;
	}
	do {
		ret = io_getevents(ld->ctx, (long)min, (long)max, ld->events, (struct timespec *)timeout);
	} while (ret == -EINTR);
	if (ret < 0)
		return ret;
got:
	for (int i = 0; i < ret; i++) {
		struct io_unit *u = ld->events[i].data;
		long res = (long)ld->events[i].res;
		u->result = res;
		ctx->events[i] = u;
	}
	return ret;
}

const struct engine_ops libaio_engine_ops = {
	.name = "libaio",
	.flags = ENGINE_TRIM | ENGINE_IOPRIO,
	.options = libaio_options,
	.options_size = sizeof(struct libaio_opts),
	.init = libaio_init,
	.cleanup = libaio_cleanup,
	.queue = libaio_queue,
	.commit = libaio_commit,
	.getevents = libaio_getevents,
};
