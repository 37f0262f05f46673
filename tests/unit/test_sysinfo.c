/* cgroup CPU quota discovery on fake /proc and /sys trees (v2, v1, container roots). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/stats/sysinfo.h"

static char dir[64];

static void put(const char *rel, const char *text)
{
	char path[512], *p;
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (p = strchr(path + strlen(dir) + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void read_fake(struct cpu_limit *cl)
{
	char cg[512], mi[512];
	snprintf(cg, sizeof(cg), "%s/cgroup", dir);
	snprintf(mi, sizeof(mi), "%s/mountinfo", dir);
	memset(cl, 0, sizeof(*cl));
	cpu_limit_read_from(cl, cg, mi);
}

static int setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/iobench-sysinfo-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static void test_v2_tightest_ancestor(void **state)
{
	char mi[512];
	snprintf(mi, sizeof(mi), "30 20 0:26 / %s/sys rw,nosuid - cgroup2 cgroup2 rw\n", dir);
	put("mountinfo", mi);
	put("cgroup", "0::/kubepods/pod1/ctr\n");
	put("sys/kubepods/cpu.max", "max 100000\n");
	put("sys/kubepods/pod1/cpu.max", "50000 100000\n");
	put("sys/kubepods/pod1/ctr/cpu.max", "250000 100000\n");
	struct cpu_limit cl;
	read_fake(&cl);
	assert_true(cl.quota_set);
	assert_int_equal(cl.cgroup_version, 2);
	assert_int_equal(cl.quota_us, 50000);
	assert_int_equal(cl.period_us, 100000);
	assert_true(cl.cpus > 0.499 && cl.cpus < 0.501);
	assert_string_equal(cl.where, "/kubepods/pod1");
}

static void test_v2_no_limit(void **state)
{
	char mi[512];
	snprintf(mi, sizeof(mi), "30 20 0:26 / %s/sys rw - cgroup2 cgroup2 rw\n", dir);
	put("mountinfo", mi);
	put("cgroup", "0::/\n");
	put("sys/cpu.max", "max 100000\n");
	struct cpu_limit cl;
	read_fake(&cl);
	assert_false(cl.quota_set);
}

static void test_v2_container_root(void **state)
{
	/* In a container the hierarchy is mounted at the pod's cgroup: root /kubepods/pod2. */
	char mi[512];
	snprintf(mi, sizeof(mi), "30 20 0:26 /kubepods/pod2 %s/sys ro - cgroup2 cgroup2 rw\n", dir);
	put("mountinfo", mi);
	put("cgroup", "0::/kubepods/pod2\n");
	put("sys/cpu.max", "200000 100000\n");
	struct cpu_limit cl;
	read_fake(&cl);
	assert_true(cl.quota_set);
	assert_true(cl.cpus > 1.999 && cl.cpus < 2.001);
	assert_string_equal(cl.where, "/");
}

static void test_v1(void **state)
{
	char mi[1024];
	snprintf(mi, sizeof(mi),
		 "31 23 0:28 / %s/fs rw - tmpfs tmpfs rw\n"
		 "32 31 0:29 / %s/fs/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n", dir, dir);
	put("mountinfo", mi);
	put("cgroup", "3:cpuset:/\n2:cpu,cpuacct:/job7\n1:name=systemd:/\n");
	put("fs/cpu,cpuacct/job7/cpu.cfs_quota_us", "150000\n");
	put("fs/cpu,cpuacct/job7/cpu.cfs_period_us", "100000\n");
	put("fs/cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
	put("fs/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
	struct cpu_limit cl;
	read_fake(&cl);
	assert_true(cl.quota_set);
	assert_int_equal(cl.cgroup_version, 1);
	assert_true(cl.cpus > 1.499 && cl.cpus < 1.501);
	assert_string_equal(cl.where, "/job7");
}

static void test_memory_v2_and_v1(void **state)
{
	char mi[1024];
	snprintf(mi, sizeof(mi), "30 20 0:26 / %s/sys rw - cgroup2 cgroup2 rw\n", dir);
	put("mountinfo", mi);
	put("cgroup", "0::/kubepods/pod1/ctr\n");
	put("sys/kubepods/memory.max", "max\n");
	put("sys/kubepods/pod1/memory.max", "268435456\n");
	put("sys/kubepods/pod1/ctr/memory.max", "536870912\n");
	struct cpu_limit cl;
	read_fake(&cl);
	assert_true(cl.mem_set);
	assert_int_equal(cl.mem_bytes, 268435456);
	assert_int_equal(cl.mem_cgroup_version, 2);
	assert_string_equal(cl.mem_where, "/kubepods/pod1");
	snprintf(mi, sizeof(mi), "32 31 0:29 / %s/fs/memory rw - cgroup cgroup rw,memory\n", dir);
	put("mountinfo", mi);
	put("cgroup", "4:memory:/job9\n");
	put("fs/memory/memory.limit_in_bytes", "9223372036854771712\n"); /* v1's "no limit" */
	put("fs/memory/job9/memory.limit_in_bytes", "1073741824\n");
	read_fake(&cl);
	assert_true(cl.mem_set);
	assert_int_equal(cl.mem_bytes, 1073741824);
	assert_int_equal(cl.mem_cgroup_version, 1);
	assert_string_equal(cl.mem_where, "/job9");
}

static void test_missing_files(void **state)
{
	struct cpu_limit cl;
	memset(&cl, 0, sizeof(cl));
	cpu_limit_read_from(&cl, "/nonexistent/cgroup", "/nonexistent/mountinfo");
	assert_false(cl.quota_set);
}

static void test_cpu_list(void **state)
{
	unsigned char m[2] = {0x0f | 0x40, 0x01}; /* 0-3, 6, 8 */
	char buf[64];
	cpu_list_format(buf, sizeof(buf), m, 16);
	assert_string_equal(buf, "0-3,6,8");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_v2_tightest_ancestor, setup, teardown),
		cmocka_unit_test_setup_teardown(test_v2_no_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_v2_container_root, setup, teardown),
		cmocka_unit_test_setup_teardown(test_v1, setup, teardown),
		cmocka_unit_test_setup_teardown(test_memory_v2_and_v1, setup, teardown),
		cmocka_unit_test(test_missing_files),
		cmocka_unit_test(test_cpu_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
