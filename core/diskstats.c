/* Disk statistics from sysfs. */
#include "core/diskstats.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/clock.h"

/* The whole disk a device number belongs to: "vda" for vda1, "nvme0n1" for nvme0n1p2. */
static int disk_name(dev_t dev, char *name, size_t len)
{
	char link[64], path[PATH_MAX], check[PATH_MAX + 16];
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(link, path))
		return -errno;
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
	if (!f)
		return;
	int n = fscanf(f, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		       &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]);
	fclose(f);
	if (n < 11)
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
	set->n = 0;
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
