/* A worker's state, by owner. One thread owns all of it; nothing here is shared.
 *
 *   worker_life.c    the clone's life: every part set up, worker_loop, all torn down
 *   worker.c         the loop: prepare and issue, fill, reap
 *   worker_io.c      with the engine: completions, submit, reap, drain, fsync (the loop's too)
 *   worker_setup.c   files, descriptors, units and buffers, CPU affinity, queue depth
 *   worker_time.c    ramp, bandwidth samples, the deadline, published progress, final stats
 *   offsets.c        which file, direction, length and offset comes next   (struct offsets)
 *   pace.c           rate slots, thinktime, rate floors                     (struct pacing)
 *   verify_phase.c   what was written, read back and checked               (struct verifying)
 *   whole.c          opendir whole-file reads: files opened and closed in turn (struct whole)
 *   buffers.c        write buffer contents
 *   trim.c           trim+write pairs, written blocks chosen for trimming (struct trimming, core/worker/trim.h)
 *   iolog_replay.c   read_iolog's entries, write_iolog's lines      (struct replaying, iolog_rec)
 *   steadystate.c    ss: the clone's part of its unit's steady-state window (struct steady_clone)
 *   latency_target.c latency_target: the queue-depth search              (struct lat_search)
 *   zone_run.c       zonemode: where I/O goes in zones, write pointers      (struct zone_state)
 *
 * Only worker_life.c and the loop (worker.c, and worker_io.c below it) call into the others; none of them
 * calls back into it: they return -errno and the loop decides (worker_fail). worker_io.c
 * never calls worker.c. */
#ifndef IOBENCH_WORKER_INT_H
#define IOBENCH_WORKER_INT_H
#include <sys/resource.h>

#include "core/worker/jobenv.h"
#include "core/plan/files.h"
#include "core/worker/flow.h"
#include "core/worker/iolog_replay.h"
#include "core/worker/latency_target.h"
#include "core/stats/perflog.h"
#include "core/lib/rand.h"
#include "core/worker/steadystate.h"
#include "core/worker/wextra.h"
#include "core/worker/worker.h"
#include "core/worker/zone_run.h"

/* The I/O-unit state machine, checked in debug and sanitizer builds: a unit is free,
 * prepared (taken by the loop, or refused by a busy engine), queued (handed over, not yet
 * submitted) or in flight (submitted; engines completing inside queue() skip the last two). */
#if defined(IOBENCH_DEBUG) || defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#include <assert.h>
#define W_ASSERT(cond) assert(cond)
#else
#define W_ASSERT(cond) ((void)0)
#endif
enum unit_state { UNIT_FREE, UNIT_PREPARED, UNIT_QUEUED, UNIT_INFLIGHT };

/* A worker's file: 40 bytes (a million files: 40 MB). What only some jobs need is kept
 * beside it by file index (verify's maps, random maps, trims), and so is what an index
 * gives: its plan entry wstate.cfs[] (wf_cf), its descriptor wstate.fds[] (wf_fd; -1 for
 * the file-operation engines, which keep none), whether it was written (wf_written). */
struct wfile {
	uint64_t blocks;            /* granules in the region */
	uint64_t pos[DDIR_NR];      /* sequential position, relative to the region */
	uint64_t pass_bytes;        /* issued in this pass */
};

/* verify_phase.c: a file's record of what was written (struct verifying.maps, by file index) */
struct vmaps {
	uint64_t *map;              /* granules written and not yet read back (verify) */
	uint16_t *len;              /* sizes_vary: granules of the write starting here (0: none) */
	uint64_t *zero;             /* trim_verify_zero: the write starting here was trimmed since */
};

/* offsets.c */
struct offsets {
	uint64_t granule;           /* offsets are multiples of the smallest block size */
	struct zipf zipf[DDIR_NR];    /* random_distribution=zipf, per direction */
	struct { uint64_t n; double theta, zetan, alpha, eta; } fs_zipf; /* file_service_type=zipf (Gray's) */
	uint64_t fs_off;              /* file_service_type's skew: where the hot end lies */
	uint64_t mod_left;          /* rw=mode:N: I/Os left before a new random offset */
	uint64_t last_end[DDIR_NR], last_off;
	unsigned cur_file, file_ios_left;
	/* bs_is_seq_rand: percentage_random's draw for the next I/O, made when its size is
	 * chosen (before its offset): 0 none, 1 sequential, 2 random. */
	unsigned char planned;
	/* Uniform random offsets and nothing else (no rw=mode:N, percentage_random, blockalign or
	 * other distribution): offsets_next's short path. 1 norandommap, 2 the random map. */
	unsigned char uniform;
};

/* pace.c */
struct pacing {
	uint64_t next_issue_ns[DDIR_NR]; /* the next rate slot (0: none yet) */
	uint64_t think_count;
	uint64_t check_ns, bytes[DDIR_NR], ios[DDIR_NR]; /* rate floors: since the last check */
};

/* verify_phase.c */
struct verify_entry {
	unsigned file;
	uint64_t off, len;
	bool zeros;                 /* trimmed since it was written: reads back as zeros */
};
/* What a verify read checks (verify_mark). */
enum verify_how { VCHECK_NONE, VCHECK_DATA, VCHECK_ZEROS };
enum verify_step { VSTEP_NONE, VSTEP_DRAIN, VSTEP_READ };
struct verifying {
	bool on;                    /* verify is set */
	bool phase_wanted;          /* what was written is read back (do_verify, verify_only) */
	bool checks_reads;          /* a job that only reads: every read is checked */
	bool sizes_vary;            /* writes of several lengths: vmaps.len, not the bit map */
	struct vmaps *maps;         /* by file index (NULL unless verify is set) */
	uint64_t interval;          /* verify_interval as resolved (0: each I/O's length) */
	uint64_t seed;              /* of the writes' random seeds */
	uint64_t nwrites;           /* writes recorded (fio's numberio) */
	uint64_t failures;
	unsigned max_blocks;        /* granules of the longest write */
	unsigned char *unit_check;  /* by unit index: this read checks a write */
	/* verify_backlog: writes not read back yet, oldest first (a ring of verify_backlog) */
	struct verify_entry *ring;
	uint64_t ring_head, ring_count, batch, batch_left;
	/* the phase after each pass: a walk over the map of written blocks */
	bool in_phase, all_done;
	unsigned ph_file;
	uint64_t ph_block;
	uint64_t pass_bytes, pass_end; /* loops=N: a phase after every pass_bytes issued */
	/* verify_state_save: each file's last completed writes (a ring of the depth per file) */
	struct verify_entry *comps;
	uint64_t *comps_n;          /* by file: writes completed */
	/* verify_state_load: writes [0, load_numberio - load_depth) are checked; later ones only
	 * if they are among load_comps */
	bool loaded;
	uint64_t load_numberio, load_depth, load_ncomps;
	struct verify_entry *load_comps;
	unsigned char *dump_rcv, *dump_exp; /* verify_dump: the block as read, as it should be */
};

/* trim.c: rw=trimwrite/randtrimwrite's pairs (offsets.c places them) and trim_percentage */
struct trimming {
	bool counted;               /* trims count against size/io_size and number_ios: only in
				     * a job that does not write (trimwrite's io_size is the
				     * writes', and trim_percentage's trims come on top) */
	/* rw=trimwrite, randtrimwrite: each trim is followed by writes on its file, as fio: a
	 * write is owed while the last write did not start where the last trim did
	 * (sequential), or until the write that mirrors the trim (random) */
	bool pairs;
	bool owed;
	unsigned file;              /* the last trim's file, offset (in the region) and length */
	uint64_t trim_off, trim_len;
	uint64_t tw_bytes;          /* trims and writes issued: fio's rule at the end of a pass */
	uint64_t max_bs;
	uint64_t *pass_trimmed;     /* per file: bytes trimmed in this pass (randtrimwrite) */
	uint64_t *passes;           /* per file: passes ended */
	/* trim_percentage: written blocks chosen for trimming and not trimmed (nor read back)
	 * yet, by the granule each starts at: a bit per granule, or (writes of several sizes)
	 * the write's length in granules */
	bool chosen_on;
	bool sizes_vary;
	unsigned max_blocks;        /* granules of the longest write */
	struct rng rng;             /* which writes are chosen */
	uint64_t **pending;
	uint16_t **pending_len;
	uint64_t npending;
	uint64_t held;              /* writes not read back yet (fio's io_hist_len): trim_backlog
				     * counts these */
	uint64_t batch_left;        /* trims of a trim_backlog batch still to come */
	bool armed;                 /* a trim is due (the queue drains first) */
	unsigned cur_file;          /* where the next search for a chosen block starts */
	uint64_t cur_block;
};
/* A chosen block's trim: the file (index), the absolute offset and the length. */
struct trim_entry {
	unsigned file;
	uint64_t off, len;
};
enum trim_step { TSTEP_NONE, TSTEP_DRAIN, TSTEP_TRIM };

/* whole.c */
struct whole {
	bool on;                    /* job_whole_files: files opened, read to their end, closed in turn */
	struct wfile *open;         /* the file open now */
	uint64_t open_ns;           /* how long its open took */
};

struct wstate {
	struct worker *w;
	const struct clone_file *cfs; /* the plan's files, by the same index as files[] */
	/* fsync=N, fdatasync=N: the job's writes issued, and whether the last I/O issued was
	 * their sync (worker_io.c: io_sync_if_due) */
	struct { uint64_t writes; bool last_sync; } syncs;
	const struct job_opts *o;
	const struct tsc_clock *clk; /* the clock of every timestamp (clock_fast_ns) */
	struct thread_stats *ts;
	/* units: free_units[0..nr_free) are free; pending[0..nr_pending) queued, not submitted */
	struct io_unit *units;
	unsigned char *unit_state;  /* enum unit_state, by unit index (asserts) */
	struct io_unit **free_units;
	struct io_unit **pending;
	struct io_unit **events;    /* what the engine reaped (engine_ctx.events) */
	unsigned nr_free, nr_pending, depth, inflight;
	struct io_unit *retry;      /* prepared, refused by a busy engine: queued next */
	unsigned batch_submit, complete_min, complete_max, depth_low;
	bool sync;
	bool file_ops;              /* ENGINE_FILE_OP: latencies are the file operations' only */
	bool no_io;                 /* ENGINE_NO_IO: I/Os move nothing and do not count toward size */
	struct wfile *files;
	struct perm *perms;         /* rw=rand*: each file's random map of this pass (else NULL) */
	int *fds;                   /* the files' descriptors, by index (engine_ctx.fds) */
	uint64_t *file_sizes;       /* the files' planned sizes, by index (engine_ctx.file_sizes) */
	uint64_t *written;          /* a bit per file: written to (end_fsync, fsync_on_close) */
	unsigned nfiles;
	void *bufmem;
	size_t buf_stride;
	struct rng rng;             /* offsets, directions, sizes, Poisson gaps */
	struct rng buf_rng;         /* buffer contents */
	/* amount */
	uint64_t issued_bytes, issued_ios, io_limit;
	bool issuing_done;
	bool measuring;
	/* what is recorded (disable_*, *_percentiles, gtod_reduce) */
	bool rec_slat, rec_clat, rec_lat, hist_slat, hist_lat, rec_bw;
	bool debug_io;              /* --debug=io: a line per I/O queued and completed */
	/* None of the per-I/O extras is on (replay, verify, trims, zones, rates, thinktime,
	 * syncs, locks, logs, iolog, flow, latency_target, max_latency, whole files, debug):
	 * I/Os are prepared, queued and completed on the short path (worker_lean). */
	bool lean;
	int lean_ddir;              /* the job's one direction, -1: mixed (lean path) */
	uint64_t lean_bs[DDIR_NR];  /* each direction's one block size, 0: it varies (lean path) */
	/* time */
	uint64_t now, start_ns, measure_start_ns, ramp_end_ns, deadline_ns;
	uint64_t last_sample_ns, sample_bytes[DDIR_NR], sample_ios[DDIR_NR];
	uint64_t next_publish_ns;
	uint64_t tick_ns;           /* time_check has nothing to do before (0: look now) */
	struct offsets off;
	struct pacing pace;
	enum ddir last_done;        /* of the last I/O that completed (trim_backlog's rule) */
	/* The parts whose flags the loop tests per I/O, then the rest (cold: set-up, rare
	 * events, the end), so the fields an I/O touches share few cache lines. */
	struct lat_search lat;      /* lat.depth: the depth the queue is filled to */
	struct steady_clone ssc;
	struct replaying replay;    /* read_iolog (core/worker/iolog_replay.c) */
	struct wextra x;            /* core/worker/wextra.h: core/job/options_io.c's options */
	struct zone_state zone;     /* zone.h, zone_run.c: zonemode */
	struct trimming trim;
	struct whole whole;
	struct verifying ver;
	struct engine_ctx eng;
	struct rusage ru0;
	struct perflogs *logs;      /* NULL unless the job writes logs */
	struct iolog_rec rec;       /* write_iolog (core/worker/iolog_replay.c) */
	struct env_worker env;      /* core/worker/jobenv.h: priorities, buffers' memory, file locks (cmdprio first) */
};

static inline int wf_fd(const struct wstate *s, const struct wfile *f)
{
	return s->fds ? s->fds[f - s->files] : -1;
}

static inline void wf_set_fd(struct wstate *s, const struct wfile *f, int fd)
{
	if (s->fds)
		s->fds[f - s->files] = fd;
}

static inline void wf_mark_written(struct wstate *s, size_t i)
{
	s->written[i / 64] |= 1ULL << (i % 64);
}

static inline bool wf_written(const struct wstate *s, size_t i)
{
	return s->written[i / 64] & (1ULL << (i % 64));
}

/* The plan entry (path, region) of one of s's files. */
static inline const struct clone_file *wf_cf(const struct wstate *s, const struct wfile *f)
{
	return &s->cfs[f - s->files];
}

/* ---- the loop's own (worker.c, worker_io.c) ---- */

/* The job fails with err (the first error wins); nothing more is issued. */
static inline void worker_fail(struct wstate *s, int err)
{
	if (!s->w->err)
		s->w->err = err;
	if (!s->ts->error)
		s->ts->error = -err;
	s->issuing_done = true;
}

/* ---- the I/O-unit state machine (asserted in debug and sanitizer builds) ---- */

static inline void unit_move(struct wstate *s, const struct io_unit *u, enum unit_state from, enum unit_state to)
{
	W_ASSERT(s->unit_state[u->index] == from);
	s->unit_state[u->index] = (unsigned char)to;
	(void)from;
}

static inline struct io_unit *unit_take(struct wstate *s)
{
	struct io_unit *u = s->free_units[--s->nr_free];
	unit_move(s, u, UNIT_FREE, UNIT_PREPARED);
	return u;
}

static inline void unit_free(struct wstate *s, struct io_unit *u, enum unit_state from)
{
	unit_move(s, u, from, UNIT_FREE);
	s->free_units[s->nr_free++] = u;
}

/* Between steps every unit is free, in flight, or the one a busy engine refused. */
static inline void units_check(const struct wstate *s)
{
	W_ASSERT(s->nr_free + s->inflight + (s->retry != NULL) == s->depth);
	W_ASSERT(s->nr_pending <= s->inflight);
	(void)s;
}

/* worker.c: the loop, from the first clock read to end_fsync (worker_life.c calls it). */
void worker_loop(struct wstate *s);

/* worker_io.c: the I/O with the engine. */
/* --debug=io: a line per I/O queued and completed (the caller tests s->debug_io). */
void io_debug(const struct wstate *s, const char *what, const struct io_unit *u);
/* Submit what is queued (one timestamp for the batch). */
void io_commit(struct wstate *s);
/* Wait for completions: at least min, or until timeout_ns (0 = no timeout). */
void io_reap(struct wstate *s, unsigned min, uint64_t timeout_ns);
/* Submit and reap until nothing is in flight. */
void io_drain(struct wstate *s);
/* An I/O the engine completed inside queue(): accounted as a batch of one. */
void io_complete_at_once(struct wstate *s, struct io_unit *u);
/* fsync=N / fdatasync=N / end_fsync: the queue drained, then the call, timed. */
/* io_sync_file's how: fdatasync(2), and not counted in the job's syncs (end_fsync: fio
 * reports none of those). */
enum { IOSYNC_DATA = 1, IOSYNC_QUIET = 2 };
void io_sync_file(struct wstate *s, struct wfile *f, unsigned how);
/* fsync=N / fdatasync=N: the sync due before the job's next I/O, on f, if one is. */
void io_sync_if_due(struct wstate *s, struct wfile *f);

/* worker_setup.c */
void setup_depth(struct wstate *s);
void setup_lean(struct wstate *s);
/* 0, or 1 when it printed a note (the CPUs asked for are not all this process's). */
int set_affinity(struct wstate *s);
/* The files (none open), descriptors, units, buffers and event array. 0 or -errno. */
int alloc_state(struct wstate *s);
void free_state(struct wstate *s);
int open_files(struct wstate *s);
void close_files(struct wstate *s);
/* Out of memory for what (bytes of it): one line naming both; returns -ENOMEM. */
int worker_nomem(struct wstate *s, const char *what, uint64_t bytes);
/* open(2) flags for the job's files. */
int worker_open_flags(const struct job_opts *o);

/* worker_time.c */
void time_reset_stats(struct wstate *s);
void time_start(struct wstate *s);
/* Ramp over, samples, deadline, rate floors, logs, progress: -errno when the job must fail. */
int time_check(struct wstate *s);
void time_finish(struct wstate *s);
/* latency_target's last window: the statistics and the runtime start again from now. */
void time_restart(struct wstate *s);

/* whole.c: opendir whole-file reads (whole.on: setup_depth). The loop drains the queue
 * before a switch. */
/* Is f not the open file (so the loop must drain and switch)? */
bool whole_switching(const struct wstate *s, const struct wfile *f);
/* Close the open file (timed) and open f (timed): 0 or -errno after a line. */
int whole_open(struct wstate *s, struct wfile *f);
void whole_close(struct wstate *s);
/* The I/O length within f's remaining bytes (the last block of a file is short). */
uint64_t whole_len(const struct wstate *s, struct wfile *f, enum ddir d, uint64_t len);

/* offsets.c */
void offsets_init(struct wstate *s);
struct wfile *offsets_next_file(struct wstate *s);
uint64_t offsets_next_len(struct wstate *s, enum ddir d);
uint64_t offsets_next(struct wstate *s, struct wfile *f, enum ddir d, uint64_t len);
/* offsets_next's draw for uniform random offsets with norandommap (s->off.uniform == 1),
 * inline for the lean loop. */
static inline uint64_t offsets_uniform(struct wstate *s, struct wfile *f, uint64_t len)
{
	uint64_t usable = f->blocks * s->off.granule;
	uint64_t off = rng_below(&s->rng, f->blocks ? f->blocks : 1) * s->off.granule;
	f->pass_bytes += len;
	return wf_cf(s, f)->offset + (off + len <= usable ? off : usable - len);
}
enum ddir offsets_next_ddir(struct wstate *s);

/* pace.c */
#define PACE_NAP_NS (50 * NS_PER_MS) /* the longest a worker sleeps before it looks again */
void pace_init(struct wstate *s);
/* Before an I/O of direction d: nanoseconds to wait for its rate slot (0 = go). */
uint64_t pace_wait_ns(struct wstate *s, enum ddir d);
/* The same for a mixed job, which takes the other direction when it may go sooner (*d). */
uint64_t pace_wait_pick(struct wstate *s, enum ddir *d);
/* A wait of wait_ns cut to what the job may still wait now: no further than its deadline,
 * and one nap at most (the caller looks at the stop flag and the time, then waits again). */
uint64_t pace_bound(const struct wstate *s, uint64_t wait_ns);
void pace_issued(struct wstate *s, enum ddir d, uint64_t len);
/* After a completion of bytes in direction d: counted against the rate floors (per I/O). */
static inline void pace_done(struct wstate *s, enum ddir d, uint64_t bytes)
{
	s->pace.bytes[d] += bytes;
	s->pace.ios[d]++;
}
/* Start the floors' count again (the end of the ramp). */
void pace_reset_floors(struct wstate *s);
/* After an I/O is issued: should the job pause now (thinktime_blocks, thinktime_iotime)? */
bool pace_think_due(struct wstate *s);
/* The pause itself (the loop has drained the queue). */
void pace_think(struct wstate *s);
/* Every rate_cycle ms: rate_min / rate_iops_min; returns -errno when the floor is missed. */
int pace_check_min(struct wstate *s);

/* verify_phase.c: the loop asks it what to read back next; it checks what comes back. */
int verify_setup(struct wstate *s);
void verify_teardown(struct wstate *s);
/* A write's buffer: data, headers and checksums (instead of buffers_fill). */
void verify_stamp(struct wstate *s, struct io_unit *u);
/* A write was handed over (or, verify_only, would have been): remember it. */
void verify_written(struct wstate *s, struct wfile *f, uint64_t off, uint64_t len);
/* A trim of [off, off + len) of f was handed over: what it covers of the writes not read
 * back yet reads back as zeros now (trim_verify_zero), or is forgotten. */
void verify_trimmed(struct wstate *s, struct wfile *f, uint64_t off, uint64_t len);
/* verify_only with writes: the workload's I/O is counted as done, not done (as fio's dry
 * run); its writes are what the verify phase reads back. (A verify_only job that only reads
 * reads, and checks what it reads.) */
void verify_dry(struct wstate *s, struct wfile *f, enum ddir d, uint64_t len, uint64_t off);
/* Before an I/O is prepared: is a verify read next (e filled), must the queue drain first
 * (then ask again), or is it the workload's turn? paused: the workload has issued all it
 * may before a verify phase (its end, or the end of a loop). */
enum verify_step verify_next(struct wstate *s, bool paused, struct verify_entry *e);
/* Is there verify work to come (so the loop is not over)? */
bool verify_busy(const struct wstate *s);
/* The issued bytes at which the workload pauses for a verify phase (loops=N), else 0. */
static inline uint64_t verify_pass_end(const struct wstate *s)
{
	return s->ver.pass_end;
}
/* Mark a prepared unit as a verify read of data, or of a trimmed block's zeros (or not). */
static inline void verify_mark(struct wstate *s, const struct io_unit *u, enum verify_how how)
{
	if (s->ver.unit_check)
		s->ver.unit_check[u->index] = (unsigned char)how;
}
static inline bool verify_is_check(const struct wstate *s, const struct io_unit *u)
{
	return s->ver.unit_check && s->ver.unit_check[u->index];
}
/* An I/O completed. A write is remembered as done (verify_state_save); a read that came
 * back whole is checked if it is a verify read (or the job checks its reads). 0, or -EILSEQ when the job must stop (a failure, no continue_on_error=verify, or
 * verify_fatal). */
int verify_completed(struct wstate *s, struct io_unit *u);
/* The job is over: the state file (verify_state_save), the failures in all. 0 or -EILSEQ. */
int verify_finish(struct wstate *s);

/* trim.c: trim_percentage's chosen blocks (the pairs of trimwrite are offsets.c's). */
int trim_setup(struct wstate *s);
void trim_teardown(struct wstate *s);
/* A write was handed over: one more not read back (trim_backlog's count), perhaps chosen;
 * it takes the place of a chosen block it overwrites. */
void trim_written(struct wstate *s, struct wfile *f, uint64_t off, uint64_t len);
/* A verify read of the write at off of file was issued: it is read back as written, so it
 * is not trimmed any more (as fio) and no longer counted. */
void trim_verified(struct wstate *s, unsigned file, uint64_t off);
/* Before an I/O is prepared: is a chosen block's trim next (e filled), must the queue drain
 * first (its write may be in flight; then ask again), or neither? spent: the workload has
 * issued all it may for now, so every chosen block left is trimmed now; last_read: the last
 * I/O to complete was a read (fio's rule: a trim_backlog batch does not start after one). */
enum trim_step trim_next(struct wstate *s, bool spent, bool last_read, struct trim_entry *e);
/* Chosen blocks not trimmed yet (the workload is not over until they are). */
static inline bool trim_owed(const struct wstate *s)
{
	return s->trim.npending > 0;
}

/* offsets.c, rw=trimwrite/randtrimwrite: does the next I/O (direction d, len bytes, on f)
 * start a new pass over f? Then fio's rule: another pass if loops are left or the job is
 * time_based, or if what is left of io_size is at least the largest block; the positions
 * start again, with a trim (PASS_AGAIN: prepare the I/O again). PASS_END: the job is done. */
enum trim_pass { PASS_GO, PASS_AGAIN, PASS_END };
enum trim_pass offsets_pass_check(struct wstate *s, struct wfile *f, int ddir, uint64_t len);

/* buffers.c */
void buffers_init(struct wstate *s);
void buffers_fill(struct wstate *s, struct io_unit *u);

#endif
