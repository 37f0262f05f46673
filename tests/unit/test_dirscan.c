/* One walk of a directory instead of an lstat per planned file (core/plan/dirscan.c): missing
 * names, regular files, everything else asked about, paths outside the directory, the
 * entry limit, and names relative to the current directory. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/plan/dirscan.h"

static char tmp[64];

static const char *at(const char *name)
{
	static char path[4][PATH_MAX];
	static unsigned n;
	char *p = path[n++ % 4];
	snprintf(p, PATH_MAX, "%s/%s", tmp, name);
	return p;
}

static int setup(void **state)
{
	(void)state;
	strcpy(tmp, "/tmp/iobench-dirscan.XXXXXX");
	assert_non_null(mkdtemp(tmp));
	for (int i = 0; i < 1000; i++) {
		char name[32];
		snprintf(name, sizeof(name), "f.0.%d", i);
		int fd = open(at(name), O_CREAT | O_WRONLY, 0644);
		assert_true(fd >= 0);
		close(fd);
	}
	assert_int_equal(mkfifo(at("fifo"), 0644), 0);
	assert_int_equal(symlink("f.0.1", at("link")), 0);
	assert_int_equal(mkdir(at("sub"), 0755), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	return system(cmd);
}

static void test_kinds(void **state)
{
	(void)state;
	struct dir_scan s;
	assert_int_equal(dir_scan_open(&s, at("f.0.0"), 4096), 0);
	for (int i = 0; i < 1000; i++) {
		char name[32];
		snprintf(name, sizeof(name), "f.0.%d", i);
		assert_int_equal(dir_scan_kind(&s, at(name)), DIR_REGULAR);
	}
	for (int i = 1000; i < 3000; i++) { /* none of these is there */
		char name[32];
		snprintf(name, sizeof(name), "f.0.%d", i);
		assert_int_equal(dir_scan_kind(&s, at(name)), DIR_MISSING);
	}
	assert_int_equal(dir_scan_kind(&s, at("fifo")), DIR_ASK);
	assert_int_equal(dir_scan_kind(&s, at("link")), DIR_ASK);
	assert_int_equal(dir_scan_kind(&s, at("sub")), DIR_ASK);
	assert_int_equal(dir_scan_kind(&s, at(".")), DIR_ASK);
	assert_int_equal(dir_scan_kind(&s, at("..")), DIR_ASK);
	/* not directly in it: asked about, never called missing */
	assert_int_equal(dir_scan_kind(&s, at("sub/x")), DIR_ASK);
	assert_int_equal(dir_scan_kind(&s, "/etc/passwd"), DIR_ASK);
	assert_int_equal(dir_scan_kind(&s, "f.0.1"), DIR_ASK);
	dir_scan_free(&s);
	assert_int_equal(dir_scan_kind(&s, at("f.0.1")), DIR_ASK); /* freed: knows nothing */
}

static void test_limit_and_errors(void **state)
{
	(void)state;
	struct dir_scan s;
	assert_int_equal(dir_scan_open(&s, at("f.0.0"), 500), -E2BIG);
	assert_int_equal(dir_scan_kind(&s, at("f.0.5000")), DIR_ASK);
	assert_int_equal(dir_scan_open(&s, at("nodir/f"), 500), -ENOENT);
	assert_int_equal(dir_scan_kind(&s, at("nodir/f")), DIR_ASK);
	assert_int_equal(dir_scan_open(&s, at("f.0.0/x"), 500), -ENOTDIR);
	dir_scan_free(&s);
}

static void test_relative(void **state)
{
	(void)state;
	char cwd[PATH_MAX];
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(tmp), 0);
	struct dir_scan s;
	assert_int_equal(dir_scan_open(&s, "f.0.7", 4096), 0);
	assert_int_equal(dir_scan_kind(&s, "f.0.999"), DIR_REGULAR);
	assert_int_equal(dir_scan_kind(&s, "f.0.1000"), DIR_MISSING);
	assert_int_equal(dir_scan_kind(&s, "fifo"), DIR_ASK);
	assert_int_equal(dir_scan_kind(&s, "sub/f.0.1"), DIR_ASK);
	dir_scan_free(&s);
	assert_int_equal(chdir(cwd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_limit_and_errors),
		cmocka_unit_test(test_relative),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
