/* --debug=CATEGORY,...: fio's debug categories. The lines go to stderr in fio's shape
 * ("io       1234  queue: io_u ...": the category, the thread's id, the text); stdout
 * keeps only the report. A category iobench has nothing to say about is accepted with one
 * note. Callers test the mask first, so nothing is formatted when nobody asked. */
#ifndef IOBENCH_DEBUG_H
#define IOBENCH_DEBUG_H
#include <stdbool.h>
#include <stdio.h>

/* In fio's order (--debug=help lists them so). */
enum debug_cat {
	DBG_PROCESS, DBG_FILE, DBG_IO, DBG_MEM, DBG_BLKTRACE, DBG_VERIFY, DBG_RANDOM, DBG_PARSE,
	DBG_DISKUTIL, DBG_JOB, DBG_MUTEX, DBG_PROFILE, DBG_TIME, DBG_NET, DBG_RATE, DBG_COMPRESS,
	DBG_STEADYSTATE, DBG_HELPERTHREAD, DBG_ZBD, DBG_NR
};
#define DBG_BIT(c) (1u << (c))

struct debug_opts {
	unsigned mask; /* DBG_BIT()s */
	int job;       /* --debug=job:N: the per-job lines of clone N only (0-based); -1: all */
};

enum { DEBUG_SET = 0, DEBUG_HELP = 1 };
/* Parse "io,file", "all", "job:2", "help" / "?" (the list is printed to out: DEBUG_HELP).
 * DEBUG_SET, or -EINVAL after one line on stderr. Says on stderr what it set, as fio,
 * unless quiet. */
int debug_parse(const char *spec, struct debug_opts *d, FILE *out, bool quiet);

/* The mask a clone's lines use: 0 when job:N names another clone. */
static inline unsigned debug_for_clone(const struct debug_opts *d, unsigned clone_in_run)
{
	return d->job < 0 || (unsigned)d->job == clone_in_run ? d->mask : d->mask & ~(DBG_BIT(DBG_IO) | DBG_BIT(DBG_FILE) |
									DBG_BIT(DBG_MEM) | DBG_BIT(DBG_RANDOM) | DBG_BIT(DBG_JOB));
}

static inline bool debug_on(unsigned mask, enum debug_cat c)
{
	return (mask & DBG_BIT(c)) != 0;
}

/* One line: "CATEGORY TID  text" (fmt ends with a newline, as fio's). */
void debug_print(enum debug_cat c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
