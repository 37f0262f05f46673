/* io_uring: submission and completion rings through liburing. Options: fixedbufs
 * (registered buffers), registerfiles, sqthread_poll[_cpu] (kernel-side submission),
 * hipri (IOPOLL), nonvectored=0 (readv/writev), force_async=N (IOSQE_ASYNC on every N-th
 * request: the kernel's worker threads do it), nowait (RWF_NOWAIT: what would block fails
 * with EAGAIN), cmd_type (io_uring_cmd's, accepted as fio's io_uring does). Trims, as fio 3.33's engine does them:
 * once the queued I/Os are submitted, at once (trim_range: BLKDISCARD, or a punched hole). */
#include <errno.h>
#include <stddef.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <sys/utsname.h>

#include "engines/engine.h"

struct uring_data {
	struct io_uring ring;
	bool ring_ready;
	struct iovec *iovs; /* one per unit: registered buffers and vectored commands */
	bool fixed, regfiles; /* buffers and files registered with the ring */
	bool deferred;        /* DEFER_TASKRUN: completions are posted only when we ask */
	unsigned nr_queued;   /* prepared since the last submit */
	unsigned since_async; /* requests since the last one force_async marked */
};

struct uring_opts {
	bool hipri, sqthread_poll;
	int sqthread_poll_cpu;   /* -1: wherever the kernel puts it */
	int fixedbufs, registerfiles; /* -1 not given: registered where the kernel allows */
	unsigned nonvectored;
	unsigned force_async; /* 0: never */
	bool nowait;
	unsigned cmd_type;
};

static const struct choice cmd_types[] = {
	{ "nvme", 0, "NVMe uring commands (io_uring_cmd's; io_uring does plain reads and writes)" },
	{ NULL, 0, NULL },
};

#define OFFS(f) offsetof(struct uring_opts, f)
static const struct option_def uring_options[] = {
	{ .name = "hipri", .type = OPT_BOOL, .offset = OFFS(hipri), .def = "0",
	  .help = "Polled I/O (IORING_SETUP_IOPOLL)" },
	{ .name = "fixedbufs", .type = OPT_TRIBOOL, .offset = OFFS(fixedbufs),
	  .help = "Register the I/O buffers with the ring (not given: where RLIMIT_MEMLOCK allows)" },
	{ .name = "registerfiles", .type = OPT_TRIBOOL, .offset = OFFS(registerfiles),
	  .help = "Register the files with the ring (not given: when all are open from the start)" },
	{ .name = "sqthread_poll", .type = OPT_BOOL, .offset = OFFS(sqthread_poll), .def = "0",
	  .help = "A kernel thread polls the submission queue" },
	{ .name = "sqthread_poll_cpu", .type = OPT_INT, .offset = OFFS(sqthread_poll_cpu), .def = "-1", .min = -1,
	  .max = CPUS_MAX - 1, .help = "CPU of the polling thread (-1: any)" },
	{ .name = "nonvectored", .type = OPT_UINT, .offset = OFFS(nonvectored), .def = "1", .min = 0, .max = 1,
	  .help = "Use non-vectored read/write commands (0: readv/writev)" },
	{ .name = "force_async", .type = OPT_UINT, .offset = OFFS(force_async), .def = "0", .min = 0, .max = INT32_MAX,
	  .help = "Set IOSQE_ASYNC on every N-th request: the kernel's io-wq workers do it (0: never)" },
	{ .name = "nowait", .type = OPT_BOOL, .offset = OFFS(nowait), .def = "0",
	  .help = "RWF_NOWAIT on reads and writes: one that would block fails with EAGAIN" },
	{ .name = "cmd_type", .type = OPT_CHOICE, .offset = OFFS(cmd_type), .choices = cmd_types, .def = "nvme",
	  .help = "The uring passthrough command type (accepted: only io_uring_cmd issues such commands)" },
	{ NULL },
};

static void uring_cleanup(struct engine_ctx *ctx)
{
	struct uring_data *ud = ctx->priv;
	if (!ud)
		return;
	if (ud->ring_ready)
		io_uring_queue_exit(&ud->ring);
	free(ud->iovs);
	free(ud);
}

/* kernel.io_uring_disabled (Linux 6.6): 0 allowed, 1 only for kernel.io_uring_group and
 * CAP_SYS_ADMIN, 2 refused to all; -1 where the file is absent. */
static int uring_disabled_sysctl(void)
{
	FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "re");
	int v = -1;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* RLIMIT_MEMLOCK in KiB, or -1 when unlimited. */
static long long memlock_kib(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_MEMLOCK, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
		return -1;
	return (long long)(rl.rlim_cur / 1024);
}

/* Is the running kernel older than major.minor? */
static bool kernel_before(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;
	if (uname(&u) < 0 || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma < major || (ma == major && mi < minor);
}

/* The ring could not be set up (err): say why where the cause is the environment, not the
 * options. Runs once, on the failure path only. */
static void uring_explain(struct engine_ctx *ctx, int err)
{
	const char *alt = "; use ioengine=libaio";
	long long lock = memlock_kib();
	if (err == -ENOMEM && lock >= 0 && kernel_before(5, 12)) {
		snprintf(ctx->why, sizeof(ctx->why), "before Linux 5.12 the rings count against "
			 "RLIMIT_MEMLOCK (%lld KiB here: ulimit -l); raise it or lower iodepth%s", lock, alt);
		return;
	}
	if (err != -ENOSYS && err != -EPERM)
		return;
	int v = uring_disabled_sysctl();
	if (v > 0 && err == -EPERM) { /* the sysctl's answer is EPERM, never ENOSYS */
		snprintf(ctx->why, sizeof(ctx->why), "io_uring is disabled by the kernel.io_uring_disabled "
			 "sysctl (value %d: %s)%s", v,
			 v == 1 ? "allowed only to CAP_SYS_ADMIN and the kernel.io_uring_group group" : "refused to all", alt);
		return;
	}
	/* SQPOLL needed CAP_SYS_ADMIN before Linux 5.11: is a plain ring allowed? */
	struct io_uring probe;
	const struct uring_opts *uo = ctx->eng_opts;
	if (err == -EPERM && uo->sqthread_poll && io_uring_queue_init(1, &probe, 0) == 0) {
		io_uring_queue_exit(&probe);
		snprintf(ctx->why, sizeof(ctx->why), "sqthread_poll=1 is not permitted here (before Linux "
			 "5.11 it needs CAP_SYS_ADMIN); leave it out");
		return;
	}
	snprintf(ctx->why, sizeof(ctx->why), "io_uring_setup is refused, likely by a seccomp profile "
		 "(podman's, containerd 2's and Docker >= 25's default block io_uring)%s%s",
		 err == -ENOSYS ? " or a kernel built without io_uring" : "", alt);
}

static int uring_setup(struct engine_ctx *ctx, struct uring_data *ud)
{
	const struct uring_opts *o = ctx->eng_opts;
	struct io_uring_params p = { 0 };
	if (o->hipri)
		p.flags |= IORING_SETUP_IOPOLL;
	if (o->sqthread_poll) {
		p.flags |= IORING_SETUP_SQPOLL;
		p.sq_thread_idle = 1000;
		if (o->sqthread_poll_cpu >= 0) {
			p.flags |= IORING_SETUP_SQ_AFF;
			p.sq_thread_cpu = (unsigned)o->sqthread_poll_cpu;
		}
	}
	/* Completions are reaped by this thread only: run their task work when it enters the
	 * kernel (COOP_TASKRUN; DEFER_TASKRUN with SINGLE_ISSUER where the kernel has it, not
	 * with SQPOLL), instead of interrupting it for each one. Older kernels refuse the
	 * flags with EINVAL: fall back step by step. */
	unsigned base = p.flags, extra[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	int ret = -EINVAL;
	for (size_t i = (base & IORING_SETUP_SQPOLL) ? 3 : 0; i < sizeof(extra) / sizeof(extra[0]) && ret == -EINVAL; i++) {
		struct io_uring_params q = p;
		q.flags = base | extra[i];
		ret = io_uring_queue_init_params(ctx->depth, &ud->ring, &q);
		ud->deferred = ret == 0 && (q.flags & IORING_SETUP_DEFER_TASKRUN);
	}
	if (ret < 0) {
		uring_explain(ctx, ret);
		return ret;
	}
	ud->ring_ready = true;
	/* Registered buffers and files spare the kernel a page lookup and a file reference per
	 * I/O. Asked for (fixedbufs=1, registerfiles=1), a failure is an error; by default they
	 * are tried, and left out where the kernel refuses (RLIMIT_MEMLOCK, files opened later). */
	if (o->registerfiles == 1 && ctx->files_one_by_one) {
		snprintf(ctx->why, sizeof(ctx->why), "registerfiles=1 does not go with opendir whole-file reads "
			 "(the files are opened one by one)");
		return -EINVAL;
	}
	if (o->fixedbufs) {
		ret = io_uring_register_buffers(&ud->ring, ud->iovs, ctx->nr_units);
		if (ret == -ENOMEM && o->fixedbufs == 1 && memlock_kib() >= 0)
			snprintf(ctx->why, sizeof(ctx->why), "fixedbufs=1: %llu KiB of buffers to pin "
				 "and RLIMIT_MEMLOCK is %lld KiB (ulimit -l; CAP_IPC_LOCK lifts it); "
				 "raise it or leave fixedbufs out",
				 (unsigned long long)ctx->nr_units * ctx->buf_len / 1024, memlock_kib());
		if (ret < 0 && o->fixedbufs == 1)
			return ret;
		ud->fixed = ret == 0;
	}
	return 0;
}

/* Every file is open: register them, unless told not to or they come one by one. */
static int uring_post_open(struct engine_ctx *ctx)
{
	struct uring_data *ud = ctx->priv;
	const struct uring_opts *o = ctx->eng_opts;
	bool all_open = ctx->nr_fds > 0 && !ctx->files_one_by_one;
	for (unsigned i = 0; i < ctx->nr_fds; i++)
		all_open &= ctx->fds[i] >= 0;
	if (!o->registerfiles || !all_open)
		return 0;
	int ret = io_uring_register_files(&ud->ring, ctx->fds, ctx->nr_fds);
	if (ret < 0 && o->registerfiles == 1)
		return ret;
	ud->regfiles = ret == 0;
	return 0;
}

static int uring_init(struct engine_ctx *ctx)
{
	struct uring_data *ud = calloc(1, sizeof(*ud));
	if (!ud)
		return -ENOMEM;
	ctx->priv = ud;
	ud->iovs = calloc(ctx->nr_units, sizeof(*ud->iovs));
	int ret = ud->iovs ? 0 : -ENOMEM;
	for (unsigned i = 0; !ret && i < ctx->nr_units; i++) {
		ud->iovs[i].iov_base = ctx->units[i].buf;
		ud->iovs[i].iov_len = ctx->buf_len;
	}
	if (!ret)
		ret = uring_setup(ctx, ud);
	if (ret) {
		uring_cleanup(ctx);
		ctx->priv = NULL;
	}
	return ret;
}

static int uring_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct uring_data *ud = ctx->priv;
	const struct uring_opts *o = ctx->eng_opts;
	if (u->ddir == DDIR_TRIM) {
		if (ud->nr_queued)
			return Q_BUSY;
		u->result = engine_trim(ctx, u, u->len);
		return Q_COMPLETED;
	}
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ud->ring);
	if (!sqe)
		return Q_BUSY;
	bool reg_file = ud->regfiles;
	int fd = reg_file ? (int)u->file_index : u->fd;
	bool rd = u->ddir == DDIR_READ;
	if (ud->fixed) {
		if (rd)
			io_uring_prep_read_fixed(sqe, fd, u->buf, (unsigned)u->len, u->offset, (int)u->index);
		else
			io_uring_prep_write_fixed(sqe, fd, u->buf, (unsigned)u->len, u->offset, (int)u->index);
	} else if (!o->nonvectored) {
		ud->iovs[u->index].iov_len = u->len;
		if (rd)
			io_uring_prep_readv(sqe, fd, &ud->iovs[u->index], 1, u->offset);
		else
			io_uring_prep_writev(sqe, fd, &ud->iovs[u->index], 1, u->offset);
	} else if (rd) {
		io_uring_prep_read(sqe, fd, u->buf, (unsigned)u->len, u->offset);
	} else {
		io_uring_prep_write(sqe, fd, u->buf, (unsigned)u->len, u->offset);
	}
	if (reg_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	if (o->nowait)
		sqe->rw_flags |= RWF_NOWAIT;
	if (o->force_async && ++ud->since_async == o->force_async) {
		ud->since_async = 0;
		sqe->flags |= IOSQE_ASYNC;
	}
	sqe->ioprio = u->ioprio; /* 0: the thread's own */
	io_uring_sqe_set_data(sqe, u);
	ud->nr_queued++;
	return Q_QUEUED;
}

static int uring_commit(struct engine_ctx *ctx)
{
	struct uring_data *ud = ctx->priv;
	for (;;) {
		/* With DEFER_TASKRUN the kernel posts finished requests' completions only when
		 * asked: asking in the submit call (no wait) lets the reaper find them in the ring
		 * instead of sleeping in a second call for what has already finished. */
		int ret = ud->deferred ? io_uring_submit_and_get_events(&ud->ring) : io_uring_submit(&ud->ring);
		if (ret >= 0 || (ret != -EINTR && ret != -EAGAIN)) {
			ud->nr_queued = 0; /* submitted, or given up by the caller */
			return ret < 0 ? ret : 0;
		}
	}
}

static unsigned uring_harvest(struct uring_data *ud, struct io_unit **done, unsigned have, unsigned max)
{
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;
	io_uring_for_each_cqe(&ud->ring, head, cqe) {
		if (have + n >= max)
			break;
		struct io_unit *u = io_uring_cqe_get_data(cqe);
		u->result = cqe->res;
		done[have + n] = u;
		n++;
	}
	io_uring_cq_advance(&ud->ring, n);
	return n;
}

static int uring_getevents(struct engine_ctx *ctx, unsigned min, unsigned max,
			   const struct timespec *timeout)
{
	struct uring_data *ud = ctx->priv;
	unsigned have = uring_harvest(ud, ctx->events, 0, max);
	ctx->events_before_last_call = ud->deferred && have >= min;
	while (have < min) {
		struct io_uring_cqe *cqe;
		int ret;
		if (timeout) {
			struct __kernel_timespec ts = { timeout->tv_sec, timeout->tv_nsec };
			ret = io_uring_wait_cqes(&ud->ring, &cqe, min - have, &ts, NULL);
			if (ret == -ETIME)
				return (int)(have + uring_harvest(ud, ctx->events, have, max));
		} else {
			ret = io_uring_wait_cqe_nr(&ud->ring, &cqe, min - have);
		}
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN)
			return ret;
		have += uring_harvest(ud, ctx->events, have, max);
	}
	return (int)have;
}

const struct engine_ops io_uring_engine_ops = {
	.name = "io_uring",
	.flags = ENGINE_TRIM | ENGINE_IOPRIO,
	.options = uring_options,
	.options_size = sizeof(struct uring_opts),
	.init = uring_init,
	.post_open = uring_post_open,
	.cleanup = uring_cleanup,
	.queue = uring_queue,
	.commit = uring_commit,
	.getevents = uring_getevents,
};
