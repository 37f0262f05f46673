/* Trims without a device: trim_range on a regular file (a punched hole that reads as
 * zeros), the order of rw=trimwrite's trims and writes and its passes (fio 3.33's, as its
 * write_iolog shows them on a loop device), randtrimwrite's mirrored writes,
 * trim_percentage's chosen blocks and fio's trim_backlog rule, and what verify makes of
 * trimmed blocks (read back as zeros, or forgotten). */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "engines/engine.h"
#include "core/job/job.h"
#include "core/run/resolve.h"
#include "core/worker/worker_int.h"
#include "job_args.h"

#define KiB 1024ULL

static struct job *job_of(const char *first, ...)
{
	struct job *job = calloc(1, sizeof(*job));
	struct opt_list none = { 0 };
	va_list ap;
	assert_non_null(job);
	va_start(ap, first);
	job_args_add(job, "t", first, ap);
	va_end(ap);
	assert_int_equal(job_resolve(job, &none), 0);
	return job;
}

struct fixture {
	struct job *job;
	struct worker w;
	struct thread_stats ts;
	struct clone_file cf;
	struct wfile f;
	struct perm perm; /* its random map (s.perms) */
	struct wstate s;
	struct io_unit unit;
	atomic_bool stop;
	char buf[64 * 1024];
};

static void fixture_init(struct fixture *x, struct job *job, uint64_t region, uint64_t io_limit)
{
	memset(x, 0, sizeof(*x));
	x->job = job;
	x->cf.region = region;
	x->cf.path = "fixture";
	x->s.cfs = &x->cf;
	x->w.o = &job->o;
	x->w.ops = job->ops;
	x->w.stop = &x->stop;
	x->w.seed = 7;
	x->s.w = &x->w;
	x->s.o = &job->o;
	x->s.ts = &x->ts;
	x->s.files = &x->f;
	x->s.perms = &x->perm;
	x->s.nfiles = 1;
	x->s.io_limit = io_limit;
	x->unit.buf = x->buf;
	x->s.units = &x->unit;
	x->s.depth = 1;
	x->w.log_index = 1;
	rng_seed(&x->s.rng, 42);
	offsets_init(&x->s);
	assert_int_equal(verify_setup(&x->s), 0); /* trim_percentage picks among verify's writes */
	assert_int_equal(trim_setup(&x->s), 0);
}

static void fixture_done(struct fixture *x)
{
	trim_teardown(&x->s);
	verify_teardown(&x->s);
	job_free(x->job);
	free(x->job);
}

/* Issue I/Os as the loop does (direction, length, file, pass, offset) until the writes
 * reach io_limit or the pass rule ends the job; "t0/16 w0/8 ..." in KiB into out. */
static void walk(struct fixture *x, char *out, size_t n)
{
	uint64_t written = 0;
	size_t o = 0;
	out[0] = '\0';
	for (int i = 0; i < 1000 && written < x->s.io_limit; i++) {
		enum ddir d = offsets_next_ddir(&x->s);
		uint64_t len = offsets_next_len(&x->s, d);
		struct wfile *f = offsets_next_file(&x->s);
		enum trim_pass p = offsets_pass_check(&x->s, f, d, len);
		if (p == PASS_END)
			break;
		if (p == PASS_AGAIN)
			continue;
		uint64_t off = offsets_next(&x->s, f, d, len);
		if (d == DDIR_WRITE)
			written += len;
		o += (size_t)snprintf(out + o, n - o, "%s%c%llu/%llu", o ? " " : "", d == DDIR_TRIM ? 't' : 'w',
				      (unsigned long long)(off / KiB), (unsigned long long)(len / KiB));
	}
}

static void test_trimwrite_order(void **state)
{
	char got[2048];
	struct fixture *x = malloc(sizeof(*x));
	assert_non_null(x);
	/* bs=R,W,T: trims of 16k, writes of 8k; fio: the trims end the pass (64k trimmed, 56k written) */
	fixture_init(x, job_of("ioengine=null", "rw=trimwrite", "bs=4k,8k,16k", "size=64k", NULL), 64 * KiB, 64 * KiB);
	walk(x, got, sizeof(got));
	assert_string_equal(got, "t0/16 w0/8 t16/16 w8/8 w16/8 t32/16 w24/8 w32/8 t48/16 w40/8 w48/8");
	fixture_done(x);
	/* trims of 8k, writes of 16k: the writes reach io_size first */
	fixture_init(x, job_of("ioengine=null", "rw=trimwrite", "bs=4k,16k,8k", "size=64k", NULL), 64 * KiB, 64 * KiB);
	walk(x, got, sizeof(got));
	assert_string_equal(got, "t0/8 w0/16 t8/8 w16/16 w32/16 w48/16");
	fixture_done(x);
	/* io_size=128k: a second pass, from a trim at 0 */
	fixture_init(x, job_of("ioengine=null", "rw=trimwrite", "bs=8k,16k,8k", "size=64k", "io_size=128k", NULL),
		     64 * KiB, 128 * KiB);
	walk(x, got, sizeof(got));
	assert_string_equal(got, "t0/8 w0/16 t8/8 w16/16 w32/16 w48/16 t0/8 w0/16 t8/8 w16/16 w32/16 w48/16");
	fixture_done(x);
	/* size=32k, io_size=64k, one block size: fio stops after one pass (what is left < bs) */
	fixture_init(x, job_of("ioengine=null", "rw=trimwrite", "bs=8k", "size=32k", "io_size=64k", NULL), 32 * KiB,
		     64 * KiB);
	walk(x, got, sizeof(got));
	assert_string_equal(got, "t0/8 w0/8 t8/8 w8/8 t16/8 w16/8 t24/8 w24/8");
	fixture_done(x);
	free(x);
}

/* randtrimwrite: n pairs, each write where its trim was and as long (tl KiB); with one
 * block size every block once. */
static void mirrored_pairs(const char *bs, unsigned n, unsigned long long tl, bool each_once)
{
	char got[4096];
	struct fixture *x = malloc(sizeof(*x));
	assert_non_null(x);
	fixture_init(x, job_of("ioengine=null", "rw=randtrimwrite", bs, "size=64k", NULL), 64 * KiB, 64 * KiB);
	walk(x, got, sizeof(got));
	unsigned seen = 0, pairs = 0;
	for (char *p = got; *p;) {
		unsigned long long to, len, wo, wl;
		int used = 0;
		assert_int_equal(sscanf(p, "t%llu/%llu w%llu/%llu%n", &to, &len, &wo, &wl, &used), 4);
		assert_true(to == wo && len == tl && wl == tl);
		seen |= 1u << (to / tl);
		pairs++;
		p += used;
		while (*p == ' ')
			p++;
	}
	assert_int_equal(pairs, n);
	if (each_once)
		assert_int_equal(seen, (1u << n) - 1);
	fixture_done(x);
	free(x);
}

static void test_randtrimwrite_mirrors(void **state)
{
	mirrored_pairs("bs=4k", 16, 4, true);
	mirrored_pairs("bs=16k", 4, 16, true);
	mirrored_pairs("bs=4k,8k,16k", 4, 16, false); /* the writes take the trims' 16k, as fio */
}

/* A scratch file of n bytes of 0xab; its fd. */
static int data_file(char *path, size_t n)
{
	strcpy(path, "/tmp/iobench-test-trim.XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	char *b = malloc(n);
	assert_non_null(b);
	memset(b, 0xab, n);
	assert_int_equal(pwrite(fd, b, n, 0), (ssize_t)n);
	assert_int_equal(fsync(fd), 0);
	free(b);
	return fd;
}

static void test_trim_range_punches(void **state)
{
	char path[64], b[16 * KiB];
	int fd = data_file(path, 64 * KiB);
	struct stat before, after;
	unsigned char kind = TRIM_UNKNOWN;
	assert_int_equal(fstat(fd, &before), 0);
	int64_t r = trim_range(fd, &kind, 16 * KiB, 16 * KiB);
	if (r == -EOPNOTSUPP) { /* a filesystem without hole punching */
		close(fd);
		unlink(path);
		skip();
	}
	assert_int_equal(r, 16 * KiB);
	assert_int_equal(kind, TRIM_PUNCH);
	assert_int_equal(fstat(fd, &after), 0);
	assert_int_equal(after.st_size, 64 * KiB); /* FALLOC_FL_KEEP_SIZE */
	assert_int_equal(before.st_blocks - after.st_blocks, 16 * KiB / 512);
	assert_int_equal(pread(fd, b, sizeof(b), 16 * KiB), (ssize_t)sizeof(b));
	for (size_t i = 0; i < sizeof(b); i++)
		assert_int_equal(b[i], 0);
	assert_int_equal(pread(fd, b, sizeof(b), 32 * KiB), (ssize_t)sizeof(b));
	assert_int_equal((unsigned char)b[0], 0xab);
	/* a bad descriptor is an error, not a crash */
	kind = TRIM_UNKNOWN;
	assert_int_equal(trim_range(-1, &kind, 0, 4096), -EBADF);
	close(fd);
	unlink(path);
}

/* The next trim_next() answer: "t<KiB>/<KiB>" for a trim, "-" for none, "drain". */
static const char *next(struct fixture *x, bool spent, bool last_read)
{
	static char buf[48];
	struct trim_entry e;
	enum trim_step st = trim_next(&x->s, spent, last_read, &e);
	if (st == TSTEP_NONE)
		return "-";
	if (st == TSTEP_DRAIN)
		return "drain";
	snprintf(buf, sizeof(buf), "t%llu/%llu", (unsigned long long)(e.off / KiB), (unsigned long long)(e.len / KiB));
	return buf;
}

static void write_blocks(struct fixture *x, unsigned from, unsigned n, uint64_t bs)
{
	for (unsigned b = from; b < from + n; b++)
		trim_written(&x->s, &x->f, b * bs, bs);
}

static void test_chosen_backlog(void **state)
{
	struct fixture *x = malloc(sizeof(*x));
	assert_non_null(x);
	fixture_init(x,
		     job_of("ioengine=psync", "rw=write", "bs=4k", "size=64k", "verify=md5", "trim_percentage=100", "trim_backlog=4",
			    "trim_backlog_batch=2", NULL),
		     64 * KiB, 64 * KiB);
	for (unsigned b = 0; b < 3; b++) {
		write_blocks(x, b, 1, 4 * KiB);
		assert_string_equal(next(x, false, false), "-"); /* 1, 2, 3 written: no batch */
	}
	write_blocks(x, 3, 1, 4 * KiB);
	assert_int_equal(x->s.trim.npending, 4);
	assert_true(trim_owed(&x->s));
	/* 4 not read back: a batch, oldest (lowest) first; fio's batch of 2 trims 3, and while
	 * the count stays a multiple of 4 the next batch starts at once */
	assert_string_equal(next(x, false, false), "t0/4");
	assert_string_equal(next(x, false, false), "t4/4");
	assert_string_equal(next(x, false, false), "t8/4");
	assert_string_equal(next(x, false, false), "t12/4");
	assert_string_equal(next(x, false, false), "-");
	assert_false(trim_owed(&x->s));
	/* a batch does not start right after a read (fio's last_ddir rule) */
	x->s.trim.batch_left = 0;
	write_blocks(x, 4, 4, 4 * KiB);
	assert_string_equal(next(x, false, true), "-");
	/* a verify read of a chosen block takes it off the list, and off the count */
	trim_verified(&x->s, 0, 4 * 4 * KiB);
	assert_int_equal(x->s.trim.npending, 3);
	assert_int_equal(x->s.trim.held, 7);
	assert_string_equal(next(x, false, false), "-"); /* 7 held: not a multiple of 4 */
	/* the writes are done: every chosen block left is due, after the queue drains */
	x->s.inflight = 1;
	assert_string_equal(next(x, true, false), "drain");
	x->s.inflight = 0;
	assert_string_equal(next(x, true, false), "t20/4");
	assert_string_equal(next(x, true, false), "t24/4");
	assert_string_equal(next(x, true, false), "t28/4");
	assert_string_equal(next(x, true, false), "-");
	/* a write over a chosen block takes its place: still one to trim */
	write_blocks(x, 9, 1, 4 * KiB);
	write_blocks(x, 9, 1, 4 * KiB);
	assert_int_equal(x->s.trim.npending, 1);
	fixture_done(x);
	/* writes of 4k to 12k (the granule is 4k): a trim covers the whole write */
	fixture_init(x, job_of("ioengine=psync", "rw=write", "bsrange=4k-12k", "size=64k", "verify=md5", "trim_percentage=100", NULL),
		     64 * KiB, 64 * KiB);
	write_blocks(x, 0, 2, 8 * KiB);
	write_blocks(x, 0, 1, 12 * KiB); /* over the first and half the second: both replaced */
	assert_int_equal(x->s.trim.npending, 1);
	assert_string_equal(next(x, true, false), "t0/12");
	fixture_done(x);
	/* trim_verify_zero=0: a trimmed block is not read back, so it leaves the count (fio) */
	fixture_init(x,
		     job_of("ioengine=psync", "rw=write", "bs=4k", "size=64k", "verify=md5", "trim_percentage=100", "trim_backlog=2",
			    "trim_verify_zero=0", NULL),
		     64 * KiB, 64 * KiB);
	write_blocks(x, 0, 2, 4 * KiB);
	assert_string_equal(next(x, false, false), "t0/4");
	assert_int_equal(x->s.trim.held, 1);
	fixture_done(x);
	free(x);
}

/* verify's side: a trimmed write is read back as zeros (trim_verify_zero) or not at all. */
static void phase_reads(struct fixture *x, char *out, size_t n)
{
	struct verify_entry e;
	size_t o = 0;
	out[0] = '\0';
	while (verify_next(&x->s, true, &e) == VSTEP_READ)
		o += (size_t)snprintf(out + o, n - o, "%s%llu%s", o ? " " : "", (unsigned long long)(e.off / KiB),
				      e.zeros ? "z" : "");
}

static void verify_fixture(struct fixture *x, const char *zero)
{
	fixture_init(x,
		     job_of("ioengine=psync", "rw=write", "bs=4k", "size=64k", "verify=md5", "trim_percentage=100", zero,
			    NULL),
		     64 * KiB, 64 * KiB);
	for (unsigned b = 0; b < 4; b++)
		verify_written(&x->s, &x->f, b * 4 * KiB, 4 * KiB);
}

static void test_verify_trimmed(void **state)
{
	char got[256];
	struct fixture *x = malloc(sizeof(*x));
	assert_non_null(x);
	verify_fixture(x, "trim_verify_zero=1");
	verify_trimmed(&x->s, &x->f, 4 * KiB, 8 * KiB); /* blocks 1 and 2 */
	verify_written(&x->s, &x->f, 8 * KiB, 4 * KiB); /* 2 written again: data */
	phase_reads(x, got, sizeof(got));
	assert_string_equal(got, "0 4z 8 12");
	/* the zeros check of a verify read: zeros pass, anything else fails */
	x->unit.len = 4 * KiB;
	x->unit.offset = 4 * KiB;
	x->unit.ddir = DDIR_READ;
	x->unit.result = (int64_t)x->unit.len;
	memset(x->buf, 0, sizeof(x->buf));
	verify_mark(&x->s, &x->unit, VCHECK_ZEROS);
	assert_int_equal(verify_completed(&x->s, &x->unit), 0);
	x->buf[100] = 1;
	assert_int_equal(verify_completed(&x->s, &x->unit), -EILSEQ);
	x->unit.ddir = DDIR_TRIM; /* a trim's completion checks nothing */
	assert_int_equal(verify_completed(&x->s, &x->unit), 0);
	fixture_done(x);
	verify_fixture(x, "trim_verify_zero=0");
	verify_trimmed(&x->s, &x->f, 4 * KiB, 4 * KiB);
	phase_reads(x, got, sizeof(got));
	assert_string_equal(got, "0 8 12");
	fixture_done(x);
	free(x);
}

/* ENGINE_TRIM: every engine iobench has trims (as fio's do) but rados (objects: not yet, its
 * trim jobs are refused; docs/differences.md) and those whose I/O is something else, which
 * fio's fail at their first trim: ftruncate (a truncate), e4defrag (an extent move), net and
 * netsplice (a stream); and gfapi, gfapi_async (fio 3.33's answer "unsupported operation");
 * fio's engines iobench does not have refuse all jobs. One without it refuses the jobs that
 * would trim, and only those. */
static void test_engine_trim_flag(void **state)
{
	static const char *const no_trims[] = { "rados", "ftruncate", "e4defrag", "net", "netsplice",
						"gfapi", "gfapi_async" };
	for (size_t i = 0; engine_by_index(i); i++) {
		bool listed = false;
		for (size_t k = 0; k < sizeof(no_trims) / sizeof(no_trims[0]); k++)
			listed |= !strcmp(engine_by_index(i)->name, no_trims[k]);
		/* fio's engines iobench does not carry out refuse every job anyway. */
		assert_true(listed || (engine_by_index(i)->flags & (ENGINE_TRIM | ENGINE_ABSENT)));
	}
	const struct engine_ops notrim = { .name = "notrim", .flags = ENGINE_SYNC };
	const char *refused[][5] = {
		{ "rw=trim", NULL },
		{ "rw=randtrimwrite", NULL },
		{ "rw=write", "verify=md5", "trim_percentage=10", NULL },
	};
	const char *fine[][5] = {
		{ "rw=randrw", NULL },
		{ "rw=write", "trim_percentage=10", NULL }, /* without verify: nothing is trimmed */
		{ "rw=write", "verify=md5", "do_verify=0", "trim_percentage=10", NULL },
	};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		struct job *job = job_of(refused[i][0], refused[i][1], refused[i][2], refused[i][3], NULL);
		assert_int_equal(engine_check_job(&notrim, &job->o), -EINVAL);
		assert_int_equal(engine_check_job(engine_find("psync"), &job->o), 0);
		job_free(job);
		free(job);
	}
	for (size_t i = 0; i < sizeof(fine) / sizeof(fine[0]); i++) {
		struct job *job = job_of(fine[i][0], fine[i][1], fine[i][2], fine[i][3], NULL);
		assert_int_equal(engine_check_job(&notrim, &job->o), 0);
		job_free(job);
		free(job);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trimwrite_order),
		cmocka_unit_test(test_randtrimwrite_mirrors),
		cmocka_unit_test(test_trim_range_punches),
		cmocka_unit_test(test_chosen_backlog),
		cmocka_unit_test(test_verify_trimmed),
		cmocka_unit_test(test_engine_trim_flag),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
