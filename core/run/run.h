/* A run: jobs resolved into groups and clones, executed group by group, then summed up
 * into its results (core/stats/results.h: what the printers read). */
#ifndef IOBENCH_RUN_H
#define IOBENCH_RUN_H
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "core/run/cluster.h"
#include "core/stats/diskstats.h"
#include "core/plan/files.h"
#include "core/worker/flow.h"
#include "core/job/job.h"
#include "core/run/progflags.h"
#include "core/stats/results.h"
#include "core/plan/zbd.h"
#include "core/stats/stats.h"
#include "core/stats/sysinfo.h"
#include "core/worker/worker.h"

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
#define SWEEP_RUNS_MAX 4096 /* combinations of all the --sweep values */

struct sweep {
	char name[64];
	const char *values[SWEEP_VALUES_MAX]; /* point into text */
	unsigned nvalues;
	char *text;                           /* owned copy of the value list */
};

struct steady_set;

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
	struct prog_flags prog;    /* --debug, --idle-prof, --eta-newline, --trigger... */
	const char *profile;       /* --profile=act|tiobench: its jobs are made after the command line */
	/* The outfile flags (core/lib/outfile.h) of the run's own files (--output, --plot,
	 * --bandwidth-log, the pid file): OUTFILE_ALLOW_BUSY when allow_mounted_write=1 is a
	 * global option or every job's (set by cli_parse once the command line is read). */
	unsigned outfile_flags;
};

/* Add an empty job (named name, for the message) to cfg; NULL after a line if out of memory. */
struct job *run_cfg_add_job(struct run_cfg *cfg, const char *name);

void run_cfg_free(struct run_cfg *cfg);

struct clone_result {
	size_t job;              /* index into cfg->jobs */
	unsigned clone;          /* 0 .. numjobs-1 */
	unsigned gclone;         /* across ranks: rank * numjobs + clone ($jobnum, offset_increment) */
	/* planned when its group starts: opendir of a tree an earlier group makes, or a large
	 * plan of a later group (checked at the start, then freed until its group; run.c) */
	bool plan_later;
	struct file_plan plan;   /* its files, regions and amount of I/O */
	struct thread_stats *ts;
	int err;
	uint64_t elapsed_s;
	struct clone_progress progress;
	struct thread_stats *status_copy; /* status reports: what a report reads */
	bool status_swapped;     /* ts and status_copy are swapped for a status report */
};

/* What the monitor keeps between its ticks (core/run/monitor.c). */
struct agg_sample {
	uint64_t t_ms;
	uint64_t kib_s[DDIR_NR];
};
struct monitor_state {
	uint64_t next_eta_ns, last_newline_ns;
	struct agg_sample *agg;             /* --bandwidth-log: a sample per ETA interval */
	size_t nagg, cap_agg;
	uint64_t next_trigger_check_ns;
	bool triggered;                     /* --trigger-file / --trigger-timeout fired: no further groups */
	int trigger_err;                    /* the trigger's command or state files failed */
};

struct env_run;
struct run_ctx {
	struct run_cfg *cfg;
	atomic_bool stop;          /* the running jobs stop issuing (signal, exitall) */
	atomic_bool stop_all;      /* exitall with exit_what=all: no further groups either */
	atomic_int interrupted;    /* the signal that stopped the run (0: none): no further groups */
	atomic_bool status_request; /* SIGUSR1: report the statistics so far */
	atomic_uint *job_done;     /* per job: clones finished (wait_for) */
	atomic_uint io_jobs_left;  /* clones of jobs doing I/O (no ENGINE_NO_IO) not finished */
	struct clone_result *clones;
	size_t nclones;
	unsigned ngroups;
	uint64_t start_ns;
	time_t end_time;
	uint64_t end_ms;  /* wall clock, for timestamp_ms */
	struct disk_set disks;     /* block devices behind the files */
	struct cpu_limit cpu_limit; /* cgroup quota and cpuset, for the header */
	struct tsc_clock tsc;      /* clocksource=cpu, calibrated once per run */
	char (*hosts)[CLUSTER_HOST_LEN];
	struct run_results results; /* what the printers read (run_describe, run_summarize) */
	struct zbd_set zbd;        /* zonemode=zbd: the zone tables the jobs share (core/plan/zbd.h) */
	/* the monitor: called from the main thread while a group runs */
	uint64_t status_interval_ms;        /* --status-interval; 0 = off */
	bool eta;                           /* print the ETA line */
	void (*status_cb)(struct run_ctx *rc, void *arg);
	/* newline: --eta-newline's time has come, this line stays on its own */
	void (*eta_cb)(const struct run_ctx *rc, const struct run_progress *p, bool newline, void *arg);
	bool (*output_cb)(void *arg);       /* false: the report cannot reach anyone; stop */
	bool output_lost;                   /* so it was: no further groups */
	void *cb_arg;
	atomic_uint threads_done;
	uint64_t last_eta_bytes[DDIR_NR], last_eta_ios[DDIR_NR], last_eta_ns;
	struct monitor_state mon;           /* core/run/monitor.c: ETA timing, the aggregate log, the trigger */
	struct flow_table flows;            /* flow=: the flows' shared counters (core/worker/flow.h) */
	struct env_run *env;                /* core/run/jobenv_run.c: cgroups, schedulers, file locks (NULL: none) */
	struct steady_set *steady;          /* ss_dur: the steady-state windows (core/worker/steadystate.c) */
};

/* Free what run_describe and run_summarize made (before summarizing again). */
void run_summary_free(struct run_ctx *rc);

/* The monitor's work at one of its ticks (now): the ETA line and the aggregate log every
 * --eta-interval, the trigger. Main thread, while a group runs. */
void monitor_tick(struct run_ctx *rc, uint64_t now);
/* A group starts: the first ETA line is an interval away. */
void monitor_start(struct run_ctx *rc, uint64_t now);
/* --bandwidth-log: agg-read_bw.log, agg-write_bw.log, agg-trim_bw.log. 0, or 1 after a line. */
int monitor_write_agg_logs(const struct run_ctx *rc);

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

/* The header's part of rc->results: the jobs (block-size ranges, engines, depths),
 * threads, ranks and CPU limits. 0 or -ENOMEM. */
int run_describe(struct run_ctx *rc);
/* All of rc->results: the clones merged into report units and group summaries, the
 * values the printers show derived from them. 0 or -ENOMEM. */
int run_summarize(struct run_ctx *rc);
/* A cluster run: rank 0 gathers every rank's clones and reports a block per rank and one
 * "All clients" block per job (histograms summed exactly). Every rank calls it. */
int run_summarize_cluster(struct run_ctx *rc);

void run_ctx_free(struct run_ctx *rc);

#endif
