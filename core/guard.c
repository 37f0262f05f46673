/* Write guards, from /proc/self/mountinfo, /proc/swaps and /sys/dev/block. */
#include "core/guard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* What was found busy: the device itself or one below/above it, and how. */
struct busy {
	char dev[64];          /* a partition or holder's name; "" for the device itself */
	char what[PATH_MAX];   /* "mounted on /mnt", "in use as swap" */
};

/* Is device maj:min mounted? */
static bool mounted(unsigned maj, unsigned min, struct busy *b)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return false;
	char line[4096];
	bool found = false;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned a, c;
		char point[PATH_MAX];
		/* id parent major:minor root mount-point ... */
		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &a, &c, point) == 3 && a == maj && c == min) {
			snprintf(b->what, sizeof(b->what), "mounted on %.3000s", point);
			found = true;
		}
	}
	fclose(f);
	return found;
}

static bool swap_active(dev_t rdev, struct busy *b)
{
	FILE *f = fopen("/proc/swaps", "r");
	if (!f)
		return false;
	char line[4096], name[PATH_MAX];
	bool found = false;
	while (!found && fgets(line, sizeof(line), f)) {
		struct stat st;
		if (sscanf(line, "%4095s", name) == 1 && name[0] == '/' && stat(name, &st) == 0 &&
		    S_ISBLK(st.st_mode) && st.st_rdev == rdev) {
			snprintf(b->what, sizeof(b->what), "in use as swap");
			found = true;
		}
	}
	fclose(f);
	return found;
}

static bool device_busy(const char *sysdir, struct busy *b)
{
	char path[PATH_MAX + 16], devno[32];
	unsigned maj, min;
	snprintf(path, sizeof(path), "%s/dev", sysdir);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool got = fgets(devno, sizeof(devno), f) && sscanf(devno, "%u:%u", &maj, &min) == 2;
	fclose(f);
	return got && (mounted(maj, min, b) || swap_active(makedev(maj, min), b));
}

/* The device and, through sysfs, its partitions and the devices stacked on it. */
static bool busy_tree(const char *sysdir, struct busy *b, int depth)
{
	if (device_busy(sysdir, b))
		return true;
	if (depth > 8)
		return false;
	static const char *const kinds[] = { "", "holders" };
	for (int k = 0; k < 2; k++) {
		char dir[PATH_MAX + 16];
		snprintf(dir, sizeof(dir), "%s/%s", sysdir, kinds[k]);
		DIR *d = opendir(dir);
		if (!d)
			continue;
		bool busy = false;
		struct dirent *e;
		while (!busy && (e = readdir(d))) {
			char sub[PATH_MAX + 300], real[PATH_MAX];
			struct stat st;
			if (e->d_name[0] == '.')
				continue;
			snprintf(sub, sizeof(sub), "%s/%s%s", dir, e->d_name, k ? "" : "/partition");
			if (k == 0 && stat(sub, &st) != 0)
				continue; /* not a partition of this disk */
			snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
			if (!realpath(sub, real))
				continue;
			if (busy_tree(real, b, depth + 1)) {
				if (!b->dev[0])
					snprintf(b->dev, sizeof(b->dev), "%.60s", e->d_name);
				busy = true;
			}
		}
		closedir(d);
		if (busy)
			return true;
	}
	return false;
}

/* A mount in another mount namespace (a container's) is not in our mount table, but the
 * kernel holds the device exclusively: an O_EXCL open fails with EBUSY. Other failures
 * (permissions) are left for the job's own open to report. */
static bool exclusive_ok(const char *path)
{
	int fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0) {
		close(fd);
		return true;
	}
	return errno != EBUSY;
}

int guard_check_write(const char *path, char *why, size_t len)
{
	struct stat st;
	struct busy b = { "", "" };
	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode)) /* stat follows symlinks */
		return 0;
	char link[64], sysdir[PATH_MAX];
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	bool busy = realpath(link, sysdir) ? busy_tree(sysdir, &b, 0)
					   : mounted(major(st.st_rdev), minor(st.st_rdev), &b) ||
						     swap_active(st.st_rdev, &b);
	if (!busy && !exclusive_ok(path)) {
		snprintf(b.what, sizeof(b.what), "in use: the kernel refuses an exclusive open (mounted, perhaps in "
						 "another mount namespace such as a container's, or held by device-mapper, RAID or "
						 "another program)");
		busy = true;
	}
	if (!busy)
		return 0;
	if (b.dev[0])
		snprintf(why, len, "busy: %s is %.200s", b.dev, b.what);
	else
		snprintf(why, len, "%.200s", b.what);
	return -EBUSY;
}
