/* Disk statistics for the block devices behind a run's files, from /sys/block/NAME/stat,
 * read before and after the run. Quietly empty where sysfs cannot be read. */
#ifndef IOBENCH_DISKSTATS_H
#define IOBENCH_DISKSTATS_H
#include <stdbool.h>
#include <stdint.h>

struct disk_counters {
	uint64_t ios[2], merges[2], sectors[2], ticks[2];
	uint64_t io_ticks, time_in_queue;
};

struct disk_util {
	char name[64];
	struct disk_counters start, end;
	uint64_t start_ns, end_ns;
};

#define DISK_TRIED_NR 8
struct disk_set {
	struct disk_util *disks;
	unsigned n;
	/* devices already looked up (a disk or none): a million files on one filesystem cost
	 * a stat each, not a walk of /sys and /proc/diskstats each */
	unsigned long long tried[DISK_TRIED_NR];
	unsigned ntried;
};

/* Add the disk behind path (a file, a directory or a block device); duplicates are
 * ignored. Returns 0 whether or not a disk was found; -ENOMEM on allocation failure. */
int disks_add_for_path(struct disk_set *set, const char *path);
void disks_snapshot(struct disk_set *set, bool start);
void disks_free(struct disk_set *set);

/* Deltas for reporting. */
struct disk_report {
	const char *name;
	uint64_t ios[2], merges[2], ticks[2], in_queue;
	double util_pct;
};
void disk_report_of(const struct disk_util *d, struct disk_report *r);

#endif
