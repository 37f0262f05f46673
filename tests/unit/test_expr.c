/* Keyword substitution and arithmetic in job-file values. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/job/expr.h"
#include "core/plan/files.h"

static const struct sys_values sv = { .ncpus = 4, .pagesize = 4096, .mb_memory = 1024 };

static void expect_as(const char *in, bool numeric, const char *want)
{
	char *out = NULL;
	assert_int_equal(expr_substitute(in, &sv, numeric, &out), 0);
	assert_string_equal(out, want);
	free(out);
}

static void expect(const char *in, const char *want)
{
	expect_as(in, true, want);
}

static int subst_err(const char *in, bool numeric)
{
	char *out = NULL;
	int ret = expr_substitute(in, &sv, numeric, &out);
	if (!ret)
		free(out);
	return ret;
}

/* "((((...1...))))": n levels. */
static char *nested(size_t n)
{
	char *s = malloc(2 * n + 2);
	memset(s, '(', n);
	s[n] = '1';
	memset(s + n + 1, ')', n);
	s[2 * n + 1] = '\0';
	return s;
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

/* Overflow is an error, never a trap (INT64_MIN / -1 is SIGFPE on x86) or a wrap. */
static void test_overflow(void **state)
{
	int64_t v;
	assert_int_equal(expr_eval("(-9223372036854775807-1)/-1", &v), -ERANGE);
	assert_int_equal(expr_eval("(-9223372036854775807-1)%-1", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(expr_eval("(-9223372036854775807-1)/1", &v), 0);
	assert_true(v == INT64_MIN);
	assert_int_equal(expr_eval("-(-9223372036854775807-1)", &v), -ERANGE);
	assert_int_equal(expr_eval("9223372036854775807+1", &v), -ERANGE);
	assert_int_equal(expr_eval("-9223372036854775807-2", &v), -ERANGE);
	assert_int_equal(expr_eval("9223372036854775808", &v), -ERANGE);
	assert_int_equal(expr_eval("9223372036854775807", &v), 0);
	assert_int_equal(expr_eval("7 % -1", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(expr_eval("7 / -1", &v), 0);
	assert_int_equal(v, -7);
	assert_int_equal(expr_eval("-7 % 3", &v), 0);
	assert_int_equal(v, -1);
	/* the first error stands: a division by the overflowed value does not run */
	assert_int_equal(expr_eval("1/(9223372036854775807*2)", &v), -ERANGE);
	assert_string_equal(expr_why(-ERANGE), "overflow");
	assert_string_equal(expr_why(-EDOM), "division by zero");
}

/* Nesting is limited (the recursion follows it); a long flat expression is fine. */
static void test_depth_and_length(void **state)
{
	int64_t v;
	char *s = nested(EXPR_MAX_DEPTH);
	assert_int_equal(expr_eval(s, &v), 0);
	assert_int_equal(v, 1);
	free(s);
	s = nested(EXPR_MAX_DEPTH + 1);
	assert_int_equal(expr_eval(s, &v), -ELOOP);
	free(s);
	s = nested(100000);
	assert_int_equal(expr_eval(s, &v), -ELOOP);
	assert_int_equal(subst_err(s, true), -ELOOP);
	free(s);
	assert_non_null(strstr(expr_why(-ELOOP), "too deeply nested"));
	char minus[200];
	memset(minus, '-', 100);
	strcpy(minus + 100, "1");
	assert_int_equal(expr_eval(minus, &v), -ELOOP);
	assert_int_equal(expr_eval(minus + 100 - EXPR_MAX_DEPTH, &v), 0);
	assert_int_equal(v, 1); /* an even number of minus signs */
	size_t n = 200000;
	s = malloc(2 * n + 3);
	s[0] = '(';
	for (size_t i = 0; i < n; i++)
		memcpy(s + 1 + 2 * i, i ? "+1" : " 1", 2);
	strcpy(s + 1 + 2 * n, ")");
	assert_int_equal(expr_eval(s, &v), 0);
	assert_int_equal(v, (int64_t)n);
	char *out = NULL;
	assert_int_equal(expr_substitute(s, &sv, true, &out), 0);
	assert_string_equal(out, "200000");
	free(out);
	free(s);
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
	assert_int_equal(subst_err("$ncpus/0", true), -EDOM);
	assert_int_equal(subst_err("$ncpus/0", false), -EDOM);
	assert_int_equal(subst_err("($ncpus", true), -EINVAL);
	assert_int_equal(subst_err("($ncpus)9", true), -EINVAL);
	/* Without keywords: a numeric option's "(...)" is evaluated, and its overflow is an
	 * error; text options (name=, filename=) are left as they are, as fio does. */
	expect("(1+2)", "3");
	assert_int_equal(subst_err("((-9223372036854775807-1)/-1)", true), -ERANGE);
	assert_int_equal(subst_err("(1/0)", true), -EDOM);
	expect_as("(1+2)", false, "(1+2)");
	expect_as("(1/0)", false, "(1/0)");
	expect_as("($ncpus+2)", false, "6");
	expect("(1)kib", "1kib");
	/* keywords repeated: the result grows, no fixed buffer */
	char *many = malloc(6 * 10000 + 1), *out = NULL;
	for (int i = 0; i < 10000; i++)
		memcpy(many + 6 * i, "$ncpus", 6);
	many[6 * 10000] = '\0';
	assert_int_equal(expr_substitute(many, &sv, false, &out), 0);
	assert_int_equal(strlen(out), 10000);
	free(out);
	free(many);
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
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_depth_and_length),
		cmocka_unit_test(test_filename_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
