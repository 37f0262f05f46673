/* Zone modes (core/plan/zone.h): the job's zone options checked and "Nz" sizes made bytes, the
 * regions of zbd jobs rounded to whole zones, and the strided zone walk. */
#include "core/plan/zone.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/plan/files.h"
#include "core/lib/say.h"

/* The reason into e (n bytes), and -EINVAL. */
#define FAIL(...) (snprintf(e, n, __VA_ARGS__), -EINVAL)
#define ULL(x) ((unsigned long long)(x))

/* The largest write a job makes (bs, bsrange, bssplit). */
static uint64_t max_write_bs(const struct job_opts *o)
{
	uint64_t b = o->bs_max[DDIR_WRITE] > o->bs[DDIR_WRITE] ? o->bs_max[DDIR_WRITE] : o->bs[DDIR_WRITE];
	for (unsigned i = 0; i < o->nbssplit[DDIR_WRITE]; i++)
		if (o->bssplit[DDIR_WRITE][i].bs > b)
			b = o->bssplit[DDIR_WRITE][i].bs;
	return b;
}

/* The zone size for "Nz": zonesize, or (zbd) the zoned device's. */
static uint64_t count_unit(const struct job_opts *o)
{
	enum zbd_model m;
	uint64_t zs = 0;
	unsigned mo;
	if (o->zone.size || o->zone.mode != ZONE_MODE_ZBD || strchr(o->filename, ':'))
		return o->zone.size;
	return o->filename[0] && !zbd_probe(o->filename, &m, &zs, &mo) ? zs : 0;
}

static int convert_counts(struct job_opts *o, char *e, size_t n)
{
	static const char *const names[ZCOUNT_NR] = { "offset", "offset_increment", "size", "io_size" };
	uint64_t *fields[ZCOUNT_NR] = { &o->offset, &o->offset_increment, &o->size, &o->io_size };
	unsigned *pcts[ZCOUNT_NR] = { &o->offset_pct, &o->offset_increment_pct, &o->size_pct, NULL };
	uint64_t unit = 0;
	for (int i = 0; i < ZCOUNT_NR; i++) {
		if (!o->zone.counted[i])
			continue;
		if (o->zone.mode == ZONE_MODE_NONE)
			return FAIL("%s: %lluz counts zones, which needs zonemode=strided or zbd", names[i],
				    ULL(o->zone.count[i]));
		if (!unit && !(unit = count_unit(o)))
			return FAIL("%s: %lluz counts zones, which needs zonesize", names[i], ULL(o->zone.count[i]));
		if (__builtin_mul_overflow(o->zone.count[i], unit, fields[i]) || *fields[i] > (uint64_t)INT64_MAX)
			return FAIL("%s: %llu zones of %llu bytes are beyond the largest file", names[i],
				    ULL(o->zone.count[i]), ULL(unit));
		if (pcts[i])
			*pcts[i] = 0;
	}
	return 0;
}

static int check_strided(struct job_opts *o, char *e, size_t n)
{
	struct zone_opts *z = &o->zone;
	bool random = o->rw & RW_RANDOM;
	if (!z->size)
		return FAIL("zonemode=strided: zonesize must be given (and more than 0)");
	if (!z->range)
		z->range = z->size;
	if (job_has_dir(o, DDIR_TRIM) && job_has_dir(o, DDIR_WRITE))
		return FAIL("zonemode=strided: rw=%s: trim+write pairs do not walk strided zones in iobench", o->rw_text);
	if (o->rw_mod < 0 || (random && o->rw_mod))
		return FAIL("zonemode=strided: rw=%s: iobench walks zones forwards, one offset per I/O", o->rw_text);
	if (random && (o->dist[DDIR_READ].type != DIST_RANDOM || o->dist[DDIR_WRITE].type != DIST_RANDOM ||
		       o->dist[DDIR_TRIM].type != DIST_RANDOM))
		return FAIL("zonemode=strided: random_distribution: offsets are uniform within a zone in iobench "
			    "(random only)");
	for (int d = 0; d < DDIR_NR; d++)
		if (random && o->pct_random[d] < 100)
			return FAIL("zonemode=strided: percentage_random: a zone's offsets are all random or all "
				    "sequential in iobench");
	return 0;
}

static int check_zbd(struct job_opts *o, char *e, size_t n)
{
	const struct zone_opts *z = &o->zone;
	if (z->size && z->size < 512)
		return FAIL("zonesize: %llu bytes is less than 512, the least zonemode=zbd takes", ULL(z->size));
	if (z->capacity && z->size && z->capacity > z->size)
		return FAIL("zonecapacity: %llu bytes is more than zonesize (%llu bytes)", ULL(z->capacity),
			    ULL(z->size));
	if (z->skip && z->size && z->skip % z->size)
		return FAIL("zoneskip: %llu bytes is not a multiple of zonesize (%llu bytes) in zonemode=zbd",
			    ULL(z->skip), ULL(z->size));
	if (o->rw_mod < 0)
		return FAIL("zonemode=zbd: rw=%s: writes go forwards, at the write pointers", o->rw_text);
	if (job_has_dir(o, DDIR_WRITE) && z->size && max_write_bs(o) > z->size)
		return FAIL("bs: writes of %llu bytes do not fit a zone (zonesize=%llu)", ULL(max_write_bs(o)),
			    ULL(z->size));
	if (job_has_dir(o, DDIR_TRIM) && (o->nbssplit[DDIR_TRIM] || o->bs_max[DDIR_TRIM] > o->bs_min[DDIR_TRIM]))
		return FAIL("bs: trims in zonemode=zbd reset whole zones: one trim block size (bsrange and bssplit "
			    "are not for trims)");
	if (job_has_dir(o, DDIR_TRIM) && z->size && o->bs[DDIR_TRIM] != z->size)
		return FAIL("bs: trims in zonemode=zbd reset whole zones: the trim block size (%llu) must be zonesize "
			    "(%llu)", ULL(o->bs[DDIR_TRIM]), ULL(z->size));
	if (z->reset_frequency > 0 && o->verify != VERIFY_NONE && job_writes(o))
		return FAIL("zone_reset_frequency: resetting zones would lose data that verify checks");
	return 0;
}

int zone_resolve(struct job_opts *o, char *e, size_t n)
{
	struct zone_opts *z = &o->zone;
	if (z->mode == ZONE_MODE_NONE && z->size)
		return FAIL("zonesize: needs zonemode=strided or zonemode=zbd (fio 3.33 refuses it with zonemode=none too)");
	int ret = convert_counts(o, e, n);
	if (ret || z->mode == ZONE_MODE_NONE)
		return ret;
	if (job_whole_files(o))
		return FAIL("zonemode: opendir's whole-file reads have no zones");
	return z->mode == ZONE_MODE_STRIDED ? check_strided(o, e, n) : check_zbd(o, e, n);
}

int zone_round(uint64_t zone_size, uint64_t *off, uint64_t *len)
{
	uint64_t end = *off + *len;
	uint64_t lo = (*off + zone_size - 1) / zone_size * zone_size, hi = end / zone_size * zone_size;
	if (!zone_size || hi <= lo)
		return -EINVAL;
	*off = lo;
	*len = hi - lo;
	return 0;
}

/* One file of a zbd job: is it one, and is its region whole zones? */
static int plan_file(const struct job_opts *o, struct clone_file *cf, bool no_file, uint64_t *zone_size)
{
	enum zbd_model model = ZBD_EMULATED;
	uint64_t dev_zone = 0, real = 0;
	unsigned mo;
	if (!no_file && zbd_probe(cf->path, &model, &dev_zone, &mo) == -ENOENT) {
		job_say(o->name,
			"zonemode=zbd: '%s' does not exist (zones are laid over an existing "
			"file or device, as fio does)",
			cf->path);
		return -ENOENT;
	}
	if (model != ZBD_EMULATED) {
		if (o->zone.size && o->zone.size != dev_zone) {
			job_say(o->name, "zonesize=%llu does not match the zone size of '%s' (%llu bytes)",
				(unsigned long long)o->zone.size, cf->path, (unsigned long long)dev_zone);
			return -EINVAL;
		}
		if (model == ZBD_HOST_MANAGED && job_writes(o) && !o->direct) {
			job_say(o->name, "writing to the host-managed zoned device '%s' needs direct=1", cf->path);
			return -EINVAL;
		}
		*zone_size = dev_zone;
	} else if (!o->zone.size) {
		job_say(o->name,
			"zonemode=zbd: zonesize must be given for '%s' (a regular file or a device that is not zoned)",
			no_file ? "(no file)" : cf->path);
		return -EINVAL;
	} else {
		*zone_size = o->zone.size;
		if (!no_file && files_target_size(cf->path, &real) == 0 && real < *zone_size) {
			job_say(o->name, "zonemode=zbd: '%s' (%llu bytes) is smaller than zonesize (%llu bytes)",
				cf->path, (unsigned long long)real, (unsigned long long)*zone_size);
			return -EINVAL;
		}
	}
	if (o->zone.job_max_open && !o->zone.max_open && !(model == ZBD_HOST_MANAGED && mo && !o->zone.ignore_limits)) {
		job_say(o->name, "job_max_open_zones needs max_open_zones (or a zoned device's own limit) for '%s'",
			cf->path);
		return -EINVAL;
	}
	if (o->zone.capacity && o->zone.capacity < job_min_bs(o) && job_has_dir(o, DDIR_WRITE)) {
		job_say(o->name, "zonecapacity: %llu bytes is less than the block size",
			(unsigned long long)o->zone.capacity);
		return -EINVAL;
	}
	return 0;
}

/* fio works on whole zones in a job that writes: offset up, end down (notes on stderr). */
static int round_file(const struct job_opts *o, struct clone_file *cf, uint64_t zone_size)
{
	uint64_t off = cf->offset, len = cf->region;
	if (o->rw == RW_READ || o->rw == (RW_READ | RW_RANDOM))
		return 0;
	if (zone_round(zone_size, &off, &len)) {
		job_say(o->name,
			"zonemode=zbd: '%s': the region (%llu bytes at %llu) holds no whole zone of %llu bytes",
			cf->path, (unsigned long long)cf->region, (unsigned long long)cf->offset,
			(unsigned long long)zone_size);
		return -EINVAL;
	}
	if (off != cf->offset)
		job_say(o->name, "note: %s: rounded up offset from %llu to %llu (zone boundary)", cf->path,
			(unsigned long long)cf->offset, (unsigned long long)off);
	if (len != cf->region - (off - cf->offset))
		job_say(o->name, "note: %s: rounded down io_size from %llu to %llu (zone boundary)", cf->path,
			(unsigned long long)(cf->region - (off - cf->offset)), (unsigned long long)len);
	cf->offset = off;
	cf->region = len;
	return 0;
}

int zone_plan(const struct job_opts *o, struct file_plan *plan, bool no_file)
{
	if (o->zone.mode != ZONE_MODE_ZBD)
		return 0;
	/* The amount of I/O stays what size and io_size say, as in fio: a pass over fewer zones
	 * ends sooner (zone_next), one that keeps to a zone does not. */
	for (unsigned i = 0; i < plan->nfiles; i++) {
		uint64_t zone_size = 0;
		int ret = plan_file(o, &plan->files[i], no_file, &zone_size);
		if (!ret)
			ret = round_file(o, &plan->files[i], zone_size);
		if (ret)
			return ret;
	}
	return 0;
}

bool zone_strided_step(const struct zone_opts *z, struct zone_file *zf, uint64_t *zone_bytes, enum ddir d)
{
	if (*zone_bytes >= z->size) {
		*zone_bytes = 0;
		zf->base += z->range + z->skip;
		if (zf->base >= zf->file_end)
			zf->base = zf->start;
		zf->pos[d] = zf->base;
	}
	if (zf->pos[d] >= zf->base + z->range) /* zonesize > zonerange: the zone again */
		zf->pos[d] = zf->base;
	if (*zone_bytes % z->range)
		return false;
	for (int k = 0; k < DDIR_NR; k++)
		zf->pos[k] = zf->base;
	return true;
}
