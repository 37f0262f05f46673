/* zonemode=zbd, one I/O at a time (core/worker/zbd_io.c): where a write, read or trim goes
 * given the zones' write pointers; apart from the worker for the unit tests. */
#ifndef IOBENCH_ZBD_IO_H
#define IOBENCH_ZBD_IO_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/plan/zone.h"

/* What a placement answers (zone_next too). */
enum zone_answer { ZONE_GO = 0, ZONE_EOF = 1, ZONE_BUSY = 2 };

/* What a zbd placement works with: the table (locked by the caller), the clone's zones and
 * limits. */
struct zbd_io {
	struct zbd_dev *dev;
	uint32_t zmin, zmax;
	uint64_t start, len;       /* the region (the reset threshold is a share of it) */
	uint64_t min_bs;
	bool random, verify, read_beyond_wp;
	unsigned job_max_open;
	unsigned *nr_open;         /* this clone's open zones */
	double threshold, frequency;
	int fd;
	bool busy_ok;              /* the clone has I/O in flight: waiting can free zones */
};
struct zbd_place {
	uint64_t off, len;
	uint32_t zone;
	unsigned resets;           /* zones reset (that held data) */
};
int zbd_place_write(struct zbd_io *io, uint64_t off, uint64_t len, struct zbd_place *p);
int zbd_place_read(struct zbd_io *io, uint64_t off, uint64_t len, struct zbd_place *p);
/* A trim resets a sequential zone (a random one picks a zone holding data); a conventional
 * zone's is the engine's. */
int zbd_place_trim(struct zbd_io *io, uint64_t off, uint64_t len, struct zbd_place *p);
/* A write to zone i ending at end completed: the zone closes when it is full. */
void zbd_write_done(struct zbd_dev *dev, uint32_t i, uint64_t end);
/* zone_reset_frequency: count a write; true when this one resets. */
bool zbd_countdown(struct zbd_dev *dev, double frequency);
/* The open-zone limit for a table, from the job and the device: 0 or -EINVAL (why). */
int zbd_open_limit(struct zbd_dev *dev, const struct zone_opts *z, char *why, size_t whylen);

#endif
