/* The job's options for trimming written blocks (fio's trim_percentage and its backlog; the
 * rows are core/job/options_trim.c's, the worker's part core/worker/trim.c). */
#ifndef IOBENCH_TRIM_OPTS_H
#define IOBENCH_TRIM_OPTS_H
#include <stdbool.h>
#include <stdint.h>

/* trim_percentage, trim_backlog, trim_backlog_batch, trim_verify_zero (core/job/options_trim.c). */
struct trim_opts {
	unsigned percentage;    /* of written blocks, chosen to be trimmed after they are written */
	uint64_t backlog;       /* trim the chosen blocks every this many blocks written (0: at the end) */
	uint64_t backlog_batch; /* how many of them each time (0: trim_backlog) */
	bool verify_zero;       /* the verify reads check that they read back as zeros */
};

#endif
