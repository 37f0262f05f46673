/* The job environment at work, the worker's part (its options: core/job/env_opts.h; the
 * run's part, which sets up what is shared before a group starts and undoes it after the
 * run: core/run/jobenv_run.h). Each worker puts its own thread in its place (cgroup,
 * priorities, NUMA, user and group, pinned memory), gets its buffers (mem=), runs the
 * commands around the job, gives each I/O its priority and keeps the file locks.
 *
 *   core/worker/jobenv.c      the worker's thread: cgroup, ioprio, nice, NUMA, uid/gid, lockmem,
 *                      exec_prerun/exec_postrun, write_hint
 *   core/worker/jobmem.c      the I/O buffers' memory (mem=, mem_align, hugepage-size)
 *   core/worker/cmdprio.c     per-I/O priorities and the latencies kept per priority
 *   core/worker/lockfile.c    lockfile=: locks shared by the threads doing I/O to one file */
#ifndef IOBENCH_JOBENV_H
#define IOBENCH_JOBENV_H
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engines/engine.h"
#include "core/lib/rand.h"
#include "core/stats/stats.h"

struct job;
struct wstate;

/* ---- lockfile.c: one lock per file the run's threads share (by device and inode) ---- */
struct env_lock {
	pthread_mutex_t m;
	pthread_cond_t c;
	atomic_uint_fast64_t next, serving; /* tickets: first come, first served */
	unsigned readers;
	bool writer;
	uint64_t dev, ino;
	char path[PATH_MAX];
};

/* What the run gives one clone (struct worker's env). */
struct env_clone {
	char cgroup_join[PATH_MAX]; /* the file its thread writes its id to ("" without cgroup=) */
	struct env_lock **locks;    /* by file index (lockfile=), else NULL */
	unsigned nlocks;
};

/* ---- a worker's part (struct wstate's env) ---- */
struct env_lockf {
	struct env_lock *lock;
	unsigned inflight; /* its I/Os in flight to the file, under the lock */
	bool held, shared;
};

struct env_split {
	uint64_t bs;
	unsigned pct;
	uint16_t ioprio;
	uint8_t index;
};

struct env_worker {
	/* cmdprio.c */
	bool cmdprio;        /* I/Os may carry a priority of their own */
	bool prio_lat;       /* the per-priority latency is total latency (lat_percentiles) */
	uint16_t def_ioprio; /* the job's own (prio, prioclass), 0 when none */
	struct rng rng;
	unsigned pct[2]; /* cmdprio_percentage, by direction */
	uint16_t ioprio[2];
	uint8_t index[2];
	unsigned nsplit[2]; /* cmdprio_bssplit */
	struct env_split split[2][ENV_CMDPRIO_SPLIT_MAX];
	/* jobmem.c */
	void *mem; /* the buffers' memory as mapped or allocated */
	size_t mem_len;
	int shm_id;
	char mem_unlink[PATH_MAX]; /* mem=mmap:FILE made by the job: removed when freed */
	void *pinned;              /* lockmem */
	size_t pinned_len;
	/* lockfile.c */
	unsigned lock_mode;      /* enum env_lockfile */
	struct env_lockf *files; /* by file index */
	unsigned nfiles;
};

/* jobenv.c, in the worker's thread: before its files and buffers (cgroup, ioprio, nice,
 * NUMA, then gid and uid, then lockmem), in that order; 0 or -errno after one line. */
int env_enter(struct wstate *s);
/* Its files are open: write_hint. 0 or -errno after one line. */
int env_files_opened(struct wstate *s);
/* exec_prerun, before the I/O; exec_postrun, after it (only if the prerun ran). */
int env_prerun(struct wstate *s);
int env_postrun(struct wstate *s); /* 0, or -errno when its output file is refused */
/* Whatever env_enter took (pinned memory). */
void env_leave(struct wstate *s);

/* jobmem.c: the buffers' memory, bytes long, the first buffer where *buf points. 0 or
 * -errno after one line. */
int env_mem_alloc(struct wstate *s, size_t bytes, void **buf);
void env_mem_free(struct wstate *s);
/* Bytes beyond the buffers the memory needs (mem_align). */
size_t env_mem_extra(const struct job_opts *o);
/* The machine's default huge page size (Hugepagesize in /proc/meminfo), 0 if none. */
uint64_t env_default_hugepage(void);
/* Free huge pages of a size (free less reserved), or -1 when the machine has none of it. */
long long env_free_hugepages(uint64_t size);

/* cmdprio.c */
/* The job's own priority, as ioprio_set gives it: none (0) unless prio or prioclass is
 * given; class 0 is best-effort, as the kernel reads it. */
uint16_t cmdprio_job_ioprio(const struct env_opts *e);
/* How many priorities direction d's I/Os may have (the job's own counted). */
unsigned cmdprio_count(const struct env_opts *o, int d);
void cmdprio_init(struct wstate *s);
void cmdprio_pick_slow(struct env_worker *e, struct io_unit *u);
/* Before an I/O is queued: its priority (only with cmdprio_*; otherwise every unit keeps
 * the job's). */
static inline void cmdprio_pick(struct env_worker *e, struct io_unit *u)
{
	if (e->cmdprio)
		cmdprio_pick_slow(e, u);
}
/* A completion's latency, under its priority. */
static inline void cmdprio_record(const struct env_worker *e, struct thread_stats *ts, const struct io_unit *u,
				  uint64_t clat, uint64_t lat)
{
	if (!e->cmdprio || u->ddir >= PRIO_DIRS)
		return;
	struct prio_stats *p = &ts->prio[u->ddir];
	p->lat = e->prio_lat;
	prio_stat_add(&p->e[u->prio_index], u->ioprio, e->prio_lat ? lat : clat);
}
/* The logs' last column: log_prio's priority, or 1 for cmdprio's I/Os and 0 for the others. */
static inline bool cmdprio_high(const struct io_unit *u)
{
	return u->prio_index != 0;
}

/* lockfile.c */
int lockfile_init(struct wstate *s);
void lockfile_free(struct wstate *s);
/* Before an I/O: 0 when its file's lock is held; -EAGAIN when the loop must drain first
 * (then lockfile_wait). */
int lockfile_take_slow(struct env_worker *e, const struct io_unit *u);
static inline int lockfile_take(struct env_worker *e, const struct io_unit *u)
{
	return e->lock_mode ? lockfile_take_slow(e, u) : 0;
}
/* The queue is drained: wait for the lock (until stop is set: -EINTR). */
int lockfile_wait(struct env_worker *e, const struct io_unit *u, const atomic_bool *stop);
/* An I/O completed or was given up: the lock goes when its file has none in flight. */
void lockfile_done_slow(struct env_worker *e, const struct io_unit *u);
static inline void lockfile_done(struct env_worker *e, const struct io_unit *u)
{
	if (e->lock_mode)
		lockfile_done_slow(e, u);
}

#endif
