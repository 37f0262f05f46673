/* Random numbers (xoshiro256**) and a memory-free random permutation of [0, n): every
 * block is visited exactly once per pass, as fio's random map guarantees, without a bitmap. */
#ifndef IOBENCH_RAND_H
#define IOBENCH_RAND_H
#include <stdint.h>

struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, bound). */
static inline uint64_t rng_below(struct rng *r, uint64_t bound)
{
	return (uint64_t)(((unsigned __int128)rng_next(r) * bound) >> 64);
}

/* A keyed bijection on [0, 2^bits), walked with a counter; values >= n are skipped. */
struct perm {
	uint64_t n;
	uint64_t counter;
	unsigned half_bits; /* bits = 2 * half_bits */
	uint64_t keys[4];
};

void perm_init(struct perm *p, uint64_t n, struct rng *r);
/* The next index of this pass; returns -1 (as uint64_t) when the pass is over. */
uint64_t perm_next(struct perm *p);
/* The bijection itself, applied to v < n (scatters ranks over [0, n)). */
uint64_t perm_map(const struct perm *p, uint64_t v);

/* Uniform double in [0, 1). */
static inline double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Zipf ranks in [1, n] by rejection-inversion: constant memory and time. */
struct zipf {
	uint64_t n;
	double s, h_x1, h_n, shift;
};
void zipf_init(struct zipf *z, uint64_t n, double theta);
uint64_t zipf_next(const struct zipf *z, struct rng *r);

/* Standard normal deviate (Box-Muller). */
double rng_gauss(struct rng *r);

#endif
