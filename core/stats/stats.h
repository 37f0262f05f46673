/* Per-thread statistics: collected lock-free by one worker, merged after the run.
 * Stats never print: report/ formats them. */
#ifndef IOBENCH_STATS_H
#define IOBENCH_STATS_H
#include <stdbool.h>
#include <stdint.h>

#include "core/stats/hist.h"
#include "core/job/job.h"
#include "core/stats/prio.h"

/* min/max/mean/stddev of a series. Exact integer sums, so merges lose nothing. */
struct series {
	uint64_t n;
	uint64_t min, max;
	uint64_t sum;
	unsigned __int128 sumsq;
};

static inline void series_add(struct series *s, uint64_t v)
{
	if (s->n == 0 || v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	s->n++;
	s->sum += v;
	s->sumsq += (unsigned __int128)v * v;
}

void series_merge(struct series *dst, const struct series *src);
double series_mean(const struct series *s);
double series_stddev(const struct series *s); /* sample stddev (n - 1), 0 for n < 2 */

/* A series known only by its summary (N, mean, sample stddev, min, max: what a JSON result
 * gives), pooled with others: N, N * mean and (N - 1) * stddev^2 + N * mean^2 add up, so
 * the pooled mean and stddev are those of all the samples together (within rounding). */
struct series_pool {
	double n, min, max;
	double sum, sumsq;
	bool any; /* min and max are set */
};

struct series_pool series_pool_of(double n, double mean, double stddev, double min, double max);
void series_pool_merge(struct series_pool *dst, const struct series_pool *src);
double series_pool_mean(const struct series_pool *p);
double series_pool_stddev(const struct series_pool *p); /* sample stddev, 0 for n < 2 */

/* fio's latency buckets: 2..1000 ns, 2..1000 us, 2..2000 ms and >= 2000 ms. */
#define LATB_NSEC 10
#define LATB_USEC 10
#define LATB_MSEC 12
#define LATB_NR (LATB_NSEC + LATB_USEC + LATB_MSEC)
extern const unsigned char lat_unit_bucket[1000];
static inline unsigned lat_bucket(uint64_t ns)
{
	if (ns < 1000)
		return lat_unit_bucket[ns];
	if (ns < 1000000)
		return LATB_NSEC + lat_unit_bucket[ns / 1000];
	uint64_t ms = ns / 1000000;
	if (ms >= 2000)
		return LATB_NR - 1;
	if (ms >= 1000)
		return LATB_NR - 2;
	return LATB_NSEC + LATB_USEC + lat_unit_bucket[ms];
}
extern const unsigned lat_bucket_label[LATB_NR]; /* upper bound within its unit */

/* Depth and batch maps: IO depths 1,2,4,8,16,32,>=64; submit/complete 0,4,8,..,>=64. */
#define DEPTH_MAP_NR 7
/* fio's buckets as bit lengths (one per I/O: no chain of comparisons). depth: <2, 2-3,
 * 4-7, 8-15, 16-31, 32-63, >=64. batch: 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64. */
static inline unsigned depth_bucket(unsigned d)
{
	unsigned b = 31u - (unsigned)__builtin_clz(d | 1u);
	return b > 6 ? 6 : b;
}
static inline unsigned batch_bucket(unsigned n)
{
	if (n <= 4)
		return n != 0;
	unsigned b = 31u - (unsigned)__builtin_clz(n - 1);
	return b > 6 ? 6 : b;
}

/* A sample series as reported: for clones reported as one, fio adds the clones' min,
 * max, mean and squared deviations (their aggregate bandwidth), and counts all samples. */
struct sample_summary {
	uint64_t min, max, samples;
	double mean;
	double m2; /* sum of squared deviations */
};

struct dir_stats {
	uint64_t io_bytes;
	uint64_t total_ios;
	uint64_t short_ios;
	uint64_t drop_ios;
	struct series slat, clat, lat; /* ns */
	struct series bw_kib, iops;    /* per-interval samples */
	struct hist clat_hist;
	struct hist slat_hist, lat_hist; /* only with slat_percentiles / lat_percentiles */
	struct sample_summary bw_group, iops_group; /* used when pure_sum_samples */
};

struct thread_stats {
	struct dir_stats dir[DDIR_NR];
	uint64_t lat_buckets[LATB_NR];
	uint64_t depth_map[DEPTH_MAP_NR];
	uint64_t submit_map[DEPTH_MAP_NR];
	uint64_t complete_map[DEPTH_MAP_NR];
	uint64_t total_submit, total_complete; /* how many submit / reap calls */
	uint64_t issued[DDIR_NR + 1];          /* rwts: read, write, trim, sync */
	struct series sync_lat;                /* fsync/fdatasync, ns */
	struct hist sync_hist;
	uint64_t runtime_ms;                   /* of the measured part; merged: longest */
	uint64_t job_runtime_ms;               /* merged: summed over clones */
	uint64_t usr_us, sys_us;
	uint64_t ctx, majf, minf;
	uint64_t nr_threads;                   /* 1, or the clones merged into this */
	int error;                             /* first errno seen, positive */
	uint64_t nr_errors;                    /* I/O errors of the types continue_on_error covers (fio's total_err) */
	int first_error;                       /* the first of them, positive (fio's first_error) */
	unsigned latency_depth;                /* latency_target: the depth found (merged: the last clone's) */
	uint64_t zone_resets;                  /* zonemode=zbd: zones reset that held data */
	bool pure_sum_samples;                 /* bw/iops samples were summed across clones */
	/* whole-file reads (opendir): files read to their end, and their open+close times */
	uint64_t files_done;
	struct series file_oc;                 /* ns */
	struct hist file_oc_hist;
	struct prio_stats prio[PRIO_DIRS];     /* cmdprio: latencies per priority (core/stats/prio.h) */
};

/* The bw (KiB/s) or iops sample summary of one direction, as reported. */
struct sample_summary dir_bw_summary(const struct thread_stats *ts, enum ddir d);
struct sample_summary dir_iops_summary(const struct thread_stats *ts, enum ddir d);
double sample_summary_stddev(const struct sample_summary *s);

/* Add one direction's counts, series and histograms into another (not the samples). */
void dir_stats_merge(struct dir_stats *d, const struct dir_stats *s);
void sample_summary_add(struct sample_summary *dst, const struct sample_summary *src);

/* Merge src into dst. group: clones of one group report (fio's group_reporting): their
 * bw/iops sample series add up as one aggregate instead of pooling. */
void thread_stats_merge(struct thread_stats *dst, const struct thread_stats *src, bool group);

/* One direction of a job as a result file gives it (--merge): amounts as numbers, clat as
 * a summary and json+ bins. Merged: amounts add up (bw and iops too: the jobs ran side by
 * side), the runtime is the longest, clat pools, the bins add up. */
struct dir_totals {
	double io_bytes, total_ios, short_ios, drop_ios, iops, bw_bytes, runtime_ms;
	struct series_pool clat; /* ns */
	struct hist clat_hist;
};

void dir_totals_merge(struct dir_totals *dst, const struct dir_totals *src);

#endif
