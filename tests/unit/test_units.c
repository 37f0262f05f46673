/* Number formatting against strings fio 3.33 printed (../shared/reference/fio-3.33). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "report/report.h"

static void expect(uint64_t v, int maxlen, bool iec, enum num_unit u, const char *want)
{
	char buf[64];
	assert_string_equal(fmt_num(buf, sizeof(buf), v, maxlen, iec, u), want);
}

static void test_fmt_num(void **state)
{
	expect(4096, 4, true, UNIT_BYTE, "4096B");
	expect(4194304, 4, true, UNIT_BYTE, "4096KiB");
	expect(16384, 4, true, UNIT_BYTE, "16.0KiB");
	expect(65536, 4, true, UNIT_BYTE, "64.0KiB");
	expect(8192, 4, true, UNIT_BYTE, "8192B");
	expect(33344512, 4, true, UNIT_BYTE, "31.8MiB");
	expect(16777216, 4, true, UNIT_BYTE, "16.0MiB");
	expect(4073, 4, false, UNIT_NONE, "4073");
	expect(39634, 4, false, UNIT_NONE, "39.6k");
	expect(8192000, 4, false, UNIT_NONE, "8192k");
	expect(5352400, 6, false, UNIT_NONE, "5352.4k");
	expect(391, 6, false, UNIT_NONE, "391");
	expect(131072, 4, false, UNIT_BYTE, "131kB");
	expect(162529280, 4, true, UNIT_BYTE_PER_SEC, "155MiB/s");
	expect(162529280, 4, false, UNIT_BYTE_PER_SEC, "163MB/s");
	expect(66794496, 4, true, UNIT_BYTE, "63.7MiB");
	expect(66794496, 4, false, UNIT_BYTE, "66.8MB");
}

static void test_share(void **state)
{
	assert_true(share_pct(0, 10, 0.1) == 0.0);
	assert_true(share_pct(1, 100000, 0.1) == 0.1);
	assert_true(share_pct(5, 10, 0.1) == 50.0);
	assert_true(share_pct(1, 0, 0.1) == 0.0);
}

/* fio 3.33's percentile units, from blocks it printed: act's reads (1032 ns .. 63.7 ms: nsec),
 * tiobench's writes (49 .. 172 us: usec), null's (40 ns ..: nsec). */
static void test_pct_unit(void **state)
{
	uint64_t div;
	assert_int_equal(pct_unit(1032, 63700992, &div), 0);
	assert_int_equal(div, 1);
	assert_int_equal(pct_unit(49152, 173056, &div), 1);
	assert_int_equal(div, 1000);
	assert_int_equal(pct_unit(40, 60, &div), 0);
	assert_int_equal(pct_unit(2001, 99999, &div), 0);
	assert_int_equal(pct_unit(2001, 100000, &div), 1);
	assert_int_equal(pct_unit(2000, 1000000, &div), 0);
	assert_int_equal(pct_unit(2000001, 99999001, &div), 2);
	assert_int_equal(div, 1000000);
	assert_int_equal(pct_unit(2000000, 500000000, &div), 1);
	assert_int_equal(pct_unit(3000000, 99999000, &div), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_num),
		cmocka_unit_test(test_share),
		cmocka_unit_test(test_pct_unit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
