/* Issue 16's I/O options: parsing (ignore_error, sync_file_range, per-direction
 * distributions and max_latency, file_service_type), fio's rule for which errors a job goes on
 * after, and flow control's shares. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/worker/flow.h"
#include "core/job/options.h"
#include "engines/engine.h"

static int set(struct job_opts *o, const char *name, const char *v)
{
	char err[256];
	return option_set(o, option_find(name), v, err, sizeof(err));
}

static void test_ignore_error_lists(void **state)
{
	struct job_opts o;
	options_defaults(&o);
	assert_int_equal(set(&o, "ignore_error", "EAGAIN,ENOSPC:122"), 0);
	assert_int_equal(o.io.nignore[IOERR_READ], 1);
	assert_int_equal(o.io.ignore_err[IOERR_READ][0], EAGAIN);
	assert_int_equal(o.io.nignore[IOERR_WRITE], 2);
	assert_int_equal(o.io.ignore_err[IOERR_WRITE][0], ENOSPC);
	assert_int_equal(o.io.ignore_err[IOERR_WRITE][1], 122);
	assert_int_equal(o.io.nignore[IOERR_VERIFY], 0);
	assert_int_equal(set(&o, "ignore_error", ",,EILSEQ"), 0);
	assert_int_equal(o.io.nignore[IOERR_VERIFY], 1);
	assert_int_equal(o.io.nignore[IOERR_WRITE], 2); /* an empty list keeps the one given before */
	assert_int_equal(set(&o, "ignore_error", "EBOGUS"), -EINVAL);
	assert_int_equal(set(&o, "ignore_error", ",,,EIO"), -EINVAL);
	assert_int_equal(set(&o, "ignore_error", "0"), -EINVAL);
	assert_int_equal(set(&o, "ignore_error", "4096"), -EINVAL);
}

/* fio's rule: continue_on_error must cover the type, and the errno be on its list (EIO and
 * EILSEQ unless ignore_error gives one). */
static void test_tolerated(void **state)
{
	struct job_opts o;
	options_defaults(&o);
	assert_false(ioerr_tolerated(&o, IOERR_READ, EIO));
	assert_int_equal(set(&o, "continue_on_error", "read"), 0);
	assert_true(ioerr_tolerated(&o, IOERR_READ, EIO));
	assert_true(ioerr_tolerated(&o, IOERR_READ, EILSEQ));
	assert_false(ioerr_tolerated(&o, IOERR_READ, EINVAL));
	assert_false(ioerr_tolerated(&o, IOERR_WRITE, EIO));
	assert_int_equal(set(&o, "ignore_error", "EINVAL"), 0);
	assert_true(ioerr_tolerated(&o, IOERR_READ, EINVAL));
	assert_false(ioerr_tolerated(&o, IOERR_READ, EIO)); /* the list replaces the default one */
	assert_true(ioerr_ignored(&o, IOERR_READ, EINVAL));
	assert_string_equal(ioerr_name(ENOSPC), "ENOSPC");
}

static void test_sync_file_range(void **state)
{
	struct job_opts o;
	options_defaults(&o);
	assert_int_equal(set(&o, "sync_file_range", "wait_before,write:8"), 0);
	assert_int_equal(o.io.sfr_flags, SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE);
	assert_int_equal(o.io.sfr_nr, 8);
	assert_int_equal(set(&o, "sync_file_range", "wait_after"), 0);
	assert_int_equal(o.io.sfr_nr, 1);
	assert_int_equal(set(&o, "sync_file_range", "write:0"), -EINVAL);
	assert_int_equal(set(&o, "sync_file_range", "flush:4"), -EINVAL);
	assert_int_equal(set(&o, "sync_file_range", ":4"), -EINVAL);
}

static void test_per_direction(void **state)
{
	struct job_opts o;
	options_defaults(&o);
	assert_int_equal(set(&o, "random_distribution", "zipf:1.2,pareto:0.3"), 0);
	assert_int_equal(o.dist[DDIR_READ].type, DIST_ZIPF);
	assert_int_equal(o.dist[DDIR_WRITE].type, DIST_PARETO);
	assert_int_equal(o.dist[DDIR_TRIM].type, DIST_PARETO); /* trim takes write's, as bs= */
	assert_true(o.dist[DDIR_WRITE].param > 0.29 && o.dist[DDIR_WRITE].param < 0.31);
	assert_int_equal(set(&o, "random_distribution", "zoned:60/10:40/90,20/50:80/50"), 0);
	assert_int_equal(o.dist[DDIR_WRITE].type, DIST_ZONED); /* digits continue the kind before */
	assert_int_equal(o.dist[DDIR_WRITE].zones[0].access_pct, 20);
	assert_int_equal(set(&o, "random_distribution", "normal:0"), 0); /* fio allows 0 */
	assert_int_equal(set(&o, "random_distribution", "normal:100"), -EINVAL);
	assert_int_equal(set(&o, "random_distribution", "a,b,c,d"), -EINVAL);
	assert_int_equal(set(&o, "max_latency", "1ms,500"), 0);
	assert_int_equal(o.io.max_latency_us[DDIR_READ], 1000);
	assert_int_equal(o.io.max_latency_us[DDIR_WRITE], 500);
	assert_int_equal(set(&o, "max_latency", "1ns"), 0);
	assert_int_equal(o.io.max_latency_us[DDIR_READ], 1); /* at least a microsecond */
	assert_int_equal(set(&o, "ba", "8k,16k"), 0);
	assert_int_equal(o.io.ba[DDIR_WRITE], 16384);
	assert_int_equal(set(&o, "blockalign", "0"), -EINVAL);
}

static void test_file_service(void **state)
{
	struct job_opts o;
	options_defaults(&o);
	assert_int_equal(set(&o, "file_service_type", "zipf"), 0);
	assert_int_equal(o.file_service, FS_ZIPF);
	assert_true(o.io.fs_param > 1.09 && o.io.fs_param < 1.11); /* fio's default theta */
	assert_int_equal(set(&o, "file_service_type", "pareto"), 0);
	assert_true(o.io.fs_param > 0.19 && o.io.fs_param < 0.21);
	assert_int_equal(set(&o, "file_service_type", "gauss:5:0.25"), 0);
	assert_int_equal(o.file_service, FS_GAUSS);
	assert_true(o.io.fs_center > 0.24 && o.io.fs_center < 0.26);
	assert_int_equal(set(&o, "file_service_type", "random:4"), 0);
	assert_int_equal(o.file_service_nr, 4);
	assert_int_equal(set(&o, "file_service_type", "zipf:1"), -EINVAL);
	assert_int_equal(set(&o, "file_service_type", "lumpy"), -EINVAL);
}

static void test_flow_shares(void **state)
{
	struct flow_table t;
	uint64_t a = 0, b = 0;
	flow_table_init(&t);
	struct flow *fa = flow_join(&t, 0, 3, &a), *fb = flow_join(&t, 0, 1, &b);
	assert_ptr_equal(fa, fb);
	/* each issues whenever it may: the counts follow the weights */
	for (int i = 0; i < 4000; i++) {
		flow_may_issue(fa, 3, &a);
		flow_may_issue(fb, 1, &b);
	}
	assert_true(a > 2 * b && a < 4 * b);
	flow_leave(&t, fa, 3, a);
	for (int i = 0; i < 100; i++) /* alone now: never held back */
		assert_true(flow_may_issue(fb, 1, &b));
	flow_leave(&t, fb, 1, b);
	assert_int_equal(atomic_load(&fb->weight), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ignore_error_lists), cmocka_unit_test(test_tolerated),
		cmocka_unit_test(test_sync_file_range),	   cmocka_unit_test(test_per_direction),
		cmocka_unit_test(test_file_service),	   cmocka_unit_test(test_flow_shares),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
