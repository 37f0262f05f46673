/* I/O logs before the run (core/run/iolog_plan.c): read_iolog's logs read and planned, the
 * files they write laid out. The model and the readers: core/plan/iolog.h. */
#ifndef IOBENCH_IOLOG_PLAN_H
#define IOBENCH_IOLOG_PLAN_H
#include <stdbool.h>

#include "core/plan/iolog.h"

struct job;
struct run_cfg;
struct file_plan;
/* After job_resolve: read_iolog's logs read (merged first with merge_blktrace_file) into
 * job->iologs, the job's directions taken from them; write_iolog checked. 0, or -errno after
 * one line. */
int iolog_job_prepare(struct job *job, const struct run_cfg *cfg);
/* The files of the clone replaying a log, and its amount of I/O. 0 or -errno after a line. */
int iolog_plan(const struct job *job, unsigned clone, bool no_file, struct file_plan *plan);
/* When its group starts: the files the log writes are created if missing; a missing file it
 * does not write fails the clone. 0 or -errno after a line. */
int iolog_layout(const struct job *job, const struct file_plan *plan, bool readonly);

#endif
