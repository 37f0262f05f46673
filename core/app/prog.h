/* The run's side of fio 3.33's program flags (core/run/progflags.h), for main(): --debug's
 * lines about what the run was resolved into, and --daemonize. */
#ifndef IOBENCH_PROG_H
#define IOBENCH_PROG_H
#include "core/run/run.h"

/* --debug=job,file,time: the jobs, each clone's files, the clock (after run_prepare). */
void prog_debug_prepared(const struct run_ctx *rc);
/* --debug=diskutil: the disks' deltas (after run_summarize). */
void prog_debug_disks(const struct run_ctx *rc);

/* --daemonize=PIDFILE: into the background. The child returns 0 (its pid is in the file);
 * the parent returns 1 once the child has written it (main exits 0); -errno after a line. */
int prog_daemonize(const struct run_cfg *cfg);
/* The background run ends: its pid file goes. */
void prog_daemon_end(const struct run_cfg *cfg);

#endif
