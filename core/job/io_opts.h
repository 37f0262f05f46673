/* fio 3.33's I/O-behaviour options beyond the first table (core/job/options_io.c): errors,
 * filling and preparing files, syncs, flow control between jobs, alignment, dedupe,
 * thinktime and rate details, statistics windows and the logs' shapes. Their fields live in
 * struct job_opts's `io` member. */
#ifndef IOBENCH_IO_OPTS_H
#define IOBENCH_IO_OPTS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ignore_error's lists: read, write, verify (fio's error types). */
enum { IOERR_READ, IOERR_WRITE, IOERR_VERIFY, IOERR_TYPES };
#define IOERR_LIST_MAX 32

enum exit_what { EXIT_GROUP = 1, EXIT_STONEWALL = 2, EXIT_ALL = 4 };
enum dedupe_mode { DEDUPE_REPEAT, DEDUPE_WORKING_SET };
enum think_type { THINK_COMPLETE, THINK_ISSUE };
enum submit_mode { SUBMIT_INLINE, SUBMIT_OFFLOAD };

struct io_opts {
	/* errors */
	int ignore_err[IOERR_TYPES][IOERR_LIST_MAX]; /* errno values */
	unsigned nignore[IOERR_TYPES];               /* 0: the list was not given */
	bool error_dump;
	unsigned exit_what;            /* enum exit_what */
	/* files */
	bool fill_device, pre_read, create_fsync, create_only, file_append, unlink_each_loop;
	/* syncs */
	unsigned sfr_flags;            /* sync_file_range: SYNC_FILE_RANGE_* */
	uint64_t sfr_nr;               /* every this many writes; 0: off */
	uint64_t write_barrier;
	/* flow control and submission */
	unsigned flow, flow_id, flow_sleep_us;
	bool serialize_overlap;
	unsigned submit_mode;          /* enum submit_mode */
	/* offsets and sizes */
	uint64_t ba[3];                /* blockalign per direction; 0: the block size */
	uint64_t offset_align;
	bool bs_unaligned;
	/* buffers and random numbers */
	unsigned dedupe_mode, dedupe_ws_pct;
	bool dedupe_global, allrandrepeat;
	/* thinktime and rate */
	unsigned think_type;           /* enum think_type */
	uint64_t thinktime_iotime_us;
	bool rate_ignore_thinktime;
	uint64_t rate_cycle_ms;
	/* statistics and logs */
	bool stats;
	uint64_t max_latency_us[3];    /* per direction; 0: none */
	uint64_t bwavgtime_ms, iopsavgtime_ms;
	unsigned log_entries;
	uint64_t log_compression;      /* bytes per compressed chunk; 0: off */
	unsigned log_z_ncpus;          /* log_compression_cpus: checked; iobench compresses in the job's thread */
	uint64_t log_z_cpus[16];       /* CPUS_MAX (1024) bits, core/job/job.h */
	bool log_store_compressed, log_unix_epoch, log_alt_epoch, log_max_value;
	int log_alt_clock;
	unsigned log_hist_coarseness;
	bool block_error_pct;
	int tiobench_threads;          /* threads=: fio's tiobench profile's, ignored in a job */
	double fs_param, fs_center;    /* file_service_type=zipf|pareto|normal[:param[:center]] (center < 0: none) */
	/* derived by opts_io_resolve */
	bool ba_given;
};

/* Is err (positive errno) tolerated for an I/O of error type t (IOERR_*)? fio's rule:
 * continue_on_error must cover the type, and err must be on the type's list (ignore_error,
 * or by default EIO and EILSEQ). */
struct job_opts;
bool ioerr_tolerated(const struct job_opts *o, unsigned t, int err);
/* Was err named by the user in ignore_error for type t? */
bool ioerr_ignored(const struct job_opts *o, unsigned t, int err);
/* An errno's name ("ENOSPC"), or NULL. */
const char *ioerr_name(int err);

#endif
