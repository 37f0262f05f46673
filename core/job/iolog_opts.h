/* The I/O log options' fields (struct job_opts.iolog; the rows are core/job/options_iolog.c,
 * the rest of the area core/plan/iolog.h). */
#ifndef IOBENCH_IOLOG_OPTS_H
#define IOBENCH_IOLOG_OPTS_H
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#define IOLOG_MERGE_MAX 64       /* merge_blktrace_scalars / _iters: values */
#define IOLOG_MAX_LEN (1ULL << 31) /* the longest I/O a log may ask for (bs is capped there too) */
#define IOLOG_MAX_US (UINT64_MAX / 100000) /* a timestamp that scales to ns without overflow */

/* What a log's line does (replay_skip's bits): the first three are the job's directions
 * (enum ddir, core/job/job.h). */
enum iolog_act {
	IOLOG_READ = 0,
	IOLOG_WRITE = 1,
	IOLOG_TRIM = 2,
	IOLOG_SYNC,
	IOLOG_DATASYNC,
	IOLOG_NACT,
};

/* The options (fio's "I/O replay" section; core/job/options_iolog.c). */
struct iolog_opts {
	char write[PATH_MAX];       /* write_iolog */
	char read[PATH_MAX];        /* read_iolog: one or more names joined with ':' */
	char redirect[PATH_MAX];    /* replay_redirect */
	char merge_file[PATH_MAX];  /* merge_blktrace_file */
	bool chunked;               /* read_iolog_chunked (accepted: logs are read whole) */
	bool no_stall;              /* replay_no_stall */
	unsigned time_scale;        /* replay_time_scale: percent of the log's rate */
	uint64_t align;             /* replay_align: a power of 2, 0 none */
	uint64_t scale;             /* replay_scale: offsets divided by it (0 and 1: as logged) */
	unsigned skip;              /* replay_skip: 1 << enum iolog_act */
	unsigned nscalars, niters;
	double scalars[IOLOG_MERGE_MAX]; /* merge_blktrace_scalars: percent, by trace */
	double iters[IOLOG_MERGE_MAX];   /* merge_blktrace_iters: times, by trace */
};

#endif
