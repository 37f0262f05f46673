/* The worker's parts without a disk: offsets (core/worker/offsets.c: every block exactly once per
 * pass, sequential and backwards order, zones, skewed distributions, rw=mode:N), pacing
 * (core/worker/pace.c: rate slots, Poisson gaps, thinktime, the wait bound), and the whole loop
 * (core/worker/worker.c) on the null engine, with the amounts, depths and maps it reports. Jobs go
 * through job_resolve() as the command line's do. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/lib/clock.h"
#include "engines/engine.h"
#include "core/job/job.h"
#include "core/run/resolve.h"
#include "core/worker/worker_int.h"
#include "job_args.h"

#define KiB 1024ULL
#define MiB (1024 * KiB)

/* A job resolved from "key=value" options (NULL-terminated). */
static struct job *job_of(const char *first, ...)
{
	struct job *job = calloc(1, sizeof(*job));
	struct opt_list none = { 0 };
	va_list ap;
	assert_non_null(job);
	va_start(ap, first);
	job_args_add(job, "w", first, ap);
	va_end(ap);
	assert_int_equal(job_resolve(job, &none), 0);
	return job;
}

static void job_done(struct job *job)
{
	job_free(job);
	free(job);
}

/* A worker state with one file of `region` bytes, ready for offsets_* and pace_*. */
struct fixture {
	struct job *job;
	struct worker w;
	struct thread_stats ts;
	struct clone_file cf;
	struct wfile f;
	struct perm perm; /* its random map (s.perms) */
	struct wstate s;
	atomic_bool stop;
};

static void fixture_init(struct fixture *x, struct job *job, uint64_t region)
{
	memset(x, 0, sizeof(*x));
	x->job = job;
	x->cf.region = region;
	x->s.cfs = &x->cf;
	x->w.o = &job->o;
	x->w.ops = job->ops;
	x->w.stop = &x->stop;
	x->s.w = &x->w;
	x->s.o = &job->o;
	x->s.ts = &x->ts;
	x->s.files = &x->f;
	x->s.perms = &x->perm;
	x->s.nfiles = 1;
	rng_seed(&x->s.rng, 42);
	offsets_init(&x->s);
	pace_init(&x->s);
}

/* The block index of each offset of one pass, counted: each exactly once. */
static void one_pass_each_once(const char *rw)
{
	char opt[64];
	snprintf(opt, sizeof(opt), "rw=%s", rw);
	struct fixture x;
	fixture_init(&x, job_of("ioengine=null", opt, "bs=4k", "size=4m", NULL), 4 * MiB);
	uint64_t n = 4 * MiB / (4 * KiB);
	unsigned char *seen = calloc(n, 1);
	assert_non_null(seen);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t off = offsets_next(&x.s, &x.f, DDIR_READ, 4 * KiB);
		assert_int_equal(off % (4 * KiB), 0);
		assert_true(off < 4 * MiB);
		seen[off / (4 * KiB)]++;
	}
	for (uint64_t b = 0; b < n; b++)
		assert_int_equal(seen[b], 1);
	free(seen);
	job_done(x.job);
}

static void test_every_block_once_per_pass(void **state)
{
	one_pass_each_once("randread");
	one_pass_each_once("read");
	one_pass_each_once("randwrite");
}

static void test_sequential_and_backwards(void **state)
{
	struct fixture x;
	fixture_init(&x, job_of("ioengine=null", "rw=read", "bs=4k", "size=64k", NULL), 64 * KiB);
	for (uint64_t i = 0; i < 20; i++) /* wraps after 16 */
		assert_int_equal(offsets_next(&x.s, &x.f, DDIR_READ, 4 * KiB), (i % 16) * 4 * KiB);
	job_done(x.job);
	fixture_init(&x, job_of("ioengine=null", "rw=read:-8k", "bs=4k", "size=64k", NULL), 64 * KiB);
	/* rw=read:-8k: from the end, each I/O 8k before the end of the last */
	assert_int_equal(offsets_next(&x.s, &x.f, DDIR_READ, 4 * KiB), 60 * KiB);
	assert_int_equal(offsets_next(&x.s, &x.f, DDIR_READ, 4 * KiB), 56 * KiB);
	job_done(x.job);
	fixture_init(&x, job_of("ioengine=null", "rw=read:4k", "bs=4k", "size=64k", NULL), 64 * KiB);
	assert_int_equal(offsets_next(&x.s, &x.f, DDIR_READ, 4 * KiB), 0);
	assert_int_equal(offsets_next(&x.s, &x.f, DDIR_READ, 4 * KiB), 8 * KiB); /* a 4k hole */
	job_done(x.job);
}

static void test_zones(void **state)
{
	/* 90% of the I/O in the first 10% of the region, the rest after it */
	struct fixture x;
	fixture_init(&x, job_of("ioengine=null", "rw=randread", "bs=4k", "size=4m",
				"random_distribution=zoned:90/10:10/90", NULL), 4 * MiB);
	unsigned hot = 0, n = 20000;
	for (unsigned i = 0; i < n; i++)
		hot += offsets_next(&x.s, &x.f, DDIR_READ, 4 * KiB) < 4 * MiB / 10;
	assert_in_range(hot, n * 87 / 100, n * 93 / 100);
	job_done(x.job);
}

static void test_skewed(void **state)
{
	/* zipf:1.2 concentrates I/O: the 10 hottest blocks get far more than 10/1024 of it */
	struct fixture x;
	fixture_init(&x, job_of("ioengine=null", "rw=randread", "bs=4k", "size=4m", "random_distribution=zipf:1.2", NULL),
		     4 * MiB);
	unsigned counts[1024] = { 0 }, n = 50000;
	for (unsigned i = 0; i < n; i++) {
		uint64_t off = offsets_next(&x.s, &x.f, DDIR_READ, 4 * KiB);
		assert_true(off < 4 * MiB);
		counts[off / (4 * KiB)]++;
	}
	unsigned top = 0;
	for (int k = 0; k < 10; k++) { /* the ten largest counts */
		unsigned best = 0, at = 0;
		for (unsigned b = 0; b < 1024; b++)
			if (counts[b] > best)
				best = counts[b], at = b;
		top += best;
		counts[at] = 0;
	}
	assert_true(top > n / 5);
	job_done(x.job);
}

static void test_rw_mod_random(void **state)
{
	/* randread:4: every new random offset is followed by 3 sequential ones */
	struct fixture x;
	fixture_init(&x, job_of("ioengine=null", "rw=randread:4", "bs=4k", "size=4m", NULL), 4 * MiB);
	for (int k = 0; k < 50; k++) {
		uint64_t first = offsets_next(&x.s, &x.f, DDIR_READ, 4 * KiB);
		for (uint64_t i = 1; i < 4; i++) {
			uint64_t off = offsets_next(&x.s, &x.f, DDIR_READ, 4 * KiB);
			if (first + i * 4 * KiB < 4 * MiB)
				assert_int_equal(off, first + i * 4 * KiB);
		}
	}
	job_done(x.job);
}

static void test_rate_slots(void **state)
{
	/* rate_iops=1000: a slot every 1 ms, on a schedule from the first I/O */
	struct fixture x;
	fixture_init(&x, job_of("ioengine=null", "rw=read", "bs=4k", "size=4m", "rate_iops=1000", NULL), 4 * MiB);
	x.s.now = 1000 * NS_PER_MS;
	assert_int_equal(pace_wait_ns(&x.s, DDIR_READ), 0);
	pace_issued(&x.s, DDIR_READ, 4 * KiB);
	assert_int_equal(pace_wait_ns(&x.s, DDIR_READ), NS_PER_MS);
	x.s.now += 400 * 1000;
	assert_int_equal(pace_wait_ns(&x.s, DDIR_READ), 600 * 1000);
	x.s.now += 5 * NS_PER_MS; /* late: the next slot is due at once, the schedule stays */
	assert_int_equal(pace_wait_ns(&x.s, DDIR_READ), 0);
	pace_issued(&x.s, DDIR_READ, 4 * KiB);
	assert_int_equal(x.s.pace.next_issue_ns[DDIR_READ], 1002 * NS_PER_MS);
	job_done(x.job);
	/* rate=4m with bs=4k is the same 1000 I/Os per second, by bytes */
	fixture_init(&x, job_of("ioengine=null", "rw=read", "bs=4k", "size=4m", "rate=4m", NULL), 4 * MiB);
	x.s.now = NS_PER_SEC;
	pace_issued(&x.s, DDIR_READ, 4 * KiB);
	assert_int_equal(pace_wait_ns(&x.s, DDIR_READ), NS_PER_SEC / 1024);
	job_done(x.job);
}

static void test_poisson_mean(void **state)
{
	struct fixture x;
	fixture_init(&x, job_of("ioengine=null", "rw=read", "bs=4k", "size=4m", "rate_iops=1000",
				"rate_process=poisson", NULL), 4 * MiB);
	x.s.now = NS_PER_SEC;
	pace_issued(&x.s, DDIR_READ, 4 * KiB);
	uint64_t first = x.s.pace.next_issue_ns[DDIR_READ];
	for (int i = 0; i < 20000; i++)
		pace_issued(&x.s, DDIR_READ, 4 * KiB);
	double mean_ns = (double)(x.s.pace.next_issue_ns[DDIR_READ] - first) / 20000.0;
	assert_true(mean_ns > 0.95e6 && mean_ns < 1.05e6);
	job_done(x.job);
}

static void test_thinktime_and_bound(void **state)
{
	struct fixture x;
	fixture_init(&x, job_of("ioengine=null", "rw=read", "bs=4k", "size=4m", "thinktime=10",
				"thinktime_blocks=3", NULL), 4 * MiB);
	assert_false(pace_think_due(&x.s));
	assert_false(pace_think_due(&x.s));
	assert_true(pace_think_due(&x.s));
	x.s.now = clock_now_ns();
	x.s.deadline_ns = x.s.now + 2 * NS_PER_MS;
	assert_int_equal(pace_bound(&x.s, NS_PER_SEC), 2 * NS_PER_MS); /* never past the deadline */
	x.s.deadline_ns = 0;
	assert_int_equal(pace_bound(&x.s, NS_PER_SEC), PACE_NAP_NS);  /* one nap at a time */
	assert_int_equal(pace_bound(&x.s, 1000), 1000);
	x.s.deadline_ns = x.s.now - 1;
	assert_int_equal(pace_bound(&x.s, NS_PER_SEC), 0);
	uint64_t t0 = clock_now_ns();
	x.s.deadline_ns = 0;
	pace_think(&x.s); /* 10 us */
	assert_true(clock_now_ns() - t0 >= 10 * 1000);
	assert_false(pace_think_due(&x.s)); /* counted again from the pause */
	job_done(x.job);
}

/* The whole loop on the null engine (or ops, its hooks changed): what a run of this job reports. */
static void run_ops(struct thread_stats *ts, const struct engine_ops *ops, const char *depth, const char *rw,
		    const char *size)
{
	struct job *job = job_of("ioengine=null", rw, "bs=4k", size, depth, NULL);
	struct clone_file cf = { .region = job->o.size, .file_size = job->o.size };
	struct file_plan plan = { .files = &cf, .nfiles = 1, .io_limit = job->o.size };
	atomic_bool stop = false;
	struct worker w = { .o = &job->o, .ops = ops ? ops : job->ops, .eng_opts = job->eng_opts, .plan = &plan,
			    .seed = 7, .stop = &stop, .ts = ts };
	memset(ts, 0, sizeof(*ts));
	assert_int_equal(worker_run(&w), 0);
	job_done(job);
}

static void run_null(struct thread_stats *ts, const char *depth, const char *rw, const char *size)
{
	run_ops(ts, NULL, depth, rw, size);
}

static void test_loop_on_null(void **state)
{
	static struct thread_stats ts; /* large: not on the stack */
	run_null(&ts, "iodepth=1", "rw=randread", "size=8m");
	assert_int_equal(ts.dir[DDIR_READ].io_bytes, 8 * MiB);
	assert_int_equal(ts.dir[DDIR_READ].total_ios, 2048);
	assert_int_equal(ts.issued[DDIR_READ], 2048);
	assert_int_equal(ts.dir[DDIR_READ].clat.n, 2048);
	assert_int_equal(ts.depth_map[0], 2048);
	assert_int_equal(ts.error, 0);
	run_null(&ts, "iodepth=32", "rw=randrw", "size=8m");
	assert_int_equal(ts.dir[DDIR_READ].io_bytes + ts.dir[DDIR_WRITE].io_bytes, 8 * MiB);
	assert_int_equal(ts.dir[DDIR_READ].total_ios + ts.dir[DDIR_WRITE].total_ios, 2048);
	assert_true(ts.dir[DDIR_READ].total_ios > 900 && ts.dir[DDIR_WRITE].total_ios > 900); /* rwmixread=50 */
	/* the queue kept full: as fio, each I/O at the depth it was submitted at, so the first
	 * 31 (the queue filling) below 32 */
	assert_int_equal(ts.depth_map[depth_bucket(32)], 2048 - 31);
	assert_int_equal(ts.depth_map[depth_bucket(1)] + ts.depth_map[depth_bucket(2)] + ts.depth_map[depth_bucket(4)] +
				 ts.depth_map[depth_bucket(8)] + ts.depth_map[depth_bucket(16)], 31);
	assert_int_equal(ts.dir[DDIR_READ].slat.n + ts.dir[DDIR_WRITE].slat.n, 2048);
	run_null(&ts, "iodepth=8", "rw=write", "size=1m");
	assert_int_equal(ts.dir[DDIR_WRITE].total_ios, 256);
	assert_int_equal(ts.dir[DDIR_READ].total_ios, 0);
}

/* An engine that answers "busy" to every other I/O (io_uring's ring under sqthread_poll, full
 * until the kernel's thread takes the last entry): at iodepth=1 the refused I/O holds the only
 * unit, nothing is in flight, and the loop must offer it again rather than wait for a free unit
 * (it spun for ever; the alarm turns that into a failure). */
static int (*null_queue)(struct engine_ctx *ctx, struct io_unit *u);
static unsigned busy_calls;

static int every_other_busy(struct engine_ctx *ctx, struct io_unit *u)
{
	return busy_calls++ % 2 ? null_queue(ctx, u) : Q_BUSY;
}

static void test_busy_engine(void **state)
{
	static struct thread_stats ts;
	extern const struct engine_ops null_engine_ops;
	struct engine_ops ops = null_engine_ops;
	null_queue = null_engine_ops.queue;
	ops.queue = every_other_busy;
	alarm(30);
	run_ops(&ts, &ops, "iodepth=1", "rw=read", "size=1m");
	assert_int_equal(ts.dir[DDIR_READ].total_ios, 256);
	assert_int_equal(ts.dir[DDIR_READ].io_bytes, 1 * MiB);
	run_ops(&ts, &ops, "iodepth=8", "rw=randread", "size=1m");
	assert_int_equal(ts.dir[DDIR_READ].total_ios, 256);
	alarm(0);
	assert_true(busy_calls >= 512);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_block_once_per_pass),
		cmocka_unit_test(test_sequential_and_backwards),
		cmocka_unit_test(test_zones),
		cmocka_unit_test(test_skewed),
		cmocka_unit_test(test_rw_mod_random),
		cmocka_unit_test(test_rate_slots),
		cmocka_unit_test(test_poisson_mean),
		cmocka_unit_test(test_thinktime_and_bound),
		cmocka_unit_test(test_loop_on_null),
		cmocka_unit_test(test_busy_engine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
