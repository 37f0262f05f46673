/* The last of fio 3.33's job options (issue 16): bs_is_seq_rand, atomic, and the options of
 * fio's two profiles (--profile=act, --profile=tiobench; core/app/profile.c makes their jobs).
 * Rows: core/job/options_compat.c. */
#ifndef IOBENCH_COMPAT_OPTS_H
#define IOBENCH_COMPAT_OPTS_H
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

/* fio's O_ATOMIC (Linux has never had it: the kernel ignores the bit, and the file is opened
 * O_DIRECT as atomic implies). */
#define COMPAT_O_ATOMIC 040000000

struct compat_opts {
	bool bs_is_seq_rand; /* bs=A,B: A for sequential I/Os, B for random ones (not read, write) */
	bool atomic;         /* O_DIRECT | O_ATOMIC */
	char profile[64];    /* profile= in a job: recorded, as fio; --profile= makes the jobs */
	/* The profiles' options: in a job they are checked and recorded, nothing more (as fio);
	 * on the command line, --profile reads them. */
	char device_names[PATH_MAX]; /* act */
	unsigned load, threads_per_queue, read_req_blocks, large_block_kib;
	uint64_t test_duration_us;
	bool prep;
	unsigned block, numruns; /* tiobench (size, dir and threads are rows of other tables) */
};

struct job_opts;
/* After the job's options are set: atomic turns direct on. */
void compat_resolve(struct job_opts *o);

#endif
