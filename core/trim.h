/* Trims: the job's options for trimming written blocks (trim_percentage and its backlog),
 * the one call engines make to trim, and the worker's part that keeps track of trims
 * (core/trim.c): the trim+write pairs of rw=trimwrite/randtrimwrite and the written blocks
 * chosen for trimming. */
#ifndef IOBENCH_TRIM_H
#define IOBENCH_TRIM_H
#include <stdbool.h>
#include <stdint.h>

#include "core/rand.h"

/* trim_percentage, trim_backlog, trim_backlog_batch, trim_verify_zero (core/options_trim.c). */
struct trim_opts {
	unsigned percentage;    /* of written blocks, chosen to be trimmed after they are written */
	uint64_t backlog;       /* trim the chosen blocks every this many blocks written (0: at the end) */
	uint64_t backlog_batch; /* how many of them each time (0: trim_backlog) */
	bool verify_zero;       /* the verify phase checks that they read back as zeros */
};

/* ---- engines ---- */

/* How a file is trimmed, found on its first trim (one byte per file, kept by the engine). */
enum trim_kind { TRIM_UNKNOWN, TRIM_PUNCH, TRIM_DISCARD };

/* Trim [off, off + len) of fd: ioctl(BLKDISCARD) on a block device, as fio; anywhere else
 * fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE), so a regular file's blocks are
 * freed and read back as zeros (fio 3.33 fails those with ENOTTY). *kind caches which of the
 * two the file takes (TRIM_UNKNOWN the first time: one fstat). Returns len or -errno. */
int64_t trim_range(int fd, unsigned char *kind, uint64_t off, uint64_t len);

/* ---- the worker's part (core/trim.c; the loop in worker.c calls it) ---- */

struct wstate;
struct wfile;

struct trimming {
	bool counted;                /* trims count against size/io_size and number_ios: only
				      * in a job that does not write (trimwrite's io_size is the
				      * writes', and trim_percentage's trims come on top) */
	/* rw=trimwrite, randtrimwrite: each trim is followed by writes on its file, as fio: a
	 * write is owed while the last write did not start where the last trim did
	 * (sequential), or until the write that mirrors the trim (random) */
	bool pairs;
	bool owed;
	unsigned file;               /* the last trim's file, offset (in the region) and length */
	uint64_t trim_off, trim_len;
	uint64_t tw_bytes;           /* trims and writes issued: fio's rule at the end of a pass */
	uint64_t max_bs;
	uint64_t *pass_trimmed;      /* per file: bytes trimmed in this pass (randtrimwrite) */
	uint64_t *passes;            /* per file: passes ended */
	/* trim_percentage: written blocks chosen for trimming (pending) and trimmed since they
	 * were written (trimmed), one bit per block per file */
	bool chosen_on;
	struct rng rng;              /* which writes are chosen */
	uint64_t **pending, **trimmed;
	uint64_t npending, written;
	uint64_t batch_left;         /* trims of the chosen blocks due now */
	unsigned cur_file;           /* where the next search for a chosen block starts */
	uint64_t cur_block;
	bool backlog_io;             /* the I/O being prepared is one of them: */
	unsigned backlog_file;
	uint64_t backlog_off;        /* in the region */
};

int trim_setup(struct wstate *s);
void trim_teardown(struct wstate *s);
/* After a write was handed over: the block is written again (no longer trimmed), and
 * perhaps chosen for trimming. True when a batch of trims is due (the loop drains first). */
bool trim_written(struct wstate *s, struct wfile *f, uint64_t off, uint64_t len);
/* The writes are done: are chosen blocks still to be trimmed (then they are due now)? */
bool trim_leftover(struct wstate *s);
/* The next chosen block to trim, if a batch is due: taken off the list (backlog_io set). */
bool trim_take_chosen(struct wstate *s);
/* trim_verify_zero: after the verify phase, the blocks trimmed after they were written read
 * back as zeros. 0 or -EILSEQ after a line per block (10 at most). */
int trim_verify_zeros(struct wstate *s);

/* offsets.c, rw=trimwrite/randtrimwrite: does the next I/O (direction d, len bytes, on f)
 * start a new pass over f? Then fio's rule: another pass if loops are left or the job is
 * time_based, or if what is left of io_size is at least the largest block; the positions
 * start again, with a trim (PASS_AGAIN: prepare the I/O again). PASS_END: the job is done. */
enum trim_pass { PASS_GO, PASS_AGAIN, PASS_END };
enum trim_pass offsets_pass_check(struct wstate *s, struct wfile *f, int ddir, uint64_t len);

#endif
