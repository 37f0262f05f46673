/* What a finished run is, as data: all a printer reads. core/run/summary.c fills it once when
 * the run is summed up, derived values included (block-size ranges, effective iodepths,
 * percentiles, disk deltas), so report/ formats and never computes, and never sees the
 * run, its workers or its engines. */
#ifndef IOBENCH_RESULTS_H
#define IOBENCH_RESULTS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/stats/diskstats.h"
#include "core/job/job.h"
#include "core/stats/stats.h"
#include "core/stats/sysinfo.h"
#include "core/lib/version.h"

#define DDIR_MIXED DDIR_NR /* the summed "mixed" slot of units and group summaries */

/* percentile_list holds at most this many. */
#define RESULTS_PCT_MAX 20
_Static_assert(sizeof(((struct job_opts *)0)->pct_list) == RESULTS_PCT_MAX * sizeof(double),
	       "RESULTS_PCT_MAX is percentile_list's length");


/* One histogram's percentiles, for its job's percentile_list (ns[i] for pct_list[i]). */
struct pct_values {
	uint64_t samples; /* 0: the histogram is empty, nothing to show */
	uint64_t ns[RESULTS_PCT_MAX];
};

/* The clat percentiles every direction has whatever percentile_list says (CSV, HTML). */
enum key_pct { KEY_P50, KEY_P90, KEY_P99, KEY_P99_9, KEY_PCT_NR };
extern const double results_key_pct[KEY_PCT_NR]; /* 50, 90, 99, 99.9 */

/* A job section, as the header line and its units show it. */
struct job_result {
	const struct job *job;         /* its options, resolved (o) and as given */
	uint64_t bs_min_bytes[DDIR_NR]; /* the block sizes it may use, per direction */
	uint64_t bs_max_bytes[DDIR_NR];
	const char *engine;            /* ioengine, as named */
	unsigned depth;                /* iodepth in effect: 1 for a synchronous engine */
	const char *bs_text;           /* bs as given (command line, [global], section), or "4k" */
	bool no_io;                    /* its engine moves no data (cpuio, exec): fio's header has no line for it */
	char intro[1024];              /* what its engine says as each clone starts (fio's lines), or "" */
	struct opt_list options;       /* its own options as given, under fio's names (readwrite= is rw) */
};

/* The latencies of one priority of a direction's I/Os (fio's "prios" entries). */
struct prio_result {
	unsigned cls, level;           /* prioclass, prio */
	struct series lat;             /* ns: clat, or lat with lat_percentiles */
	const struct hist *hist;
	struct pct_values pct;
	double share_pct;              /* of the direction's samples */
};

/* One direction of a unit as printed: read, write, trim, or all of them summed (mixed). */
struct dir_result {
	const char *name;              /* "read", "write", "trim", "mixed" */
	int slot;                      /* DDIR_READ..DDIR_TRIM, or DDIR_MIXED */
	const struct dir_stats *ds;    /* NULL for the mixed slot of a unit without one */
	struct sample_summary bw, iops; /* bw in KiB/s, as reported */
	double bw_agg_pct;             /* mean sampled bw as a share of the group's */
	/* Its runtime as reported (and the rates' divisor): the unit's once it did I/Os, 0 before;
	 * 0 also for an engine that moves no data (cpuio, exec), as fio. */
	uint64_t run_ms;
	struct pct_values slat_pct, clat_pct, lat_pct;
	uint64_t clat_key_ns[KEY_PCT_NR];
	/* cmdprio: the latencies of each priority its I/Os had, when they had two or more */
	unsigned nprios;
	bool prio_lat;                 /* they are total latencies (lat_percentiles), else clat */
	struct prio_result prios[PRIO_STATS_MAX];
};

/* ss= with ss_dur=: a unit's steady-state window, as fio's "steadystate" block and line. */
struct steady_result {
	bool on;
	unsigned crit;                 /* enum ss_crit (core/job/ss_opts.h) */
	bool pct;                      /* the limit and the criterion are percentages of the mean */
	double limit;
	uint64_t duration_s;           /* ss_dur */
	bool attained;
	double criterion, max_dev, slope; /* of the last full window (0 when it never filled) */
	uint64_t bw_mean, iops_mean;   /* bytes/s, IOPS: the window summed over its length, as fio */
	unsigned n;                    /* the window's length in samples */
	const uint64_t *bw, *iops;     /* the window, oldest first; 0 where it was not filled */
};

/* latency_target: fio's latency_depth, latency_target, latency_percentile, latency_window. */
struct lat_result {
	unsigned depth;                /* the depth found (the depth in effect without a target) */
	uint64_t target_ns, window_us;
	double pct;
};

/* One job block in the output: a clone, or, as fio's group_reporting, the clones of a
 * group's jobs summed (each clone of a group_reporting job joins the block before it when
 * both are of one group; the block keeps the first one's name). */
struct report_unit {
	const struct job *job;          /* the first job in it */
	const struct job_result *jr;    /* its job's facts */
	const struct opt_list *options; /* JSON's "job options": the last job's in it, as fio */
	struct thread_stats ts;
	unsigned groupid;
	unsigned nr_clones;
	uint64_t elapsed_s;
	struct dir_stats *mixed;        /* unified_rw_reporting: all directions summed */
	struct prio_stats *mixed_prio;  /* ... and their priorities' latencies */
	struct dir_result dir[DDIR_NR + 1]; /* [DDIR_MIXED]: with mixed */
	struct pct_values sync_pct, file_oc_pct;
	const char *host;               /* cluster runs: the rank's name ("host:rank") */
	unsigned rank;
	int pid;                        /* of the process that ran it (0: All clients) */
	bool all_clients;               /* cluster runs: this job summed over every rank */
	struct steady_result ss;        /* ss_dur: its steady-state window (core/worker/steadystate.c) */
	struct lat_result lat;          /* latency_target's figures (core/worker/latency_target.c) */
};

/* The name a unit is reported under. */
static inline const char *unit_name(const struct report_unit *u)
{
	return u->all_clients ? "All clients" : u->job->o.name;
}

struct group_summary {
	unsigned groupid;
	uint64_t io_bytes[DDIR_NR + 1];   /* [DDIR_MIXED]: all directions, for unified reporting */
	uint64_t agg_bw[DDIR_NR + 1];     /* bytes/s: all bytes over the longest runtime */
	uint64_t min_bw[DDIR_NR + 1], max_bw[DDIR_NR + 1]; /* bytes/s, over units */
	uint64_t min_run[DDIR_NR + 1], max_run[DDIR_NR + 1]; /* ms */
	unsigned unified;
	unsigned kb_base, unit_base, sig_figs;
};

/* --idle-prof: how much of each CPU the run left idle (fio's cpu_idleness; core/app/idle.c
 * measures it). The arrays belong to the profiler, which outlives the report. */
struct idle_result {
	int mode;                  /* 0: not asked; 1: system; 2: percpu (also each CPU) */
	double system_pct;         /* the CPUs' mean, 0..100 */
	unsigned ncpus;
	const unsigned *cpu;       /* the CPUs' numbers ("cpu-N") */
	const double *cpu_pct;     /* each one's idleness, 0..100 */
	double unit_mean_us, unit_stddev_us; /* the unit of work's time, over the calibration */
};

/* --profile=act: ACT's latency table (one slice: the whole run) and its verdict. */
struct act_result {
	bool on;
	uint64_t reads;                /* the reads the table is over */
	double over_pct[3];            /* of them, completed in more than 1, 8 and 64 ms */
	bool passed;                   /* ACT's limits: 5%, 1% and 0.1% */
};

struct run_results {
	/* known once the run is prepared: what the header shows (run_describe) */
	const char *profile;              /* --profile=NAME, or NULL */
	struct job_result *jobs;
	size_t njobs;
	size_t nclones;                   /* threads, on each rank */
	unsigned nranks;                  /* 1, or the ranks of a cluster run */
	struct cpu_limit cpu_limit;       /* cgroup quota and cpuset */
	struct opt_list globals;          /* JSON's "global options", under fio's names */
	/* after the run (run_summarize) */
	struct report_unit *units;
	size_t nunits;
	struct group_summary *groups;
	unsigned ngroups;
	struct disk_report *disks;        /* the block devices behind the files */
	unsigned ndisks;
	time_t end_time;
	uint64_t end_ms;                  /* wall clock, for timestamp_ms */
	bool clients;                     /* units come from every rank: fio's client_stats */
	struct idle_result idle;          /* --idle-prof (set after run_summarize) */
	struct act_result act;            /* --profile=act */
};

/* What the ETA line shows of a running run. */
struct run_progress {
	unsigned running, done, total;
	char states[512];         /* one letter per clone, fio's: R r W w M m, _ done, P waiting */
	double pct_done;
	uint64_t eta_s;
	uint64_t bw[DDIR_NR];     /* bytes/s since the last line */
	uint64_t iops[DDIR_NR];
	/* The running jobs' rate limits summed, as fio's line shows them (", 0B/s-1024KiB/s",
	 * ", 0-500 IOPS"): 0 none, 1 bandwidth (rate_min-rate, bytes/s), 2 IOPS (rate_iops_min-
	 * rate_iops); bandwidth when any job has one. */
	unsigned rate_kind;
	uint64_t rate_lo, rate_hi;
};

#endif
