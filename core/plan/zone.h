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
struct wstate;
struct wfile;
struct io_unit;

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

enum zone_answer { ZONE_GO = 0, ZONE_EOF = 1, ZONE_BUSY = 2 };
#define ZONE_UNIT_TRIM (1u << 31) /* unit_zone: a zone to reset when the unit is queued */
#define ZONE_WAIT_NS 20000ULL /* how long a clone waits for another's writes to a zone, each time */

struct zone_state {
	unsigned mode;             /* enum zone_mode (ZONE_MODE_NONE: none of this is used) */
	struct zone_file *files;
	uint32_t *unit_zone;       /* by unit index: 1 + the zone of its write in flight (0: none) */
	uint64_t zone_bytes;       /* bytes done in the present zone (one count per clone, as fio) */
	unsigned nr_open;          /* zones this clone opened (job_max_open_zones); atomic */
	uint64_t passes;           /* passes over the files that ran to their end */
	uint64_t setup_resets;     /* zones reset before the job (verify), counted at its end */
	uint64_t pass_ios;         /* I/Os placed in this pass */
	uint64_t min_bs[DDIR_NR];
	bool random;               /* random offsets (rw=rand*) */
	bool held;                 /* zbd: a random offset kept while its zone is busy */
	uint64_t held_off;
	uint32_t last_zone;        /* 1 + the zone of the write just placed (0: none to track), or
				    * of a trim (| ZONE_UNIT_TRIM) */
};

/* The worker's part (core/worker/worker.c calls these; zone.c calls nothing in worker.c). */
int zone_setup(struct wstate *s);
void zone_teardown(struct wstate *s);
/* A mixed job reads nothing before anything is written (zbd): the read becomes a write. */
enum ddir zone_ddir(struct wstate *s, enum ddir d);
/* Where the next I/O of direction d goes: *f (another file when this one's pass is over),
 * *off and *len. ZONE_GO; ZONE_EOF: nothing more to do; ZONE_BUSY: a zone has writes in
 * flight, drain (or wait for other clones) and ask again; -errno after a line. */
int zone_next(struct wstate *s, struct wfile **f, enum ddir d, uint64_t *off, uint64_t *len);
/* The unit u takes the I/O zone_next just placed (its write is in flight until zone_done). */
void zone_bind(struct wstate *s, const struct io_unit *u);
/* zbd: the trim of unit u resets its zone instead of reaching the engine (fio's too): true
 * when it did (u->result is the trim's length, or -errno). */
bool zone_trim(struct wstate *s, struct io_unit *u);
/* An I/O completed (u: its unit). */
void zone_done(struct wstate *s, const struct io_unit *u);

/* ---- the arithmetic (core/plan/zone.c, core/worker/zbd_io.c), apart for the unit tests ---- */

/* strided: before an I/O of direction d in zf: the zone switch when zonesize bytes are done
 * (zone_bytes), and the rewind within a zone. Returns true when a zone's blocks start afresh
 * (the random map is new, the positions back at the zone's start). */
bool zone_strided_step(const struct zone_opts *z, struct zone_file *zf, uint64_t *zone_bytes, enum ddir d);

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
