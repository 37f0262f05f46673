/* Seeding and the Feistel-network permutation behind no-repeat random offsets. */
#include "core/rand.h"

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
