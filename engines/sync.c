/* The synchronous engines, one I/O at a time, each done inside queue(): psync (pread/pwrite),
 * sync (lseek, then read/write), pvsync (preadv/pwritev), pvsync2 (preadv2/pwritev2, with
 * RWF_HIPRI when hipri=1 on hipri_percentage of the I/Os, RWF_NOWAIT when nowait=1) and faulty, a test engine: psync whose I/Os from the fault_after-th
 * on fail with fault_errno (EIO by default) or, with fault_short=1, move half their bytes, to
 * show how a faulting device is reported where no device-mapper "error" target is at hand.
 * They differ only in the call that moves the data: one table row each. Trims are the same
 * for all: BLKDISCARD on a block device, a punched hole in a file (trim_range). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engines/engine.h"

struct sync_opts {
	bool hipri;           /* pvsync2 */
	unsigned hipri_pct;   /* pvsync2: the share of I/Os hipri marks */
	bool nowait;          /* pvsync2 */
	uint64_t fault_after; /* faulty: the I/O, counted from 1, that fails first */
	unsigned fault_errno;
	bool fault_short;
};

/* priv: faulty's count of I/Os, pvsync2's random state (hipri_percentage), and how each
 * file is trimmed (one byte per file). */
struct sync_data {
	uint64_t count;
	uint64_t rand;
};

static int sync_init(struct engine_ctx *ctx)
{
	struct sync_data *sd = calloc(1, sizeof(struct sync_data));
	if (!sd)
		return -ENOMEM;
	sd->rand = 0x9e3779b97f4a7c15ULL * (ctx->clone + 1); /* never 0; a clone's own */
	ctx->priv = sd;
	return 0;
}

static void sync_cleanup(struct engine_ctx *ctx)
{
	free(ctx->priv);
}

typedef ssize_t (*xfer_fn)(const struct engine_ctx *ctx, const struct io_unit *u, size_t len);

static ssize_t xfer_psync(const struct engine_ctx *ctx, const struct io_unit *u, size_t len)
{
	return u->ddir == DDIR_READ ? pread(u->fd, u->buf, len, (off_t)u->offset)
				    : pwrite(u->fd, u->buf, len, (off_t)u->offset);
}

static ssize_t xfer_sync(const struct engine_ctx *ctx, const struct io_unit *u, size_t len)
{
	if (lseek(u->fd, (off_t)u->offset, SEEK_SET) < 0)
		return -1;
	return u->ddir == DDIR_READ ? read(u->fd, u->buf, len) : write(u->fd, u->buf, len);
}

static ssize_t xfer_pvsync(const struct engine_ctx *ctx, const struct io_unit *u, size_t len)
{
	struct iovec iov = { u->buf, len };
	return u->ddir == DDIR_READ ? preadv(u->fd, &iov, 1, (off_t)u->offset)
				    : pwritev(u->fd, &iov, 1, (off_t)u->offset);
}

/* Does this I/O get RWF_HIPRI? hipri=1 marks hipri_percentage of them, drawn at random
 * (xorshift64: no call, no lock), as fio's pvsync2 does. */
static bool pvsync2_hipri(const struct engine_ctx *ctx, const struct sync_opts *so)
{
	if (!so->hipri || !so->hipri_pct)
		return false;
	if (so->hipri_pct >= 100)
		return true;
	struct sync_data *sd = ctx->priv;
	sd->rand ^= sd->rand << 13;
	sd->rand ^= sd->rand >> 7;
	sd->rand ^= sd->rand << 17;
	return (sd->rand >> 11) % 100 < so->hipri_pct;
}

static ssize_t xfer_pvsync2(const struct engine_ctx *ctx, const struct io_unit *u, size_t len)
{
	const struct sync_opts *so = ctx->eng_opts;
	struct iovec iov = { u->buf, len };
	int flags = (pvsync2_hipri(ctx, so) ? RWF_HIPRI : 0) | (so->nowait ? RWF_NOWAIT : 0);
	return u->ddir == DDIR_READ ? preadv2(u->fd, &iov, 1, (off_t)u->offset, flags)
				    : pwritev2(u->fd, &iov, 1, (off_t)u->offset, flags);
}

static int finish(struct engine_ctx *ctx, struct io_unit *u, xfer_fn xfer, size_t len)
{
	ssize_t r;
	if (u->ddir == DDIR_TRIM) {
		u->result = engine_trim(ctx, u, len);
		return Q_COMPLETED;
	}
	do
		r = xfer(ctx, u, len);
	while (r < 0 && errno == EINTR);
	u->result = r < 0 ? -errno : r;
	return Q_COMPLETED;
}

static int faulty_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	const struct sync_opts *so = ctx->eng_opts;
	struct sync_data *sd = ctx->priv;
	bool fault = ++sd->count >= so->fault_after;
	if (fault && !so->fault_short) {
		u->result = -(int64_t)so->fault_errno;
		return Q_COMPLETED;
	}
	return finish(ctx, u, xfer_psync, fault ? u->len / 2 : u->len);
}

#define OFFS(f) offsetof(struct sync_opts, f)
static const struct option_def pvsync2_options[] = {
	{ .name = "hipri", .type = OPT_BOOL, .offset = OFFS(hipri), .def = "0",
	  .help = "Polled completion (RWF_HIPRI)" },
	{ .name = "hipri_percentage", .type = OPT_UINT, .offset = OFFS(hipri_pct), .def = "100", .min = 0, .max = 100,
	  .help = "With hipri: the share of I/Os (percent, drawn at random) that get RWF_HIPRI" },
	{ .name = "nowait", .type = OPT_BOOL, .offset = OFFS(nowait), .def = "0",
	  .help = "RWF_NOWAIT: an I/O that would block fails with EAGAIN (ignore_error=EAGAIN goes on)" },
	{ NULL },
};
static const struct option_def faulty_options[] = {
	{ .name = "fault_after", .type = OPT_U64, .offset = OFFS(fault_after), .def = "1", .min = 1, .max = INT64_MAX,
	  .help = "Test engine: the I/O (counted from 1) that fails" },
	{ .name = "fault_errno", .type = OPT_UINT, .offset = OFFS(fault_errno), .def = "5", .min = 1, .max = 4095,
	  .help = "Test engine: the errno it fails with (5: EIO)" },
	{ .name = "fault_short", .type = OPT_BOOL, .offset = OFFS(fault_short), .def = "0",
	  .help = "Test engine: the faulty I/Os transfer half their bytes instead of failing" },
	{ NULL },
};

#define SYNC_ENGINE(nm, table)                                                 \
	static int nm##_queue(struct engine_ctx *ctx, struct io_unit *u)       \
	{                                                                      \
		return finish(ctx, u, xfer_##nm, u->len);                      \
	}                                                                      \
	const struct engine_ops nm##_engine_ops = {                            \
		.name = #nm,                                                   \
		.flags = ENGINE_SYNC | ENGINE_TRIM,                            \
		.options = table,                                              \
		.options_size = sizeof(struct sync_opts),                      \
		.init = sync_init,                                             \
		.cleanup = sync_cleanup,                                       \
		.queue = nm##_queue,                                           \
	};

SYNC_ENGINE(psync, NULL)
SYNC_ENGINE(sync, NULL)
SYNC_ENGINE(pvsync, NULL)
SYNC_ENGINE(pvsync2, pvsync2_options)

const struct engine_ops faulty_engine_ops = {
	.name = "faulty",
	.flags = ENGINE_SYNC | ENGINE_TRIM,
	.options = faulty_options,
	.options_size = sizeof(struct sync_opts),
	.init = sync_init,
	.cleanup = sync_cleanup,
	.queue = faulty_queue,
};
