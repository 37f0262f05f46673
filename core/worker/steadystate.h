/* Steady-state detection (fio's ss=, ss_dur=, ss_ramp=, ss_interval=): once a second (each
 * ss_interval) a job's IOPS and bandwidth, all directions summed, go into a rolling window
 * of ss_dur; when the window is full and meets the criterion, the job ends. With
 * group_reporting the window holds the reporting unit's figures (the clones reported as one,
 * as core/run/summary.c groups them) and all of them end together.
 *
 * The unit's first clone with ss_dur keeps the window (its worker samples, on its own
 * clock); every clone of the unit publishes its totals for it. The criteria are pure
 * functions (ss_judge), unit-tested in tests/unit/test_steadystate.c. */
#ifndef IOBENCH_STEADYSTATE_H
#define IOBENCH_STEADYSTATE_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/stats/results.h"

/* ---- the criteria ---- */

struct ss_verdict {
	double criterion; /* deviation or slope; as a percentage of the mean with N% */
	double max_dev;   /* the largest distance of a sample from the mean (deviation criteria) */
	double slope;     /* per second (slope criteria) */
	bool attained;
};

/* Judge a full window y[0..n) (oldest first, one sample every interval_s seconds) by o's
 * criterion. Deviation: max |y - mean| (percent of the mean with pct) below the limit.
 * Slope: the least-squares slope per second (percent of the mean) whose magnitude is below
 * the limit. A window whose mean is 0 has no percentage and is not steady. */
void ss_judge(const uint64_t *y, unsigned n, double interval_s, const struct steady_opts *o, struct ss_verdict *v);

/* ---- a run's windows ---- */

struct steady_member {
	atomic_uint_fast64_t bytes, ios; /* the clone's I/O since it started (all directions) */
};

struct steady_unit {
	const struct job_opts *o; /* the options of the clone that keeps the window */
	unsigned n;               /* samples in the window: ss_dur / ss_interval */
	unsigned nmembers;
	struct steady_member *members;
	atomic_bool attained;        /* set once: every clone of the unit stops */
	pthread_mutex_t lock;        /* the window, against a report while it runs */
	uint64_t *bw, *iops;         /* the ring: n each, bytes/s and IOPS */
	unsigned head, count;        /* the oldest sample; how many so far (<= n) */
	struct ss_verdict verdict;   /* of the last full window */
	uint64_t *rep_bw, *rep_iops; /* the window as the last report saw it, oldest first */
	uint64_t *scratch;           /* the judged samples, oldest first (the keeper's) */
};

/* What the run tells of each of its clones, in order. */
struct steady_of_clone {
	const struct job_opts *o;
	bool joins_previous; /* of one report unit with the clone before it (group_reporting) */
};
struct steady_set;
/* The units of the run's n clones (one per report unit whose clones have ss_dur) into *set
 * (NULL when none has): 0 or -ENOMEM (then *set is still to be freed). */
int steady_plan(struct steady_set **set, const struct steady_of_clone *clones, size_t n);
void steady_free(struct steady_set *set);
/* The window clone i contributes to (member: its slot in it), or NULL. */
struct steady_unit *steady_for_clone(const struct steady_set *set, size_t clone, unsigned *member);
/* The steady-state block of the report unit whose first clone is i (on = false: none). */
void steady_report(const struct steady_set *set, size_t clone, struct steady_result *out);

/* ss_dur and ss_interval agree (and the window is of a sane length): 0, or -EINVAL after
 * one line naming the job. */
int steady_check_opts(const struct job_opts *o);

/* ---- a worker's part ---- */

struct steady_clone {
	struct steady_unit *unit; /* NULL: no steady state for this clone */
	struct steady_member *me;
	bool leader;                   /* it keeps the window */
	unsigned debug;                /* --debug mask */
	uint64_t seen_bytes, seen_ios; /* the stats' totals at the last tick (they restart) */
	uint64_t bytes, ios;           /* since the start, across restarts */
	/* the leader's clock */
	uint64_t collect_ns; /* the first sample's window starts here */
	bool collecting;
	uint64_t last_ns, next_ns, last_bytes, last_ios;
};

/* Before the loop: start_ns is the job's start; the first window starts after ramp_time
 * and ss_ramp, whichever is longer. */
void steady_start(struct steady_clone *c, struct steady_unit *u, unsigned member, uint64_t start_ns, unsigned debug);
/* In the loop, after the time's own checks: publish the totals, sample when due (the
 * leader). true when the unit has attained steady state: the job stops issuing. */
bool steady_tick(struct steady_clone *c, uint64_t now, const struct thread_stats *ts);

#endif
