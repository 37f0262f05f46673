/* cpuio: moves no data; burns a CPU instead, as fio's engine. Each "I/O" is one burst of
 * cpuchunks microseconds (spinning, or sorting arrays with cpumode=qsort), followed by the
 * job's thinktime, set here so that bursts take cpuload percent of the time. The bursts
 * are counted as reads with no bytes. One job loads one CPU: numjobs=N loads N. It ends
 * with its runtime, or (exit_on_io_done=1) once every job that does I/O has finished. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/engine.h"

enum cpu_mode { CPU_NOOP, CPU_QSORT };

struct cpuio_opts {
	unsigned cpuload;    /* percent of one CPU */
	uint64_t cpuchunks_us;
	unsigned cpumode;    /* enum cpu_mode */
	bool exit_on_io_done;
};

#define QSORT_N 4096 /* ints sorted per round in qsort mode: 16 KiB, in the L1/L2 cache */

struct cpuio_data {
	unsigned seed;
	int v[QSORT_N];
};

static const struct choice cpumode_choices[] = {
	{ "noop", CPU_NOOP, "Spin on the clock" },
	{ "qsort", CPU_QSORT, "Sort arrays of random numbers (more power drawn)" },
	{ NULL, 0, NULL },
};

#define OFFS(f) offsetof(struct cpuio_opts, f)
static const struct option_def cpuio_options[] = {
	{ .name = "cpuload", .type = OPT_UINT, .offset = OFFS(cpuload), .min = 1, .max = 100,
	  .help = "Percentage of one CPU to burn (needed)" },
	{ .name = "cpuchunks", .type = OPT_TIME, .offset = OFFS(cpuchunks_us), .unit = 1, .def = "50000",
	  .help = "Length of each burst (a bare number: microseconds)" },
	{ .name = "cpumode", .type = OPT_CHOICE, .offset = OFFS(cpumode), .choices = cpumode_choices, .def = "noop",
	  .help = "How the CPU is kept busy" },
	{ .name = "exit_on_io_done", .type = OPT_BOOL, .offset = OFFS(exit_on_io_done), .def = "0",
	  .help = "End the job when every job doing I/O has finished" },
	{ NULL },
};

static uint64_t largest_bs(const struct job_opts *o)
{
	uint64_t b = 0;
	for (int d = 0; d < DDIR_NR; d++) {
		if (o->bs[d] > b)
			b = o->bs[d];
		if (o->bs_max[d] > b)
			b = o->bs_max[d];
	}
	return b;
}

/* The bursts and the pauses between them: cpuchunks on, cpuchunks * (100 - load) / load
 * off, as fio sets them. There is no file, and no size is needed: the job ends with its
 * runtime (a nominal region of one block keeps the planning of files content). */
static int cpuio_resolve(struct job_opts *o, void *eng_opts, char *why, size_t len)
{
	const struct cpuio_opts *co = eng_opts;
	if (!co->cpuload) {
		snprintf(why, len, "cpuload: the cpuio engine needs the percentage of a CPU to burn (cpuload=1 to 100)");
		return -EINVAL;
	}
	if (!co->cpuchunks_us) {
		snprintf(why, len, "cpuchunks: a burst must last at least 1 microsecond");
		return -EINVAL;
	}
	/* The pause is a time as thinktime's: refused where its nanoseconds would not fit. */
	unsigned __int128 pause = (unsigned __int128)co->cpuchunks_us * (100 - co->cpuload) / co->cpuload;
	if (pause > (uint64_t)INT64_MAX / 1000) {
		snprintf(why, len, "cpuchunks: %llu us at cpuload=%u makes pauses longer than %llu us",
			 (unsigned long long)co->cpuchunks_us, co->cpuload, (unsigned long long)INT64_MAX / 1000);
		return -ERANGE;
	}
	o->thinktime_us = (uint64_t)pause;
	o->thinktime_spin_us = 0;
	o->thinktime_blocks = 1;
	o->nrfiles = 1;
	if (!o->size && !o->filesize_lo)
		o->size = largest_bs(o);
	return 0;
}

/* What fio's engine says as a job starts. */
static void cpuio_describe(const struct job_opts *o, const void *eng_opts, char *buf, size_t len)
{
	const struct cpuio_opts *co = eng_opts;
	snprintf(buf, len, "%s (%s): ioengine=cpuio, cpuload=%u, cpucycle=%llu", o->name,
		 cpumode_choices[co->cpumode].word, co->cpuload, (unsigned long long)co->cpuchunks_us);
}

static int cpuio_init(struct engine_ctx *ctx)
{
	struct cpuio_data *cd = calloc(1, sizeof(*cd));
	if (!cd)
		return -ENOMEM;
	cd->seed = 0x5eed ^ ctx->clone;
	ctx->priv = cd;
	return 0;
}

static void cpuio_cleanup(struct engine_ctx *ctx)
{
	free(ctx->priv);
}

static int cpuio_open(struct engine_ctx *ctx, const char *path, int flags, int *fd)
{
	*fd = -1; /* no file */
	return 0;
}

static int cpuio_close(struct engine_ctx *ctx, int fd)
{
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static void sort_round(struct cpuio_data *cd)
{
	for (unsigned i = 0; i < QSORT_N; i++)
		cd->v[i] = rand_r(&cd->seed);
	qsort(cd->v, QSORT_N, sizeof(cd->v[0]), cmp_int);
}

static int cpuio_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	const struct cpuio_opts *co = ctx->eng_opts;
	struct cpuio_data *cd = ctx->priv;
	if (co->exit_on_io_done && (!ctx->io_jobs_left || !atomic_load(ctx->io_jobs_left)))
		return Q_DONE;
	uint64_t end = now_ns() + co->cpuchunks_us * 1000;
	for (unsigned i = 0; now_ns() < end; i++) {
		if (co->cpumode == CPU_QSORT)
			sort_round(cd);
		if (!(i & 1023) && ctx->stop && atomic_load_explicit(ctx->stop, memory_order_relaxed))
			break;
	}
	u->result = 0; /* no data moved */
	return Q_COMPLETED;
}

const struct engine_ops cpuio_engine_ops = {
	.name = "cpuio",
	.flags = ENGINE_SYNC | ENGINE_NO_FILE | ENGINE_NO_IO | ENGINE_TRIM, /* a trim is a burst too */
	.options = cpuio_options,
	.options_size = sizeof(struct cpuio_opts),
	.resolve = cpuio_resolve,
	.describe = cpuio_describe,
	.init = cpuio_init,
	.cleanup = cpuio_cleanup,
	.open_file = cpuio_open,
	.close_file = cpuio_close,
	.queue = cpuio_queue,
};
