/* Trims: the job's options for trimming written blocks (trim_percentage and its backlog) and
 * the one call engines make to trim. The worker's part (core/worker/trim.c: the trim+write pairs of
 * rw=trimwrite/randtrimwrite, the written blocks chosen for trimming) is declared with the
 * worker's other parts in core/worker/worker_int.h. */
#ifndef IOBENCH_TRIM_H
#define IOBENCH_TRIM_H
#include <stdbool.h>
#include <stdint.h>

/* trim_percentage, trim_backlog, trim_backlog_batch, trim_verify_zero (core/job/options_trim.c). */
struct trim_opts {
	unsigned percentage;    /* of written blocks, chosen to be trimmed after they are written */
	uint64_t backlog;       /* trim the chosen blocks every this many blocks written (0: at the end) */
	uint64_t backlog_batch; /* how many of them each time (0: trim_backlog) */
	bool verify_zero;       /* the verify reads check that they read back as zeros */
};

/* ---- engines ---- */

/* How a file is trimmed, found on its first trim (one byte per file, kept by the engine). */
enum trim_kind { TRIM_UNKNOWN, TRIM_PUNCH, TRIM_DISCARD };

/* Trim [off, off + len) of fd: ioctl(BLKDISCARD) on a block device, as fio; anywhere else
 * fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE), so a regular file's blocks are
 * freed and read back as zeros (fio 3.33 fails those with ENOTTY). *kind caches which of the
 * two the file takes (TRIM_UNKNOWN the first time: one fstat). Returns len or -errno. */
int64_t trim_range(int fd, unsigned char *kind, uint64_t off, uint64_t len);

#endif
