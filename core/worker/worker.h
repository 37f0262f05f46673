/* One worker thread: runs one clone of a job against its file through its engine. */
#ifndef IOBENCH_WORKER_H
#define IOBENCH_WORKER_H
#include <limits.h>
#include <stdatomic.h>
#include <pthread.h>
#include <stdint.h>

#include "core/lib/clock.h"
#include "engines/engine.h"
#include "core/worker/flow.h"
#include "core/stats/stats.h"
#include "core/plan/zbd.h"

struct file_plan;
struct env_clone;
struct steady_unit;

/* What a running clone shows the monitor (ETA line, --status-interval): counters
 * published about every 100 ms, and a copy of its stats when status reports are on. */
enum clone_state { CLONE_WAITING, CLONE_RUNNING, CLONE_DONE };
struct clone_progress {
	atomic_uint_fast64_t bytes[DDIR_NR], ios[DDIR_NR];
	atomic_uint_fast64_t elapsed_ms;
	atomic_int state;
	pthread_mutex_t lock;       /* guards *snap */
	/* NULL until a status report is asked for (--status-interval, SIGUSR1); set once by
	 * the monitor, then copied into by the worker about every 100 ms */
	_Atomic(struct thread_stats *) snap;
};

struct worker {
	const struct job_opts *o;
	const struct engine_ops *ops;
	const void *eng_opts;    /* the engine's own options (engine_ops.options), resolved */
	const struct file_plan *plan; /* files, regions, amount of I/O */
	const struct env_clone *env; /* its cgroup, file locks (core/worker/jobenv.h); NULL: none */
	unsigned clone;          /* clone number, for cpus_allowed_policy=split */
	unsigned log_index;      /* N of the logs' names: the clone's number in the run, from 1 */
	uint64_t seed;
	const atomic_bool *stop; /* set by a signal or exitall: stop issuing */
	const atomic_uint *io_jobs_left; /* clones of I/O-doing jobs not finished (engine_ctx) */
	struct thread_stats *ts; /* written by this worker only */
	struct clone_progress *progress;
	struct zbd_set *zbd;     /* zonemode=zbd: the run's zone tables (core/plan/zbd.h) */
	const struct tsc_clock *clk; /* clocksource=cpu: the run's calibrated TSC; NULL: the kernel's */
	unsigned debug;          /* --debug: the categories this clone prints (core/lib/debug.h) */
	bool warnings_fatal;     /* --warnings-fatal: a note fails the job */
	/* dedupe_mode=working_set: its slice of the set (start, length) and the set's size */
	uint64_t dedupe_start, dedupe_len, dedupe_total;
	struct flow_table *flows; /* flow=: the run's flows */
	struct flow *flow;        /* ... its own, joined before the threads start (NULL: joins itself) */
	uint64_t flow_ios;        /* ... and its count when it joined */
	struct steady_unit *ss;  /* ss_dur: the steady-state window it adds to (core/worker/steadystate.h), or NULL */
	unsigned ss_member;      /* its slot there (0: it keeps the window) */
	int err;                 /* -errno of the failure that stopped it, 0 if none */
};

/* Runs the job to its end. Returns w->err. */
int worker_run(struct worker *w);

#endif
