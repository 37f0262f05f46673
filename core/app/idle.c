/* --idle-prof: a thread per CPU at SCHED_IDLE counts units of work; what they got done is
 * what the run left idle. */
#include "core/app/idle.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lib/clock.h"

#define IDLE_PAGE 4096         /* a unit of work touches a page of bytes */
#define IDLE_ROUND_UNITS 64    /* units timed together in a calibration round */

static void unit_of_work(volatile unsigned char *page)
{
	for (unsigned i = 0; i < IDLE_PAGE; i++)
		page[i] = (unsigned char)(page[i] + i);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* A unit's time, IDLE_ROUNDS times; the median counts (a round the scheduler cut into
 * does not). */
static void calibrate(struct idle_cpu *c, volatile unsigned char *page)
{
	double sorted[IDLE_ROUNDS];
	for (int r = 0; r < IDLE_ROUNDS; r++) {
		uint64_t t0 = clock_now_ns();
		for (int k = 0; k < IDLE_ROUND_UNITS; k++)
			unit_of_work(page);
		c->round_ns[r] = (double)(clock_now_ns() - t0) / IDLE_ROUND_UNITS;
		sorted[r] = c->round_ns[r];
	}
	qsort(sorted, IDLE_ROUNDS, sizeof(sorted[0]), cmp_double);
	c->unit_ns = (sorted[IDLE_ROUNDS / 2 - 1] + sorted[IDLE_ROUNDS / 2]) / 2;
}

/* Pinned, calibrated, then idle priority and units until told to end. A CPU it cannot be
 * pinned to, or a priority it cannot take, leaves unit_ns 0: that CPU is not reported. */
static void *idle_main(void *arg)
{
	struct idle_cpu *c = arg;
	struct idle_prof *ip = c->ip;
	_Static_assert(IDLE_PAGE <= 65536, "the page lives on the thread's stack");
	unsigned char page[IDLE_PAGE];
	memset(page, 0, sizeof(page));
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(c->cpu, &set);
	struct sched_param sp = { 0 };
	bool ok = !pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (ok)
		calibrate(c, page);
	if (ok && pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp))
		ok = false;
	if (!ok)
		c->unit_ns = 0;
	atomic_fetch_add(&ip->ready, 1);
	uint64_t n = 0;
	while (ok && !atomic_load_explicit(&ip->quit, memory_order_relaxed)) {
		unit_of_work(page);
		atomic_store_explicit(&c->units, ++n, memory_order_relaxed);
	}
	return NULL;
}

static unsigned allowed_cpus(unsigned *ids, unsigned max)
{
	cpu_set_t set;
	unsigned n = 0;
	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (unsigned c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			ids[n++] = c;
	return n;
}

int idle_start(struct idle_prof *ip, int mode)
{
	unsigned ids[CPU_SETSIZE];
	memset(ip, 0, sizeof(*ip));
	ip->mode = mode;
	ip->ncpus = allowed_cpus(ids, CPU_SETSIZE);
	ip->cpus = calloc(ip->ncpus ? ip->ncpus : 1, sizeof(*ip->cpus));
	ip->ids = calloc(ip->ncpus ? ip->ncpus : 1, sizeof(*ip->ids));
	ip->pct = calloc(ip->ncpus ? ip->ncpus : 1, sizeof(*ip->pct));
	if (!ip->cpus || !ip->ids || !ip->pct) {
		fprintf(stderr, "iobench: --idle-prof: out of memory\n");
		return -ENOMEM;
	}
	unsigned started = 0;
	for (unsigned i = 0; i < ip->ncpus; i++) {
		struct idle_cpu *c = &ip->cpus[i];
		c->ip = ip;
		c->cpu = ids[i];
		c->started = !pthread_create(&c->tid, NULL, idle_main, c);
		started += c->started;
	}
	while (atomic_load(&ip->ready) < started)
		clock_sleep_ns(NS_PER_MS);
	unsigned usable = 0;
	for (unsigned i = 0; i < ip->ncpus; i++)
		usable += ip->cpus[i].started && ip->cpus[i].unit_ns > 0;
	if (!usable) {
		fprintf(stderr, "iobench: --idle-prof: no CPU could take a thread at idle priority (SCHED_IDLE)\n");
		idle_stop(ip);
		return -EPERM;
	}
	idle_begin(ip);
	return 0;
}

void idle_begin(struct idle_prof *ip)
{
	for (unsigned i = 0; i < ip->ncpus; i++)
		ip->cpus[i].units_at_start = atomic_load(&ip->cpus[i].units);
	ip->start_ns = clock_now_ns();
}

/* The results: each CPU's share, their mean, and the unit's time over all rounds. */
static void idle_sum(struct idle_prof *ip)
{
	struct idle_result *r = &ip->res;
	double span = (double)(ip->end_ns - ip->start_ns), sum = 0, sum2 = 0;
	unsigned rounds = 0;
	memset(r, 0, sizeof(*r));
	for (unsigned i = 0; i < ip->ncpus; i++) {
		const struct idle_cpu *c = &ip->cpus[i];
		if (!c->started || c->unit_ns <= 0)
			continue;
		double done = (double)(atomic_load(&c->units) - c->units_at_start) * c->unit_ns;
		double pct = span > 0 ? done * 100.0 / span : 0.0;
		ip->ids[r->ncpus] = c->cpu;
		ip->pct[r->ncpus++] = pct > 100.0 ? 100.0 : pct;
		r->system_pct += pct > 100.0 ? 100.0 : pct;
		double sorted[IDLE_ROUNDS];
		memcpy(sorted, c->round_ns, sizeof(sorted));
		qsort(sorted, IDLE_ROUNDS, sizeof(sorted[0]), cmp_double);
		for (int k = IDLE_ROUNDS / 4; k < IDLE_ROUNDS - IDLE_ROUNDS / 4; k++, rounds++) {
			sum += sorted[k] / 1000.0; /* the middle half: a round another thread cut into is not a unit's time */
			sum2 += sorted[k] / 1000.0 * (sorted[k] / 1000.0);
		}
	}
	if (!r->ncpus)
		return;
	r->mode = ip->mode;
	r->system_pct /= r->ncpus;
	r->cpu = ip->ids;
	r->cpu_pct = ip->pct;
	r->unit_mean_us = sum / rounds;
	double var = rounds > 1 ? (sum2 - sum * sum / rounds) / (rounds - 1) : 0.0;
	r->unit_stddev_us = var > 0 ? sqrt(var) : 0.0;
}

void idle_stop(struct idle_prof *ip)
{
	if (!ip->cpus || atomic_load(&ip->quit))
		return;
	ip->end_ns = clock_now_ns();
	atomic_store(&ip->quit, true);
	for (unsigned i = 0; i < ip->ncpus; i++)
		if (ip->cpus[i].started)
			pthread_join(ip->cpus[i].tid, NULL);
	idle_sum(ip);
}

void idle_free(struct idle_prof *ip)
{
	free(ip->cpus);
	free(ip->ids);
	free(ip->pct);
	memset(ip, 0, sizeof(*ip));
}
