/* What the machine allows this process: the cgroup CPU quota, memory limit and cpuset (pods,
 * containers). Read once before a run; reported in the normal output's header, in the JSON
 * ("iobench container") and in CSV. */
#ifndef IOBENCH_SYSINFO_H
#define IOBENCH_SYSINFO_H
#include <stdbool.h>
#include <stddef.h>

struct cpu_limit {
	bool quota_set;        /* a CFS quota applies (cgroup v2 cpu.max, v1 cfs_quota_us) */
	long long quota_us, period_us;
	double cpus;           /* quota / period: the CPUs' worth this process may use */
	char where[256];       /* the cgroup that sets the tightest quota */
	unsigned cgroup_version;
	bool mem_set;          /* a memory limit applies (v2 memory.max, v1 memory.limit_in_bytes) */
	unsigned long long mem_bytes;
	char mem_where[256];   /* the cgroup that sets the tightest limit */
	unsigned mem_cgroup_version;
	bool cpuset_restricted; /* the affinity mask has fewer CPUs than are online */
	unsigned cpuset_n, online_n;
	char cpuset[128];       /* the affinity mask as a list, e.g. "0-1,4" */
};

/* Read the quota of the cgroups in `proc_cgroup` (a /proc/PID/cgroup file) using the mounts in
 * `mountinfo` (a /proc/PID/mountinfo file). Missing files mean no quota; never fails. */
void cpu_limit_read_from(struct cpu_limit *cl, const char *proc_cgroup, const char *mountinfo);
/* The same for this process, plus its affinity mask. */
void cpu_limit_read(struct cpu_limit *cl);
/* A CPU list in the kernel's format ("0-3,8") from a mask of n bytes. */
void cpu_list_format(char *buf, size_t len, const unsigned char *mask, size_t nbits);

#endif
