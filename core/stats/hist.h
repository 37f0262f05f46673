/* Log-linear latency histogram, bucket-compatible with fio's (so percentiles and json+
 * bins match): values in ns; values below 128 ns are exact; above, each power of two is
 * split into 64 buckets, so a bucket's midpoint is within 1/128 (0.78%) of any value in
 * it (1/64 at worst for the bucket's edges). 29 groups x 64 = 1856 buckets; values past
 * the last group (~ 17 s) land in the last bucket. */
#ifndef IOBENCH_HIST_H
#define IOBENCH_HIST_H
#include <stddef.h>
#include <stdint.h>

#define HIST_BITS 6
#define HIST_VAL (1u << HIST_BITS)
#define HIST_GROUPS 29
#define HIST_NR (HIST_GROUPS * HIST_VAL)

struct hist {
	uint64_t bucket[HIST_NR];
};

static inline unsigned hist_index(uint64_t ns)
{
	if (ns < (2u * HIST_VAL))
		return (unsigned)ns;
	unsigned msb = 63u - (unsigned)__builtin_clzll(ns);
	unsigned error_bits = msb - HIST_BITS;
	unsigned idx = ((error_bits + 1) << HIST_BITS) + (unsigned)((ns >> error_bits) & (HIST_VAL - 1));
	return idx < HIST_NR ? idx : HIST_NR - 1;
}

static inline void hist_record(struct hist *h, uint64_t ns)
{
	h->bucket[hist_index(ns)]++;
}

/* count samples of one value (bins read back from a json+ result). */
static inline void hist_add(struct hist *h, uint64_t ns, uint64_t count)
{
	h->bucket[hist_index(ns)] += count;
}

/* The value a bucket stands for: its midpoint (exact below 128 ns). */
uint64_t hist_bucket_value(unsigned idx);

void hist_merge(struct hist *dst, const struct hist *src);
uint64_t hist_count(const struct hist *h);

/* Percentiles: pct[] ascending (0 < p <= 100), out[i] in ns. Returns the sample count. */
uint64_t hist_percentiles(const struct hist *h, const double *pct, size_t n, uint64_t *out);

#endif
