/* Statistics merging and summaries. */
#include "core/stats/stats.h"

#include <math.h>
#include <string.h>

void series_merge(struct series *dst, const struct series *src)
{
	if (!src->n)
		return;
	if (!dst->n || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->n += src->n;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
}

double series_mean(const struct series *s)
{
	return s->n ? (double)s->sum / (double)s->n : 0.0;
}

double series_stddev(const struct series *s)
{
	if (s->n < 2)
		return 0.0;
	long double n = (long double)s->n;
	long double sum = (long double)s->sum;
	long double var = ((long double)s->sumsq - sum * sum / n) / (n - 1);
	return var > 0 ? (double)sqrtl(var) : 0.0;
}

struct series_pool series_pool_of(double n, double mean, double stddev, double min, double max)
{
	return (struct series_pool){ n, min, max, n * mean, (n > 1 ? (n - 1) * stddev * stddev : 0) + n * mean * mean,
				     true };
}

void series_pool_merge(struct series_pool *dst, const struct series_pool *src)
{
	if (!src->any)
		return;
	if (!dst->any || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->n += src->n;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	dst->any = true;
}

double series_pool_mean(const struct series_pool *p)
{
	return p->n ? p->sum / p->n : 0;
}

double series_pool_stddev(const struct series_pool *p)
{
	double mean = series_pool_mean(p);
	double var = p->n > 1 ? (p->sumsq - p->n * mean * mean) / (p->n - 1) : 0;
	return var > 0 ? sqrt(var) : 0;
}

const unsigned lat_bucket_label[LATB_NR] = {
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000,
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000,
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000, 2000,
};

/* The index of the first label above v (0 <= v < 1000) within one unit's ten buckets: a
 * table, so a completion's bucket is a lookup, not a walk over the bounds. */
const unsigned char lat_unit_bucket[1000] = {
	[0 ... 1] = 0,     [2 ... 3] = 1,     [4 ... 9] = 2,     [10 ... 19] = 3,   [20 ... 49] = 4,
	[50 ... 99] = 5,   [100 ... 249] = 6, [250 ... 499] = 7, [500 ... 749] = 8, [750 ... 999] = 9,
};

static struct sample_summary summary_of(const struct series *s)
{
	struct sample_summary out = { s->min, s->max, s->n, series_mean(s), 0.0 };
	double sd = series_stddev(s);
	if (s->n > 1)
		out.m2 = sd * sd * (double)(s->n - 1);
	return out;
}

void sample_summary_add(struct sample_summary *dst, const struct sample_summary *src)
{
	dst->min += src->min;
	dst->max += src->max;
	dst->samples += src->samples;
	dst->mean += src->mean;
	dst->m2 += src->m2;
}

double sample_summary_stddev(const struct sample_summary *s)
{
	return s->samples > 1 ? sqrt(s->m2 / (double)(s->samples - 1)) : 0.0;
}

struct sample_summary dir_bw_summary(const struct thread_stats *ts, enum ddir d)
{
	return ts->pure_sum_samples ? ts->dir[d].bw_group : summary_of(&ts->dir[d].bw_kib);
}

struct sample_summary dir_iops_summary(const struct thread_stats *ts, enum ddir d)
{
	return ts->pure_sum_samples ? ts->dir[d].iops_group : summary_of(&ts->dir[d].iops);
}

void dir_stats_merge(struct dir_stats *d, const struct dir_stats *s)
{
	d->io_bytes += s->io_bytes;
	d->total_ios += s->total_ios;
	d->short_ios += s->short_ios;
	d->drop_ios += s->drop_ios;
	series_merge(&d->slat, &s->slat);
	series_merge(&d->clat, &s->clat);
	series_merge(&d->lat, &s->lat);
	hist_merge(&d->clat_hist, &s->clat_hist);
	hist_merge(&d->slat_hist, &s->slat_hist);
	hist_merge(&d->lat_hist, &s->lat_hist);
}

void thread_stats_merge(struct thread_stats *dst, const struct thread_stats *src, bool group)
{
	for (int d = 0; d < DDIR_NR; d++) {
		dir_stats_merge(&dst->dir[d], &src->dir[d]);
		if (group) {
			struct sample_summary bw = dir_bw_summary(src, d), io = dir_iops_summary(src, d);
			sample_summary_add(&dst->dir[d].bw_group, &bw);
			sample_summary_add(&dst->dir[d].iops_group, &io);
		}
		series_merge(&dst->dir[d].bw_kib, &src->dir[d].bw_kib);
		series_merge(&dst->dir[d].iops, &src->dir[d].iops);
	}
	for (int i = 0; i < LATB_NR; i++)
		dst->lat_buckets[i] += src->lat_buckets[i];
	for (int i = 0; i < DEPTH_MAP_NR; i++) {
		dst->depth_map[i] += src->depth_map[i];
		dst->submit_map[i] += src->submit_map[i];
		dst->complete_map[i] += src->complete_map[i];
	}
	dst->total_submit += src->total_submit;
	dst->total_complete += src->total_complete;
	for (int i = 0; i <= DDIR_NR; i++)
		dst->issued[i] += src->issued[i];
	series_merge(&dst->sync_lat, &src->sync_lat);
	hist_merge(&dst->sync_hist, &src->sync_hist);
	dst->files_done += src->files_done;
	series_merge(&dst->file_oc, &src->file_oc);
	hist_merge(&dst->file_oc_hist, &src->file_oc_hist);
	for (int d = 0; d < PRIO_DIRS; d++)
		prio_stats_merge(&dst->prio[d], &src->prio[d]);
	if (src->runtime_ms > dst->runtime_ms)
		dst->runtime_ms = src->runtime_ms;
	dst->job_runtime_ms += src->job_runtime_ms;
	dst->usr_us += src->usr_us;
	dst->sys_us += src->sys_us;
	dst->ctx += src->ctx;
	dst->majf += src->majf;
	dst->minf += src->minf;
	dst->nr_threads += src->nr_threads ? src->nr_threads : 1;
	if (!dst->error)
		dst->error = src->error;
	dst->nr_errors += src->nr_errors;
	if (!dst->first_error)
		dst->first_error = src->first_error;
	if (src->latency_depth)
		dst->latency_depth = src->latency_depth;
	dst->zone_resets += src->zone_resets;
	dst->pure_sum_samples |= group;
}

void dir_totals_merge(struct dir_totals *dst, const struct dir_totals *src)
{
	dst->io_bytes += src->io_bytes;
	dst->total_ios += src->total_ios;
	dst->short_ios += src->short_ios;
	dst->drop_ios += src->drop_ios;
	dst->iops += src->iops;
	dst->bw_bytes += src->bw_bytes;
	if (src->runtime_ms > dst->runtime_ms)
		dst->runtime_ms = src->runtime_ms;
	series_pool_merge(&dst->clat, &src->clat);
	hist_merge(&dst->clat_hist, &src->clat_hist);
}
