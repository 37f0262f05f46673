/* Histogram: bucket values, merging and percentiles. */
#include "core/stats/hist.h"

uint64_t hist_bucket_value(unsigned idx)
{
	if (idx < 2u * HIST_VAL)
		return idx;
	unsigned error_bits = (idx >> HIST_BITS) - 1;
	uint64_t base = 1ULL << (error_bits + HIST_BITS);
	uint64_t k = idx % HIST_VAL;
	uint64_t width = 1ULL << error_bits;
	return base + k * width + width / 2;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned i = 0; i < HIST_NR; i++)
		dst->bucket[i] += src->bucket[i];
}

uint64_t hist_count(const struct hist *h)
{
	uint64_t n = 0;
	for (unsigned i = 0; i < HIST_NR; i++)
		n += h->bucket[i];
	return n;
}

uint64_t hist_percentiles(const struct hist *h, const double *pct, size_t n, uint64_t *out)
{
	uint64_t total = hist_count(h);
	uint64_t cum = 0;
	size_t j = 0;

	for (size_t k = 0; k < n; k++)
		out[k] = 0;
	if (!total)
		return 0;
	for (unsigned i = 0; i < HIST_NR && j < n; i++) {
		cum += h->bucket[i];
		while (j < n && (double)cum >= pct[j] / 100.0 * (double)total) {
			out[j] = hist_bucket_value(i);
			j++;
		}
	}
	/* Rounding can leave p=100 just short: it is the largest bucket in use. */
	for (unsigned i = HIST_NR; j < n && i-- > 0;)
		if (h->bucket[i]) {
			while (j < n)
				out[j++] = hist_bucket_value(i);
		}
	return total;
}
