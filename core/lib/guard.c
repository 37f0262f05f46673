/* Write guards, from /proc/self/mountinfo, /proc/swaps and /sys/dev/block. */
#include "core/lib/guard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
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

/* Does sysfs list a device stacked on this one (device-mapper, RAID, bcache)? Its name. */
static bool held(const char *sysdir, struct busy *b)
{
	char dir[PATH_MAX + 16];
	snprintf(dir, sizeof(dir), "%s/holders", sysdir);
	DIR *d = opendir(dir);
	if (!d)
		return false;
	struct dirent *e;
	bool found = false;
	while (!found && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(b->what, sizeof(b->what), "held by %.200s (a device stacked on it)", e->d_name);
			found = true;
		}
	closedir(d);
	return found;
}

/* The device and, through sysfs, its partitions and the devices stacked on it. */
static bool busy_tree(const char *sysdir, struct busy *b, int depth)
{
	if (device_busy(sysdir, b) || held(sysdir, b))
		return true;
	if (depth > 8)
		return false;
	char dir[PATH_MAX + 16];
	snprintf(dir, sizeof(dir), "%s", sysdir);
	DIR *d = opendir(dir);
	if (!d)
		return false;
	bool busy = false;
	struct dirent *e;
	while (!busy && (e = readdir(d))) {
		char sub[PATH_MAX + 300], real[PATH_MAX];
		struct stat st;
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/partition", dir, e->d_name);
		if (stat(sub, &st) != 0)
			continue; /* not a partition of this disk */
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		if (realpath(sub, real) && busy_tree(real, b, depth + 1)) {
			if (!b->dev[0])
				snprintf(b->dev, sizeof(b->dev), "%.60s", e->d_name);
			busy = true;
		}
	}
	closedir(d);
	return busy;
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

/* Is the block device dev (named by path, or by /dev/NAME when path is NULL) busy? */
static bool block_busy(dev_t rdev, const char *path, struct busy *b)
{
	char link[64], sysdir[PATH_MAX];
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	bool busy = realpath(link, sysdir) ? busy_tree(sysdir, b, 0)
					   : mounted(major(rdev), minor(rdev), b) || swap_active(rdev, b);
	if (!busy && path && !exclusive_ok(path)) {
		snprintf(b->what, sizeof(b->what), "in use: the kernel refuses an exclusive open (mounted, perhaps in "
						 "another mount namespace such as a container's, or held by device-mapper, RAID or "
						 "another program)");
		busy = true;
	}
	return busy;
}

/* The file a loop device reads and writes: its device and inode. false if none. */
static bool loop_backing(const char *name, dev_t *dev, ino_t *ino)
{
	char path[PATH_MAX], file[PATH_MAX];
	snprintf(path, sizeof(path), "/dev/%s", name);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0) { /* the kernel's own record: right even when the file was renamed */
		struct loop_info64 li;
		int ret = ioctl(fd, LOOP_GET_STATUS64, &li);
		close(fd);
		if (ret == 0) {
			*dev = makedev((unsigned)((li.lo_device & 0xfff00) >> 8),
				       (unsigned)((li.lo_device & 0xff) | ((li.lo_device >> 12) & 0xfff00)));
			*ino = (ino_t)li.lo_inode;
			return true;
		}
		if (errno == ENXIO)
			return false; /* nothing attached */
	}
	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", name);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool got = fgets(file, sizeof(file), f) != NULL;
	fclose(f);
	struct stat st;
	file[strcspn(file, "\n")] = '\0';
	if (!got || stat(file, &st) != 0)
		return false;
	*dev = st.st_dev;
	*ino = st.st_ino;
	return true;
}

int guard_loops_read(struct guard_loops *gl)
{
	gl->n = 0;
	gl->v = NULL;
	DIR *d = opendir("/sys/block");
	if (!d)
		return 0;
	size_t cap = 0;
	int ret = 0;
	struct dirent *e;
	while (!ret && (e = readdir(d))) {
		dev_t dev;
		ino_t ino;
		if (strncmp(e->d_name, "loop", 4) || strlen(e->d_name) >= sizeof(gl->v->name) ||
		    !loop_backing(e->d_name, &dev, &ino))
			continue;
		if (gl->n == cap) {
			size_t ncap = cap ? 2 * cap : 8;
			void *nv = realloc(gl->v, ncap * sizeof(*gl->v));
			if (!nv) {
				ret = -ENOMEM;
				break;
			}
			gl->v = nv;
			cap = ncap;
		}
		gl->v[gl->n].dev = dev;
		gl->v[gl->n].ino = ino;
		snprintf(gl->v[gl->n].name, sizeof(gl->v->name), "%s", e->d_name);
		gl->n++;
	}
	closedir(d);
	if (ret)
		guard_loops_free(gl);
	return ret;
}

void guard_loops_free(struct guard_loops *gl)
{
	free(gl->v);
	gl->v = NULL;
	gl->n = 0;
}

/* A regular file that a busy loop device reads and writes. */
static bool backs_busy_loop(const struct guard_loops *gl, const struct stat *st, struct busy *b)
{
	for (size_t i = 0; i < gl->n; i++) {
		if (gl->v[i].dev != st->st_dev || gl->v[i].ino != st->st_ino)
			continue;
		char sys[64], dev[64], real[PATH_MAX];
		snprintf(sys, sizeof(sys), "/sys/block/%s", gl->v[i].name);
		snprintf(dev, sizeof(dev), "/dev/%s", gl->v[i].name);
		struct stat ds;
		bool busy = realpath(sys, real) && busy_tree(real, b, 0);
		if (!busy && stat(dev, &ds) == 0 && S_ISBLK(ds.st_mode) && !exclusive_ok(dev)) {
			snprintf(b->what, sizeof(b->what), "in use (the kernel refuses an exclusive open)");
			busy = true;
		}
		if (busy) {
			char what[sizeof(b->what)];
			snprintf(what, sizeof(what), "%s", b->what);
			snprintf(b->what, sizeof(b->what), "the backing file of /dev/%s, which is %.3000s%s%s",
				 gl->v[i].name, what, b->dev[0] ? " through " : "", b->dev);
			b->dev[0] = '\0';
			return true;
		}
	}
	return false;
}

int guard_check_write_with(const struct guard_loops *gl, const char *path, char *why, size_t len)
{
	struct stat st;
	struct busy b = { "", "" };
	if (stat(path, &st) < 0) /* stat follows symlinks; a missing file is new */
		return 0;
	bool busy = S_ISBLK(st.st_mode) ? block_busy(st.st_rdev, path, &b)
		    : S_ISREG(st.st_mode) && gl ? backs_busy_loop(gl, &st, &b) : false;
	if (!busy)
		return 0;
	if (b.dev[0])
		snprintf(why, len, "busy: %s is %.200s", b.dev, b.what);
	else
		snprintf(why, len, "%.400s", b.what);
	return -EBUSY;
}

int guard_check_write(const char *path, char *why, size_t len)
{
	struct stat st;
	if (stat(path, &st) < 0 || !(S_ISBLK(st.st_mode) || S_ISREG(st.st_mode)))
		return 0;
	struct guard_loops gl;
	if (S_ISREG(st.st_mode) && guard_loops_read(&gl)) {
		snprintf(why, len, "cannot read the loop devices' backing files: out of memory");
		return -ENOMEM;
	}
	int ret = guard_check_write_with(S_ISREG(st.st_mode) ? &gl : NULL, path, why, len);
	if (S_ISREG(st.st_mode))
		guard_loops_free(&gl);
	return ret;
}
