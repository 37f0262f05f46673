/* latency_target: fio's search for the highest queue depth whose I/Os meet a latency.
 *
 * The search starts at depth 1. Each latency_window it judges the I/Os completed in it: if
 * at least latency_percentile of them took no longer than latency_target, the depth rises
 * (doubling until a depth has failed, then halfway towards the lowest failed one); if not,
 * it falls halfway towards the highest depth that passed, after the queue drains. With
 * latency_percentile=100 one slow I/O is enough to lower the depth at once, and at depth 1
 * it fails the job (ETIMEDOUT), as fio. When the depth stops changing the statistics
 * restart for one last window at that depth, and the job ends after it (latency_run=1: the
 * search goes on for the whole run instead).
 *
 * One clone's search is its own (no locks); the worker calls it from its loop and does what
 * it answers (drain, restart the statistics, stop). Pure state: unit-tested in
 * tests/unit/test_steadystate.c. */
#ifndef IOBENCH_LATENCY_TARGET_H
#define IOBENCH_LATENCY_TARGET_H
#include <stdbool.h>
#include <stdint.h>

#include "core/stats/results.h"

struct lat_search {
	bool on;
	unsigned depth;          /* the depth in use now */
	unsigned low, high, max; /* the highest that passed, the lowest that failed, iodepth */
	unsigned stable;         /* latency_run: passes in a row just below high */
	bool final_run;          /* the depth is found: the last window measures it */
	bool draining;           /* the depth fell: the queue drains before the next window */
	bool done;               /* the last window is over (or depth 1 failed) */
	bool measuring;          /* the statistics were being kept at the last check */
	uint64_t target_ns, window_ns;
	double pct;
	bool keep_running; /* latency_run */
	uint64_t window_start_ns, window_ios, window_slow;
	unsigned debug; /* --debug mask (DBG_RATE: fio's lines) */
};

enum lat_action {
	LAT_NONE,
	LAT_DRAIN, /* drain the queue, then lat_search_window */
	LAT_FINAL, /* drain, restart the statistics, then lat_search_window */
	LAT_DONE,  /* the last window is over: stop issuing */
};

/* max_depth: the depth the worker has units for. No target: on = false, depth = max_depth. */
void lat_search_init(struct lat_search *l, const struct job_opts *o, unsigned max_depth, uint64_t now, unsigned debug);
/* An I/O took lat_ns (issue to completion). true (once) when the job must fail:
 * latency_percentile is 100 and even depth 1 is too slow. */
bool lat_search_io(struct lat_search *l, uint64_t lat_ns);
/* In the loop: is the window over, and what follows? measuring: the statistics are being
 * kept; when they start (after ramp_time) the search starts again, as fio's. */
enum lat_action lat_search_check(struct lat_search *l, uint64_t now, bool measuring);
/* A new window starts (after the drain the last answer asked for). */
void lat_search_window(struct lat_search *l, uint64_t now);

/* What a unit shows: the depth its clone(s) found (ts->latency_depth), or depth_in_effect
 * without a target, and the options. */
void lat_target_report(const struct job_opts *o, unsigned depth_in_effect, const struct thread_stats *ts,
		       struct lat_result *out);

#endif
