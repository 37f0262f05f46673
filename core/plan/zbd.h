/* Zone tables of zonemode=zbd: one per file or device, shared by every job of the run that
 * uses it (as fio shares them), so that what one job writes another reads, in the same group
 * or a later one.
 *
 * A zoned block device (/sys/block/X/queue/zoned says host-managed or host-aware) gives its
 * zones with BLKREPORTZONE: types, capacities, write pointers, and zones are reset with
 * BLKRESETZONE. Anything else (a regular file, an ordinary block device) gets emulated
 * zones, as fio 3.33 does: zonesize bytes each, zonecapacity of them writable, every zone
 * sequential-write-required and empty when the run starts; a reset moves the write pointer
 * back and touches nothing on disk.
 *
 * A table's zones change under its lock (zbd_lock): one mutex per table, taken only by
 * zonemode=zbd jobs, once per I/O. */
#ifndef IOBENCH_ZBD_H
#define IOBENCH_ZBD_H
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct blk_zone;

enum zbd_model { ZBD_EMULATED, ZBD_HOST_AWARE, ZBD_HOST_MANAGED };

struct zbd_zone {
	uint64_t start, len, cap;  /* bytes */
	uint64_t wp;               /* write pointer (conventional zones: their end) */
	bool has_wp;               /* sequential zone (required or preferred); else conventional */
	bool offline;              /* offline or read-only: never used */
	bool open;                 /* counted among the open zones (only with an open-zone limit) */
	bool dev_open;             /* the device had it open before the run (not yet counted) */
	unsigned inflight;         /* writes queued and not yet completed */
	unsigned *opener;          /* the open-zone count of the clone that opened it */
};

struct zbd_dev {
	char path[PATH_MAX];
	enum zbd_model model;
	uint64_t zone_size;        /* bytes (the last zone of a device may be shorter) */
	uint64_t size;             /* bytes the zones cover */
	uint32_t nr_zones;
	struct zbd_zone *zones;
	uint64_t *data;            /* Fenwick tree over the zones: bytes below each write pointer */
	unsigned max_open;         /* open-zone limit in force (0: none, opens are not tracked) */
	unsigned dev_max_open;     /* the device's own (sysfs max_open_zones), 0 if none */
	unsigned nr_open;
	uint32_t *open;            /* the open zones, in the order they were opened */
	uint64_t write_cnt;        /* zone_reset_frequency: writes until the next reset */
	pthread_mutex_t lock;
	struct zbd_dev *next;
};

/* The run's tables (struct run_ctx), found by path. */
struct zbd_set {
	pthread_mutex_t lock;
	struct zbd_dev *devs;
	bool init;
};

void zbd_set_init(struct zbd_set *set);
void zbd_set_free(struct zbd_set *set);

/* What a path is, before anything runs: a zoned device (model, zone size and open-zone
 * limit from sysfs), or not (ZBD_EMULATED, zone_size 0). 0, or -errno. */
int zbd_probe(const char *path, enum zbd_model *model, uint64_t *zone_size, unsigned *max_open);

/* The table of path: the one the run has, else a new one: the device's zones (read through
 * fd), or zones emulated over size bytes (zone_size each, capacity writable). Sets *made when
 * it is new, and then returns it locked (zbd_lock): no other clone sees it before its maker
 * has set it up (the open-zone limit). NULL after a line in why (-errno in *err). */
struct zbd_dev *zbd_get(struct zbd_set *set, const char *path, int fd, uint64_t size, uint64_t zone_size,
			uint64_t capacity, bool *made, int *err, char *why, size_t whylen);

/* Emulated zones over size bytes: 0, or -EINVAL / -ENOMEM (why filled). */
int zbd_emulate(struct zbd_dev *dev, uint64_t size, uint64_t zone_size, uint64_t capacity, char *why, size_t whylen);
/* A device's zones from its BLKREPORTZONE descriptors (n of them, starting at zone 0). */
int zbd_from_report(struct zbd_dev *dev, const struct blk_zone *bz, uint32_t n, char *why, size_t whylen);
void zbd_dev_free(struct zbd_dev *dev);

static inline void zbd_lock(struct zbd_dev *dev)
{
	pthread_mutex_lock(&dev->lock);
}
static inline void zbd_unlock(struct zbd_dev *dev)
{
	pthread_mutex_unlock(&dev->lock);
}

/* The zone holding byte off (nr_zones past the end). */
static inline uint32_t zbd_zone_of(const struct zbd_dev *dev, uint64_t off)
{
	uint64_t i = off / dev->zone_size;
	return i < dev->nr_zones ? (uint32_t)i : dev->nr_zones;
}

static inline uint64_t zbd_cap_end(const struct zbd_zone *z)
{
	return z->start + z->cap;
}

/* Can the zone take no write of min_bs more? */
static inline bool zbd_full(const struct zbd_zone *z, uint64_t min_bs)
{
	return z->has_wp && z->wp + min_bs > zbd_cap_end(z);
}

/* Bytes below the write pointers of zones [lo, hi). */
uint64_t zbd_data(const struct zbd_dev *dev, uint32_t lo, uint32_t hi);
/* The write pointer of zone i moved to wp (the data count follows). */
void zbd_set_wp(struct zbd_dev *dev, uint32_t i, uint64_t wp);

/* Reset zone i: BLKRESETZONE on a zoned device (fd), the write pointer back to its start.
 * Returns 1 when it held data (a reset to count), 0 when it was empty, or -errno. */
int zbd_reset(struct zbd_dev *dev, uint32_t i, int fd);

/* Open-zone bookkeeping (with a limit in force). */
void zbd_open_add(struct zbd_dev *dev, uint32_t i, unsigned *opener);
void zbd_open_remove(struct zbd_dev *dev, uint32_t i);

#endif
