/* Steady state's criteria (fio's: the largest deviation from the window's mean, the
 * least-squares slope, each absolute or as a percentage of the mean) on the windows fio
 * 3.33 itself judged (the figures in its JSON output). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/steadystate.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deviation_as_fio),
		cmocka_unit_test(test_slope),
		cmocka_unit_test(test_empty_window),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
