/* Zone tables (core/plan/zbd.h): probing, reading a zoned device's zones, emulating them, the
 * run's set of tables, resets, and the count of bytes holding data. */
#include "core/plan/zbd.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/blkzoned.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define SECTOR 512ULL
#define REPORT_BATCH 4096u

void zbd_set_init(struct zbd_set *set)
{
	pthread_mutex_init(&set->lock, NULL);
	set->devs = NULL;
	set->init = true;
}

void zbd_dev_free(struct zbd_dev *dev)
{
	if (!dev)
		return;
	free(dev->zones);
	free(dev->data);
	free(dev->open);
	pthread_mutex_destroy(&dev->lock);
	free(dev);
}

void zbd_set_free(struct zbd_set *set)
{
	if (!set->init)
		return;
	for (struct zbd_dev *d = set->devs, *next; d; d = next) {
		next = d->next;
		zbd_dev_free(d);
	}
	set->devs = NULL;
	pthread_mutex_destroy(&set->lock);
	set->init = false;
}

/* A number from a sysfs file of the device (-1 if there is none). */
static long long sysfs_number(dev_t rdev, const char *name)
{
	char path[128], buf[64];
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/%s", major(rdev), minor(rdev), name);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	long long v = fgets(buf, sizeof(buf), f) ? strtoll(buf, NULL, 10) : -1;
	fclose(f);
	return v;
}

int zbd_probe(const char *path, enum zbd_model *model, uint64_t *zone_size, unsigned *max_open)
{
	struct stat st;
	char p[128], buf[64] = "";
	*model = ZBD_EMULATED;
	*zone_size = 0;
	*max_open = 0;
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return 0;
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/queue/zoned", major(st.st_rdev), minor(st.st_rdev));
	FILE *f = fopen(p, "re");
	if (!f)
		return 0; /* a partition: never zoned */
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	if (!strncmp(buf, "host-managed", 12))
		*model = ZBD_HOST_MANAGED;
	else if (!strncmp(buf, "host-aware", 10))
		*model = ZBD_HOST_AWARE;
	else
		return 0;
	long long chunk = sysfs_number(st.st_rdev, "chunk_sectors");
	long long mo = sysfs_number(st.st_rdev, "max_open_zones");
	*zone_size = chunk > 0 ? (uint64_t)chunk * SECTOR : 0;
	*max_open = mo > 0 ? (unsigned)mo : 0;
	return 0;
}

static int dev_alloc(struct zbd_dev *dev, uint32_t n, char *why, size_t whylen)
{
	dev->nr_zones = n;
	dev->zones = calloc((size_t)n + 1, sizeof(*dev->zones));
	dev->data = calloc((size_t)n + 1, sizeof(*dev->data));
	dev->open = calloc((size_t)n + 1, sizeof(*dev->open));
	if (!dev->zones || !dev->data || !dev->open) {
		snprintf(why, whylen, "out of memory for %u zones", n);
		return -ENOMEM;
	}
	return 0;
}

int zbd_emulate(struct zbd_dev *dev, uint64_t size, uint64_t zone_size, uint64_t capacity, char *why, size_t whylen)
{
	if (!zone_size || size < zone_size) {
		snprintf(why, whylen, "the file or device (%llu bytes) is smaller than zonesize (%llu bytes)",
			 (unsigned long long)size, (unsigned long long)zone_size);
		return -EINVAL;
	}
	uint64_t n = (size + zone_size - 1) / zone_size;
	if (n > UINT32_MAX) {
		snprintf(why, whylen, "%llu zones of %llu bytes are too many", (unsigned long long)n,
			 (unsigned long long)zone_size);
		return -EINVAL;
	}
	int ret = dev_alloc(dev, (uint32_t)n, why, whylen);
	if (ret)
		return ret;
	dev->model = ZBD_EMULATED;
	dev->zone_size = zone_size;
	dev->size = n * zone_size;
	for (uint32_t i = 0; i < dev->nr_zones; i++) {
		struct zbd_zone *z = &dev->zones[i];
		z->start = z->wp = (uint64_t)i * zone_size;
		z->len = zone_size;
		z->cap = capacity ? capacity : zone_size;
		z->has_wp = true;
	}
	dev->zones[dev->nr_zones].start = dev->size; /* the end, for the last zone's length */
	return 0;
}

int zbd_from_report(struct zbd_dev *dev, const struct blk_zone *bz, uint32_t n, char *why, size_t whylen)
{
	if (!n || !bz[0].len) {
		snprintf(why, whylen, "the device reports no zones");
		return -EINVAL;
	}
	int ret = dev_alloc(dev, n, why, whylen);
	if (ret)
		return ret;
	dev->zone_size = bz[0].len * SECTOR;
	for (uint32_t i = 0; i < n; i++) {
		struct zbd_zone *z = &dev->zones[i];
		z->start = bz[i].start * SECTOR;
		z->len = bz[i].len * SECTOR;
		z->cap = bz[i].capacity ? bz[i].capacity * SECTOR : z->len;
		z->has_wp = bz[i].type != BLK_ZONE_TYPE_CONVENTIONAL;
		z->offline = bz[i].cond == BLK_ZONE_COND_OFFLINE || bz[i].cond == BLK_ZONE_COND_READONLY;
		z->dev_open = bz[i].cond == BLK_ZONE_COND_IMP_OPEN || bz[i].cond == BLK_ZONE_COND_EXP_OPEN;
		if (!z->has_wp)
			z->wp = z->start + z->len;
		else if (bz[i].cond == BLK_ZONE_COND_FULL)
			z->wp = zbd_cap_end(z);
		else
			z->wp = bz[i].wp * SECTOR;
		if (z->start != (uint64_t)i * dev->zone_size || (i + 1 < n && z->len != dev->zone_size)) {
			snprintf(why, whylen, "zone %u is not %llu bytes at %llu (zones of one size are needed)", i,
				 (unsigned long long)dev->zone_size, (unsigned long long)i * dev->zone_size);
			return -EINVAL;
		}
		if (z->has_wp && !z->offline && z->wp > z->start)
			zbd_set_wp(dev, i, z->wp); /* its data is counted */
	}
	dev->size = dev->zones[n - 1].start + dev->zones[n - 1].len;
	dev->zones[n].start = dev->size;
	return 0;
}

/* BLKREPORTZONE over the whole device. */
static int read_zones(struct zbd_dev *dev, int fd, char *why, size_t whylen)
{
	uint32_t nr = 0;
	if (ioctl(fd, BLKGETNRZONES, &nr) < 0 || !nr) {
		int err = nr ? -errno : -EINVAL;
		snprintf(why, whylen, "cannot count its zones (BLKGETNRZONES): %s", strerror(-err));
		return err;
	}
	struct blk_zone *all = calloc(nr, sizeof(*all));
	struct blk_zone_report *rep = calloc(1, sizeof(*rep) + REPORT_BATCH * sizeof(struct blk_zone));
	int ret = all && rep ? 0 : -ENOMEM;
	uint32_t got = 0;
	while (!ret && got < nr) {
		rep->sector = got ? all[got - 1].start + all[got - 1].len : 0;
		rep->nr_zones = REPORT_BATCH;
		if (ioctl(fd, BLKREPORTZONE, rep) < 0)
			ret = -errno;
		else if (!rep->nr_zones)
			break;
		for (uint32_t k = 0; !ret && k < rep->nr_zones && got < nr; k++)
			all[got++] = rep->zones[k];
	}
	if (ret)
		snprintf(why, whylen, "cannot read its zones (BLKREPORTZONE): %s", strerror(-ret));
	else
		ret = zbd_from_report(dev, all, got, why, whylen);
	free(rep);
	free(all);
	return ret;
}

static struct zbd_dev *dev_make(const char *path, int fd, uint64_t size, uint64_t zone_size, uint64_t capacity,
				int *err, char *why, size_t whylen)
{
	struct zbd_dev *dev = calloc(1, sizeof(*dev));
	enum zbd_model model;
	uint64_t dev_zone;
	unsigned dev_open;
	if (!dev) {
		*err = -ENOMEM;
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&dev->lock, NULL);
	snprintf(dev->path, sizeof(dev->path), "%s", path);
	/* What cannot be probed (the null engine's names) is no zoned device: emulated. */
	if (!zbd_probe(path, &model, &dev_zone, &dev_open) && model != ZBD_EMULATED) {
		*err = read_zones(dev, fd, why, whylen);
		dev->model = model;
		dev->dev_max_open = dev_open;
	} else {
		*err = zbd_emulate(dev, size, zone_size, capacity, why, whylen);
	}
	if (*err) {
		zbd_dev_free(dev);
		return NULL;
	}
	return dev;
}

struct zbd_dev *zbd_get(struct zbd_set *set, const char *path, int fd, uint64_t size, uint64_t zone_size,
			uint64_t capacity, bool *made, int *err, char *why, size_t whylen)
{
	struct zbd_dev *dev;
	*made = false;
	*err = 0;
	pthread_mutex_lock(&set->lock);
	for (dev = set->devs; dev && strcmp(dev->path, path); dev = dev->next)
		;
	if (!dev && (dev = dev_make(path, fd, size, zone_size, capacity, err, why, whylen))) {
		zbd_lock(dev); /* before any other clone can find it */
		dev->next = set->devs;
		set->devs = dev;
		*made = true;
	}
	pthread_mutex_unlock(&set->lock);
	return dev;
}

/* ---- bytes holding data: a Fenwick tree over the zones (index i + 1) ---- */

static void data_add(struct zbd_dev *dev, uint32_t i, int64_t delta)
{
	for (uint64_t k = (uint64_t)i + 1; k <= dev->nr_zones; k += k & -k)
		dev->data[k] = (uint64_t)((int64_t)dev->data[k] + delta);
}

static uint64_t data_prefix(const struct zbd_dev *dev, uint32_t n)
{
	uint64_t sum = 0;
	for (uint64_t k = n; k > 0; k -= k & -k)
		sum += dev->data[k];
	return sum;
}

uint64_t zbd_data(const struct zbd_dev *dev, uint32_t lo, uint32_t hi)
{
	return hi > lo ? data_prefix(dev, hi) - data_prefix(dev, lo) : 0;
}

void zbd_set_wp(struct zbd_dev *dev, uint32_t i, uint64_t wp)
{
	struct zbd_zone *z = &dev->zones[i];
	if (!z->has_wp)
		return;
	uint64_t old = zbd_data(dev, i, i + 1);
	data_add(dev, i, (int64_t)(wp - z->start) - (int64_t)old);
	z->wp = wp;
}

int zbd_reset(struct zbd_dev *dev, uint32_t i, int fd)
{
	struct zbd_zone *z = &dev->zones[i];
	if (!z->has_wp || z->wp == z->start)
		return 0;
	if (dev->model != ZBD_EMULATED) {
		struct blk_zone_range r = { .sector = z->start / SECTOR, .nr_sectors = z->len / SECTOR };
		if (ioctl(fd, BLKRESETZONE, &r) < 0)
			return -errno;
	}
	zbd_set_wp(dev, i, z->start);
	return 1;
}

void zbd_open_add(struct zbd_dev *dev, uint32_t i, unsigned *opener)
{
	dev->open[dev->nr_open++] = i;
	dev->zones[i].open = true;
	dev->zones[i].opener = opener;
	if (opener)
		__atomic_fetch_add(opener, 1, __ATOMIC_RELAXED);
}

void zbd_open_remove(struct zbd_dev *dev, uint32_t i)
{
	struct zbd_zone *z = &dev->zones[i];
	if (!z->open)
		return;
	for (unsigned k = 0; k < dev->nr_open; k++)
		if (dev->open[k] == i) {
			memmove(&dev->open[k], &dev->open[k + 1], (dev->nr_open - k - 1) * sizeof(*dev->open));
			dev->nr_open--;
			break;
		}
	z->open = false;
	if (z->opener)
		__atomic_fetch_sub(z->opener, 1, __ATOMIC_RELAXED);
	z->opener = NULL;
}
