/* Zone arithmetic (core/plan/zone.c, core/plan/zbd.c, core/worker/zbd_io.c): regions rounded to zones, the
 * strided walk, emulated zone tables and a device's reported ones, where zbd writes and reads
 * go (write pointers, resets, capacity, open-zone limits, the reset threshold and frequency),
 * and the zone options as a job gives them ("Nz", the refusals). */
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
#include <linux/blkzoned.h>

#include "core/job/job.h"
#include "core/run/resolve.h"
#include "core/worker/zone_run.h"
#include "core/worker/zbd_io.h"
#include "job_args.h"

#define KiB 1024ULL

static void test_round(void **state)
{
	uint64_t off = 8 * KiB, len = 128 * KiB;
	assert_int_equal(zone_round(64 * KiB, &off, &len), 0);
	assert_int_equal(off, 64 * KiB); /* up to the next zone */
	assert_int_equal(len, 64 * KiB); /* the end (136k) down to 128k */
	off = 0, len = 256 * KiB;
	assert_int_equal(zone_round(64 * KiB, &off, &len), 0);
	assert_int_equal(off, 0);
	assert_int_equal(len, 256 * KiB);
	off = 60 * KiB, len = 136 * KiB;
	assert_int_equal(zone_round(64 * KiB, &off, &len), 0);
	assert_int_equal(off, 64 * KiB);
	assert_int_equal(len, 128 * KiB);
	off = 192 * KiB, len = 32 * KiB; /* no whole zone */
	assert_int_equal(zone_round(64 * KiB, &off, &len), -EINVAL);
	off = 0, len = 256 * KiB; /* 6k zones: 42 of them fit */
	assert_int_equal(zone_round(6 * KiB, &off, &len), 0);
	assert_int_equal(len, 252 * KiB);
}

/* Offsets of n sequential writes of bs in a strided walk. */
static void walk(const struct zone_opts *z, uint64_t start, uint64_t len, uint64_t file_end, uint64_t bs, int n,
		 uint64_t *out)
{
	struct zone_file zf = { .start = start, .len = len, .file_end = file_end, .base = start };
	uint64_t zone_bytes = 0;
	for (int d = 0; d < DDIR_NR; d++)
		zf.pos[d] = start;
	for (int i = 0; i < n; i++) {
		zone_strided_step(z, &zf, &zone_bytes, DDIR_WRITE);
		out[i] = zf.pos[DDIR_WRITE];
		zf.pos[DDIR_WRITE] += bs;
		zone_bytes += bs;
	}
}

static void test_strided_walk(void **state)
{
	uint64_t got[32];
	/* 16k of each 64k zone, back to the start past the file's end */
	struct zone_opts z = { .mode = ZONE_MODE_STRIDED, .size = 16 * KiB, .range = 64 * KiB };
	walk(&z, 0, 256 * KiB, 256 * KiB, 4 * KiB, 20, got);
	const uint64_t want[20] = { 0, 4, 8, 12, 64, 68, 72, 76, 128, 132, 136, 140, 192, 196, 200, 204, 0, 4, 8, 12 };
	for (int i = 0; i < 20; i++)
		assert_int_equal(got[i], want[i] * KiB);
	/* zoneskip: 16k zones 48k apart; the wrap is at the file's end, not the region's */
	struct zone_opts s = { .mode = ZONE_MODE_STRIDED, .size = 16 * KiB, .range = 16 * KiB, .skip = 32 * KiB };
	walk(&s, 0, 256 * KiB, 1024 * KiB, 4 * KiB, 24, got);
	assert_int_equal(got[4], 48 * KiB);
	assert_int_equal(got[23], 252 * KiB); /* zone 5 starts at 240k */
	/* zonesize over zonerange: each zone twice */
	struct zone_opts r = { .mode = ZONE_MODE_STRIDED, .size = 32 * KiB, .range = 16 * KiB };
	walk(&r, 0, 256 * KiB, 256 * KiB, 4 * KiB, 9, got);
	assert_int_equal(got[3], 12 * KiB);
	assert_int_equal(got[4], 0);
	assert_int_equal(got[8], 16 * KiB);
	/* a region at 64k wraps back to 64k */
	struct zone_opts o = { .mode = ZONE_MODE_STRIDED, .size = 16 * KiB, .range = 16 * KiB, .skip = 16 * KiB };
	walk(&o, 64 * KiB, 128 * KiB, 256 * KiB, 4 * KiB, 28, got);
	assert_int_equal(got[20], 224 * KiB);
	assert_int_equal(got[24], 64 * KiB);
}

static void test_emulate(void **state)
{
	struct zbd_dev dev = { 0 };
	char why[256];
	assert_int_equal(zbd_emulate(&dev, 256 * KiB, 6 * KiB, 0, why, sizeof(why)), 0);
	assert_int_equal(dev.nr_zones, 43); /* the last one past the file, as fio's */
	assert_int_equal(dev.zones[42].start, 252 * KiB);
	assert_int_equal(dev.zones[0].cap, 6 * KiB);
	assert_true(dev.zones[5].has_wp);
	assert_int_equal(dev.zones[5].wp, dev.zones[5].start);
	free(dev.zones), free(dev.data), free(dev.open);
	struct zbd_dev small = { 0 };
	assert_int_equal(zbd_emulate(&small, 32 * KiB, 64 * KiB, 0, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "smaller than zonesize"));
}

static void test_data_count(void **state)
{
	struct zbd_dev dev = { 0 };
	char why[256];
	assert_int_equal(zbd_emulate(&dev, 1024 * KiB, 64 * KiB, 0, why, sizeof(why)), 0);
	zbd_set_wp(&dev, 0, 64 * KiB);
	zbd_set_wp(&dev, 3, 3 * 64 * KiB + 8 * KiB);
	zbd_set_wp(&dev, 15, 15 * 64 * KiB + 4 * KiB);
	assert_int_equal(zbd_data(&dev, 0, 16), 76 * KiB);
	assert_int_equal(zbd_data(&dev, 1, 15), 8 * KiB);
	assert_int_equal(zbd_data(&dev, 4, 15), 0);
	assert_int_equal(zbd_reset(&dev, 3, -1), 1);
	assert_int_equal(zbd_reset(&dev, 3, -1), 0); /* empty: not a reset to count */
	assert_int_equal(zbd_data(&dev, 0, 16), 68 * KiB);
	free(dev.zones), free(dev.data), free(dev.open);
}

static void test_report(void **state)
{
	struct blk_zone bz[4] = { 0 };
	for (int i = 0; i < 4; i++) {
		bz[i].start = (uint64_t)i * 128; /* 64k zones, in sectors */
		bz[i].len = 128;
		bz[i].capacity = 96;
		bz[i].type = BLK_ZONE_TYPE_SEQWRITE_REQ;
		bz[i].cond = BLK_ZONE_COND_EMPTY;
		bz[i].wp = bz[i].start;
	}
	bz[0].type = BLK_ZONE_TYPE_CONVENTIONAL;
	bz[0].cond = BLK_ZONE_COND_NOT_WP;
	bz[1].wp = bz[1].start + 16, bz[1].cond = BLK_ZONE_COND_IMP_OPEN;
	bz[2].cond = BLK_ZONE_COND_FULL;
	bz[3].cond = BLK_ZONE_COND_OFFLINE;
	struct zbd_dev dev = { 0 };
	char why[256];
	assert_int_equal(zbd_from_report(&dev, bz, 4, why, sizeof(why)), 0);
	assert_int_equal(dev.zone_size, 64 * KiB);
	assert_false(dev.zones[0].has_wp);
	assert_int_equal(dev.zones[1].wp, 64 * KiB + 8 * KiB);
	assert_int_equal(dev.zones[1].cap, 48 * KiB);
	assert_true(dev.zones[1].dev_open); /* counted against the open-zone limit when a job starts */
	assert_int_equal(dev.zones[2].wp, 128 * KiB + 48 * KiB); /* full: at its capacity */
	assert_true(dev.zones[3].offline);
	assert_int_equal(zbd_data(&dev, 0, 4), 8 * KiB + 48 * KiB);
	free(dev.zones), free(dev.data), free(dev.open);
	bz[2].len = 64; /* zones of two sizes */
	struct zbd_dev bad = { 0 };
	assert_int_equal(zbd_from_report(&bad, bz, 4, why, sizeof(why)), -EINVAL);
	free(bad.zones), free(bad.data), free(bad.open);
}

struct fixture {
	struct zbd_dev dev;
	struct zbd_io io;
	unsigned nr_open;
};

static void fixture_init(struct fixture *f, uint64_t cap, uint64_t min_bs)
{
	char why[256];
	memset(f, 0, sizeof(*f));
	assert_int_equal(zbd_emulate(&f->dev, 256 * KiB, 64 * KiB, cap, why, sizeof(why)), 0);
	f->io = (struct zbd_io){ .dev = &f->dev, .zmin = 0, .zmax = 4, .start = 0, .len = 256 * KiB,
				 .min_bs = min_bs, .nr_open = &f->nr_open, .fd = -1 };
}

static void fixture_free(struct fixture *f)
{
	free(f->dev.zones), free(f->dev.data), free(f->dev.open);
}

/* Place a write and complete it at once (a sync engine). */
static int write_at(struct fixture *f, uint64_t off, uint64_t len, struct zbd_place *p)
{
	int r = zbd_place_write(&f->io, off, len, p);
	if (r == ZONE_GO)
		zbd_write_done(&f->dev, p->zone, p->off + p->len);
	return r;
}

static void test_writes(void **state)
{
	struct fixture f;
	struct zbd_place p;
	fixture_init(&f, 0, 4 * KiB);
	/* a random offset goes to its zone's write pointer */
	assert_int_equal(write_at(&f, 100 * KiB, 4 * KiB, &p), ZONE_GO);
	assert_int_equal(p.off, 64 * KiB);
	assert_int_equal(write_at(&f, 70 * KiB, 4 * KiB, &p), ZONE_GO);
	assert_int_equal(p.off, 68 * KiB);
	/* a full zone is reset first, and that counts */
	for (int i = 0; i < 16; i++)
		assert_int_equal(write_at(&f, 0, 4 * KiB, &p), ZONE_GO);
	assert_int_equal(f.dev.zones[0].wp, 64 * KiB);
	assert_int_equal(write_at(&f, 8 * KiB, 4 * KiB, &p), ZONE_GO);
	assert_int_equal(p.resets, 1);
	assert_int_equal(p.off, 0);
	/* one write at a time in a zone */
	assert_int_equal(zbd_place_write(&f.io, 0, 4 * KiB, &p), ZONE_GO);
	assert_int_equal(zbd_place_write(&f.io, 0, 4 * KiB, &p), ZONE_BUSY);
	zbd_write_done(&f.dev, 0, 8 * KiB);
	/* with verify, a full zone is not reset: another zone, or nothing */
	f.io.verify = true;
	zbd_set_wp(&f.dev, 0, 64 * KiB);
	assert_int_equal(write_at(&f, 0, 4 * KiB, &p), ZONE_GO);
	assert_int_equal(p.resets, 0);
	assert_int_equal(p.zone, 1);
	for (uint32_t i = 0; i < 4; i++)
		zbd_set_wp(&f.dev, i, (i + 1) * 64 * KiB);
	assert_int_equal(write_at(&f, 0, 4 * KiB, &p), ZONE_EOF);
	fixture_free(&f);
}

static void test_capacity(void **state)
{
	struct fixture f;
	struct zbd_place p;
	fixture_init(&f, 40 * KiB, 16 * KiB);
	assert_int_equal(write_at(&f, 0, 16 * KiB, &p), ZONE_GO);
	assert_int_equal(write_at(&f, 16 * KiB, 16 * KiB, &p), ZONE_GO);
	/* 8k left of 40k: full for 16k writes, so reset */
	assert_int_equal(write_at(&f, 32 * KiB, 16 * KiB, &p), ZONE_GO);
	assert_int_equal(p.resets, 1);
	assert_int_equal(p.off, 0);
	fixture_free(&f);
	/* a write is cut at the capacity's end to whole min_bs */
	fixture_init(&f, 40 * KiB, 4 * KiB);
	zbd_set_wp(&f.dev, 1, 64 * KiB + 32 * KiB);
	assert_int_equal(write_at(&f, 64 * KiB, 16 * KiB, &p), ZONE_GO);
	assert_int_equal(p.off, 96 * KiB);
	assert_int_equal(p.len, 8 * KiB);
	fixture_free(&f);
}

static void test_reset_frequency(void **state)
{
	struct fixture f;
	struct zbd_place p;
	unsigned resets = 0;
	uint64_t offs[16];
	fixture_init(&f, 0, 16 * KiB);
	f.io.threshold = 0.5;
	f.io.frequency = 0.25;
	/* 16 sequential 16k writes: the threshold (128k) is met at the 9th, every 4th resets */
	for (int i = 0, pos = 0; i < 16; i++) {
		assert_int_equal(write_at(&f, (uint64_t)pos, 16 * KiB, &p), ZONE_GO);
		offs[i] = p.off / KiB;
		resets += p.resets;
		pos = (int)(p.off + p.len);
	}
	assert_int_equal(offs[11], 128); /* the 12th write reset zone 2 */
	assert_int_equal(offs[15], 192); /* the 16th reset zone 3, empty: not counted */
	assert_int_equal(resets, 1);
	/* the countdown: every 1/frequency-th count says reset */
	struct zbd_dev d = { 0 };
	int fired = 0;
	for (int i = 1; i <= 12; i++)
		fired += zbd_countdown(&d, 0.25) ? i : 0;
	assert_int_equal(fired, 4 + 8 + 12);
	fixture_free(&f);
}

static void test_open_limit(void **state)
{
	struct fixture f;
	struct zbd_place p;
	fixture_init(&f, 0, 4 * KiB);
	f.dev.max_open = 1;
	assert_int_equal(write_at(&f, 0, 4 * KiB, &p), ZONE_GO);
	assert_true(f.dev.zones[0].open);
	assert_int_equal(f.nr_open, 1);
	/* zone 2 may not open: the write goes to the open zone */
	assert_int_equal(write_at(&f, 130 * KiB, 4 * KiB, &p), ZONE_GO);
	assert_int_equal(p.zone, 0);
	assert_int_equal(p.off, 4 * KiB);
	/* the write that fills a zone closes it; the next opens another */
	zbd_set_wp(&f.dev, 0, 60 * KiB);
	assert_int_equal(write_at(&f, 0, 4 * KiB, &p), ZONE_GO);
	assert_false(f.dev.zones[0].open);
	assert_int_equal(write_at(&f, 130 * KiB, 4 * KiB, &p), ZONE_GO);
	assert_int_equal(p.zone, 2);
	assert_int_equal(f.dev.nr_open, 1);
	/* the limit from the device and the job */
	struct zone_opts zo = { .max_open = 8 };
	char why[256];
	f.dev.model = ZBD_HOST_MANAGED;
	f.dev.dev_max_open = 4;
	assert_int_equal(zbd_open_limit(&f.dev, &zo, why, sizeof(why)), -EINVAL);
	zo.ignore_limits = true;
	assert_int_equal(zbd_open_limit(&f.dev, &zo, why, sizeof(why)), 0);
	assert_int_equal(f.dev.max_open, 8);
	zo = (struct zone_opts){ 0 };
	assert_int_equal(zbd_open_limit(&f.dev, &zo, why, sizeof(why)), 0);
	assert_int_equal(f.dev.max_open, 4);
	fixture_free(&f);
}

static void test_reads(void **state)
{
	struct fixture f;
	struct zbd_place p;
	fixture_init(&f, 0, 8 * KiB);
	/* nothing written: nothing to read */
	assert_int_equal(zbd_place_read(&f.io, 0, 8 * KiB, &p), ZONE_EOF);
	zbd_set_wp(&f.dev, 0, 64 * KiB);
	zbd_set_wp(&f.dev, 1, 64 * KiB + 36 * KiB);
	/* sequential: past the write pointer, on to the next zone with data */
	assert_int_equal(zbd_place_read(&f.io, 60 * KiB, 8 * KiB, &p), ZONE_GO);
	assert_int_equal(p.off, 64 * KiB);
	assert_int_equal(zbd_place_read(&f.io, 96 * KiB, 8 * KiB, &p), ZONE_EOF);
	/* a read at the write pointer's edge is cut to whole blocks */
	assert_int_equal(zbd_place_read(&f.io, 88 * KiB, 16 * KiB, &p), ZONE_GO);
	assert_int_equal(p.len, 8 * KiB);
	/* random: an empty zone sends it to one with data, within the data */
	f.io.random = true;
	assert_int_equal(zbd_place_read(&f.io, 200 * KiB, 8 * KiB, &p), ZONE_GO);
	assert_true(p.zone == 0 || p.zone == 1);
	assert_true(p.off + p.len <= f.dev.zones[p.zone].wp);
	/* read_beyond_wp: as asked */
	f.io.read_beyond_wp = true;
	assert_int_equal(zbd_place_read(&f.io, 200 * KiB, 8 * KiB, &p), ZONE_GO);
	assert_int_equal(p.off, 200 * KiB);
	fixture_free(&f);
}

static void test_trims(void **state)
{
	struct fixture f;
	struct zbd_place p;
	fixture_init(&f, 0, 64 * KiB);
	/* sequential: the zone it names, empty or not (the reset comes when it is queued) */
	assert_int_equal(zbd_place_trim(&f.io, 128 * KiB, 64 * KiB, &p), ZONE_GO);
	assert_int_equal(p.zone, 2);
	/* random: only zones holding data; none, nothing to do */
	f.io.random = true;
	assert_int_equal(zbd_place_trim(&f.io, 128 * KiB, 64 * KiB, &p), ZONE_EOF);
	zbd_set_wp(&f.dev, 0, 4 * KiB);
	assert_int_equal(zbd_place_trim(&f.io, 128 * KiB, 64 * KiB, &p), ZONE_GO);
	assert_int_equal(p.zone, 0);
	assert_int_equal(p.off, 0);
	/* not while a write is in flight there */
	f.dev.zones[0].inflight = 1;
	assert_int_equal(zbd_place_trim(&f.io, 0, 64 * KiB, &p), ZONE_BUSY);
	fixture_free(&f);
}

/* Resolve a job of "key=value" options: 0, or the error with its text in err. */
static int resolve(struct job_opts *out, char *err, size_t n, const char *first, ...)
{
	struct job job = { 0 };
	struct opt_list none = { 0 };
	va_list ap;
	va_start(ap, first);
	job_args_add(&job, "j", first, ap);
	va_end(ap);
	FILE *e = tmpfile();
	fflush(stderr);
	int saved = dup(STDERR_FILENO);
	dup2(fileno(e), STDERR_FILENO);
	int ret = job_resolve(&job, &none);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(e);
	size_t got = fread(err, 1, n - 1, e);
	err[got] = '\0';
	fclose(e);
	if (!ret)
		*out = job.o;
	job_free(&job);
	return ret;
}

static void test_options(void **state)
{
	static struct job_opts o;
	char err[1024];
	assert_int_equal(resolve(&o, err, sizeof(err), "zonemode=strided", "zonesize=64k", "offset=2z", "size=3z",
				 "io_size=1z", "offset_increment=1z", NULL), 0);
	assert_int_equal(o.offset, 128 * KiB);
	assert_int_equal(o.size, 192 * KiB);
	assert_int_equal(o.io_size, 64 * KiB);
	assert_int_equal(o.offset_increment, 64 * KiB);
	assert_int_equal(o.zone.range, 64 * KiB); /* zonerange defaults to zonesize */
	assert_int_equal(resolve(&o, err, sizeof(err), "offset=2z", "offset=8k", NULL), 0); /* the last one wins */
	assert_int_equal(o.offset, 8 * KiB);
	assert_int_equal(resolve(&o, err, sizeof(err), "zonemode=zbd", "zonesize=64k", "zone_reset_threshold=0.25",
				 "zone_reset_frequency=1", "max_open_zones=4", "job_max_open_zones=2", NULL), 0);
	assert_true(o.zone.reset_threshold == 0.25 && o.zone.reset_frequency == 1.0);
	assert_int_equal(o.zone.max_open, 4);
	static const char *const refused[][3] = {
		{ "zonesize=16k", NULL, "zonesize: needs zonemode" },
		{ "zonemode=strided", NULL, "zonesize must be given" },
		{ "offset=1z", NULL, "needs zonemode" },
		{ "zonemode=zbd", "zonesize=256", "less than 512" },
		{ "zonemode=zbd", "zonecapacity=128k", "more than zonesize" },
		{ "zonemode=zbd", "zoneskip=32k", "not a multiple of zonesize" },
		{ "zonemode=zbd", "zone_reset_threshold=1.5", "not a number from 0 to 1" },
		{ "zonemode=bogus", NULL, "unknown value" },
		{ "zonemode=zbd", "rw=trim", "the trim block size (4096) must be zonesize" },
		{ "zonemode=strided", "rw=trimwrite", "trim+write pairs" },
	};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		int ret = refused[i][1] ? resolve(&o, err, sizeof(err), "zonesize=64k", refused[i][0], refused[i][1], NULL)
					: resolve(&o, err, sizeof(err), refused[i][0], NULL);
		if (ret == 0 || !strstr(err, refused[i][2]))
			fail_msg("%s %s: %s", refused[i][0], refused[i][1] ? refused[i][1] : "", err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round),
		cmocka_unit_test(test_strided_walk),
		cmocka_unit_test(test_emulate),
		cmocka_unit_test(test_data_count),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_writes),
		cmocka_unit_test(test_capacity),
		cmocka_unit_test(test_reset_frequency),
		cmocka_unit_test(test_open_limit),
		cmocka_unit_test(test_reads),
		cmocka_unit_test(test_trims),
		cmocka_unit_test(test_options),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
