/* Optional libraries (core/engine.c engine_load_library): a library and its symbols are
 * found at run time; a missing library, a missing symbol and one hidden for tests
 * (IOBENCH_TEST_HIDE_LIBS) each give the one reason the run prints, naming the package. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/engine.h"

struct libc_api {
	pid_t (*getpid)(void);
	size_t (*strlen)(const char *);
};

static const struct engine_symbol libc_syms[] = {
	{ "getpid", offsetof(struct libc_api, getpid) },
	{ "strlen", offsetof(struct libc_api, strlen) },
};

static void test_loads_and_resolves(void **state)
{
	struct libc_api a = { 0 };
	char why[256] = "";
	unsetenv("IOBENCH_TEST_HIDE_LIBS");
	assert_int_equal(engine_load_library("libc.so.6", "libc6", libc_syms, 2, &a, why, sizeof(why)), 0);
	assert_int_equal(a.getpid(), getpid());
	assert_int_equal(a.strlen("rbd"), 3);
	assert_string_equal(why, "");
}

static void test_missing_library(void **state)
{
	struct libc_api a;
	char why[256];
	assert_int_equal(engine_load_library("libnot-there.so.9", "libnot-there9", libc_syms, 2, &a, why, sizeof(why)),
			 -ENOENT);
	assert_string_equal(why, "libnot-there.so.9 is not installed (install the Debian package libnot-there9: "
				 "apt-get install libnot-there9)");
}

static void test_missing_symbol(void **state)
{
	static const struct engine_symbol bad[] = { { "getpid", 0 }, { "rbd_no_such_function", sizeof(void *) } };
	struct libc_api a;
	char why[256];
	assert_int_equal(engine_load_library("libc.so.6", "libc6", bad, 2, &a, why, sizeof(why)), -ENOSYS);
	assert_non_null(strstr(why, "libc.so.6 has no rbd_no_such_function"));
}

static void test_hidden_for_tests(void **state)
{
	struct libc_api a;
	char why[256];
	setenv("IOBENCH_TEST_HIDE_LIBS", "librados.so.2 libc.so.6", 1);
	assert_int_equal(engine_load_library("libc.so.6", "libc6", libc_syms, 2, &a, why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "libc.so.6 is not installed (install the Debian package libc6"));
	/* a word of the list, not a part of one */
	setenv("IOBENCH_TEST_HIDE_LIBS", "xlibc.so.6 libc.so.6x", 1);
	assert_int_equal(engine_load_library("libc.so.6", "libc6", libc_syms, 2, &a, why, sizeof(why)), 0);
	unsetenv("IOBENCH_TEST_HIDE_LIBS");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loads_and_resolves),
		cmocka_unit_test(test_missing_library),
		cmocka_unit_test(test_missing_symbol),
		cmocka_unit_test(test_hidden_for_tests),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
