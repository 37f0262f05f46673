/* State shared by the worker's parts (worker.c, offsets.c, pace.c, buffers.c).
 * Owned by one thread; nothing here is shared with other threads. */
#ifndef IOBENCH_WORKER_INT_H
#define IOBENCH_WORKER_INT_H
#include <sys/resource.h>

#include "core/files.h"
#include "core/perflog.h"
#include "core/rand.h"
#include "core/worker.h"

struct wfile {
	int fd;
	const struct clone_file *cf;
	uint64_t blocks;            /* granules in the region */
	uint64_t pos[DDIR_NR];      /* sequential position, relative to the region */
	struct perm perm;           /* the random map of this pass */
	uint64_t pass_bytes;        /* issued in this pass */
	uint64_t writes_since_fsync, writes_since_fdatasync;
	bool written;
	uint64_t *verify_map;       /* granules written, for the verify phase */
};

struct wstate {
	struct worker *w;
	const struct job_opts *o;
	const struct tsc_clock *clk; /* the clock of every timestamp (clock_fast_ns) */
	struct thread_stats *ts;
	struct engine_ctx eng;
	struct io_unit *units;
	struct io_unit **free_units;
	struct io_unit **pending;
	struct io_unit **events; /* what the engine reaped (engine_ctx.events) */
	unsigned nr_free, nr_pending, depth, inflight, fill_queued;
	struct io_unit *retry;  /* prepared, refused by a busy engine: queued next */
	unsigned batch_submit, complete_min, complete_max, depth_low;
	bool sync;
	bool file_ops;
	bool whole;           /* job_whole_files: files opened, read to their end, closed in turn */
	struct wfile *open_file; /* whole: the file open now */
	uint64_t open_ns;     /* whole: how long its open took */        /* ENGINE_FILE_OP: latencies are the file operations' only */
	struct wfile *files;
	int *fds;             /* the files' descriptors, for engines that register them */
	unsigned nfiles, cur_file, file_ios_left;
	void *bufmem;
	size_t buf_stride;
	struct rng rng;       /* offsets, directions, sizes */
	struct rng buf_rng;   /* buffer contents */
	struct zipf zipf;
	uint64_t granule;
	/* pattern */
	uint64_t mod_left;    /* rw=mode:N: I/Os left before a new random offset */
	uint64_t last_end[DDIR_NR];
	uint64_t last_off;
	/* amount */
	uint64_t issued_bytes, issued_ios, io_limit;
	bool issuing_done;
	bool measuring;
	/* what is recorded (disable_*, *_percentiles, gtod_reduce) */
	bool rec_slat, rec_clat, rec_lat, hist_slat, hist_lat, rec_bw;
	/* time */
	uint64_t now, start_ns, measure_start_ns, ramp_end_ns, deadline_ns;
	uint64_t last_sample_ns, sample_bytes[DDIR_NR], sample_ios[DDIR_NR];
	/* pacing */
	uint64_t next_issue_ns[DDIR_NR];
	uint64_t think_count;
	uint64_t rate_check_ns, rate_bytes[DDIR_NR], rate_ios[DDIR_NR];
	struct rusage ru0;
	struct perflogs *logs; /* NULL unless the job writes logs */
	uint64_t next_publish_ns;
	/* verify */
	uint64_t vinterval;
	uint64_t verify_failures;
	struct { unsigned file; uint64_t off, len; } *backlog;
	uint64_t nbacklog;
};

/* worker.c */
void drain(struct wstate *s);

/* worker_setup.c */
int open_files(struct wstate *s);
/* Whole-file reads: switch to file f (the one before drained and closed), timed. */
int whole_open(struct wstate *s, struct wfile *f);
void whole_close(struct wstate *s);
/* The I/O length within f's remaining bytes (the last block of a file is short). */
uint64_t whole_len(struct wfile *f, enum ddir d, uint64_t len);
void close_files(struct wstate *s);
/* The files (none open), descriptors, units, buffers and event array. 0 or -errno. */
int alloc_state(struct wstate *s);
int alloc_units(struct wstate *s);
void set_affinity(struct wstate *s);
void setup_depth(struct wstate *s);

/* verify_phase.c */
int verify_setup(struct wstate *s);
void verify_written(struct wstate *s, struct wfile *f, uint64_t off, uint64_t len);
void verify_all(struct wstate *s);
void verify_backlog_run(struct wstate *s);
void verify_teardown(struct wstate *s);

/* offsets.c */
void offsets_init(struct wstate *s);
struct wfile *offsets_next_file(struct wstate *s);
uint64_t offsets_next_len(struct wstate *s, enum ddir d);
uint64_t offsets_next(struct wstate *s, struct wfile *f, enum ddir d, uint64_t len);
enum ddir offsets_next_ddir(struct wstate *s);

/* pace.c */
#define PACE_NAP_NS (50 * NS_PER_MS) /* the longest a worker sleeps before it looks again */
void pace_init(struct wstate *s);
/* A wait of wait_ns cut to what the job may still wait now: no further than its deadline,
 * and one nap at most (the caller looks at the stop flag and the time, then waits again). */
uint64_t pace_bound(const struct wstate *s, uint64_t wait_ns);
/* Before an I/O of direction d: nanoseconds to wait for its rate slot (0 = go). */
uint64_t pace_wait_ns(struct wstate *s, enum ddir d);
void pace_issued(struct wstate *s, enum ddir d, uint64_t len);
/* After an I/O is issued: should the job pause now (thinktime)? */
bool pace_think_due(struct wstate *s);
void pace_think(struct wstate *s);
/* Every second: rate_min / rate_iops_min; returns -errno when the floor is missed. */
int pace_check_min(struct wstate *s);

/* buffers.c */
void buffers_init(struct wstate *s);
void buffers_fill(struct wstate *s, struct io_unit *u);

void worker_fail(struct wstate *s, int err);
/* Out of memory for what (bytes of it): one line naming both; returns -ENOMEM. */
int worker_nomem(struct wstate *s, const char *what, uint64_t bytes);

#endif
