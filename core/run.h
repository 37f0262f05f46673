/* A run: jobs resolved into groups and clones, executed group by group, then summed up
 * into report units (what one job block of the output shows) and group summaries. */
#ifndef IOBENCH_RUN_H
#define IOBENCH_RUN_H
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "core/cluster.h"
#include "core/diskstats.h"
#include "core/files.h"
#include "core/job.h"
#include "core/stats.h"
#include "core/sysinfo.h"
#include "core/worker.h"

enum output_format {
	FMT_NORMAL = 1 << 0,
	FMT_JSON = 1 << 1,
	FMT_JSON_PLUS = 1 << 2,
	FMT_TERSE = 1 << 3,
	FMT_CSV = 1 << 4,
	FMT_HTML = 1 << 5,
};

/* What the command line and job files said. */
#define RUN_SWEEPS_MAX 8
#define SWEEP_VALUES_MAX 64

struct sweep {
	char name[64];
	const char *values[SWEEP_VALUES_MAX]; /* point into text */
	unsigned nvalues;
	char *text;                           /* owned copy of the value list */
};

struct run_cfg {
	struct opt_list globals;   /* options before the first --name and [global] sections */
	struct opt_list cmdline_globals; /* the command-line part of globals, for precedence */
	struct job *jobs;
	size_t njobs, cap_jobs;
	unsigned formats;
	unsigned terse_version;    /* 3 (default), 4 or 5 */
	int eta;                   /* --eta: -1 never, 0 auto (stderr is a terminal), 1 always */
	uint64_t status_interval_ms;
	const char *output_path;
	bool parse_only;
	bool showcmd;
	bool readonly;             /* --readonly: refuse every job that writes */
	const char *sections[64];  /* --section=NAME: only these job sections */
	const char *compare[2];    /* --compare BASE NEW */
	const char *plot_path;     /* --plot=FILE.svg */
	bool formats_given;        /* --output-format was on the command line */
	char **merge;              /* --merge FILE...: the files (argv's) */
	struct sweep sweeps[RUN_SWEEPS_MAX];  /* --sweep=OPTION=V1,V2,... */
	unsigned nsweeps;
	char *sweep_names[RUN_SWEEPS_MAX];
	int nmerge;
	double compare_threshold;  /* --compare-threshold; < 0: none */
	const struct cluster *cluster; /* MPI ranks running this job file together; NULL: one */
	unsigned nsections;
	char *file_names[256];     /* job files read (owned), which opt_kv.file points into */
	unsigned nfile_names;
};

/* Add an empty job to cfg; NULL if out of memory. */
struct job *run_cfg_add_job(struct run_cfg *cfg);

void run_cfg_free(struct run_cfg *cfg);

struct clone_result {
	size_t job;              /* index into cfg->jobs */
	unsigned clone;          /* 0 .. numjobs-1 */
	unsigned gclone;
	bool plan_later;         /* opendir made by an earlier group: planned when its group starts */         /* across ranks: rank * numjobs + clone ($jobnum, offset_increment) */
	struct file_plan plan;   /* its files, regions and amount of I/O */
	struct thread_stats *ts;
	int err;
	uint64_t elapsed_s;
	struct clone_progress progress;
	struct thread_stats *status_copy; /* status reports: what a report reads */
	bool status_swapped;     /* ts and status_copy are swapped for a status report */
};

/* One job block in the output: a clone, or all clones of a group_reporting job. */
struct report_unit {
	const struct job *job;
	struct thread_stats ts;
	unsigned groupid;
	unsigned nr_clones;
	uint64_t elapsed_s;
	double bw_agg_pct[DDIR_NR + 1]; /* mean sampled bw as a share of the group's ([DDIR_NR]: mixed) */
	struct dir_stats *mixed;        /* unified_rw_reporting: all directions summed */
	struct sample_summary mixed_bw, mixed_iops;
	const char *host;               /* cluster runs: the rank's name ("host:rank") */
	unsigned rank;
	int pid;                        /* of the process that ran it (0: All clients) */
	bool all_clients;               /* cluster runs: this job summed over every rank */
};

/* The name a unit is reported under. */
static inline const char *unit_name(const struct report_unit *u)
{
	return u->all_clients ? "All clients" : u->job->o.name;
}

#define DDIR_MIXED DDIR_NR /* the summed "mixed" slot of group summaries */

struct group_summary {
	unsigned groupid;
	uint64_t io_bytes[DDIR_NR + 1];   /* [DDIR_MIXED]: all directions, for unified reporting */
	uint64_t agg_bw[DDIR_NR + 1];     /* bytes/s: all bytes over the longest runtime */
	uint64_t min_bw[DDIR_NR + 1], max_bw[DDIR_NR + 1]; /* bytes/s, over units */
	uint64_t min_run[DDIR_NR + 1], max_run[DDIR_NR + 1]; /* ms */
	unsigned unified;
	unsigned kb_base, unit_base, sig_figs;
};

struct run_progress;

struct run_ctx {
	struct run_cfg *cfg;
	atomic_bool stop;          /* the running jobs stop issuing (signal, exitall) */
	atomic_int interrupted;    /* the signal that stopped the run (0: none): no further groups */
	atomic_bool status_request; /* SIGUSR1: report the statistics so far */
	atomic_uint *job_done;     /* per job: clones finished (wait_for) */
	struct clone_result *clones;
	size_t nclones;
	unsigned ngroups;
	uint64_t start_ns;
	time_t end_time;
	uint64_t end_ms;  /* wall clock, for timestamp_ms */
	struct report_unit *units;
	size_t nunits;
	struct group_summary *groups;
	struct disk_set disks;     /* block devices behind the files */
	struct cpu_limit cpu_limit; /* cgroup quota and cpuset, for the header */
	struct tsc_clock tsc;      /* clocksource=cpu, calibrated once per run */
	bool clients;              /* units come from every rank (rank 0 of a cluster run) */
	char (*hosts)[CLUSTER_HOST_LEN];
	/* the monitor: called from the main thread while a group runs */
	uint64_t status_interval_ms;        /* --status-interval; 0 = off */
	bool eta;                           /* print the ETA line */
	void (*status_cb)(struct run_ctx *rc, void *arg);
	void (*eta_cb)(const struct run_ctx *rc, const struct run_progress *p, void *arg);
	bool (*output_cb)(void *arg);       /* false: the report cannot reach anyone; stop */
	bool output_lost;                   /* so it was: no further groups */
	void *cb_arg;
	atomic_uint threads_done;
	uint64_t last_eta_bytes[DDIR_NR], last_eta_ios[DDIR_NR], last_eta_ns;
};

/* What the ETA line shows. */
struct run_progress {
	unsigned running, done, total;
	char states[512];         /* one letter per clone, fio's: R r W w M m, _ done, P waiting */
	double pct_done;
	uint64_t eta_s;
	uint64_t bw[DDIR_NR];     /* bytes/s since the last line */
	uint64_t iops[DDIR_NR];
};

/* Free what run_summarize made (before summarizing again). */
void run_summary_free(struct run_ctx *rc);

/* Gather the clones' published counters (main thread). */
void run_progress_get(struct run_ctx *rc, struct run_progress *p);
/* Ask the workers to publish copies of their stats (status reports). 0 or -ENOMEM. */
int run_status_snapshots(struct run_ctx *rc);
/* Swap the clones' stats for their published copies (and back): status reports. */
void run_use_snapshots(struct run_ctx *rc, bool on);

/* Resolve every job's options, assign groups, expand clones, check engines and sizes.
 * Prints one line per problem to stderr; returns 0 or -EINVAL. */
int run_prepare(struct run_ctx *rc, struct run_cfg *cfg);

/* Lay out files and run the groups one after another. Notices go to `notes`. */
int run_execute(struct run_ctx *rc, FILE *notes);

/* Merge the clones into report units and group summaries. */
int run_summarize(struct run_ctx *rc);
/* A cluster run: rank 0 gathers every rank's clones and reports a block per rank and one
 * "All clients" block per job (histograms summed exactly). Every rank calls it. */
int run_summarize_cluster(struct run_ctx *rc);

void run_ctx_free(struct run_ctx *rc);

#endif
