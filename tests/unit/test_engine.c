/* Optional libraries (engines/engine.c engine_load_library): a library and its symbols are
 * found at run time; a missing library, a missing symbol and one hidden for tests
 * (IOBENCH_TEST_HIDE_LIBS) each give the one reason the run prints, naming the package.
 * The helpers engines share: the completed-I/O list library threads push to (oldest out
 * first, nothing lost or doubled under concurrent pushes), and the deadline waits. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "engines/engine.h"

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

struct item {
	unsigned id;
	struct engine_done done;
};

static void test_donelist_order(void **state)
{
	struct engine_donelist l;
	struct item it[5];
	engine_donelist_init(&l);
	assert_null(engine_donelist_pop(&l));
	for (unsigned i = 0; i < 3; i++) {
		it[i].id = i;
		engine_donelist_push(&l, &it[i].done);
	}
	assert_int_equal(engine_done_entry(engine_donelist_pop(&l), struct item, done)->id, 0);
	it[3].id = 3, it[4].id = 4; /* pushed while 1 and 2 wait their turn: they come after */
	engine_donelist_push(&l, &it[3].done);
	engine_donelist_push(&l, &it[4].done);
	for (unsigned i = 1; i < 5; i++)
		assert_int_equal(engine_done_entry(engine_donelist_pop(&l), struct item, done)->id, i);
	assert_null(engine_donelist_pop(&l));
}

enum { PUSHERS = 4, PER_PUSHER = 20000 };
struct pusher {
	struct engine_donelist *l;
	struct item *items;
};

static void *push_all(void *arg)
{
	struct pusher *p = arg;
	for (unsigned i = 0; i < PER_PUSHER; i++)
		engine_donelist_push(p->l, &p->items[i].done);
	return NULL;
}

/* Four threads push while this one pops: each item comes out once, and each pusher's in the
 * order it pushed them. */
static void test_donelist_concurrent(void **state)
{
	struct engine_donelist l;
	struct item *items = calloc(PUSHERS * PER_PUSHER, sizeof(*items));
	unsigned char *seen = calloc(PUSHERS * PER_PUSHER, 1);
	unsigned last[PUSHERS] = { 0 }, got = 0;
	pthread_t t[PUSHERS];
	struct pusher p[PUSHERS];
	assert_non_null(items);
	assert_non_null(seen);
	engine_donelist_init(&l);
	for (unsigned i = 0; i < PUSHERS * PER_PUSHER; i++)
		items[i].id = i + 1;
	for (unsigned i = 0; i < PUSHERS; i++) {
		p[i] = (struct pusher){ &l, items + i * PER_PUSHER };
		assert_int_equal(pthread_create(&t[i], NULL, push_all, &p[i]), 0);
	}
	while (got < PUSHERS * PER_PUSHER) {
		struct engine_done *e = engine_donelist_pop(&l);
		if (!e)
			continue;
		unsigned id = engine_done_entry(e, struct item, done)->id, who = (id - 1) / PER_PUSHER;
		assert_false(seen[id - 1]);
		assert_true(id > last[who]);
		seen[id - 1] = 1, last[who] = id, got++;
	}
	for (unsigned i = 0; i < PUSHERS; i++)
		pthread_join(t[i], NULL);
	assert_null(engine_donelist_pop(&l));
	free(items);
	free(seen);
}

static void test_poll_fd(void **state)
{
	struct timespec past = engine_deadline(&(struct timespec){ 0, 0 });
	past.tv_sec -= 1;
	int efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC), pipefd[2];
	assert_true(efd >= 0);
	assert_int_equal(pipe(pipefd), 0);
	assert_int_equal(engine_poll_fd(efd, POLLIN, &past), -ETIME);
	assert_false(engine_wait_fd(efd, &past));
	assert_int_equal(engine_poll_fd(-1, POLLIN, NULL), 0); /* busy polling: no sleep */
	struct timespec soon = engine_deadline(&(struct timespec){ 0, 20000000 });
	assert_int_equal(engine_poll_fd(efd, POLLIN, &soon), 0); /* nothing came: 0 at the deadline */
	assert_int_equal(eventfd_write(efd, 1), 0);
	struct timespec later = engine_deadline(&(struct timespec){ 5, 0 });
	assert_int_equal(engine_poll_fd(efd, POLLIN, &later), POLLIN);
	assert_true(engine_wait_fd(efd, &later));
	assert_int_equal(engine_poll_fd(pipefd[1], POLLIN | POLLOUT, &later), POLLOUT); /* room to write */
	close(efd);
	close(pipefd[0]);
	close(pipefd[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loads_and_resolves),
		cmocka_unit_test(test_missing_library),
		cmocka_unit_test(test_missing_symbol),
		cmocka_unit_test(test_hidden_for_tests),
		cmocka_unit_test(test_donelist_order),
		cmocka_unit_test(test_donelist_concurrent),
		cmocka_unit_test(test_poll_fd),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
