/* The worker's side of the zone modes (core/plan/zone.h): each clone's files as zones see them,
 * where each I/O goes, passes that end when the zones run out, writes in flight. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/worker/worker_int.h"
#include "core/plan/zone.h"
#include "core/lib/say.h"

/* The smallest block of direction d (bs, bsrange, bssplit): fio's min_bs. */
static uint64_t dir_min_bs(const struct job_opts *o, int d)
{
	uint64_t b = o->bs_min[d] ? o->bs_min[d] : o->bs[d];
	for (unsigned i = 0; i < o->nbssplit[d]; i++)
		if (o->bssplit[d][i].pct && o->bssplit[d][i].bs < b)
			b = o->bssplit[d][i].bs;
	return b ? b : 1;
}

static bool writes(const struct job_opts *o)
{
	return job_has_dir(o, DDIR_WRITE) && !o->verify_only;
}

/* A table another job made already must agree with this job. */
static int check_shared(const struct wstate *s, const struct zbd_dev *dev, char *why, size_t n)
{
	const struct zone_opts *z = &s->o->zone;
	if (dev->model == ZBD_EMULATED && z->size != dev->zone_size)
		return snprintf(why, n, "zonesize=%llu, where another job has zones of %llu bytes on it",
				(unsigned long long)z->size, (unsigned long long)dev->zone_size), -EINVAL;
	if (z->max_open && z->max_open != dev->max_open)
		return snprintf(why, n, "max_open_zones=%u, where another job on it has %u", z->max_open,
				dev->max_open), -EINVAL;
	return 0;
}

/* Zones of the region; a job that writes and verifies starts from empty zones, as fio's. */
static int claim_zones(struct wstate *s, struct zone_file *zf, int fd, char *why, size_t n)
{
	struct zbd_dev *dev = zf->dev;
	const struct job_opts *o = s->o;
	zf->zmin = zbd_zone_of(dev, zf->start);
	zf->zmax = zbd_zone_of(dev, zf->start + zf->len);
	if (zf->zmax <= zf->zmin)
		zf->zmax = zf->zmin < dev->nr_zones ? zf->zmin + 1 : zf->zmin;
	if (zf->zmin >= dev->nr_zones)
		return snprintf(why, n, "the region starts past its %u zones", dev->nr_zones), -EINVAL;
	if (job_has_dir(o, DDIR_TRIM) && o->bs[DDIR_TRIM] != dev->zone_size)
		return snprintf(why, n, "bs: trims reset whole zones: the trim block size (%llu) must be its zone size "
					"(%llu)", (unsigned long long)o->bs[DDIR_TRIM], (unsigned long long)dev->zone_size),
		       -EINVAL;
	if (writes(o) && o->bs[DDIR_WRITE] > dev->zone_size)
		return snprintf(why, n, "bs: writes of %llu bytes do not fit its zones of %llu bytes",
				(unsigned long long)o->bs[DDIR_WRITE], (unsigned long long)dev->zone_size), -EINVAL;
	if (o->zone.job_max_open && !dev->max_open)
		return snprintf(why, n, "job_max_open_zones needs an open-zone limit (max_open_zones, or the "
					"device's own)"), -EINVAL;
	if (o->zone.skip % dev->zone_size)
		return snprintf(why, n, "zoneskip: %llu bytes is not a multiple of its zone size (%llu bytes)",
				(unsigned long long)o->zone.skip, (unsigned long long)dev->zone_size), -EINVAL;
	dev->write_cnt = 0;
	/* Zones a zoned device had open count against its limit; those over it are reset. */
	for (uint32_t i = zf->zmin; i < zf->zmax; i++) {
		struct zbd_zone *z = &dev->zones[i];
		if (!z->dev_open)
			continue;
		z->dev_open = false;
		if (!dev->max_open || z->open || dev->nr_open < dev->max_open) {
			if (dev->max_open && !z->open)
				zbd_open_add(dev, i, NULL);
			continue;
		}
		int r = zbd_reset(dev, i, fd);
		if (r < 0)
			return snprintf(why, n, "resetting zone %u: %s", i, strerror(-r)), r;
		s->zone.setup_resets += (uint64_t)r;
	}
	if (!writes(o) || o->verify == VERIFY_NONE)
		return 0;
	for (uint32_t i = zf->zmin; i < zf->zmax; i++) {
		int r = zbd_reset(dev, i, fd);
		if (r < 0)
			return snprintf(why, n, "resetting zone %u: %s", i, strerror(-r)), r;
		s->zone.setup_resets += (uint64_t)r;
		zbd_open_remove(dev, i);
	}
	return 0;
}

static int setup_zbd(struct wstate *s, struct wfile *f, struct zone_file *zf)
{
	char why[512] = "";
	bool made;
	int err;
	struct zbd_dev *dev = zbd_get(s->w->zbd, wf_cf(s, f)->path, wf_fd(s, f), zf->file_end, s->o->zone.size,
				      s->o->zone.capacity, &made, &err, why, sizeof(why));
	if (dev) {
		zf->dev = dev;
		if (!made) /* a new one comes locked: set up before another clone looks */
			zbd_lock(dev);
		err = made ? zbd_open_limit(dev, &s->o->zone, why, sizeof(why)) : check_shared(s, dev, why, sizeof(why));
		if (!err)
			err = claim_zones(s, zf, wf_fd(s, f), why, sizeof(why));
		zbd_unlock(dev);
	}
	if (err)
		job_say(s->o->name, "zonemode=zbd: '%s': %s", wf_cf(s, f)->path, why);
	return err;
}

/* The size of the file now (laid out): strided zones wrap at it, emulated zones cover it. */
static uint64_t size_now(const struct wstate *s, const struct wfile *f)
{
	const struct clone_file *cf = wf_cf(s, f);
	uint64_t real = 0, end = cf->offset + cf->region;
	if (wf_fd(s, f) < 0 || files_target_size(cf->path, &real))
		return end;
	return real > end ? real : end;
}

int zone_setup(struct wstate *s)
{
	struct zone_state *zs = &s->zone;
	const struct job_opts *o = s->o;
	zs->mode = o->zone.mode;
	if (zs->mode == ZONE_MODE_NONE)
		return 0;
	zs->random = (o->rw & RW_RANDOM) != 0;
	for (int d = 0; d < DDIR_NR; d++)
		zs->min_bs[d] = dir_min_bs(o, d);
	zs->files = calloc(s->nfiles ? s->nfiles : 1, sizeof(*zs->files));
	zs->unit_zone = calloc(s->depth ? s->depth : 1, sizeof(*zs->unit_zone));
	if (!zs->files || !zs->unit_zone)
		return worker_nomem(s, "zone state", (uint64_t)s->nfiles * sizeof(*zs->files));
	for (unsigned i = 0; i < s->nfiles; i++) {
		struct zone_file *zf = &zs->files[i];
		zf->start = zf->base = s->cfs[i].offset;
		zf->len = s->cfs[i].region;
		zf->file_end = size_now(s, &s->files[i]);
		for (int d = 0; d < DDIR_NR; d++)
			zf->pos[d] = zf->start;
		if (zs->mode == ZONE_MODE_ZBD) {
			int ret = setup_zbd(s, &s->files[i], zf);
			if (ret)
				return ret;
		}
	}
	return 0;
}

void zone_teardown(struct wstate *s)
{
	struct zone_state *zs = &s->zone;
	if (zs->files && zs->mode == ZONE_MODE_ZBD) {
		for (unsigned i = 0; i < s->nfiles; i++) {
			struct zbd_dev *dev = zs->files[i].dev;
			if (!dev)
				continue;
			zbd_lock(dev);
			for (unsigned k = 0; k < s->depth && zs->unit_zone; k++)
				if (zs->unit_zone[k] && s->units[k].file_index == i)
					zbd_write_done(dev, zs->unit_zone[k] - 1, 0);
			for (uint32_t z = 0; z < dev->nr_zones; z++)
				if (dev->zones[z].opener == &zs->nr_open)
					dev->zones[z].opener = NULL; /* still open, by a clone that is gone */
			zbd_unlock(dev);
		}
	}
	s->ts->zone_resets += zs->setup_resets; /* counted once the statistics are final */
	zs->setup_resets = 0;
	free(zs->files);
	free(zs->unit_zone);
	zs->files = NULL;
	zs->unit_zone = NULL;
}

enum ddir zone_ddir(struct wstate *s, enum ddir d)
{
	const struct job_opts *o = s->o;
	if (s->zone.mode != ZONE_MODE_ZBD || d != DDIR_READ || !job_has_dir(o, DDIR_WRITE) || o->zone.read_beyond_wp)
		return d;
	for (unsigned i = 0; i < s->nfiles; i++) {
		struct zone_file *zf = &s->zone.files[i];
		zbd_lock(zf->dev);
		uint64_t data = zbd_data(zf->dev, zf->zmin, zf->zmax);
		zbd_unlock(zf->dev);
		if (data)
			return d;
	}
	return DDIR_WRITE; /* nothing to read yet: fio writes first */
}

/* ---- strided ---- */

static int strided_next(struct wstate *s, struct zone_file *zf, enum ddir d, uint64_t len, uint64_t *off)
{
	struct zone_state *zs = &s->zone;
	const struct zone_opts *z = &s->o->zone;
	uint64_t g = s->off.granule, rel;
	uint64_t blocks = z->range / g ? z->range / g : 1;
	if (zone_strided_step(z, zf, &zs->zone_bytes, d) && zs->random && !s->o->norandommap)
		perm_init(&zf->map, blocks, &s->rng);
	if (!zs->random) {
		rel = zf->pos[d] - zf->base;
	} else if (s->o->norandommap) {
		rel = rng_below(&s->rng, blocks) * g;
	} else {
		uint64_t b = perm_next(&zf->map);
		if (b == UINT64_MAX) { /* zonesize > zonerange: the zone's blocks once more */
			perm_init(&zf->map, blocks, &s->rng);
			b = perm_next(&zf->map);
		}
		rel = b * g;
	}
	if (rel >= zf->len || zf->base + rel + len > zf->file_end)
		return ZONE_EOF;
	*off = zf->base + rel;
	if (!zs->random)
		zf->pos[d] = *off + len + (s->o->rw_mod > 0 ? (uint64_t)s->o->rw_mod : 0);
	zs->zone_bytes += len;
	return ZONE_GO;
}

/* ---- zbd ---- */

/* The sequential position of direction d: past a zone's capacity to its end (writes), to the
 * next zone after zoneskip. ZONE_EOF when the region is done. */
static int zbd_seq(struct wstate *s, struct zone_file *zf, enum ddir d, uint64_t *pos)
{
	const struct zone_opts *z = &s->o->zone;
	const struct zbd_dev *dev = zf->dev;
	uint64_t p = zf->pos[d];
	uint32_t i = zbd_zone_of(dev, p);
	if (i < dev->nr_zones) {
		const struct zbd_zone *zz = &dev->zones[i];
		if (d == DDIR_WRITE && zz->cap < zz->len && p >= zbd_cap_end(zz))
			p = zz->start + zz->len;
		bool past_wp = d == DDIR_READ && s->o->verify != VERIFY_NONE && p >= zz->wp;
		if (z->skip && (s->zone.zone_bytes >= dev->zone_size || p >= zz->start + zz->len || past_wp)) {
			s->zone.zone_bytes = 0;
			zf->base += dev->zone_size + z->skip;
			if (zf->base >= zf->file_end)
				zf->base = zf->start;
			p = zf->base;
		}
	}
	zf->pos[d] = p;
	if (p - zf->base >= zf->len || p >= zf->file_end)
		return ZONE_EOF;
	*pos = p;
	return ZONE_GO;
}

static int zbd_next(struct wstate *s, struct wfile *f, struct zone_file *zf, enum ddir d, uint64_t *off,
		    uint64_t *len)
{
	struct zone_state *zs = &s->zone;
	const struct job_opts *o = s->o;
	uint64_t at;
	if (!zs->random && !s->trim.pairs) {
		int r = zbd_seq(s, zf, d, &at);
		if (r != ZONE_GO)
			return r;
	} else if (!zs->random) { /* trimwrite: offsets.c pairs each trim with its write */
		at = offsets_next(s, f, d, *len);
	} else {
		/* Every block once per pass (the random map), then the pass is over, as in fio. */
		if (!zs->held && !o->norandommap && zf->drawn >= f->blocks * s->off.granule)
			return ZONE_EOF;
		if (!zs->held) { /* kept over a wait: the same random offset is placed again */
			zs->held_off = offsets_next(s, f, d, *len);
			zf->drawn += *len;
		}
		at = zs->held_off;
	}
	struct zbd_io io = {
		.dev = zf->dev, .zmin = zf->zmin, .zmax = zf->zmax, .start = zf->start, .len = zf->len,
		.min_bs = zs->min_bs[d], .random = zs->random, .verify = o->verify != VERIFY_NONE,
		.read_beyond_wp = o->zone.read_beyond_wp, .job_max_open = o->zone.job_max_open,
		.nr_open = &zs->nr_open, .threshold = o->zone.reset_threshold, .frequency = o->zone.reset_frequency,
		.fd = wf_fd(s, f), .busy_ok = s->inflight > 0,
	};
	struct zbd_place p;
	zbd_lock(io.dev);
	int r = d == DDIR_WRITE ? zbd_place_write(&io, at, *len, &p)
		: d == DDIR_TRIM ? zbd_place_trim(&io, at, *len, &p) : zbd_place_read(&io, at, *len, &p);
	bool wp_zone = r == ZONE_GO && d != DDIR_READ && io.dev->zones[p.zone].has_wp;
	if (wp_zone && d == DDIR_WRITE && o->verify_only) /* a dry run: nothing is written */
		zbd_write_done(io.dev, p.zone, p.off + p.len);
	zbd_unlock(io.dev);
	zs->held = r == ZONE_BUSY && zs->random;
	s->ts->zone_resets += r >= 0 ? p.resets : 0;
	if (r < 0)
		job_say(o->name, "zonemode=zbd: '%s': resetting a zone failed: %s", wf_cf(s, f)->path, strerror(-r));
	if (r != ZONE_GO)
		return r;
	zs->last_zone = wp_zone && !o->verify_only ? (p.zone + 1) | (d == DDIR_TRIM ? ZONE_UNIT_TRIM : 0) : 0;
	*off = p.off;
	*len = p.len;
	if (!zs->random)
		zf->pos[d] = p.off + p.len + (o->rw_mod > 0 ? (uint64_t)o->rw_mod : 0);
	zs->zone_bytes += p.len;
	return ZONE_GO;
}

/* ---- passes and files ---- */

/* The next file whose pass is not over, from f on; NULL when all are done. */
static struct wfile *live_file(struct wstate *s, struct wfile *f)
{
	for (unsigned k = 0; k < s->nfiles; k++) {
		unsigned i = (unsigned)(f - s->files + k) % s->nfiles;
		if (!s->zone.files[i].done)
			return &s->files[i];
	}
	return NULL;
}

/* Every file's pass is over: another, if the job asks for more (io_size, loops, time_based)
 * and this one did something. */
static bool new_pass(struct wstate *s)
{
	struct zone_state *zs = &s->zone;
	const struct job_opts *o = s->o;
	zs->passes++;
	if (!zs->pass_ios || !(o->io_size || o->time_based || zs->passes < o->loops))
		return false;
	zs->pass_ios = 0;
	zs->zone_bytes = 0;
	for (unsigned i = 0; i < s->nfiles; i++) {
		struct zone_file *zf = &zs->files[i];
		zf->done = false;
		zf->drawn = 0;
		zf->base = zf->start;
		if (zf->dev) { /* the countdown of zone_reset_frequency starts again, as fio's */
			zbd_lock(zf->dev);
			zf->dev->write_cnt = 0;
			zbd_unlock(zf->dev);
		}
		for (int d = 0; d < DDIR_NR; d++)
			zf->pos[d] = zf->start;
	}
	return true;
}

int zone_next(struct wstate *s, struct wfile **fp, enum ddir d, uint64_t *off, uint64_t *len)
{
	struct zone_state *zs = &s->zone;
	struct wfile *f = *fp;
	for (;;) {
		if (zs->files[f - s->files].done && !(f = live_file(s, f))) {
			if (!new_pass(s))
				return ZONE_EOF;
			f = *fp;
		}
		struct zone_file *zf = &zs->files[f - s->files];
		int r = zs->mode == ZONE_MODE_STRIDED ? strided_next(s, zf, d, *len, off) : zbd_next(s, f, zf, d, off, len);
		if (r != ZONE_EOF) {
			*fp = f;
			zs->pass_ios += r == ZONE_GO;
			return r;
		}
		zf->done = true;
	}
}

void zone_bind(struct wstate *s, const struct io_unit *u)
{
	s->zone.unit_zone[u->index] = s->zone.last_zone;
	s->zone.last_zone = 0;
}

bool zone_trim(struct wstate *s, struct io_unit *u)
{
	struct zone_state *zs = &s->zone;
	uint32_t z = zs->unit_zone[u->index];
	if (!(z & ZONE_UNIT_TRIM))
		return false;
	zs->unit_zone[u->index] = 0;
	struct zbd_dev *dev = zs->files[u->file_index].dev;
	uint32_t i = (z & ~ZONE_UNIT_TRIM) - 1;
	zbd_lock(dev);
	int r = zbd_reset(dev, i, u->fd);
	zbd_open_remove(dev, i);
	zbd_unlock(dev);
	s->ts->zone_resets += r > 0;
	u->result = r < 0 ? r : (int64_t)u->len;
	return true;
}

void zone_done(struct wstate *s, const struct io_unit *u)
{
	struct zone_state *zs = &s->zone;
	uint32_t z = zs->unit_zone[u->index];
	if (!z)
		return;
	zs->unit_zone[u->index] = 0;
	struct zbd_dev *dev = zs->files[u->file_index].dev;
	zbd_lock(dev);
	zbd_write_done(dev, z - 1, u->offset + u->len);
	zbd_unlock(dev);
}
