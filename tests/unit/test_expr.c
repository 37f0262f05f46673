/* Keyword substitution and arithmetic in job-file values. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/expr.h"
#include "core/files.h"

static const struct sys_values sv = { .ncpus = 4, .pagesize = 4096, .mb_memory = 1024 };

static void expect(const char *in, const char *want)
{
	char out[256];
	assert_int_equal(expr_substitute(in, &sv, out, sizeof(out)), 0);
	assert_string_equal(out, want);
}

static void test_eval(void **state)
{
	int64_t v;
	assert_int_equal(expr_eval("1+2*3", &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(expr_eval("(1+2)*3", &v), 0);
	assert_int_equal(v, 9);
	assert_int_equal(expr_eval(" 10 / 3 ", &v), 0);
	assert_int_equal(v, 3);
	assert_int_equal(expr_eval("10 % 4 - -2", &v), 0);
	assert_int_equal(v, 4);
	assert_int_equal(expr_eval("1/0", &v), -EDOM);
	assert_int_equal(expr_eval("(1+2", &v), -EINVAL);
	assert_int_equal(expr_eval("2*x", &v), -EINVAL);
	assert_int_equal(expr_eval("9223372036854775807*2", &v), -ERANGE);
}

static void test_substitute(void **state)
{
	expect("$ncpus", "4");
	expect("$ncpus*2", "8");
	expect("$pagesize", "4096");
	expect("8*$mb_memory", "8192");
	expect("($ncpus*2)m", "8m");
	expect("(1+1)g", "2g");
	expect("4k", "4k");                  /* no keyword: left alone */
	expect("/data/file", "/data/file");
	expect("(not math)", "(not math)");
	char out[64];
	assert_int_equal(expr_substitute("$ncpus/0", &sv, out, sizeof(out)), -EDOM);
}

static void test_filename_format(void **state)
{
	char out[64];
	assert_int_equal(files_format_name("$jobname.$jobnum.$filenum", "job", 2, 7, out, sizeof(out)), 0);
	assert_string_equal(out, "job.2.7");
	assert_int_equal(files_format_name("a/b/$filenum", "job", 0, 3, out, sizeof(out)), 0);
	assert_string_equal(out, "a/b/3");
	assert_int_equal(files_format_name("$jobname$jobname$jobname", "0123456789012345678901", 0, 0, out,
					   sizeof(out)), -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eval),
		cmocka_unit_test(test_substitute),
		cmocka_unit_test(test_filename_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
