/* A clone's plan as the run makes it: its files (core/plan/files.c or a replayed log's), checked
 * before anything runs (guards against mounted devices, targets that are not files, an
 * output that is an input), and the disks they live on. */
#ifndef IOBENCH_PLAN_H
#define IOBENCH_PLAN_H

#include "core/run/run.h"

/* Plan clone c of its job into c->plan: 0, or -EINVAL after one line on stderr. */
int plan_clone(const struct run_cfg *cfg, struct clone_result *c);
/* Add the disks c's files are on to rc->disks (disk_util): 0 or -ENOMEM. */
int plan_clone_disks(struct run_ctx *rc, const struct clone_result *c);
/* What clone ci shares with others for core/job/options_io.c's options: the run's flows
 * (w->flows), its slice of the dedupe working set (w->dedupe_start, dedupe_len) and the set's
 * size in buffers (w->dedupe_total: the clone's own, or with dedupe_global every
 * participant's). */
struct worker;
void io_place(struct run_ctx *rc, size_t ci, struct worker *w);

#endif
