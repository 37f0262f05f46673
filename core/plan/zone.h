/* fio's zone modes (zonemode=, with fio 3.33's semantics, observed from its behaviour):
 *
 * strided  I/O stays in one zone until zonesize bytes are done, then moves zonerange +
 *          zoneskip further (back to the region's start once past the file's end).
 *          Sequential I/O runs through the zone (over it again when zonesize > zonerange);
 *          random offsets fall within zonerange of the zone's start, every block once per
 *          zonerange bytes.
 * zbd      Zones with write pointers (core/plan/zbd.h: a zoned device's own, or emulated over a
 *          file or an ordinary device). Writes go to a zone's write pointer; a write into a
 *          full zone resets it first (counted: "zone resets" in the normal output); reads
 *          stay below the write pointers unless read_beyond_wp; a job that writes works on
 *          whole zones (its offset rounded up and its end down, with a note). Random writes
 *          pick a zone by their random offset; max_open_zones / job_max_open_zones bound the
 *          zones written at once; a trim is a zone's reset (zone_trim, instead of the
 *          engine). zone_reset_threshold / zone_reset_frequency reset zones
 *          as garbage collection would. A sequential pass that runs out of zones (capacity
 *          short of the zone size, nothing left to read) ends the job unless io_size,
 *          loops or time_based ask for more.
 *
 * The job's options are checked and "Nz" sizes made bytes by zone_resolve (job_resolve);
 * regions are rounded to zones by zone_plan (planning); the worker asks zone_next where each
 * I/O goes and tells zone_done when a write completed. */
#ifndef IOBENCH_ZONE_H
#define IOBENCH_ZONE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/job/job.h"
#include "core/lib/rand.h"
#include "core/plan/zbd.h"

struct file_plan;

/* After the options are applied: refuses what fio refuses (zonesize without a zone mode,
 * strided without zonesize, zonecapacity over zonesize, ...) and what iobench does not do
 * with zones; "Nz" sizes become bytes. 0, or -EINVAL with the reason in err. */
int zone_resolve(struct job_opts *o, char *err, size_t n);

/* zonemode=zbd: each file must be a zoned device, or an existing file or device of at least
 * a zone; a job that writes gets its regions rounded to whole zones (a note on stderr for
 * each change) and its amount of I/O recomputed. Prints one line and returns -errno on a
 * problem. */
int zone_plan(const struct job_opts *o, struct file_plan *plan, bool no_file);

/* Round [*off, *off + *len) inwards to multiples of zone_size. 0; -EINVAL when no whole
 * zone is left. */
int zone_round(uint64_t zone_size, uint64_t *off, uint64_t *len);

/* One file of a clone, as the zone modes see it. */
struct zone_file {
	struct zbd_dev *dev;       /* zbd: its zone table */
	uint32_t zmin, zmax;       /* zbd: the zones of the region, [zmin, zmax) */
	uint64_t start, len;       /* the region */
	uint64_t file_end;         /* the file's size: strided zones wrap there */
	uint64_t base;             /* the present zone's start (fio's moving file offset) */
	uint64_t pos[DDIR_NR];     /* sequential positions (absolute) */
	bool done;                 /* its pass is over */
	uint64_t drawn;            /* zbd random: bytes of random offsets this pass (the map's share) */
	struct perm map;           /* strided random: the blocks of the zone not yet done */
};

/* ---- the arithmetic, apart for the unit tests (zbd's: core/worker/zbd_io.h) ---- */

/* strided: before an I/O of direction d in zf: the zone switch when zonesize bytes are done
 * (zone_bytes), and the rewind within a zone. Returns true when a zone's blocks start afresh
 * (the random map is new, the positions back at the zone's start). */
bool zone_strided_step(const struct zone_opts *z, struct zone_file *zf, uint64_t *zone_bytes, enum ddir d);

#endif
