/* The job model: options as given (for the JSON option maps) and as resolved. */
#ifndef IOBENCH_JOB_H
#define IOBENCH_JOB_H
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/job/io_opts.h"
#include "core/job/compat_opts.h"
#include "core/job/env_opts.h"
#include "core/job/trim_opts.h"
#include "core/job/iolog_opts.h"
#include "core/job/ss_opts.h"
#include "core/job/verify_opts.h"
#include "core/lib/checksum.h"
#include "core/job/zone_opts.h"

enum ddir { DDIR_READ = 0, DDIR_WRITE = 1, DDIR_TRIM = 2, DDIR_NR = 3 };

/* rw= values; the low bits say which directions, RW_RANDOM says random offsets. */
enum rw_mode {
	RW_READ = 1 << DDIR_READ,
	RW_WRITE = 1 << DDIR_WRITE,
	RW_TRIM = 1 << DDIR_TRIM,
	RW_RANDOM = 1 << 4,
};

/* One option as written: name, value (NULL for a bare flag), and where. */
struct opt_kv {
	char *name;
	char *value;
	const char *file; /* NULL for the command line */
	int line;
};

struct opt_list {
	struct opt_kv *v;
	size_t n, cap;
};

int opt_list_add(struct opt_list *l, const char *name, const char *value, const char *file, int line);
/* What one entry takes (for the message when opt_list_add is out of memory). */
static inline size_t opt_list_bytes(const char *name, const char *value)
{
	return sizeof(struct opt_kv) + strlen(name) + 1 + (value ? strlen(value) + 1 : 0);
}
int opt_list_copy(struct opt_list *dst, const struct opt_list *src);
void opt_list_free(struct opt_list *l);

#define BSSPLIT_MAX 64
#define DIST_ZONES_MAX 256
#define PATTERN_MAX 512
#define PATTERN_FMT_MAX 16

struct bs_split {
	uint64_t bs;
	unsigned pct;
};

enum dist_type { DIST_RANDOM, DIST_ZIPF, DIST_PARETO, DIST_NORMAL, DIST_ZONED, DIST_ZONED_ABS };

struct dist_zone {
	unsigned access_pct;
	uint64_t size; /* percent of the region (zoned) or bytes (zoned_abs) */
};

struct distribution {
	enum dist_type type;
	double param;  /* zipf theta, pareto power, normal deviation (0..100) */
	double center; /* 0..1, or < 0 for the default */
	unsigned nzones;
	struct dist_zone zones[DIST_ZONES_MAX];
};

enum file_service { FS_ROUNDROBIN, FS_SEQUENTIAL, FS_RANDOM, FS_ZIPF, FS_PARETO, FS_GAUSS };
enum rw_sequencer { SEQ_SEQUENTIAL, SEQ_IDENTICAL };
enum rate_process { RATE_LINEAR, RATE_POISSON };
enum fallocate_mode { FALLOC_NONE, FALLOC_NATIVE, FALLOC_POSIX, FALLOC_KEEP, FALLOC_TRUNCATE };
enum fadvise_mode { FADV_NONE, FADV_AUTO, FADV_SEQUENTIAL, FADV_RANDOM };
enum sync_mode { SYNC_NONE, SYNC_SYNC, SYNC_DSYNC };
enum cpus_policy { CPUS_SHARED, CPUS_SPLIT };
enum unified_rw { UNIFIED_NONE, UNIFIED_MIXED, UNIFIED_BOTH };
enum clocksource { CLK_AUTO, CLK_GETTIMEOFDAY, CLK_CLOCK_GETTIME, CLK_CPU };
/* random_generator= (the values of its words in core/job/options_table.c) */
enum rand_gen { GEN_TAUSWORTHE = 0, GEN_LFSR = 1, GEN_TAUSWORTHE64 = 2 };
/* continue_on_error kinds */
enum { CONT_READ = 1, CONT_WRITE = 2, CONT_VERIFY = 4, CONT_ALL = 7 };

#define CPUS_MAX 1024

/* fio's default percentile_list. */
#define JOB_DEFAULT_NPCT 17
extern const double job_default_pct[JOB_DEFAULT_NPCT];

/* Resolved options of one job section. Fixed-size strings keep it copyable. */
struct job_opts {
	char name[256];
	char section[256];         /* $jobname in file names: the section's name even after name=, as fio */
	char description[256];
	char filename[PATH_MAX];   /* one name, or several joined with ':' */
	char directory[PATH_MAX];
	char filename_format[PATH_MAX];
	char opendir[PATH_MAX];
	char ioengine[32];
	char wait_for[256];
	/* shape */
	uint64_t bs[DDIR_NR];
	uint64_t bs_min[DDIR_NR], bs_max[DDIR_NR]; /* bsrange; 0 = bs */
	unsigned nbssplit[DDIR_NR];
	struct bs_split bssplit[DDIR_NR][BSSPLIT_MAX];
	uint64_t size;        /* bytes; 0 = from the files */
	unsigned size_pct;    /* size=N%: share of the files' size */
	uint64_t filesize_lo, filesize_hi;
	uint64_t io_size;     /* 0 = size */
	uint64_t offset;
	unsigned offset_pct;
	uint64_t offset_increment;
	unsigned offset_increment_pct;
	uint64_t number_ios;
	unsigned nrfiles;
	unsigned file_service;     /* enum file_service */
	unsigned file_service_nr;  /* I/Os before switching file */
	unsigned openfiles;
	unsigned fallocate;        /* enum fallocate_mode */
	/* pattern */
	unsigned rw;               /* enum rw_mode bits */
	char rw_text[32];          /* as fio prints it in the job header */
	int64_t rw_mod;            /* rw=...:N (may be negative: backwards) */
	unsigned rw_sequencer;
	unsigned rwmixread;
	unsigned pct_random[DDIR_NR];
	uint64_t randseed;
	unsigned random_generator; /* enum rand_gen */
	struct distribution dist[DDIR_NR]; /* random_distribution, per direction */
	/* time and pacing */
	uint64_t runtime_us;       /* 0 = no limit */
	uint64_t ramp_time_us;
	uint64_t startdelay_us[2]; /* a range: a random delay in it */
	uint64_t loops;
	uint64_t thinktime_us, thinktime_spin_us, thinktime_blocks;
	uint64_t rate[DDIR_NR], rate_min[DDIR_NR];           /* bytes/s */
	uint64_t rate_iops[DDIR_NR], rate_iops_min[DDIR_NR];
	unsigned rate_process;
	/* sync and cache */
	uint64_t fsync_blocks, fdatasync_blocks;
	unsigned sync_mode;
	unsigned fadvise;
	unsigned clocksource;     /* CLK_AUTO: the TSC where invariant, as fio */
	/* buffers */
	unsigned compress_pct, compress_chunk, dedupe_pct;
	unsigned pattern_len;
	unsigned char pattern[PATTERN_MAX];
	/* groups and errors */
	unsigned numjobs;
	unsigned continue_on_error;
	/* engines */
	unsigned iodepth, iodepth_batch_submit, iodepth_batch_complete_min;
	unsigned iodepth_batch_complete_max, iodepth_low;
	/* units and placement */
	unsigned kb_base, unit_base;
	unsigned cpus_policy;
	unsigned ncpus_allowed;   /* 0 = no cpus_allowed */
	uint64_t cpus_allowed[CPUS_MAX / 64];
	/* flags */
	bool direct, time_based, group_reporting, stonewall, new_group, allow_mounted_write;
	bool thread, unlink, create_on_open, allow_file_create, randrepeat, randseed_set;
	bool norandommap, end_fsync, fsync_on_close, invalidate, zero_buffers, refill_buffers;
	bool scramble_buffers, exitall, exitall_on_error, readonly;
	bool overwrite;            /* writers' files are laid out with data first */
	bool disk_util;            /* the disks behind its files are reported */
	/* verify */
	unsigned verify;           /* enum verify_type (core/lib/checksum.h) */
	unsigned verify_pattern_len;
	unsigned char verify_pattern[PATTERN_MAX];
	unsigned verify_fmt_n;                  /* verify_pattern's %o: the I/O's offset, 8 bytes */
	uint16_t verify_fmt_at[PATTERN_FMT_MAX]; /* where in the pattern each %o goes */
	uint64_t verify_interval, verify_offset, verify_backlog;
	bool do_verify, verify_only, verify_fatal;
	struct verify_opts vopt;   /* core/job/verify_opts.h */
	struct io_opts io;         /* core/job/io_opts.h: errors, fill, flow, dedupe, log shapes... */
	struct env_opts env;       /* users, priorities, CPUs, memory, cgroups (core/job/env_opts.h) */
	struct trim_opts trim;     /* trim_percentage and its backlog (core/job/trim_opts.h) */
	struct iolog_opts iolog;   /* write_iolog, read_iolog, replay_* (core/job/iolog_opts.h) */
	struct ss_opts ss;         /* core/job/ss_opts.h: steady state, latency target */
	struct zone_opts zone;     /* zonemode and its options (core/plan/zone.h) */
	struct compat_opts compat; /* bs_is_seq_rand, atomic, the profiles' options (core/job/compat_opts.h) */
	/* logs */
	char bw_log[PATH_MAX], iops_log[PATH_MAX], lat_log[PATH_MAX], hist_log[PATH_MAX];
	uint64_t log_avg_msec, log_hist_msec;
	bool log_offset, per_job_logs;
	/* reporting */
	unsigned unified;          /* enum unified_rw */
	unsigned npct;
	unsigned pct_prec; /* digits after the point in the normal output's labels: as typed (fio) */
	double pct_list[20];
	unsigned sig_figs;
	bool clat_percentiles, lat_percentiles, slat_percentiles;
	bool disable_lat, disable_clat, disable_slat, disable_bw, gtod_reduce;
	/* options iobench knows from fio but does not carry out: the first given one */
	char unsupported[64];
};

struct engine_ops;
struct iolog_set;

/* One job section as parsed, before numjobs expands it into clones. */
struct job {
	struct opt_list inherit;  /* [global] options in force for it (job files) */
	struct opt_list given;    /* its own options, in order */
	const char *file;         /* job file, NULL for the command line */
	int line;
	unsigned file_index;      /* which job file (0 = command line / first file) */
	struct job_opts o;        /* resolved by job_resolve() */
	const struct engine_ops *ops; /* its engine, found once by job_resolve() */
	void *eng_opts;           /* the engine's own options (ops->options), resolved */
	uint64_t target_bytes;    /* ENGINE_REMOTE: the size its probe found (an RBD image's), 0: none */
	unsigned groupid;
	struct iolog_set *iologs; /* read_iolog: its logs, read before the run (core/plan/iolog.h); NULL: none */
};

/* Frees what the job's lists and its engine's options hold (not the job itself). */
void job_free(struct job *job);

/* opendir with a sequential read: every file is read whole, its last block short, and
 * opened and closed in turn, timed (a tree of small files; fio skips partial blocks). */
static inline bool job_whole_files(const struct job_opts *o)
{
	return o->opendir[0] && o->rw == RW_READ && o->rw_mod == 0;
}

/* The smallest block size a job uses: offsets are multiples of it. */
uint64_t job_min_bs(const struct job_opts *o);

static inline bool job_has_dir(const struct job_opts *o, enum ddir d)
{
	return (o->rw & (1u << d)) != 0;
}

/* Does the job change data (write or trim)? verify_only jobs only read. */
static inline bool job_writes(const struct job_opts *o)
{
	return !o->verify_only && (job_has_dir(o, DDIR_WRITE) || job_has_dir(o, DDIR_TRIM));
}

#endif
