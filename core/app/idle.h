/* --idle-prof: fio's idleness profiling. One thread per CPU this process may use, pinned to
 * it, first times a unit of work (touching a page of bytes) at normal priority, then does
 * units at SCHED_IDLE priority, which the kernel runs only when nothing else wants the
 * CPU. The units done while the jobs ran, times the unit's time, over the time that passed
 * is the share of that CPU the benchmark (and everything else) left idle. */
#ifndef IOBENCH_IDLE_H
#define IOBENCH_IDLE_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "core/stats/results.h"

enum idle_mode { IDLE_NONE, IDLE_SYSTEM, IDLE_PERCPU, IDLE_CALIBRATE };

#define IDLE_ROUNDS 16 /* calibration rounds per CPU */

struct idle_cpu {
	struct idle_prof *ip;
	unsigned cpu;
	pthread_t tid;
	bool started;
	double round_ns[IDLE_ROUNDS]; /* one unit's time in each calibration round */
	double unit_ns;               /* the median of them: what a unit done counts for */
	atomic_uint_fast64_t units;   /* done since the measurement began */
	uint64_t units_at_start;
};

struct idle_prof {
	int mode;
	unsigned ncpus;
	struct idle_cpu *cpus;
	atomic_uint ready;            /* threads calibrated (or given up) */
	atomic_bool quit;             /* the threads end (idle_stop) */
	uint64_t start_ns, end_ns;
	unsigned *ids;
	double *pct;
	struct idle_result res;
};

/* Start the threads and wait for their calibration. 0, or -errno after one line. */
int idle_start(struct idle_prof *ip, int mode);
/* The measurement begins (the jobs start). */
void idle_begin(struct idle_prof *ip);
/* End the threads; ip->res holds the results (mode 0 if idle_start failed). */
void idle_stop(struct idle_prof *ip);
void idle_free(struct idle_prof *ip);

#endif
