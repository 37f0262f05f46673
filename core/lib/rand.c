/* Seeding and the Feistel-network permutation behind no-repeat random offsets. */
#include "core/lib/rand.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

void perm_init(struct perm *p, uint64_t n, struct rng *r)
{
	unsigned bits = 2;
	while (bits < 62 && (1ULL << bits) < n)
		bits++;
	if (bits & 1)
		bits++;
	p->n = n;
	p->counter = 0;
	p->half_bits = bits / 2;
	for (int i = 0; i < 4; i++)
		p->keys[i] = rng_next(r);
}

static uint64_t round_fn(uint64_t x, uint64_t key)
{
	x ^= key;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 29;
	return x;
}

static uint64_t feistel(const struct perm *p, uint64_t v)
{
	uint64_t mask = (1ULL << p->half_bits) - 1;
	uint64_t left = v >> p->half_bits, right = v & mask;
	for (int i = 0; i < 4; i++) {
		uint64_t next = left ^ (round_fn(right, p->keys[i]) & mask);
		left = right;
		right = next;
	}
	return (left << p->half_bits) | right;
}

uint64_t perm_next(struct perm *p)
{
	uint64_t domain = 1ULL << (2 * p->half_bits);
	while (p->counter < domain) {
		uint64_t v = feistel(p, p->counter++);
		if (v < p->n)
			return v;
	}
	return UINT64_MAX;
}

uint64_t perm_map(const struct perm *p, uint64_t v)
{
	do
		v = feistel(p, v);
	while (v >= p->n);
	return v;
}

static double zipf_h(const struct zipf *z, double x)
{
	return exp(-z->s * log(x));
}

/* H(x) = integral of x^-s: ((x^(1-s)) - 1) / (1 - s), written to stay exact near s = 1. */
static double zipf_hi(const struct zipf *z, double x)
{
	double lx = log(x), t = (1.0 - z->s) * lx;
	return fabs(t) > 1e-8 ? expm1(t) / (1.0 - z->s) : lx * (1.0 + t / 2.0);
}

static double zipf_hi_inv(const struct zipf *z, double y)
{
	double t = y * (1.0 - z->s);
	if (t < -1.0)
		t = -1.0;
	return fabs(t) > 1e-8 ? exp(log1p(t) / (1.0 - z->s)) : exp(y * (1.0 - t / 2.0));
}

void zipf_init(struct zipf *z, uint64_t n, double theta)
{
	z->n = n ? n : 1;
	z->s = theta;
	z->h_x1 = zipf_hi(z, 1.5) - 1.0;
	z->h_n = zipf_hi(z, (double)z->n + 0.5);
	z->shift = 2.0 - zipf_hi_inv(z, zipf_hi(z, 2.5) - zipf_h(z, 2.0));
}

uint64_t zipf_next(const struct zipf *z, struct rng *r)
{
	for (;;) {
		double u = z->h_n + rng_unit(r) * (z->h_x1 - z->h_n);
		double x = zipf_hi_inv(z, u);
		double k = floor(x + 0.5);
		if (k < 1.0)
			k = 1.0;
		else if (k > (double)z->n)
			k = (double)z->n;
		if (k - x <= z->shift || u >= zipf_hi(z, k + 0.5) - zipf_h(z, k))
			return (uint64_t)k;
	}
}

double rng_gauss(struct rng *r)
{
	double u1 = rng_unit(r), u2 = rng_unit(r);
	if (u1 < 1e-300)
		u1 = 1e-300;
	return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}
