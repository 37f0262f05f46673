/* The watcher's rule for stop signals (core/lib/signals.c signals_decide): the first stops; a
 * repeat from the same sender within a second is taken as the same request (timeout(1),
 * kubectl and systemd signal the process, then its group); any other second one warns,
 * or exits while the results are being written; a third exits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/lib/clock.h"
#include "core/lib/signals.h"

static void test_repeat_from_same_sender(void **state)
{
	struct signal_watch sw = { 0 };
	assert_int_equal(signals_decide(&sw, 100, 5 * NS_PER_SEC), SIG_ACT_STOP);
	assert_int_equal(signals_decide(&sw, 100, 5 * NS_PER_SEC + 2 * NS_PER_MS), SIG_ACT_ABSORB);
	assert_int_equal(signals_decide(&sw, 100, 5 * NS_PER_SEC + 3 * NS_PER_MS), SIG_ACT_EXIT);
}

static void test_repeat_while_reporting(void **state)
{
	struct signal_watch sw = { 0 };
	assert_int_equal(signals_decide(&sw, 100, NS_PER_SEC), SIG_ACT_STOP);
	atomic_store(&sw.reporting, true);
	/* timeout's group signal while the results are written: still absorbed */
	assert_int_equal(signals_decide(&sw, 100, NS_PER_SEC + 500 * NS_PER_MS), SIG_ACT_ABSORB);
	struct signal_watch sw2 = { 0 };
	assert_int_equal(signals_decide(&sw2, 100, NS_PER_SEC), SIG_ACT_STOP);
	atomic_store(&sw2.reporting, true);
	assert_int_equal(signals_decide(&sw2, 200, NS_PER_SEC + 1), SIG_ACT_EXIT);
}

static void test_second_from_elsewhere_or_later(void **state)
{
	struct signal_watch sw = { 0 };
	assert_int_equal(signals_decide(&sw, 100, NS_PER_SEC), SIG_ACT_STOP);
	assert_int_equal(signals_decide(&sw, 200, NS_PER_SEC + 1), SIG_ACT_WARN);
	assert_int_equal(signals_decide(&sw, 100, NS_PER_SEC + 2), SIG_ACT_EXIT);
	struct signal_watch late = { 0 };
	assert_int_equal(signals_decide(&late, 100, NS_PER_SEC), SIG_ACT_STOP);
	assert_int_equal(signals_decide(&late, 100, 2 * NS_PER_SEC + 1), SIG_ACT_WARN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_repeat_from_same_sender),
		cmocka_unit_test(test_repeat_while_reporting),
		cmocka_unit_test(test_second_from_elsewhere_or_later),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
