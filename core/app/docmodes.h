/* --merge and --compare: modes that read JSON result documents (fio's or ours) and write
 * one, instead of running jobs. */
#ifndef IOBENCH_DOCMODES_H
#define IOBENCH_DOCMODES_H
#include "core/run/run.h"

/* The document on stdout, or in --output through core/lib/outfile.c's door (kept only when
 * made). The exit status: 0, 1 (bad input), 2 (--compare-threshold passed). */
int docmodes_run(const struct run_cfg *cfg);

#endif
