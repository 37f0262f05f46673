/* cgroup=NAME: the cgroup a job's threads run in, made by the run where it is missing (with
 * the directories above it) and removed after the run unless cgroup_nodelete is set.
 *
 * Where: as fio, the blkio hierarchy of cgroup v1 when it is mounted, else cgroup v2. In v1
 * NAME is below the hierarchy's root and a thread joins through its "tasks" file. cgroup v2
 * moves a single thread (iobench's jobs are threads) only into a threaded cgroup of its own
 * process's subtree: NAME is made below the process's cgroup, as threaded, and a thread
 * joins through "cgroup.threads". cgroup_weight is blkio.weight (v1; blkio.bfq.weight where
 * only that is there); v2 has no weight for threaded cgroups (io is a domain controller), so
 * there it is a note, as fio's. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/run/jobenv_run.h"
#include "core/job/job.h"
#include "core/lib/say.h"

/* The mount of the hierarchy to use: 1 (v1 blkio) or 2, or 0 when neither is mounted. */
static int find_mount(char *mnt, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], v2[PATH_MAX] = "";
	int found = 0;
	while (f && !found && fgets(line, sizeof(line), f)) {
		char point[PATH_MAX], type[64], super[1024] = "";
		const char *sep = strstr(line, " - ");
		if (!sep || sscanf(line, "%*s %*s %*s %*s %4095s", point) != 1 ||
		    sscanf(sep + 3, "%63s %*s %1023s", type, super) < 1)
			continue;
		if (!strcmp(type, "cgroup") && (strstr(super, ",blkio") || !strncmp(super, "blkio", 5))) {
			snprintf(mnt, len, "%s", point);
			found = 1;
		} else if (!strcmp(type, "cgroup2") && !v2[0]) {
			snprintf(v2, sizeof(v2), "%s", point);
		}
	}
	if (f)
		fclose(f);
	if (!found && v2[0]) {
		snprintf(mnt, len, "%s", v2);
		found = 2;
	}
	return found;
}

/* This process's cgroup v2 path ("0::/a/b" in /proc/self/cgroup), "" at the root. */
static void own_v2_path(char *path, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[PATH_MAX + 16];
	path[0] = '\0';
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(path, len, "%.4000s", strcmp(line + 3, "/") ? line + 3 : "");
		}
	if (f)
		fclose(f);
}

static int write_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, text, strlen(text));
	int err = n == (ssize_t)strlen(text) ? 0 : n < 0 ? -errno : -EIO;
	close(fd);
	return err;
}

static int remember(struct env_run *er, const char *dir)
{
	struct env_cgroup *c = realloc(er->cgroups, (er->ncgroups + 1) * sizeof(*c));
	if (!c)
		return -ENOMEM;
	er->cgroups = c;
	memset(&c[er->ncgroups], 0, sizeof(*c));
	snprintf(c[er->ncgroups].dir, sizeof(c->dir), "%s", dir);
	c[er->ncgroups++].made = true;
	return 0;
}

/* cgroup_nodelete: what the run made on the way to dir stays. */
static void keep(struct env_run *er, const char *dir)
{
	for (unsigned i = 0; i < er->ncgroups; i++) {
		size_t n = strlen(er->cgroups[i].dir);
		if (!strncmp(dir, er->cgroups[i].dir, n) && (dir[n] == '/' || !dir[n]))
			er->cgroups[i].keep = true;
	}
}

/* mkdir -p from base down to base/name; each directory made is remembered (and in v2 made
 * threaded, top down). */
static int make_dirs(struct env_run *er, const char *base, const char *name, int version, char *dir, size_t len)
{
	snprintf(dir, len, "%s", base);
	char rest[256];
	snprintf(rest, sizeof(rest), "%s", name);
	char *save = NULL;
	for (char *part = strtok_r(rest, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
		size_t n = strlen(dir);
		snprintf(dir + n, len - n, "/%s", part);
		if (mkdir(dir, 0755) < 0) {
			if (errno != EEXIST)
				return -errno;
			continue;
		}
		int ret = remember(er, dir);
		if (!ret && version == 2)
			ret = write_file(dir, "cgroup.type", "threaded");
		if (ret)
			return ret;
	}
	return 0;
}

/* A cgroup v2 that was there already must be threaded for a thread to join it. */
static bool v2_threaded(const char *dir)
{
	char path[PATH_MAX + 16], type[64] = "";
	snprintf(path, sizeof(path), "%s/cgroup.type", dir);
	FILE *f = fopen(path, "re");
	if (f) {
		if (!fgets(type, sizeof(type), f))
			type[0] = '\0';
		fclose(f);
	}
	return !strncmp(type, "threaded", 8);
}

static int set_weight(const struct job *job, const char *dir, int version)
{
	unsigned w = job->o.env.cgroup_weight;
	if (!w)
		return 0;
	if (version == 2) {
		job_say(job->o.name,
			"note: cgroup_weight: cgroup v2 gives weights (io.weight) to domain "
			"cgroups only, and a thread can only be in a threaded one; no weight set (as fio)");
		return 0;
	}
	char text[16];
	snprintf(text, sizeof(text), "%u", w);
	int ret = write_file(dir, "blkio.weight", text);
	if (ret == -ENOENT)
		ret = write_file(dir, "blkio.bfq.weight", text);
	if (ret == -ENOENT)
		job_say(job->o.name,
			"cgroup_weight: %s has no blkio.weight (nor blkio.bfq.weight): weights "
			"need the bfq I/O scheduler on the devices",
			dir);
	else if (ret)
		job_say(job->o.name, "cgroup_weight: cannot set %u in %s: %s", w, dir, strerror(-ret));
	return ret;
}

int env_cgroup_prepare(struct env_run *er, const struct job *job, char *join, size_t len)
{
	const char *name = job->o.env.cgroup;
	char mnt[PATH_MAX], base[PATH_MAX], dir[PATH_MAX];
	int version = find_mount(mnt, sizeof(mnt));
	if (!version) {
		job_say(job->o.name, "cgroup: neither cgroup v1's blkio hierarchy nor cgroup v2 is mounted "
				     "(mount -t cgroup -o blkio none /sys/fs/cgroup/blkio)");
		return -ENOENT;
	}
	char own[PATH_MAX] = "";
	if (version == 2)
		own_v2_path(own, sizeof(own));
	snprintf(base, sizeof(base), "%.2000s%.2000s", mnt, own);
	int ret = make_dirs(er, base, name, version, dir, sizeof(dir));
	if (ret) {
		job_say(job->o.name, "cgroup: cannot make %s (cgroup v%d): %s", dir, version, strerror(-ret));
		return ret;
	}
	if (job->o.env.cgroup_nodelete)
		keep(er, dir);
	if (version == 2 && !v2_threaded(dir)) {
		job_say(job->o.name,
			"cgroup: %s is not a threaded cgroup; cgroup v2 moves a single thread "
			"(iobench's jobs are threads) only into one (name a cgroup that is not there, iobench "
			"makes it)",
			dir);
		return -EINVAL;
	}
	if ((ret = set_weight(job, dir, version)))
		return ret;
	snprintf(join, len, "%.4000s/%s", dir, version == 2 ? "cgroup.threads" : "tasks");
	return 0;
}

void env_cgroup_remove(struct env_run *er)
{
	for (unsigned i = er->ncgroups; i-- > 0;) {
		const struct env_cgroup *c = &er->cgroups[i];
		if (c->made && !c->keep && rmdir(c->dir) < 0)
			fprintf(stderr, "iobench: cannot remove the cgroup %s the run made: %s%s\n", c->dir,
				strerror(errno), errno == EBUSY ? " (a process a job started is still in it?)" : "");
	}
	free(er->cgroups);
	er->cgroups = NULL;
	er->ncgroups = 0;
}
