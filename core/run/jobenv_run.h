/* The job environment, the run's part (core/run/jobenv_run.c, core/run/jobenv_cgroup.c): it
 * sets up what is shared before a group starts and undoes it after the run (cgroups made,
 * I/O schedulers switched, the file locks' table). The worker's part: core/worker/jobenv.h. */
#ifndef IOBENCH_JOBENV_RUN_H
#define IOBENCH_JOBENV_RUN_H
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/worker/jobenv.h"

struct run_ctx;
struct job;

/* The run's part (struct run_ctx's env): what it made, to undo after the run. */
struct env_cgroup {
	char dir[PATH_MAX];
	bool made, keep;
};
struct env_sched {
	char disk[64];
	char was[64]; /* the scheduler it had */
};
struct env_run {
	struct env_clone *clones; /* by clone index */
	size_t nclones;
	struct env_cgroup *cgroups; /* made, deepest last */
	unsigned ncgroups;
	struct env_sched *scheds;
	unsigned nscheds;
	struct env_lock **locks;
	unsigned nlocks;
};

struct run_cfg;
/* Checks of a job's environment options once resolved (engine, combinations, what this
 * machine has; not the machine with --parse-only): 0, or -EINVAL after one line. */
int env_check_job(struct job *job, const struct run_cfg *cfg);
/* Group g is about to start: its cgroups made, its devices' schedulers switched, its
 * files' locks. A job that cannot have its environment fails (c->err) after one line. */
int env_group_start(struct run_ctx *rc, unsigned g);
/* The run is over: cgroups removed (but cgroup_nodelete's), schedulers switched back. */
void env_run_end(struct run_ctx *rc);
void env_run_free(struct run_ctx *rc);
/* The clone's part, for its worker (NULL when it has none). */
const struct env_clone *env_for_clone(const struct run_ctx *rc, size_t clone);
/* jobenv_cgroup.c: the cgroup of a job made (or found); join: the file its threads write
 * their ids to. 0 or -errno after one line. */
int env_cgroup_prepare(struct env_run *er, const struct job *job, char *join, size_t len);
/* Remove what the run made, deepest first, but what a cgroup_nodelete job used. */
void env_cgroup_remove(struct env_run *er);

#endif
