/* Out of memory while setting up a run: one line on stderr naming what could not be
 * allocated, how much, and for which job. */
#ifndef IOBENCH_NOMEM_H
#define IOBENCH_NOMEM_H
#include <stdint.h>

/* "iobench: job 'x': out of memory: cannot allocate 4.0 KiB (4096 bytes) for the WHAT"
 * (job NULL: no job's, the run's; bytes 0: not known, "out of memory for the WHAT"). Returns
 * -ENOMEM. */
int nomem(const char *job, const char *what, uint64_t bytes);

#endif
