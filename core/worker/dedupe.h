/* dedupe_mode=working_set and dedupe_global (core/worker/dedupe.c). */
#ifndef IOBENCH_DEDUPE_H
#define IOBENCH_DEDUPE_H
#include <stddef.h>
#include <stdint.h>

struct run_ctx;
struct worker;

/* What clone ci shares: the run's flows (w->flows), its slice of the dedupe working set
 * (w->dedupe_start, dedupe_len) and the set's size in buffers (w->dedupe_total: the clone's
 * own, or with dedupe_global every participant's). */
void io_place(struct run_ctx *rc, size_t ci, struct worker *w);
/* The seed of buffer index of a set (the same key for every clone of a global set). */
uint64_t dedupe_seed(uint64_t key, uint64_t index);

#endif
