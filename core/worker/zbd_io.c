/* zonemode=zbd, one I/O at a time: where a write or a read goes given the zones' write
 * pointers, which zones are open, and when a zone is reset (core/worker/zbd_io.h). The caller holds
 * the table's lock. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include "core/worker/zbd_io.h"

static uint64_t round_bs(uint64_t v, uint64_t min_bs)
{
	return min_bs ? v / min_bs * min_bs : v;
}

/* Room for a write of min_bs, and no write of another in flight. */
static bool has_room(const struct zbd_zone *z, uint64_t min_bs)
{
	return z->has_wp && !z->offline && !z->inflight && z->wp + min_bs <= zbd_cap_end(z);
}

static bool in_range(const struct zbd_io *io, uint32_t i)
{
	return i >= io->zmin && i < io->zmax;
}

/* May this clone write to zone i now? Opens it when a limit is kept and it is not open. */
static bool zone_may_write(struct zbd_io *io, uint32_t i)
{
	struct zbd_dev *dev = io->dev;
	struct zbd_zone *z = &dev->zones[i];
	if (z->offline)
		return false;
	if (io->verify && zbd_full(z, io->min_bs)) /* resetting it would lose what verify checks */
		return false;
	if (!dev->max_open)
		return true;
	if (z->open) /* full once the writes in flight land: as good as full */
		return z->wp < zbd_cap_end(z);
	if (io->job_max_open && __atomic_load_n(io->nr_open, __ATOMIC_RELAXED) >= io->job_max_open)
		return false;
	if (dev->nr_open >= dev->max_open)
		return false;
	zbd_open_add(dev, i, io->nr_open);
	return true;
}

static bool at_limit(const struct zbd_io *io)
{
	const struct zbd_dev *dev = io->dev;
	return dev->nr_open == io->zmax - io->zmin || (dev->max_open && dev->nr_open >= dev->max_open) ||
	       (io->job_max_open && __atomic_load_n(io->nr_open, __ATOMIC_RELAXED) >= io->job_max_open);
}

/* Another zone to write in, from zone i on (the next ones in the region, wrapping), or an
 * open one with room. */
static int other_zone(struct zbd_io *io, uint32_t i, uint32_t *out)
{
	struct zbd_dev *dev = io->dev;
	if (at_limit(io) && io->busy_ok)
		return ZONE_BUSY; /* what is in flight may close zones */
	for (uint32_t n = io->zmax - io->zmin; n > 0; n--) {
		i = i + 1 >= io->zmax ? io->zmin : i + 1;
		const struct zbd_zone *z = &dev->zones[i];
		if (!z->has_wp || z->open || z->inflight)
			continue;
		if (zone_may_write(io, i)) {
			*out = i;
			return ZONE_GO;
		}
	}
	bool closing = false; /* an open zone fills with writes in flight: it closes when they land */
	for (unsigned k = 0; k < dev->nr_open; k++) {
		closing |= dev->zones[dev->open[k]].inflight > 0;
		if (in_range(io, dev->open[k]) && has_room(&dev->zones[dev->open[k]], io->min_bs)) {
			*out = dev->open[k];
			return ZONE_GO;
		}
	}
	return io->busy_ok || closing ? ZONE_BUSY : ZONE_EOF;
}

/* The write at off may not go to its own zone: one of the open zones (picked by where off
 * lies in the region, as fio does), else another zone. */
static int pick_zone(struct zbd_io *io, uint64_t off, uint32_t *out)
{
	struct zbd_dev *dev = io->dev;
	uint32_t i = zbd_zone_of(dev, off);
	i = i < io->zmin ? io->zmin : i >= io->zmax ? io->zmax - 1 : i;
	if (dev->max_open && dev->nr_open) {
		unsigned k0 = (unsigned)((off - io->start) * dev->nr_open / (io->len ? io->len : 1)), k;
		for (k = 0; k < dev->nr_open && !in_range(io, dev->open[(k0 + k) % dev->nr_open]); k++)
			;
		if (k == dev->nr_open)
			return ZONE_EOF; /* every open zone is another job's */
		i = dev->open[(k0 + k) % dev->nr_open];
		if (dev->zones[i].inflight)
			return ZONE_BUSY;
	}
	if (has_room(&dev->zones[i], io->min_bs) && zone_may_write(io, i)) {
		*out = i;
		return ZONE_GO;
	}
	return other_zone(io, i, out);
}

bool zbd_countdown(struct zbd_dev *dev, double frequency)
{
	if (!dev->write_cnt) {
		double n = 1.0 / frequency;
		dev->write_cnt = n >= (double)UINT_MAX ? UINT_MAX : (uint64_t)n;
	}
	return dev->write_cnt && --dev->write_cnt == 0;
}

/* Does this write reset its zone first: full, or the threshold of data passed and the
 * frequency's turn come? */
static bool due_reset(struct zbd_io *io, const struct zbd_zone *z)
{
	bool gc = io->frequency > 0 && (double)zbd_data(io->dev, io->zmin, io->zmax) >= io->threshold * (double)io->len &&
		  zbd_countdown(io->dev, io->frequency);
	return gc || zbd_full(z, io->min_bs);
}

int zbd_place_write(struct zbd_io *io, uint64_t off, uint64_t len, struct zbd_place *p)
{
	struct zbd_dev *dev = io->dev;
	uint32_t i = zbd_zone_of(dev, off);
	p->resets = 0;
	if (i >= dev->nr_zones)
		return ZONE_EOF;
	struct zbd_zone *z = &dev->zones[i];
	if (!z->has_wp) { /* conventional: anywhere, within the zone */
		p->off = off;
		p->len = off + len > z->start + z->len ? round_bs(z->start + z->len - off, io->min_bs) : len;
		p->zone = i;
		return p->len ? ZONE_GO : ZONE_EOF;
	}
	if (z->inflight)
		return ZONE_BUSY; /* one write at a time per zone, in order */
	if (!zone_may_write(io, i)) {
		int r = pick_zone(io, off, &i);
		if (r != ZONE_GO)
			return r;
		z = &dev->zones[i];
	}
	if (due_reset(io, z)) {
		if (io->verify)
			return ZONE_EOF;
		int r = zbd_reset(dev, i, io->fd);
		if (r < 0)
			return r;
		p->resets += (unsigned)r;
	}
	p->off = z->wp;
	p->len = round_bs(len < zbd_cap_end(z) - z->wp ? len : zbd_cap_end(z) - z->wp, io->min_bs);
	if (!p->len)
		return ZONE_EOF;
	p->zone = i;
	zbd_set_wp(dev, i, p->off + p->len);
	z->inflight++;
	return ZONE_GO;
}

/* A zone with data to read from zone i on: forwards only for sequential reads, else forwards
 * and backwards in turn. */
static bool data_zone(const struct zbd_io *io, uint32_t i, uint32_t *out)
{
	const struct zbd_zone *zs = io->dev->zones;
	for (int64_t up = (int64_t)i + 1, down = (int64_t)i - 1; up < io->zmax || down >= io->zmin; up++, down--) {
		if (up < io->zmax && !zs[up].offline && zs[up].start + io->min_bs <= zs[up].wp) {
			*out = (uint32_t)up;
			return true;
		}
		if (up >= io->zmax && !io->random)
			return false;
		if (io->random && down >= io->zmin && !zs[down].offline && zs[down].start + io->min_bs <= zs[down].wp) {
			*out = (uint32_t)down;
			return true;
		}
	}
	return false;
}

int zbd_place_read(struct zbd_io *io, uint64_t off, uint64_t len, struct zbd_place *p)
{
	const struct zbd_dev *dev = io->dev;
	uint32_t i = zbd_zone_of(dev, off);
	p->resets = 0;
	p->off = off;
	p->len = len;
	p->zone = i;
	if (io->read_beyond_wp || i >= dev->nr_zones || !dev->zones[i].has_wp)
		return ZONE_GO;
	const struct zbd_zone *z = &dev->zones[i];
	uint64_t from = z->start;
	uint64_t range = z->offline ? 0 : round_bs(z->wp - z->start, io->min_bs);
	if (range < io->min_bs || (!io->random && off + io->min_bs > z->wp)) {
		if (!data_zone(io, i, &i))
			return ZONE_EOF;
		z = &dev->zones[i];
		range = round_bs(z->wp - z->start, io->min_bs);
		if (!io->random)
			off = z->start;
	}
	if (range <= len)
		off = z->start;
	else if (io->random)
		off = z->start + round_bs((off - from) % (range - len), io->min_bs);
	p->off = off;
	p->zone = i;
	if (!z->has_wp)
		return ZONE_GO;
	p->len = round_bs(len < z->wp - off ? len : z->wp - off, io->min_bs);
	return p->len ? ZONE_GO : ZONE_EOF;
}

int zbd_place_trim(struct zbd_io *io, uint64_t off, uint64_t len, struct zbd_place *p)
{
	const struct zbd_dev *dev = io->dev;
	uint32_t i = zbd_zone_of(dev, off);
	*p = (struct zbd_place){ .off = off, .len = len, .zone = i };
	if (i >= dev->nr_zones)
		return ZONE_EOF;
	if (!dev->zones[i].has_wp)
		return ZONE_GO;
	if (io->random && dev->zones[i].wp == dev->zones[i].start) { /* only zones holding data */
		uint64_t min_bs = io->min_bs;
		io->min_bs = 1;
		bool found = data_zone(io, i, &i);
		io->min_bs = min_bs;
		if (!found)
			return ZONE_EOF;
		p->off = dev->zones[i].start;
		p->zone = i;
	}
	return dev->zones[i].inflight ? ZONE_BUSY : ZONE_GO;
}

void zbd_write_done(struct zbd_dev *dev, uint32_t i, uint64_t end)
{
	struct zbd_zone *z = &dev->zones[i];
	if (z->inflight)
		z->inflight--;
	if (end >= zbd_cap_end(z))
		zbd_open_remove(dev, i);
}

int zbd_open_limit(struct zbd_dev *dev, const struct zone_opts *zo, char *why, size_t whylen)
{
	unsigned want = zo->max_open, limit = dev->dev_max_open;
	if (dev->model != ZBD_HOST_MANAGED || zo->ignore_limits || !limit)
		dev->max_open = want;
	else if (!want)
		dev->max_open = limit;
	else if (want <= limit)
		dev->max_open = want;
	else {
		snprintf(why, whylen, "max_open_zones=%u is more than the device's limit of %u open zones "
				      "(ignore_zone_limits=1 allows it)", want, limit);
		return -EINVAL;
	}
	return 0;
}
