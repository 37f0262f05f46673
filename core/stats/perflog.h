/* fio's per-job logs: bandwidth, IOPS, latency (slat, clat, lat) and clat histogram,
 * in fio's formats and file names. Entries are kept in memory by the worker (in chunks,
 * one allocation per 4096 entries) and written when the job ends. */
#ifndef IOBENCH_PERFLOG_H
#define IOBENCH_PERFLOG_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/stats/hist.h"
#include "core/job/job.h"

enum perflog_kind { LOG_BW, LOG_IOPS, LOG_SLAT, LOG_CLAT, LOG_LAT, LOG_KINDS };

struct log_entry {
	uint64_t t_ms;
	uint64_t value;
	uint64_t offset;
	uint32_t bs;
	uint8_t ddir;
	uint32_t prio; /* PERFLOG_PRIO: the I/O's priority, and whether it was cmdprio's */
};

/* The last column of a log entry: with log_prio the I/O's priority (0x4003), else 1 for an
 * I/O that had cmdprio's priority and 0 for the others (windowed entries: 0). */
#define PERFLOG_PRIO(ioprio, high) ((uint32_t)(ioprio) | ((high) ? 0x10000u : 0u))

struct log_chunk {
	struct log_chunk *next;
	unsigned n;
	struct log_entry e[4096];
};

struct logz_blob;
struct perflog {
	struct log_chunk *head, *tail;
	struct logz_blob *zhead, *ztail; /* log_compression: packed chunks (core/stats/perflog_z.c) */
	bool on;
};

/* One window's sums per direction, for log_avg_msec averaging. */
struct log_window {
	uint64_t sum[LOG_KINDS][DDIR_NR], count[LOG_KINDS][DDIR_NR];
	uint64_t max[LOG_KINDS][DDIR_NR]; /* log_max_value */
	uint64_t bytes[DDIR_NR], ios[DDIR_NR];
};

struct hist_log_entry {
	uint64_t t_ms;
	uint8_t ddir;
	uint32_t bs;
	uint64_t *counts; /* HIST_NR */
	struct hist_log_entry *next;
};

struct perflogs {
	struct perflog log[LOG_KINDS];
	struct log_window win;
	uint64_t window_start_ms, avg_ms;
	bool any;
	bool hist_on;
	uint64_t hist_ms, hist_last_ms;
	struct hist last_hist[DDIR_NR];
	struct hist_log_entry *hist_head, *hist_tail;
	/* the logs' shapes (core/job/options_io.c) */
	uint64_t epoch_ms;        /* added to every time: log_unix_epoch, log_alternate_epoch */
	unsigned pack_entries;    /* log_compression: entries per packed chunk (0: off) */
	bool store_z, max_value, with_offset, log_prio;
	unsigned coarseness;      /* log_hist_coarseness */
};

void perflogs_init(struct perflogs *pl, const struct job_opts *o);
/* The statistics start now: the epoch of the logs' times (log_unix_epoch...). */
void perflogs_start(struct perflogs *pl, const struct job_opts *o);
/* A completed I/O (t_ms since the job's start). Returns -ENOMEM if a chunk cannot be had. */
int perflogs_io(struct perflogs *pl, uint64_t t_ms, enum ddir d, uint64_t bs, uint64_t offset,
		uint64_t slat_ns, uint64_t clat_ns, uint64_t lat_ns, bool has_slat, uint32_t prio);
/* Time passes: close averaging windows and histogram intervals due by t_ms. */
int perflogs_tick(struct perflogs *pl, uint64_t t_ms, const struct hist *const clat_now[DDIR_NR],
		  const uint64_t *bs);
/* Write the logs: prefixes from the options, index = the job's number (1..N). */
int perflogs_write(struct perflogs *pl, const struct job_opts *o, unsigned index);
/* Before the run: may the clone's logs (log index index) be written where they go (the
 * write guard, core/lib/outfile.h)? 0, or -errno after a line naming the log and why. */
int perflogs_guard(const struct job_opts *o, unsigned index);
void perflogs_free(struct perflogs *pl);

/* core/stats/perflog_z.c: pack the oldest chunk of l into a zlib stream of fio's samples; write the
 * packed streams as text lines, or (with what is left, packed too) as fio's .fz file. */
int logz_pack(struct perflog *l, uint64_t epoch_ms, bool with_offset, bool log_prio);
int logz_write_text(const struct perflog *l, FILE *f);
int logz_write_store(struct perflog *l, FILE *f, uint64_t epoch_ms, bool with_offset, bool log_prio);
void logz_free(struct perflog *l);

#endif
