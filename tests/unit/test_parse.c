/* Option value parsing: sizes (fio 3.33's measured suffix rules), times, booleans,
 * integers and ranges. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/job/options.h"
#include "engines/engine.h"
#include "core/job/parse.h"

static uint64_t size_of(const char *s, unsigned base)
{
	uint64_t v = 0;
	assert_int_equal(parse_size(s, base, &v), 0);
	return v;
}

static void test_size_suffixes_base_1024(void **state)
{
	/* From ../shared/reference/fio-3.33/units/suffixes.txt */
	assert_int_equal(size_of("1k", 1024), 1024);
	assert_int_equal(size_of("1K", 1024), 1024);
	assert_int_equal(size_of("1kb", 1024), 1024);
	assert_int_equal(size_of("1KB", 1024), 1024);
	assert_int_equal(size_of("1ki", 1024), 1024);
	assert_int_equal(size_of("1kib", 1024), 1000);
	assert_int_equal(size_of("1KiB", 1024), 1000);
	assert_int_equal(size_of("1m", 1024), 1048576);
	assert_int_equal(size_of("1MB", 1024), 1048576);
	assert_int_equal(size_of("1MiB", 1024), 1000000);
	assert_int_equal(size_of("1000ki", 1024), 1024000);
	assert_int_equal(size_of("1g", 1024), 1073741824ULL);
	assert_int_equal(size_of("1GiB", 1024), 1000000000ULL);
	assert_int_equal(size_of("10g", 1024), 10737418240ULL);
	assert_int_equal(size_of("4096", 1024), 4096);
	assert_int_equal(size_of("0x1000", 1024), 4096);
	assert_int_equal(size_of("1t", 1024), 1099511627776ULL);
	assert_int_equal(size_of("1.5k", 1024), 1536);
}

static void test_size_suffixes_base_1000(void **state)
{
	assert_int_equal(size_of("1k", 1000), 1000);
	assert_int_equal(size_of("1KiB", 1000), 1024);
	assert_int_equal(size_of("1m", 1000), 1000000);
	assert_int_equal(size_of("1MiB", 1000), 1048576);
	assert_int_equal(size_of("1000ki", 1000), 1000000);
	assert_int_equal(size_of("1g", 1000), 1000000000ULL);
}

static void test_size_errors(void **state)
{
	uint64_t v;
	assert_int_equal(parse_size("abc", 1024, &v), -EINVAL);
	assert_int_equal(parse_size("", 1024, &v), -EINVAL);
	assert_int_equal(parse_size("-4k", 1024, &v), -EINVAL);
	assert_int_equal(parse_size("4q", 1024, &v), -EINVAL);
	assert_int_equal(parse_size("4kbb", 1024, &v), -EINVAL);
	assert_int_equal(parse_size("99999999999999999999", 1024, &v), -ERANGE);
	assert_int_equal(parse_size("17179869184g", 1024, &v), -ERANGE);
	assert_int_equal(parse_size("16e", 1024, &v), -ERANGE);
}

static void test_time(void **state)
{
	uint64_t us;
	assert_int_equal(parse_time_us("30", 1000000, &us), 0);
	assert_int_equal(us, 30000000ULL);
	assert_int_equal(parse_time_us("500ms", 1000000, &us), 0);
	assert_int_equal(us, 500000);
	assert_int_equal(parse_time_us("10us", 1000000, &us), 0);
	assert_int_equal(us, 10);
	assert_int_equal(parse_time_us("2m", 1000000, &us), 0);
	assert_int_equal(us, 120000000ULL);
	assert_int_equal(parse_time_us("1h", 1000000, &us), 0);
	assert_int_equal(us, 3600000000ULL);
	assert_int_equal(parse_time_us("3s", 1000000, &us), 0);
	assert_int_equal(us, 3000000);
	assert_int_equal(parse_time_us("7", 1000, &us), 0);
	assert_int_equal(us, 7000);
	assert_int_equal(parse_time_us("abc", 1000000, &us), -EINVAL);
	assert_int_equal(parse_time_us("5x", 1000000, &us), -EINVAL);
	assert_int_equal(parse_time_us("-1", 1000000, &us), -EINVAL);
	assert_int_equal(parse_time_us("99999999999999999d", 1000000, &us), -ERANGE);
	/* Fractions: a bare one keeps its whole part, as fio 3.33 (runtime=1.5 runs 1 s); with a
	 * unit the value as written; a bare one below 1 is refused (fio: 0, no limit). */
	assert_int_equal(parse_time_us("1.5", 1000000, &us), 0);
	assert_int_equal(us, 1000000);
	assert_int_equal(parse_time_us("2.9", 1000000, &us), 0);
	assert_int_equal(us, 2000000);
	assert_int_equal(parse_time_us("1.5m", 1000000, &us), 0);
	assert_int_equal(us, 90000000ULL);
	assert_int_equal(parse_time_us("0.25s", 1000000, &us), 0);
	assert_int_equal(us, 250000);
	assert_int_equal(parse_time_us("1.5", 1, &us), 0);
	assert_int_equal(us, 1);
	assert_int_equal(parse_time_us("0.5", 1000000, &us), -EDOM);
	assert_int_equal(parse_time_us("0.0", 1000000, &us), 0);
	assert_int_equal(us, 0);
	assert_int_equal(parse_time_us("1.", 1000000, &us), -EINVAL);
	assert_int_equal(parse_time_us("1.5.5", 1000000, &us), -EINVAL);
	/* Issue 24: exact to the microsecond, and at most TIME_MAX_US (its ns fit in 63 bits). */
	assert_int_equal(parse_time_us("1.999999999d", 1000000, &us), 0);
	assert_int_equal(us, 172799999913ULL); /* 1.999999999 * 86400e6, rounded down */
	assert_int_equal(parse_time_us("0.0000000001d", 1000000, &us), 0);
	assert_int_equal(us, 8);
	assert_int_equal(parse_time_us("9223372036854775us", 1000000, &us), 0);
	assert_int_equal(us, TIME_MAX_US);
	assert_int_equal(parse_time_us("9223372036854776us", 1000000, &us), -ERANGE);
	assert_int_equal(parse_time_us("18446744073709551615", 1, &us), -ERANGE);
	assert_int_equal(parse_time_us("9223372036854775808", 1, &us), -ERANGE);
	assert_int_equal(parse_time_us("106751d", 1000000, &us), 0);
	assert_int_equal(us, 106751ULL * 86400000000ULL);
	assert_int_equal(parse_time_us("106752d", 1000000, &us), -ERANGE);
}

/* Issue 24: a fraction is exact (rounded down to a byte) up to 18 digits, refused past them. */
static void test_size_fractions_exact(void **state)
{
	assert_int_equal(size_of("1.0000000001e", 1024), (1ULL << 60) + 115292150ULL);
	assert_int_equal(size_of("7.999999999999999999e", 1024), (8ULL << 60) - 2);
	assert_int_equal(size_of("1.5000000000000000000000k", 1024), 1536); /* trailing zeros */
	uint64_t v;
	assert_int_equal(parse_size("1.0000000000000000001k", 1024, &v), -EINVAL);
	assert_int_equal(parse_size("15.9999999999999999999e", 1024, &v), -EINVAL);
	assert_int_equal(parse_size("15.999999999999999999e", 1024, &v), 0);
	assert_int_equal(v, UINT64_MAX - 1);
	assert_int_equal(parse_file_size("7.999999999999999999e", 1024, &v), 0);
	assert_int_equal(parse_file_size("8e", 1024, &v), -EFBIG);
}

static void test_bool(void **state)
{
	bool b;
	const char *yes[] = { "1", "true", "yes", "on", "TRUE", NULL, "" };
	const char *no[] = { "0", "false", "no", "off" };
	for (size_t i = 0; i < 7; i++) {
		b = false;
		assert_int_equal(parse_bool(yes[i], &b), 0);
		assert_true(b);
	}
	for (size_t i = 0; i < 4; i++) {
		b = true;
		assert_int_equal(parse_bool(no[i], &b), 0);
		assert_false(b);
	}
	assert_int_equal(parse_bool("2", &b), -EINVAL);
	assert_int_equal(parse_bool("maybe", &b), -EINVAL);
}

static void test_int_and_range(void **state)
{
	int64_t v;
	uint64_t lo, hi;
	assert_int_equal(parse_int("32", 1, 65536, &v), 0);
	assert_int_equal(v, 32);
	assert_int_equal(parse_int("-1", 1, 65536, &v), -ERANGE);
	assert_int_equal(parse_int("0", 1, 65536, &v), -ERANGE);
	assert_int_equal(parse_int("150", 0, 100, &v), -ERANGE);
	assert_int_equal(parse_int("12abc", 0, 100, &v), -EINVAL);
	assert_int_equal(parse_int("", 0, 100, &v), -EINVAL);
	assert_int_equal(parse_size_range("4k-64k", 1024, &lo, &hi), 0);
	assert_int_equal(lo, 4096);
	assert_int_equal(hi, 65536);
	assert_int_equal(parse_size_range("8k", 1024, &lo, &hi), 0);
	assert_int_equal(lo, 8192);
	assert_int_equal(hi, 8192);
	assert_int_equal(parse_size_range("64k:4k", 1024, &lo, &hi), -EDOM);
	assert_int_equal(parse_size_range("4k-16e", 1024, &lo, &hi), -ERANGE);
}

/* As fio: decimal unless 0x ("010" is ten, not eight). */
static void test_decimal_numbers(void **state)
{
	int64_t i;
	assert_int_equal(size_of("010m", 1024), 10485760);
	assert_int_equal(size_of("0X10", 1024), 16);
	assert_int_equal(parse_int("010", 0, 100, &i), 0);
	assert_int_equal(i, 10);
	assert_int_equal(parse_int("0x10", 0, 100, &i), 0);
	assert_int_equal(i, 16);
	assert_int_equal(parse_int("-010", -100, 100, &i), 0);
	assert_int_equal(i, -10);
}

/* size=, offset= &c: what a file can hold (off_t), INT64_MAX at most. */
static void test_file_sizes(void **state)
{
	uint64_t v;
	assert_int_equal(parse_file_size("7e", 1024, &v), 0);
	assert_int_equal(v, 7ULL << 60);
	assert_int_equal(parse_file_size("9223372036854775807", 1024, &v), 0);
	assert_int_equal(parse_file_size("9223372036854775808", 1024, &v), -EFBIG);
	assert_int_equal(parse_file_size("8e", 1024, &v), -EFBIG);
	assert_int_equal(parse_file_size("16e", 1024, &v), -ERANGE);
	assert_int_equal(parse_file_size("", 1024, &v), -EINVAL);
}

/* Each refusal names the reason: out of range, not a size, a value cut short. */
static void test_size_messages(void **state)
{
	char e[512], big[1000];
	parse_size_error(e, sizeof(e), "16e", -ERANGE);
	assert_non_null(strstr(e, "'16e' does not fit in 64 bits (out of range)"));
	parse_size_error(e, sizeof(e), "9e", -EFBIG);
	assert_non_null(strstr(e, "'9e' is out of range"));
	memset(big, '9', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	parse_size_error(e, sizeof(e), big, -ERANGE);
	assert_true(strlen(e) < 300);
	assert_non_null(strstr(e, "...' does not fit in 64 bits (out of range)"));
	struct job_opts o;
	options_defaults(&o);
	assert_int_equal(option_set(&o, option_find("size"), "9e", e, sizeof(e)), -EFBIG);
	assert_non_null(strstr(e, "'9e' is out of range"));
	assert_int_equal(option_set(&o, option_find("io_size"), "9e", e, sizeof(e)), -EFBIG);
	assert_int_equal(option_set(&o, option_find("offset_increment"), "8e", e, sizeof(e)), -EFBIG);
	assert_int_equal(option_set(&o, option_find("filesize"), "4k-9e", e, sizeof(e)), -EFBIG);
	assert_int_equal(option_set(&o, option_find("filesize"), "16e", e, sizeof(e)), -ERANGE);
	assert_non_null(strstr(e, "out of range"));
	assert_int_equal(option_set(&o, option_find("size"), "7e", e, sizeof(e)), 0);
}

/* An empty value is refused for every option that is not text (fio refuses bs= too). */
static void test_empty_values(void **state)
{
	static const char *const refused[] = { "bs", "size", "offset", "filesize", "io_size", "iodepth",
					       "direct", "runtime", "rw", "percentile_list", "verify_interval",
					       "rate", "bsrange", "bssplit", "random_distribution" };
	struct job_opts o;
	char err[256];
	options_defaults(&o);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		err[0] = '\0';
		assert_int_equal(option_set(&o, option_find(refused[i]), "", err, sizeof(err)), -EINVAL);
		assert_string_equal(err, "the value is empty");
		assert_int_equal(option_set(&o, option_find(refused[i]), "  ", err, sizeof(err)), -EINVAL);
	}
	assert_int_equal(o.bs[DDIR_READ], 4096);
	assert_int_equal(option_set(&o, option_find("description"), "", err, sizeof(err)), 0);
	assert_int_equal(option_set(&o, option_find("filename"), "", err, sizeof(err)), 0);
	assert_int_equal(option_set(&o, option_find("write_bw_log"), "", err, sizeof(err)), 0);
	assert_int_equal(option_set(&o, option_find("bs"), ",8k", err, sizeof(err)), 0);
	assert_int_equal(o.bs[DDIR_WRITE], 8192);
}

/* Limits that a long or odd value used to get around: no silent truncation, no NaN. */
static void test_hostile_values(void **state)
{
	struct job_opts o;
	char err[256], v[2048];
	options_defaults(&o);
	assert_int_equal(option_set(&o, option_find("size"), "00000000000000000000000000000050%", err,
				    sizeof(err)), -ERANGE);
	assert_int_equal(option_set(&o, option_find("size"), "50%", err, sizeof(err)), 0);
	assert_int_equal(option_set(&o, option_find("percentile_list"), "nan:50", err, sizeof(err)), -EINVAL);
	assert_int_equal(option_set(&o, option_find("random_distribution"), "zipf:nan", err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(option_set(&o, option_find("random_distribution"), "normal:10:nan", err,
				    sizeof(err)), -EINVAL);
	/* "0,0,0,...,7": the 7 past 1023 characters was dropped without a word */
	size_t n = 0;
	while (n < 1100)
		n += (size_t)sprintf(v + n, "0,");
	sprintf(v + n, "7");
	assert_int_equal(option_set(&o, option_find("cpus_allowed"), v, err, sizeof(err)), -EINVAL);
	memset(v, '0', 600);
	sprintf(v + 600, "50");
	assert_int_equal(option_set(&o, option_find("percentile_list"), v, err, sizeof(err)), -EINVAL);
	memset(v, '0', 100);
	sprintf(v + 100, "1s");
	assert_int_equal(option_set(&o, option_find("startdelay"), v, err, sizeof(err)), -EINVAL);
}

static void test_option_table(void **state)
{
	struct job_opts o;
	char err[256];
	options_defaults(&o);
	assert_int_equal(o.bs[DDIR_READ], 4096);
	assert_int_equal(o.iodepth, 1);
	assert_int_equal(o.rwmixread, 50);
	assert_string_equal(o.ioengine, "psync");
	assert_int_equal(option_set(&o, option_find("bs"), "4k,64k", err, sizeof(err)), 0);
	assert_int_equal(o.bs[DDIR_READ], 4096);
	assert_int_equal(o.bs[DDIR_WRITE], 65536);
	assert_int_equal(o.bs[DDIR_TRIM], 65536);
	assert_int_equal(option_set(&o, option_find("rwmixwrite"), "30", err, sizeof(err)), 0);
	assert_int_equal(o.rwmixread, 70);
	assert_int_equal(option_set(&o, option_find("readwrite"), "randrw", err, sizeof(err)), 0);
	assert_int_equal(o.rw, RW_READ | RW_WRITE | RW_RANDOM);
	assert_int_equal(option_set(&o, option_find("rw"), "sideways", err, sizeof(err)), -EINVAL);
	assert_int_equal(option_set(&o, option_find("iodepth"), "-1", err, sizeof(err)), -ERANGE);
	assert_int_equal(option_set(&o, option_find("numjobs"), "0", err, sizeof(err)), -ERANGE);
	assert_int_equal(option_set(&o, option_find("bs"), "abc", err, sizeof(err)), -EINVAL);
	assert_int_equal(option_set(&o, option_find("runtime"), "1000", err, sizeof(err)), 0);
	assert_int_equal(o.runtime_us, 1000000000ULL);
	assert_int_equal(option_set(&o, option_find("time_based"), NULL, err, sizeof(err)), 0);
	assert_true(o.time_based);
	assert_null(option_find("no_such_option"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_suffixes_base_1024),
		cmocka_unit_test(test_size_suffixes_base_1000),
		cmocka_unit_test(test_size_errors),
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_size_fractions_exact),
		cmocka_unit_test(test_bool),
		cmocka_unit_test(test_int_and_range),
		cmocka_unit_test(test_option_table),
		cmocka_unit_test(test_decimal_numbers),
		cmocka_unit_test(test_file_sizes),
		cmocka_unit_test(test_size_messages),
		cmocka_unit_test(test_empty_values),
		cmocka_unit_test(test_hostile_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
