/* Disk statistics from sysfs. */
#include "core/stats/diskstats.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/lib/clock.h"

/* A device's name and counters from /proc/diskstats ("maj min name" then the 11 counters
 * that /sys/block/NAME/stat holds): for containers that hide /sys/dev/block (podman). */
static int diskstats_line(dev_t dev, const char *name, char *name_out, size_t len, unsigned long long v[11])
{
	FILE *f = fopen("/proc/diskstats", "re");
	if (!f)
		return -ENOENT;
	char line[512], nm[64];
	unsigned maj, min;
	int ret = -ENOENT;
	while (ret && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%u %u %63s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &maj, &min, nm,
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]) != 14)
			continue;
		if (name ? !strcmp(nm, name) : makedev(maj, min) == dev) {
			if (name_out)
				snprintf(name_out, len, "%s", nm);
			ret = 0;
		}
	}
	fclose(f);
	return ret;
}

/* Without /sys/dev/block: the name from /proc/diskstats, and for a partition its disk (vda1:
 * vda, nvme0n1p2: nvme0n1, mmcblk0p1: mmcblk0) when that disk is listed there too. */
static int disk_name_fallback(dev_t dev, char *name, size_t len)
{
	unsigned long long v[11];
	char part[64], disk[64], check[PATH_MAX];
	if (diskstats_line(dev, NULL, part, sizeof(part), v))
		return -ENOENT;
	snprintf(name, len, "%s", part);
	snprintf(check, sizeof(check), "/sys/block/%s", part);
	if (access(check, F_OK) == 0)
		return 0; /* a disk itself */
	size_t n = strlen(part);
	while (n && part[n - 1] >= '0' && part[n - 1] <= '9')
		n--;
	if (n > 1 && part[n - 1] == 'p' && part[n - 2] >= '0' && part[n - 2] <= '9')
		n--;
	snprintf(disk, sizeof(disk), "%.*s", (int)n, part);
	if (n && n < strlen(part) && !diskstats_line(0, disk, NULL, 0, v))
		snprintf(name, len, "%s", disk);
	return 0;
}

/* The whole disk a device number belongs to: "vda" for vda1, "nvme0n1" for nvme0n1p2. */
static int disk_name(dev_t dev, char *name, size_t len)
{
	char link[64], path[PATH_MAX], check[PATH_MAX + 16];
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(link, path))
		return disk_name_fallback(dev, name, len);
	snprintf(check, sizeof(check), "%s/partition", path);
	if (access(check, F_OK) == 0)
		dirname(path); /* a partition: its parent is the disk */
	snprintf(check, sizeof(check), "%s/stat", path);
	if (access(check, R_OK) != 0)
		return -ENOENT;
	snprintf(name, len, "%s", basename(path));
	return 0;
}

int disks_add_for_path(struct disk_set *set, const char *path)
{
	struct stat st;
	char dir[PATH_MAX];
	if (stat(path, &st) < 0) {
		snprintf(dir, sizeof(dir), "%s", path);
		if (stat(dirname(dir), &st) < 0)
			return 0;
	}
	dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	for (unsigned i = 0; i < set->ntried && i < DISK_TRIED_NR; i++)
		if (set->tried[i] == (unsigned long long)dev)
			return 0;
	set->tried[set->ntried++ % DISK_TRIED_NR] = (unsigned long long)dev;
	char name[64];
	if (disk_name(dev, name, sizeof(name)))
		return 0;
	for (unsigned i = 0; i < set->n; i++)
		if (!strcmp(set->disks[i].name, name))
			return 0;
	struct disk_util *d = realloc(set->disks, (set->n + 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	set->disks = d;
	memset(&d[set->n], 0, sizeof(*d));
	snprintf(d[set->n].name, sizeof(d[set->n].name), "%s", name);
	set->n++;
	return 0;
}

static void read_counters(const char *name, struct disk_counters *c)
{
	char path[128];
	unsigned long long v[11] = { 0 };
	snprintf(path, sizeof(path), "/sys/block/%s/stat", name);
	FILE *f = fopen(path, "r");
	int n = 0;
	if (f) {
		n = fscanf(f, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
			   &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]);
		fclose(f);
	}
	if (n < 11 && diskstats_line(0, name, NULL, 0, v)) /* /sys/block hidden: /proc/diskstats */
		return;
	*c = (struct disk_counters){ { v[0], v[4] }, { v[1], v[5] }, { v[2], v[6] }, { v[3], v[7] },
				     v[9], v[10] };
}

void disks_snapshot(struct disk_set *set, bool start)
{
	uint64_t now = clock_now_ns();
	for (unsigned i = 0; i < set->n; i++) {
		struct disk_util *d = &set->disks[i];
		read_counters(d->name, start ? &d->start : &d->end);
		*(start ? &d->start_ns : &d->end_ns) = now;
	}
}

void disks_free(struct disk_set *set)
{
	free(set->disks);
	set->disks = NULL;
	set->n = set->ntried = 0;
}

void disk_report_of(const struct disk_util *d, struct disk_report *r)
{
	r->name = d->name;
	for (int k = 0; k < 2; k++) {
		r->ios[k] = d->end.ios[k] - d->start.ios[k];
		r->merges[k] = d->end.merges[k] - d->start.merges[k];
		r->ticks[k] = d->end.ticks[k] - d->start.ticks[k];
	}
	r->in_queue = d->end.time_in_queue - d->start.time_in_queue;
	uint64_t ms = (d->end_ns - d->start_ns) / NS_PER_MS;
	double util = ms ? (double)(d->end.io_ticks - d->start.io_ticks) * 100.0 / (double)ms : 0.0;
	r->util_pct = util > 100.0 ? 100.0 : util;
}
