/* Per-priority latency statistics (fio's "prios" JSON array and "clat prio C/L" lines): a
 * job whose I/Os carry more than one priority (cmdprio_percentage, cmdprio_bssplit) keeps,
 * per direction, one completion latency series and histogram per priority (total latency
 * with lat_percentiles=1, as fio). Reads and writes only, as fio's cmdprio options. */
#ifndef IOBENCH_PRIO_H
#define IOBENCH_PRIO_H
#include <stdbool.h>
#include <stdint.h>

#include "core/stats/hist.h"

/* Priorities a direction keeps apart: the job's own and at most three others. */
#define PRIO_STATS_MAX 4
#define PRIO_DIRS 2 /* read, write */

/* An I/O priority as the kernel takes it: class << 13 | level. */
#define IOPRIO_CLASS_SHIFT 13
static inline uint16_t ioprio_value(unsigned cls, unsigned level)
{
	return (uint16_t)(cls << IOPRIO_CLASS_SHIFT | level);
}
static inline unsigned ioprio_class_of(uint16_t v)
{
	return v >> IOPRIO_CLASS_SHIFT;
}
static inline unsigned ioprio_level_of(uint16_t v)
{
	return v & ((1u << IOPRIO_CLASS_SHIFT) - 1);
}

struct prio_stat {
	uint16_t ioprio;
	uint64_t n, min, max, sum; /* as struct series (core/stats/stats.h), kept here so this */
	unsigned __int128 sumsq;   /* header stands alone */
	struct hist hist;
};

/* One direction's: entries with samples (n > 0) are in use, in the order they came. */
struct prio_stats {
	bool lat;      /* total latency (lat_percentiles=1), else completion latency */
	bool overflow; /* merged from jobs with more than PRIO_STATS_MAX priorities */
	struct prio_stat e[PRIO_STATS_MAX];
};

static inline void prio_stat_add(struct prio_stat *e, uint16_t ioprio, uint64_t v)
{
	e->ioprio = ioprio;
	if (e->n == 0 || v < e->min)
		e->min = v;
	if (v > e->max)
		e->max = v;
	e->n++;
	e->sum += v;
	e->sumsq += (unsigned __int128)v * v;
	hist_record(&e->hist, v);
}

/* Add src's entries into dst's, by priority (core/stats/prio_stats.c). */
void prio_stats_merge(struct prio_stats *dst, const struct prio_stats *src);
/* Entries with samples. */
unsigned prio_stats_used(const struct prio_stats *p);

#endif
