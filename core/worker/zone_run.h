/* The worker's side of the zone modes (core/worker/zone_run.c): each clone's files as zones
 * see them, where its next I/O goes. The modes, their options and plans: core/plan/zone.h. */
#ifndef IOBENCH_ZONE_RUN_H
#define IOBENCH_ZONE_RUN_H
#include <stdbool.h>
#include <stdint.h>

#include "core/worker/zbd_io.h"

struct wstate;
struct wfile;
struct io_unit;

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

/* core/worker/worker.c calls these. */
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

#endif
