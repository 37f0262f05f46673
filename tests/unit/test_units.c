/* Number formatting against strings fio 3.33 printed (../shared/reference/fio-3.33). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

static void escaped(const char *in, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	xml_escape(f, in);
	fclose(f);
	assert_string_equal(buf, want);
	free(buf);
}

/* Issue 24: what XML 1.0 cannot hold is replaced, the rest escaped or kept. */
static void test_xml_escape(void **state)
{
	(void)state;
	escaped("a<b>&\"c'", "a&lt;b&gt;&amp;&quot;c&#39;");
	escaped("tab\tnl\ncr\r", "tab\tnl\ncr\r");
	escaped("\001\033\037\177", "\xe2\x90\x81\xe2\x90\x9b\xe2\x90\x9f\xe2\x90\xa1"); /* U+2401 U+241B U+241F U+2421 */
	escaped("x\xffy\xc3", "x\xef\xbf\xbdy\xef\xbf\xbd");                              /* not UTF-8: U+FFFD */
	escaped("\xc2\x85\xef\xbf\xbe\xef\xbf\xbf", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"); /* C1, U+FFFE, U+FFFF */
	escaped("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xef\xbf\xbd", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xef\xbf\xbd");
	escaped("\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"); /* a surrogate: three stray bytes */
	escaped(NULL, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_num),
		cmocka_unit_test(test_share),
		cmocka_unit_test(test_pct_unit),
		cmocka_unit_test(test_xml_escape),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
