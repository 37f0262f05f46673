/* Steady state's criteria (fio's: the largest deviation from the window's mean, the
 * least-squares slope, each absolute or as a percentage of the mean) on the windows fio
 * 3.33 itself judged (the figures in its JSON output), and latency_target's depth search
 * against latency models. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/worker/latency_target.h"
#include "core/worker/steadystate.h"

static struct steady_opts crit(unsigned c, double limit, bool pct)
{
	struct steady_opts o = { .crit = c, .limit = limit, .pct = pct, .dur_us = 2000000, .interval_us = 1000000 };
	return o;
}

static void near(double got, double want)
{
	if (fabs(got - want) > 1e-6 * (fabs(want) > 1 ? fabs(want) : 1))
		fail_msg("got %f, want %f", got, want);
}

/* Windows and verdicts from fio 3.33's JSON ("data", "criterion", "max_deviation"). */
static void test_deviation_as_fio(void **state)
{
	struct ss_verdict v;
	struct steady_opts o = crit(SS_IOPS, 5.0, true);
	ss_judge((const uint64_t[]){ 1001, 1000 }, 2, 1.0, &o, &v);
	near(v.max_dev, 0.5);
	near(v.criterion, 0.049975); /* fio: "0.049975%" */
	assert_true(v.attained);
	near(v.slope, 0.0);

	o = crit(SS_BW, 1000.0, false); /* fio: bw:1000 -> max_deviation 2050, not attained */
	ss_judge((const uint64_t[]){ 4096000, 4100100 }, 2, 1.0, &o, &v);
	near(v.max_dev, 2050.0);
	near(v.criterion, 2050.0);
	assert_false(v.attained);

	o = crit(SS_BW, 2.0, true); /* fio: bw:2% -> "0.056011%" */
	ss_judge((const uint64_t[]){ 4100591, 4096000 }, 2, 1.0, &o, &v);
	assert_true(fabs(v.criterion - 0.056011) < 5e-7);
	near(v.max_dev, 2295.5);
	assert_true(v.attained);

	o = crit(SS_IOPS, 2.0, true); /* fio with numjobs=2 group_reporting: "1.300650%" */
	ss_judge((const uint64_t[]){ 1973, 2025 }, 2, 1.0, &o, &v);
	assert_true(fabs(v.criterion - 1.300650) < 5e-7);
	assert_true(v.attained);
	/* The limit is strict: criterion == limit is not steady. */
	o = crit(SS_IOPS, 26.0, false);
	ss_judge((const uint64_t[]){ 1973, 2025 }, 2, 1.0, &o, &v);
	assert_false(v.attained);
}

static void test_slope(void **state)
{
	struct ss_verdict v;
	/* fio: bw_slope:1000 on [4100551, 4100100] -> slope -451, criterion "-451.000000",
	 * attained (the magnitude is judged). */
	struct steady_opts o = crit(SS_BW | SS_SLOPE, 1000.0, false);
	ss_judge((const uint64_t[]){ 4100551, 4100100 }, 2, 1.0, &o, &v);
	near(v.slope, -451.0);
	near(v.criterion, -451.0);
	near(v.max_dev, 0.0);
	assert_true(v.attained);
	/* Least squares over 5 samples: x 0..4, y 3 1 4 1 5 -> 0.4 per second. */
	const uint64_t y[] = { 3, 1, 4, 1, 5 };
	o = crit(SS_IOPS | SS_SLOPE, 0.5, false);
	ss_judge(y, 5, 1.0, &o, &v);
	near(v.slope, 0.4);
	assert_true(v.attained);
	o.limit = 0.4;
	ss_judge(y, 5, 1.0, &o, &v);
	assert_false(v.attained);
	/* ss_interval=2s: the slope is per second, half the per-sample one. */
	ss_judge(y, 5, 2.0, &o, &v);
	near(v.slope, 0.2);
	/* Percent of the mean: rising 10/s around 115 is 8.695652%/s. */
	const uint64_t up[] = { 100, 110, 120, 130 };
	o = crit(SS_IOPS | SS_SLOPE, 5.0, true);
	ss_judge(up, 4, 1.0, &o, &v);
	near(v.slope, 10.0);
	near(v.criterion, 1000.0 / 115.0);
	assert_false(v.attained);
	o.limit = 10.0;
	ss_judge(up, 4, 1.0, &o, &v);
	assert_true(v.attained);
	/* Falling: a negative criterion, its magnitude judged. */
	const uint64_t down[] = { 130, 120, 110, 100 };
	ss_judge(down, 4, 1.0, &o, &v);
	near(v.criterion, -1000.0 / 115.0);
	assert_true(v.attained);
	/* A flat window: slope 0, iops_slope:0.01% attained (fio's default criterion). */
	o = crit(SS_IOPS | SS_SLOPE, 0.01, true);
	ss_judge((const uint64_t[]){ 1000, 1000, 1000 }, 3, 1.0, &o, &v);
	near(v.slope, 0.0);
	assert_true(v.attained);
	/* One sample has no slope. */
	ss_judge((const uint64_t[]){ 1000 }, 1, 1.0, &o, &v);
	near(v.slope, 0.0);
}

static void test_empty_window(void **state)
{
	struct ss_verdict v;
	const uint64_t zeros[] = { 0, 0, 0 };
	/* No I/O at all: no percentage of a mean of 0, never steady. */
	struct steady_opts o = crit(SS_IOPS, 5.0, true);
	ss_judge(zeros, 3, 1.0, &o, &v);
	assert_false(v.attained);
	near(v.criterion, 0.0);
	o = crit(SS_BW | SS_SLOPE, 1.0, true);
	ss_judge(zeros, 3, 1.0, &o, &v);
	assert_false(v.attained);
	/* An absolute limit: a flat line at 0 is flat. */
	o = crit(SS_IOPS, 1.0, false);
	ss_judge(zeros, 3, 1.0, &o, &v);
	assert_true(v.attained);
}

/* ---- latency_target ---- */

static struct job_opts jo;

static void lat_opts(uint64_t target_us, uint64_t window_us, double pct, bool run)
{
	memset(&jo, 0, sizeof(jo));
	snprintf(jo.name, sizeof(jo.name), "t");
	jo.ss.lat.target_us = target_us;
	jo.ss.lat.window_us = window_us;
	jo.ss.lat.pct = pct;
	jo.ss.lat.run = run;
}

/* One window at the search's depth: n I/Os whose latency is model(depth) each (the
 * first slow one, with latency_percentile=100, already lowers the depth), then the
 * window's end. Returns the answer; *t moves on by the window. */
static enum lat_action window(struct lat_search *l, uint64_t *t, uint64_t (*model)(unsigned), unsigned n)
{
	uint64_t lat = model(l->depth);
	for (unsigned i = 0; i < n; i++)
		assert_false(lat_search_io(l, lat));
	*t += l->window_ns;
	enum lat_action a = lat_search_check(l, *t, true);
	if (a == LAT_DRAIN || a == LAT_FINAL)
		lat_search_window(l, *t);
	return a;
}

/* The search from the job's start (no ramp_time: the statistics are kept from the start). */
static void start(struct lat_search *l, unsigned max_depth)
{
	lat_search_init(l, &jo, max_depth, 0, 0);
	assert_int_equal(lat_search_check(l, 0, true), LAT_NONE);
}

static uint64_t fast(unsigned depth)
{
	return 1000; /* 1 us at any depth */
}

static uint64_t queueing(unsigned depth)
{
	return depth * 100000ULL; /* 100 us per I/O queued ahead */
}

static void test_lat_doubles_to_iodepth(void **state)
{
	struct lat_search l;
	uint64_t t = 0;
	lat_opts(500000, 200000, 100.0, false);
	start(&l, 16);
	assert_true(l.on);
	assert_int_equal(l.depth, 1);
	assert_int_equal(lat_search_check(&l, t + 1, true), LAT_NONE); /* the window has not passed */
	const unsigned want[] = { 2, 4, 8, 16 };
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(window(&l, &t, fast, 100), LAT_NONE);
		assert_int_equal(l.depth, want[i]);
	}
	/* 16 again: the last window measures it, then the job is done (fio's "We are done"). */
	assert_int_equal(window(&l, &t, fast, 100), LAT_FINAL);
	assert_int_equal(l.depth, 16);
	assert_int_equal(window(&l, &t, fast, 100), LAT_DONE);
	assert_int_equal(lat_search_check(&l, t + l.window_ns, true), LAT_NONE);
}

static void test_lat_bisects_down(void **state)
{
	struct lat_search l;
	uint64_t t = 0;
	lat_opts(450, 100000, 100.0, false); /* depths of 4 and less meet 450 us */
	start(&l, 32);
	assert_int_equal(window(&l, &t, queueing, 10), LAT_NONE); /* 1 -> 2 */
	assert_int_equal(window(&l, &t, queueing, 10), LAT_NONE); /* 2 -> 4 */
	assert_int_equal(window(&l, &t, queueing, 10), LAT_NONE); /* 4 -> 8 */
	assert_int_equal(l.depth, 8);
	/* At 8 the first slow I/O lowers it at once, halfway to 4: the queue drains. */
	assert_false(lat_search_io(&l, queueing(8)));
	assert_int_equal(l.depth, 6);
	assert_int_equal(l.high, 8);
	assert_false(lat_search_io(&l, queueing(8))); /* still in flight from 8: not judged */
	assert_int_equal(l.depth, 6);
	assert_int_equal(lat_search_check(&l, t, true), LAT_DRAIN);
	lat_search_window(&l, t);
	assert_false(lat_search_io(&l, queueing(6))); /* 6 -> 5 */
	assert_int_equal(lat_search_check(&l, t, true), LAT_DRAIN);
	lat_search_window(&l, t);
	assert_false(lat_search_io(&l, queueing(5))); /* 5 -> 4 */
	assert_int_equal(l.depth, 4);
	assert_int_equal(lat_search_check(&l, t, true), LAT_DRAIN);
	lat_search_window(&l, t);
	/* 4 passes and stays 4 (halfway to 5): the last window, then done at 4. */
	assert_int_equal(window(&l, &t, queueing, 10), LAT_FINAL);
	assert_int_equal(window(&l, &t, queueing, 10), LAT_DONE);
	assert_int_equal(l.depth, 4);
}

static void test_lat_percentile(void **state)
{
	struct lat_search l;
	uint64_t t = 0;
	lat_opts(100, 100000, 99.0, false);
	start(&l, 8);
	/* 1 slow I/O in 100 at 99%: passes. */
	for (int i = 0; i < 99; i++)
		assert_false(lat_search_io(&l, 50000));
	assert_false(lat_search_io(&l, 200000));
	t += l.window_ns;
	assert_int_equal(lat_search_check(&l, t, true), LAT_NONE);
	assert_int_equal(l.depth, 2);
	/* 2 in 100 fail it: back to 1 after a drain (no I/O lowers it by itself below 100%). */
	for (int i = 0; i < 98; i++)
		assert_false(lat_search_io(&l, 50000));
	assert_false(lat_search_io(&l, 200000));
	assert_false(lat_search_io(&l, 200000));
	assert_int_equal(l.depth, 2);
	t += l.window_ns;
	assert_int_equal(lat_search_check(&l, t, true), LAT_DRAIN);
	assert_int_equal(l.depth, 1);
	lat_search_window(&l, t);
	/* At depth 1 a failed window is judged again; nothing fails the job below 100%. */
	assert_false(lat_search_io(&l, 200000));
	t += l.window_ns;
	assert_int_equal(lat_search_check(&l, t, true), LAT_NONE);
	assert_int_equal(l.depth, 1);
	/* No I/O in a window: no verdict yet. */
	t += l.window_ns;
	assert_int_equal(lat_search_check(&l, t, true), LAT_NONE);
}

static void test_lat_depth1_fails_the_job(void **state)
{
	struct lat_search l;
	lat_opts(1, 100000, 100.0, false);
	start(&l, 8);
	assert_false(lat_search_io(&l, 1000)); /* 1 us: meets it */
	assert_true(lat_search_io(&l, 1001));
	assert_false(lat_search_io(&l, 5000)); /* said once */
}

static void test_lat_run_keeps_going(void **state)
{
	struct lat_search l;
	uint64_t t = 0;
	lat_opts(450, 100000, 100.0, true);
	start(&l, 32);
	for (int i = 0; i < 3; i++)
		window(&l, &t, queueing, 10);         /* 1 -> 8 */
	assert_false(lat_search_io(&l, queueing(8))); /* 8 -> 6 */
	lat_search_check(&l, t, true), lat_search_window(&l, t);
	assert_false(lat_search_io(&l, queueing(6))); /* 6 -> 5 */
	lat_search_check(&l, t, true), lat_search_window(&l, t);
	assert_false(lat_search_io(&l, queueing(5))); /* 5 -> 4 */
	lat_search_check(&l, t, true), lat_search_window(&l, t);
	assert_int_equal(l.depth, 4);
	assert_int_equal(l.high, 5);
	/* latency_run: no last run; after three passes just below 5, 5 is tried again. */
	assert_int_equal(window(&l, &t, queueing, 10), LAT_NONE);
	assert_int_equal(window(&l, &t, queueing, 10), LAT_NONE);
	assert_int_equal(l.depth, 4);
	assert_int_equal(window(&l, &t, queueing, 10), LAT_NONE);
	assert_int_equal(l.depth, 5);
	assert_false(l.final_run);
}

static void test_lat_off_and_ramp(void **state)
{
	struct lat_search l;
	lat_opts(0, 0, 100.0, false);
	lat_search_init(&l, &jo, 12, 0, 0);
	assert_false(l.on);
	assert_int_equal(l.depth, 12);
	assert_int_equal(lat_search_check(&l, 1000000000, true), LAT_NONE);
	/* ramp_time: the search starts again when the statistics do, as fio's. */
	uint64_t t = 0;
	lat_opts(500000, 100000, 100.0, false);
	lat_search_init(&l, &jo, 16, t, 0);
	for (int w = 0; w < 2; w++) { /* in the ramp: 1 -> 2 -> 4 */
		for (int i = 0; i < 10; i++)
			lat_search_io(&l, fast(l.depth));
		t += l.window_ns;
		assert_int_equal(lat_search_check(&l, t, false), LAT_NONE);
	}
	assert_int_equal(l.depth, 4);
	assert_int_equal(lat_search_check(&l, t, true), LAT_NONE);
	assert_int_equal(l.depth, 1);
	/* What a unit reports: the depth found, the options; without a target the depth in effect. */
	struct thread_stats ts = { .latency_depth = 6 };
	struct lat_result r;
	lat_target_report(&jo, 16, &ts, &r);
	assert_int_equal(r.depth, 6);
	assert_int_equal(r.target_ns, 500000000);
	assert_int_equal(r.window_us, 100000);
	lat_opts(0, 0, 100.0, false);
	lat_target_report(&jo, 16, &ts, &r);
	assert_int_equal(r.depth, 16);
	assert_int_equal(r.target_ns, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deviation_as_fio),
		cmocka_unit_test(test_slope),
		cmocka_unit_test(test_empty_window),
		cmocka_unit_test(test_lat_doubles_to_iodepth),
		cmocka_unit_test(test_lat_bisects_down),
		cmocka_unit_test(test_lat_percentile),
		cmocka_unit_test(test_lat_depth1_fails_the_job),
		cmocka_unit_test(test_lat_run_keeps_going),
		cmocka_unit_test(test_lat_off_and_ramp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
