/* The options of steady-state detection (fio's "Steady state" section: ss, ss_dur, ss_ramp,
 * ss_interval) and of the latency target (latency_target, latency_window,
 * latency_percentile, latency_run). Their rows are core/job/options_ss.c; they act in
 * core/worker/steadystate.c and core/worker/latency_target.c. */
#ifndef IOBENCH_SS_OPTS_H
#define IOBENCH_SS_OPTS_H
#include <stdbool.h>
#include <stdint.h>

/* ss=CRITERION:LIMIT[%]: what is measured (IOPS or bandwidth), and how it is judged (the
 * largest deviation from the window's mean, or the least-squares slope). */
enum ss_crit {
	SS_IOPS = 1 << 0,
	SS_BW = 1 << 1,
	SS_SLOPE = 1 << 2,
};

struct steady_opts {
	unsigned crit;        /* SS_IOPS or SS_BW, with SS_SLOPE */
	bool pct;             /* the limit is a percentage of the window's mean */
	double limit;         /* IOPS, bytes/s, or percent */
	uint64_t dur_us;      /* ss_dur: the window; 0 = no steady-state detection */
	uint64_t ramp_us;     /* ss_ramp: from the job's start, before the first sample */
	uint64_t interval_us; /* ss_interval: one sample per interval (1 s) */
};

struct lat_target_opts {
	uint64_t target_us; /* latency_target; 0 = no search */
	uint64_t window_us; /* latency_window: how long each depth is tried */
	double pct;         /* latency_percentile: share of I/Os that must meet the target */
	bool run;           /* latency_run: keep adjusting the depth for the whole run */
};

struct ss_opts {
	struct steady_opts steady;
	struct lat_target_opts lat;
};

#endif
