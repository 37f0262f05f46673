/* A worker's state for core/job/options_io.c's options (struct wstate's `x`), and the parts
 * that own it. Like the other parts (core/worker/worker_int.h) they are called from the loop and
 * never call back: they return -errno or say what the loop should do. */
#ifndef IOBENCH_WEXTRA_H
#define IOBENCH_WEXTRA_H
#include <stdbool.h>
#include <stdint.h>

struct wstate;
struct io_unit;
struct flow;
struct offload;

struct wextra {
	/* worker_err.c: errors */
	uint64_t unnamed_errors;    /* errors gone on after that no ignore_error list named */
	bool full;                  /* fill_device: the filesystem filled up; the job ended there */
	/* worker_extra.c: syncs, loops, thinking, latency limits */
	uint64_t *sfr_lo, *sfr_hi;  /* by file: the range written since its last sync_file_range */
	uint64_t sfr_writes;        /* writes issued (sync_file_range's count) */
	bool sfr_due;               /* N writes were issued: sync before the next */
	uint64_t loop_bytes;        /* unlink_each_loop: bytes of one loop; the next loop ends at */
	uint64_t loop_end;
	uint64_t think_from_ns;     /* thinktime_iotime: I/O since */
	uint64_t iops_sample_ns;    /* worker_time.c: the IOPS sample's start (iopsavgtime) */
	/* flow.c */
	struct flow *flow;          /* flow=: the shared counters of its flow_id */
	uint64_t flow_ios;          /* its own */
	/* buffers.c: dedupe_mode=working_set */
	uint64_t dd_key;            /* the set's seeds (one key for a dedupe_global set) */
	uint64_t dd_made;           /* buffers of its slice its unique writes have made */
	/* offload.c */
	struct offload *offload;    /* io_submit_mode=offload: the submitter threads */
};

/* worker_err.c */
enum werr_action {
	WERR_FAIL,    /* the job stops with this error */
	WERR_GO_ON,   /* counted; the job goes on (continue_on_error, ignore_error) */
	WERR_FULL,    /* fill_device: the filesystem is full; the job ends without an error */
};
/* A completed I/O failed (u->result < 0): counted, printed as error_dump and the first
 * error say, and what the loop does next. */
enum werr_action werr_complete(struct wstate *s, const struct io_unit *u);
/* fill_device: a write came back short, or a read at the end of what was filled (a job that
 * reads and writes): the device is full, the job ends there (the I/O is not counted). */
bool werr_fill_end(struct wstate *s, const struct io_unit *u, uint64_t bytes);
/* max_latency: -ETIMEDOUT when the I/O took longer than allowed. */
int werr_latency(const struct wstate *s, const struct io_unit *u, uint64_t lat_ns);
/* After the loop: -errno when the errors it went on after make the job's result short of
 * what was asked (those ignore_error did not name), else 0. Prints the count. */
int werr_finish(struct wstate *s);

/* worker_extra.c */
int extra_setup(struct wstate *s);
void extra_teardown(struct wstate *s);
/* The worker's very end, whatever failed: offload's wrapper freed, its flow left. */
void extra_leave(struct wstate *s);
/* pre_read: the files' regions read into the page cache (untimed). 0 or -errno. */
int extra_pre_read(struct wstate *s);
/* unlink_each_loop: has a loop ended (and another is to come)? */
bool extra_loop_over(const struct wstate *s);
/* ... then, with the files closed: remove them (they are made again when opened). */
int extra_unlink_files(struct wstate *s);
/* sync_file_range=...:N: a write was handed over; then, when s->x.sfr_due, the syncs. */
void extra_sfr_written(struct wstate *s, unsigned file, uint64_t off, uint64_t len);
int extra_sfr_sync(struct wstate *s);
/* flow=: is the job ahead of its share of its flow (so it waits)? If not, the I/O is counted. */
bool extra_flow_held(struct wstate *s);
/* ... the wait: flow_sleep, or a yield. */
void extra_flow_wait(struct wstate *s);
/* serialize_overlap: is an I/O in flight (or queued) that overlaps u on its file? */
bool extra_overlaps(const struct wstate *s, const struct io_unit *u);
/* unlink_each_loop: the next loop's files (closed, removed, opened; the queue drained). 0 or -errno. */
int extra_next_loop(struct wstate *s);
/* io_submit_mode=offload: the wrapper engine swapped in (s->w->ops). 0 or -errno. */
int extra_offload_wrap(struct wstate *s);

#endif
