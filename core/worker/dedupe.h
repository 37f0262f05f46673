/* dedupe_mode=working_set and dedupe_global (core/worker/dedupe.c). */
#ifndef IOBENCH_DEDUPE_H
#define IOBENCH_DEDUPE_H
#include <stdint.h>

/* The seed of buffer index of a set (the same key for every clone of a global set). */
uint64_t dedupe_seed(uint64_t key, uint64_t index);

#endif
