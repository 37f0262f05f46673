/* The histogram: bucket layout compatible with fio's, and percentiles within the bucket
 * error of exact percentiles computed from the sorted samples. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/stats/hist.h"
#include "core/lib/rand.h"
#include "core/stats/stats.h"

static void test_bucket_layout(void **state)
{
	/* Exact below 128 ns. */
	for (uint64_t v = 0; v < 128; v++) {
		assert_int_equal(hist_index(v), v);
		assert_int_equal(hist_bucket_value((unsigned)v), v);
	}
	/* Values fio prints as json+ bins and percentiles (reference outputs). */
	assert_int_equal(hist_bucket_value(hist_index(756)), 756);
	assert_int_equal(hist_bucket_value(hist_index(99840)), 99840);
	assert_int_equal(hist_bucket_value(hist_index(15808)), 15808);
	assert_int_equal(hist_bucket_value(hist_index(124256256)), 124256256);
	/* Every value maps to a bucket whose midpoint is within 1/64 of it. */
	for (uint64_t v = 128; v < (1ULL << 34); v = v * 5 / 4 + 3) {
		uint64_t mid = hist_bucket_value(hist_index(v));
		assert_true(fabs((double)mid - (double)v) <= (double)v / 64.0);
	}
	assert_int_equal(hist_index(UINT64_MAX), HIST_NR - 1);
	assert_int_equal(HIST_NR, 1856);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Exact percentile from sorted samples: the smallest value with at least p% at or below. */
static uint64_t exact_pct(const uint64_t *sorted, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);
	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

static void check_distribution(uint64_t (*gen)(struct rng *), unsigned seed)
{
	const size_t n = 200000;
	const double pct[] = { 1, 5, 10, 50, 90, 95, 99, 99.9 };
	uint64_t got[8];
	uint64_t *v = malloc(n * sizeof(*v));
	struct hist *h = calloc(1, sizeof(*h));
	struct rng r;
	assert_non_null(v);
	assert_non_null(h);
	rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++) {
		v[i] = gen(&r);
		hist_record(h, v[i]);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	assert_int_equal(hist_percentiles(h, pct, 8, got), n);
	for (size_t i = 0; i < 8; i++) {
		uint64_t want = exact_pct(v, n, pct[i]);
		double err = fabs((double)got[i] - (double)want);
		/* Bucket error bound: half a bucket (1/128) plus the bucket edge (1/64). */
		assert_true(err <= (double)want / 64.0 + 1.0);
	}
	free(v);
	free(h);
}

static uint64_t gen_lognormal(struct rng *r)
{
	double u1 = ((double)(rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
	double u2 = ((double)(rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
	double z = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
	return (uint64_t)exp(11.5 + 0.8 * z); /* ~100 us median, long tail */
}

static uint64_t gen_uniform(struct rng *r)
{
	return 50 + rng_below(r, 5000000);
}

static void test_percentiles_lognormal(void **state)
{
	check_distribution(gen_lognormal, 7);
}

static void test_percentiles_uniform(void **state)
{
	check_distribution(gen_uniform, 11);
}

static void test_merge_and_series(void **state)
{
	struct hist *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct series s1 = { 0 }, s2 = { 0 }, all = { 0 };
	for (uint64_t i = 1; i <= 1000; i++) {
		hist_record(i % 2 ? a : b, i * 1000);
		series_add(i % 2 ? &s1 : &s2, i * 1000);
		series_add(&all, i * 1000);
	}
	hist_merge(a, b);
	assert_int_equal(hist_count(a), 1000);
	series_merge(&s1, &s2);
	assert_int_equal(s1.n, 1000);
	assert_int_equal(s1.min, 1000);
	assert_int_equal(s1.max, 1000000);
	assert_true(fabs(series_mean(&s1) - 500500.0) < 1e-6);
	/* Sample stddev of 1000..1000000 step 1000. */
	assert_true(fabs(series_stddev(&s1) - 288819.436) < 0.01);
	assert_true(fabs(series_stddev(&s1) - series_stddev(&all)) < 1e-9);
	free(a);
	free(b);
}

static void test_perm_covers_once(void **state)
{
	struct rng r;
	struct perm p;
	const uint64_t n = 100003;
	unsigned char *seen = calloc(n, 1);
	rng_seed(&r, 42);
	perm_init(&p, n, &r);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t b = perm_next(&p);
		assert_true(b < n);
		assert_int_equal(seen[b], 0);
		seen[b] = 1;
	}
	assert_int_equal(perm_next(&p), UINT64_MAX);
	free(seen);
}

static void test_lat_buckets(void **state)
{
	assert_int_equal(lat_bucket(1), 0);       /* "2" ns */
	assert_int_equal(lat_bucket(711), 8);     /* "750" ns, as fio files a 711 ns clat */
	assert_int_equal(lat_bucket(999), 9);     /* "1000" ns */
	assert_int_equal(lat_bucket(1000), 10);   /* "2" us */
	assert_int_equal(lat_bucket(99999), 15);  /* "100" us */
	assert_int_equal(lat_bucket(1500000), 20); /* "2" ms */
	assert_int_equal(lat_bucket(1500ULL * 1000000), LATB_NR - 2);
	assert_int_equal(lat_bucket(5000ULL * 1000000), LATB_NR - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_layout),
		cmocka_unit_test(test_percentiles_lognormal),
		cmocka_unit_test(test_percentiles_uniform),
		cmocka_unit_test(test_merge_and_series),
		cmocka_unit_test(test_perm_covers_once),
		cmocka_unit_test(test_lat_buckets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
