/* --debug's value (core/lib/debug.c) and the ETA line's overwrite and newline (report/eta.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/lib/debug.h"
#include "report/report.h"

static int parse(const char *spec, struct debug_opts *d)
{
	memset(d, 0, sizeof(*d));
	d->job = -1;
	FILE *null = fopen("/dev/null", "w");
	int ret = debug_parse(spec, d, null, true);
	fclose(null);
	return ret;
}

static void test_categories(void **state)
{
	struct debug_opts d;
	assert_int_equal(parse("io,file", &d), DEBUG_SET);
	assert_int_equal(d.mask, DBG_BIT(DBG_IO) | DBG_BIT(DBG_FILE));
	assert_int_equal(d.job, -1);
	assert_int_equal(parse("all", &d), DEBUG_SET);
	assert_int_equal(d.mask, DBG_BIT(DBG_NR) - 1);
	assert_int_equal(parse("help", &d), DEBUG_HELP);
	assert_int_equal(parse("?", &d), DEBUG_HELP);
	assert_true(parse("io,nosuch", &d) < 0);
	assert_true(parse("", &d) < 0);
}

static void test_job_filter(void **state)
{
	struct debug_opts d;
	assert_int_equal(parse("io,job:2", &d), DEBUG_SET);
	assert_int_equal(d.job, 2);
	assert_true(debug_on(debug_for_clone(&d, 2), DBG_IO));
	assert_false(debug_on(debug_for_clone(&d, 1), DBG_IO));
	assert_true(parse("job:", &d) < 0);
	assert_true(parse("job:x", &d) < 0);
	assert_true(parse("job:-1", &d) < 0);
	assert_int_equal(parse("parse", &d), DEBUG_SET); /* run-wide lines stay for every clone */
	d.job = 0;
	assert_true(debug_on(debug_for_clone(&d, 5), DBG_PARSE));
}

/* What report_eta printed, into buf. */
static int eta(char *buf, size_t len, const struct run_progress *p, int prev, bool cr, bool nl)
{
	FILE *f = fmemopen(buf, len, "w");
	int n = report_eta(f, p, prev, cr, nl);
	fclose(f);
	return n;
}

static void test_eta_line(void **state)
{
	struct run_progress p = { .running = 1, .total = 1, .pct_done = 50.0, .eta_s = 3, .bw = { 20971520 },
				  .iops = { 5120 } };
	strcpy(p.states, "R");
	char buf[512];
	const char *want = "Jobs: 1 (f=1): [R(1)][50.0%][r=20.0MiB/s][r=5120 IOPS][eta 00m:03s]";
	int n = eta(buf, sizeof(buf), &p, 0, false, true);
	assert_int_equal(n, (int)strlen(want));
	assert_true(!strncmp(buf, want, strlen(want)) && !strcmp(buf + strlen(want), "\n"));
	/* Overwriting a longer line: a carriage return first, spaces over the rest, no codes. */
	n = eta(buf, sizeof(buf), &p, n + 5, true, false);
	assert_int_equal(buf[0], '\r');
	assert_int_equal(strlen(buf), 1 + strlen(want) + 5);
	assert_string_equal(buf + 1 + strlen(want), "     ");
	assert_null(strchr(buf, '\033'));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_categories),
		cmocka_unit_test(test_job_filter),
		cmocka_unit_test(test_eta_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
