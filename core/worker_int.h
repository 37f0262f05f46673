/* A worker's state, by owner. One thread owns all of it; nothing here is shared.
 *
 *   worker.c         the loop: prepare, submit, reap, drain, fail; the worker's life
 *   worker_setup.c   files, descriptors, units and buffers, CPU affinity, queue depth
 *   worker_time.c    ramp, bandwidth samples, the deadline, published progress, final stats
 *   offsets.c        which file, direction, length and offset comes next   (struct offsets)
 *   pace.c           rate slots, thinktime, rate floors                     (struct pacing)
 *   verify_phase.c   what was written, read back and checked               (struct verifying)
 *   whole.c          opendir whole-file reads: files opened and closed in turn (struct whole)
 *   buffers.c        write buffer contents
 *
 * Only worker.c calls into the others; none of them calls back into it: they return -errno
 * and the loop decides (worker_fail). */
#ifndef IOBENCH_WORKER_INT_H
#define IOBENCH_WORKER_INT_H
#include <sys/resource.h>

#include "core/files.h"
#include "core/flow.h"
#include "core/perflog.h"
#include "core/rand.h"
#include "core/wextra.h"
#include "core/worker.h"

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

struct wfile {
	int fd;
	const struct clone_file *cf;
	uint64_t blocks;            /* granules in the region */
	uint64_t pos[DDIR_NR];      /* sequential position, relative to the region */
	struct perm perm;           /* the random map of this pass */
	uint64_t pass_bytes;        /* issued in this pass */
	uint64_t writes_since_fsync, writes_since_fdatasync;
	bool written;
	uint64_t *verify_map;       /* granules written and not yet read back (verify) */
	uint16_t *verify_len;       /* sizes_vary: granules of the write starting here (0: none) */
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
};
enum verify_step { VSTEP_NONE, VSTEP_DRAIN, VSTEP_READ };
struct verifying {
	bool on;                    /* verify is set */
	bool phase_wanted;          /* what was written is read back (do_verify, verify_only) */
	bool checks_reads;          /* a job that only reads: every read is checked */
	bool sizes_vary;            /* writes of several lengths: wfile.verify_len, not the bit map */
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

/* whole.c */
struct whole {
	bool on;                    /* job_whole_files: files opened, read to their end, closed in turn */
	struct wfile *open;         /* the file open now */
	uint64_t open_ns;           /* how long its open took */
};

struct wstate {
	struct worker *w;
	const struct job_opts *o;
	const struct tsc_clock *clk; /* the clock of every timestamp (clock_fast_ns) */
	struct thread_stats *ts;
	struct engine_ctx eng;
	/* units: free_units[0..nr_free) are free; pending[0..nr_pending) queued, not submitted */
	struct io_unit *units;
	unsigned char *unit_state;  /* enum unit_state, by unit index (asserts) */
	struct io_unit **free_units;
	struct io_unit **pending;
	struct io_unit **events;    /* what the engine reaped (engine_ctx.events) */
	unsigned nr_free, nr_pending, depth, inflight, fill_queued;
	struct io_unit *retry;      /* prepared, refused by a busy engine: queued next */
	unsigned batch_submit, complete_min, complete_max, depth_low;
	bool sync;
	bool file_ops;              /* ENGINE_FILE_OP: latencies are the file operations' only */
	struct wfile *files;
	int *fds;                   /* the files' descriptors, by index (engine_ctx.fds) */
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
	/* time */
	uint64_t now, start_ns, measure_start_ns, ramp_end_ns, deadline_ns;
	uint64_t last_sample_ns, sample_bytes[DDIR_NR], sample_ios[DDIR_NR];
	uint64_t next_publish_ns;
	struct rusage ru0;
	struct perflogs *logs;      /* NULL unless the job writes logs */
	struct offsets off;
	struct pacing pace;
	struct verifying ver;
	struct whole whole;
	struct wextra x;            /* core/wextra.h: core/options_io.c's options */
};

/* worker_setup.c */
void setup_depth(struct wstate *s);
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

/* whole.c: opendir whole-file reads (whole.on: setup_depth). The loop drains the queue
 * before a switch. */
/* Is f not the open file (so the loop must drain and switch)? */
bool whole_switching(const struct wstate *s, const struct wfile *f);
/* Close the open file (timed) and open f (timed): 0 or -errno after a line. */
int whole_open(struct wstate *s, struct wfile *f);
void whole_close(struct wstate *s);
/* The I/O length within f's remaining bytes (the last block of a file is short). */
uint64_t whole_len(struct wfile *f, enum ddir d, uint64_t len);

/* offsets.c */
void offsets_init(struct wstate *s);
struct wfile *offsets_next_file(struct wstate *s);
uint64_t offsets_next_len(struct wstate *s, enum ddir d);
uint64_t offsets_next(struct wstate *s, struct wfile *f, enum ddir d, uint64_t len);
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
/* Mark a prepared unit as a verify read (or not). */
static inline void verify_mark(struct wstate *s, const struct io_unit *u, bool check)
{
	if (s->ver.unit_check)
		s->ver.unit_check[u->index] = check;
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

/* buffers.c */
void buffers_init(struct wstate *s);
void buffers_fill(struct wstate *s, struct io_unit *u);

#endif
