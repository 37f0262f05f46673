/* cgroup CPU quota (v1 and v2) and the affinity mask, for the header. */
#include "core/stats/sysinfo.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Where the hierarchy for `controller` is mounted (v1: the super options name it; v2:
 * controller NULL and fstype cgroup2). Returns 0 and fills mnt/root, or -1. */
static int find_mount(const char *mountinfo, const char *controller, char *mnt, size_t mlen,
		      char *root, size_t rlen)
{
	FILE *f = fopen(mountinfo, "re");
	if (!f)
		return -1;
	char line[1024];
	int found = -1;
	while (found < 0 && fgets(line, sizeof(line), f)) {
		/* id parent major:minor root mountpoint options ... - fstype source superopts */
		char r[256], m[256], fstype[32], super[256];
		const char *dash = strstr(line, " - ");
		if (!dash || sscanf(line, "%*s %*s %*s %255s %255s", r, m) != 2 ||
		    sscanf(dash + 3, "%31s %*s %255s", fstype, super) != 2)
			continue;
		if (controller) {
			if (strcmp(fstype, "cgroup"))
				continue;
			bool has = false;
			for (char *sv, *t = strtok_r(super, ",", &sv); t; t = strtok_r(NULL, ",", &sv))
				has |= !strcmp(t, controller);
			if (!has)
				continue;
		} else if (strcmp(fstype, "cgroup2")) {
			continue;
		}
		snprintf(mnt, mlen, "%s", m);
		snprintf(root, rlen, "%s", r);
		found = 0;
	}
	fclose(f);
	return found;
}

/* The cgroup path of this process in the hierarchy whose /proc/PID/cgroup line has
 * `controllers` (v1, e.g. "cpu") or is "0::" (controller NULL). */
static int find_path(const char *proc_cgroup, const char *controller, char *path, size_t len)
{
	FILE *f = fopen(proc_cgroup, "re");
	if (!f)
		return -1;
	char line[1024];
	int found = -1;
	while (found < 0 && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c1 = 0;
		*c2 = 0;
		const char *ctrls = c1 + 1;
		bool match = false;
		if (!controller) {
			match = !strcmp(line, "0") && !*ctrls;
		} else {
			char tmp[256];
			snprintf(tmp, sizeof(tmp), "%s", ctrls);
			for (char *sv, *t = strtok_r(tmp, ",", &sv); t; t = strtok_r(NULL, ",", &sv))
				match |= !strcmp(t, controller);
		}
		if (match) {
			snprintf(path, len, "%s", c2 + 1);
			found = 0;
		}
	}
	fclose(f);
	return found;
}

static int read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	bool ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	return ok ? 0 : -1;
}

/* The CPU quota one cgroup directory sets: CPUs' worth, or 0 for none. */
static double cpu_quota_at(unsigned version, const char *dir, long long *q_out, long long *p_out)
{
	char file[1100], buf[128];
	long long q = -1, p = 0;
	if (version == 2) {
		snprintf(file, sizeof(file), "%s/cpu.max", dir);
		char qs[32];
		if (!read_text(file, buf, sizeof(buf)) && sscanf(buf, "%31s %lld", qs, &p) == 2 && strcmp(qs, "max"))
			q = atoll(qs);
	} else {
		snprintf(file, sizeof(file), "%s/cpu.cfs_quota_us", dir);
		if (!read_text(file, buf, sizeof(buf)))
			q = atoll(buf);
		snprintf(file, sizeof(file), "%s/cpu.cfs_period_us", dir);
		if (read_text(file, buf, sizeof(buf)) || (p = atoll(buf)) <= 0)
			q = -1;
	}
	*q_out = q;
	*p_out = p;
	return q > 0 && p > 0 ? (double)q / (double)p : 0;
}

/* The memory limit one cgroup directory sets, in bytes, or 0 for none (v1's "no limit" is
 * a huge number: a page-rounded LONG_MAX). */
static unsigned long long mem_limit_at(unsigned version, const char *dir)
{
	char file[1100], buf[128];
	snprintf(file, sizeof(file), "%s/%s", dir, version == 2 ? "memory.max" : "memory.limit_in_bytes");
	if (read_text(file, buf, sizeof(buf)) || !strncmp(buf, "max", 3))
		return 0;
	unsigned long long v = strtoull(buf, NULL, 10);
	return v >= (1ULL << 62) ? 0 : v;
}

enum limit_kind { LIMIT_CPU, LIMIT_MEM };

static void keep_tightest(struct cpu_limit *cl, enum limit_kind kind, unsigned version, const char *dir,
			  const char *rel)
{
	if (kind == LIMIT_MEM) {
		unsigned long long m = mem_limit_at(version, dir);
		if (m && (!cl->mem_set || m < cl->mem_bytes)) {
			cl->mem_set = true;
			cl->mem_bytes = m;
			cl->mem_cgroup_version = version;
			snprintf(cl->mem_where, sizeof(cl->mem_where), "%.255s", rel[0] ? rel : "/");
		}
		return;
	}
	long long q, p;
	double cpus = cpu_quota_at(version, dir, &q, &p);
	if (cpus > 0 && (!cl->quota_set || cpus < cl->cpus)) {
		cl->quota_set = true;
		cl->quota_us = q;
		cl->period_us = p;
		cl->cpus = cpus;
		cl->cgroup_version = version;
		snprintf(cl->where, sizeof(cl->where), "%.255s", rel[0] ? rel : "/");
	}
}

/* Walk from the process's cgroup up to the mount's root, keeping the tightest limit. */
static void walk(struct cpu_limit *cl, enum limit_kind kind, unsigned version, const char *mnt, const char *mroot,
		 const char *path)
{
	char rel[512];
	/* Inside a cgroup namespace or a container the mount's root is the cgroup itself. */
	size_t rl = strlen(mroot);
	if (strcmp(mroot, "/") && !strncmp(path, mroot, rl) && (path[rl] == '/' || !path[rl]))
		path += rl;
	snprintf(rel, sizeof(rel), "%s", path);
	for (;;) {
		char dir[800];
		snprintf(dir, sizeof(dir), "%.255s%.511s", mnt, rel);
		keep_tightest(cl, kind, version, dir, rel);
		char *slash = strrchr(rel, '/');
		if (!slash || !rel[0] || !strcmp(rel, "/"))
			break;
		*slash = 0;
	}
}

void cpu_limit_read_from(struct cpu_limit *cl, const char *proc_cgroup, const char *mountinfo)
{
	char mnt[256], mroot[256], path[512];
	if (!find_path(proc_cgroup, NULL, path, sizeof(path)) &&
	    !find_mount(mountinfo, NULL, mnt, sizeof(mnt), mroot, sizeof(mroot))) {
		walk(cl, LIMIT_CPU, 2, mnt, mroot, path);
		walk(cl, LIMIT_MEM, 2, mnt, mroot, path);
	}
	if (!find_path(proc_cgroup, "cpu", path, sizeof(path)) &&
	    !find_mount(mountinfo, "cpu", mnt, sizeof(mnt), mroot, sizeof(mroot)))
		walk(cl, LIMIT_CPU, 1, mnt, mroot, path);
	if (!find_path(proc_cgroup, "memory", path, sizeof(path)) &&
	    !find_mount(mountinfo, "memory", mnt, sizeof(mnt), mroot, sizeof(mroot)))
		walk(cl, LIMIT_MEM, 1, mnt, mroot, path);
}

void cpu_list_format(char *buf, size_t len, const unsigned char *mask, size_t nbits)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t c = 0; c < nbits; c++) {
		if (!(mask[c / 8] & (1u << (c % 8))))
			continue;
		size_t e = c;
		while (e + 1 < nbits && (mask[(e + 1) / 8] & (1u << ((e + 1) % 8))))
			e++;
		int n = e > c ? snprintf(buf + used, len - used, "%s%zu-%zu", used ? "," : "", c, e)
			      : snprintf(buf + used, len - used, "%s%zu", used ? "," : "", c);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
		c = e;
	}
}

void cpu_limit_read(struct cpu_limit *cl)
{
	memset(cl, 0, sizeof(*cl));
	cpu_limit_read_from(cl, "/proc/self/cgroup", "/proc/self/mountinfo");
	cpu_set_t set;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	if (online <= 0 || sched_getaffinity(0, sizeof(set), &set))
		return;
	unsigned char mask[CPU_SETSIZE / 8] = {0};
	for (unsigned c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			mask[c / 8] |= (unsigned char)(1u << (c % 8));
	cl->cpuset_n = (unsigned)CPU_COUNT(&set);
	cl->online_n = (unsigned)online;
	cl->cpuset_restricted = cl->cpuset_n < cl->online_n;
	cpu_list_format(cl->cpuset, sizeof(cl->cpuset), mask, CPU_SETSIZE);
}
