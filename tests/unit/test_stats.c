/* Merging statistics (core/stats/stats.c): the pooled mean and stddev of series known by their
 * sums (MPI's All clients) or only by their summaries (--merge of JSON results) against a
 * direct computation over all the samples; histogram merges and the percentiles of merged
 * bins against one histogram of every sample. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/stats/hist.h"
#include "core/lib/rand.h"
#include "core/stats/stats.h"

#define NSAMPLES 100000
#define NPARTS 7

/* Samples with a long tail (~100 us median), and where each belongs: parts of unequal size. */
static uint64_t *samples(unsigned seed, unsigned *part)
{
	uint64_t *v = malloc(NSAMPLES * sizeof(*v));
	struct rng r;
	assert_non_null(v);
	rng_seed(&r, seed);
	for (size_t i = 0; i < NSAMPLES; i++) {
		double u1 = ((double)(rng_next(&r) >> 11) + 0.5) / 9007199254740992.0;
		double u2 = ((double)(rng_next(&r) >> 11) + 0.5) / 9007199254740992.0;
		v[i] = (uint64_t)exp(11.5 + 0.8 * sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2));
		unsigned p = (unsigned)rng_below(&r, NPARTS * (NPARTS + 1) / 2);
		part[i] = 0;
		while (p > part[i])
			p -= ++part[i];
	}
	return v;
}

/* Two passes: mean, then the sample stddev. */
static void direct(const uint64_t *v, size_t n, const unsigned *part, unsigned which, double *mean, double *sd,
		   uint64_t *count)
{
	double sum = 0, dev = 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!part || part[i] == which) {
			sum += (double)v[i];
			k++;
		}
	*mean = k ? sum / (double)k : 0;
	for (size_t i = 0; i < n; i++)
		if (!part || part[i] == which)
			dev += ((double)v[i] - *mean) * ((double)v[i] - *mean);
	*sd = k > 1 ? sqrt(dev / (double)(k - 1)) : 0;
	*count = k;
}

static void assert_close(double got, double want, double rel)
{
	assert_true(fabs(got - want) <= rel * fabs(want) + 1e-9);
}

/* Exact sums (MPI's All clients): the parts' series merged are the series of all. */
static void test_series_merge_exact(void **state)
{
	unsigned *part = malloc(NSAMPLES * sizeof(*part));
	uint64_t *v = samples(3, part);
	struct series parts[NPARTS] = { 0 }, all = { 0 }, merged = { 0 };
	for (size_t i = 0; i < NSAMPLES; i++) {
		series_add(&parts[part[i]], v[i]);
		series_add(&all, v[i]);
	}
	for (int p = 0; p < NPARTS; p++)
		series_merge(&merged, &parts[p]);
	assert_int_equal(merged.n, all.n);
	assert_int_equal(merged.min, all.min);
	assert_int_equal(merged.max, all.max);
	assert_int_equal(merged.sum, all.sum);
	assert_true(merged.sumsq == all.sumsq);
	double mean, sd;
	uint64_t n;
	direct(v, NSAMPLES, NULL, 0, &mean, &sd, &n);
	assert_close(series_mean(&merged), mean, 1e-12);
	assert_close(series_stddev(&merged), sd, 1e-9);
	free(v);
	free(part);
}

/* Summaries only (--merge): pooled from each part's N, mean and stddev. */
static void test_series_pool(void **state)
{
	unsigned *part = malloc(NSAMPLES * sizeof(*part));
	uint64_t *v = samples(5, part);
	struct series_pool pool = { 0 };
	double lo = INFINITY, hi = 0;
	for (unsigned p = 0; p < NPARTS; p++) {
		double mean, sd, pmin = INFINITY, pmax = 0;
		uint64_t n;
		direct(v, NSAMPLES, part, p, &mean, &sd, &n);
		for (size_t i = 0; i < NSAMPLES; i++)
			if (part[i] == p) {
				pmin = fmin(pmin, (double)v[i]);
				pmax = fmax(pmax, (double)v[i]);
			}
		struct series_pool one = series_pool_of((double)n, mean, sd, pmin, pmax);
		series_pool_merge(&pool, &one);
		lo = fmin(lo, pmin);
		hi = fmax(hi, pmax);
	}
	double mean, sd;
	uint64_t n;
	direct(v, NSAMPLES, NULL, 0, &mean, &sd, &n);
	assert_true(pool.any);
	assert_close(pool.n, (double)n, 0);
	assert_close(pool.min, lo, 0);
	assert_close(pool.max, hi, 0);
	assert_close(series_pool_mean(&pool), mean, 1e-12);
	assert_close(series_pool_stddev(&pool), sd, 1e-9);
	free(v);
	free(part);
}

static void test_series_pool_edges(void **state)
{
	struct series_pool pool = { 0 }, none = { 0 };
	assert_true(series_pool_mean(&pool) == 0 && series_pool_stddev(&pool) == 0);
	struct series_pool one = series_pool_of(1, 500, 0, 500, 500);
	series_pool_merge(&pool, &none); /* nothing: min stays unset */
	assert_false(pool.any);
	series_pool_merge(&pool, &one);
	assert_close(series_pool_mean(&pool), 500, 0);
	assert_true(series_pool_stddev(&pool) == 0); /* one sample */
	struct series_pool two = series_pool_of(1, 700, 0, 700, 700);
	series_pool_merge(&pool, &two);
	assert_close(pool.min, 500, 0);
	assert_close(pool.max, 700, 0);
	assert_close(series_pool_stddev(&pool), sqrt(20000.0), 1e-12);
}

/* Bins of every part summed: the histogram of all the samples, and its percentiles. */
static void test_hist_merge_percentiles(void **state)
{
	static const double pct[] = { 1, 10, 50, 90, 99, 99.9, 99.99, 100 };
	unsigned *part = malloc(NSAMPLES * sizeof(*part));
	uint64_t *v = samples(9, part);
	struct hist *parts = calloc(NPARTS, sizeof(*parts)), *all = calloc(1, sizeof(*all));
	struct hist *merged = calloc(1, sizeof(*merged)), *readback = calloc(1, sizeof(*readback));
	for (size_t i = 0; i < NSAMPLES; i++) {
		hist_record(&parts[part[i]], v[i]);
		hist_record(all, v[i]);
	}
	uint64_t total = 0;
	for (int p = 0; p < NPARTS; p++) {
		total += hist_count(&parts[p]);
		hist_merge(merged, &parts[p]);
		/* As --merge reads json+ bins back: a count per bucket value. */
		for (unsigned b = 0; b < HIST_NR; b++)
			if (parts[p].bucket[b])
				hist_add(readback, hist_bucket_value(b), parts[p].bucket[b]);
	}
	assert_int_equal(total, NSAMPLES);
	assert_int_equal(hist_count(merged), NSAMPLES);
	assert_memory_equal(merged->bucket, all->bucket, sizeof(all->bucket));
	assert_memory_equal(readback->bucket, all->bucket, sizeof(all->bucket));
	uint64_t got[8], want[8];
	assert_int_equal(hist_percentiles(merged, pct, 8, got), NSAMPLES);
	hist_percentiles(all, pct, 8, want);
	for (int i = 0; i < 8; i++)
		assert_int_equal(got[i], want[i]);
	free(v);
	free(part);
	free(parts);
	free(all);
	free(merged);
	free(readback);
}

/* --merge's All clients: amounts add up, the runtime is the longest, clat pools. */
static void test_dir_totals_merge(void **state)
{
	struct dir_totals *sum = calloc(1, sizeof(*sum)), *one = calloc(1, sizeof(*one));
	for (int k = 1; k <= 3; k++) {
		memset(one, 0, sizeof(*one));
		one->io_bytes = 4096.0 * k;
		one->total_ios = k;
		one->iops = 10.5 * k;
		one->bw_bytes = 1000.0 * k;
		one->runtime_ms = 100.0 * (4 - k);
		one->clat = series_pool_of(k, 1000.0 * k, 0, 1000.0 * k, 1000.0 * k);
		hist_add(&one->clat_hist, 1000 * (uint64_t)k, (uint64_t)k);
		dir_totals_merge(sum, one);
	}
	assert_close(sum->io_bytes, 4096.0 * 6, 0);
	assert_close(sum->total_ios, 6, 0);
	assert_close(sum->iops, 63, 1e-15);
	assert_close(sum->bw_bytes, 6000, 0);
	assert_close(sum->runtime_ms, 300, 0);
	assert_close(sum->clat.n, 6, 0);
	assert_close(sum->clat.min, 1000, 0);
	assert_close(sum->clat.max, 3000, 0);
	assert_close(series_pool_mean(&sum->clat), 14000.0 / 6, 1e-12);
	assert_int_equal(hist_count(&sum->clat_hist), 6);
	free(sum);
	free(one);
}

/* The depth and batch buckets against fio's table, written out as comparisons. */
static void test_buckets_as_fio(void **state)
{
	(void)state;
	for (unsigned v = 0; v < 5000; v++) {
		unsigned d = v >= 64 ? 6 : v >= 32 ? 5 : v >= 16 ? 4 : v >= 8 ? 3 : v >= 4 ? 2 : v >= 2 ? 1 : 0;
		unsigned b = v == 0 ? 0 : v <= 4 ? 1 : v <= 8 ? 2 : v <= 16 ? 3 : v <= 32 ? 4 : v <= 64 ? 5 : 6;
		assert_int_equal(depth_bucket(v), d);
		assert_int_equal(batch_bucket(v), b);
	}
	assert_int_equal(depth_bucket(UINT32_MAX), 6);
	assert_int_equal(batch_bucket(UINT32_MAX), 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_as_fio),
		cmocka_unit_test(test_series_merge_exact),
		cmocka_unit_test(test_series_pool),
		cmocka_unit_test(test_series_pool_edges),
		cmocka_unit_test(test_hist_merge_percentiles),
		cmocka_unit_test(test_dir_totals_merge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
