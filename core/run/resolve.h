/* A job's options resolved (core/run/resolve.c, core/run/resolve_io.c). */
#ifndef IOBENCH_RESOLVE_H
#define IOBENCH_RESOLVE_H
#include <stddef.h>

#include "core/job/job.h"

/* Resolve defaults <- command-line globals <- inherited <- own into job->o, and find the
 * job's engine (job->ops). On error, prints one line to stderr and returns -EINVAL. */
int job_resolve(struct job *job, const struct opt_list *cmdline_globals);

/* After a job's options are resolved (lists: what it was given, in order): what they imply
 * (blockalign turns the random map off, pre_read invalidate, ignore_error continue_on_error)
 * and what cannot go together. 0, or -EINVAL after one line. */
int opts_io_resolve(struct job *job, const struct opt_list *const *lists, size_t n);

#endif
