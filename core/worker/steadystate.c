/* Steady-state detection: the criteria, the run's windows (one per reporting unit), and a
 * worker's part of them (core/worker/steadystate.h). */
#include "core/worker/steadystate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lib/clock.h"
#include "core/lib/debug.h"
#include "core/lib/say.h"

/* A window of more samples than this is refused (memory: 16 bytes a sample, twice). */
#define SS_SAMPLES_MAX (1u << 20)

/* ---- the criteria ---- */

static double window_mean(const uint64_t *y, unsigned n)
{
	double sum = 0.0;
	for (unsigned i = 0; i < n; i++)
		sum += (double)y[i];
	return n ? sum / n : 0.0;
}

/* The least-squares slope of y over x_i = i * dx (0 for fewer than two samples). */
static double window_slope(const uint64_t *y, unsigned n, double dx, double mean)
{
	if (n < 2 || !(dx > 0.0))
		return 0.0;
	double xmean = (double)(n - 1) / 2.0, sxy = 0.0, sxx = 0.0;
	for (unsigned i = 0; i < n; i++) {
		double dxi = (double)i - xmean;
		sxy += dxi * ((double)y[i] - mean);
		sxx += dxi * dxi;
	}
	return sxy / sxx / dx;
}

void ss_judge(const uint64_t *y, unsigned n, double interval_s, const struct steady_opts *o, struct ss_verdict *v)
{
	double mean = window_mean(y, n);
	memset(v, 0, sizeof(*v));
	if (o->crit & SS_SLOPE) {
		v->slope = window_slope(y, n, interval_s, mean);
		v->criterion = o->pct ? (mean > 0.0 ? 100.0 * v->slope / mean : 0.0) : v->slope;
		v->attained = fabs(v->criterion) < o->limit;
	} else {
		for (unsigned i = 0; i < n; i++) {
			double d = fabs((double)y[i] - mean);
			if (d > v->max_dev)
				v->max_dev = d;
		}
		v->criterion = o->pct ? (mean > 0.0 ? 100.0 * v->max_dev / mean : 0.0) : v->max_dev;
		v->attained = v->criterion < o->limit;
	}
	if (o->pct && !(mean > 0.0)) /* no I/O in the window: no percentage to judge */
		v->attained = false;
}

int steady_check_opts(const struct job_opts *o)
{
	const struct steady_opts *so = &o->ss.steady;
	if (!so->dur_us)
		return 0;
	if (!so->interval_us) {
		job_say(o->name, "ss_interval: must be more than 0");
		return -EINVAL;
	}
	if (so->dur_us % so->interval_us) {
		job_say(o->name,
			"ss_dur (%llu us) is not a multiple of ss_interval (%llu us): the window holds whole samples",
			(unsigned long long)so->dur_us, (unsigned long long)so->interval_us);
		return -EINVAL;
	}
	if (so->dur_us / so->interval_us > SS_SAMPLES_MAX) {
		job_say(o->name, "ss_dur / ss_interval: more than %u samples in the window", SS_SAMPLES_MAX);
		return -EINVAL;
	}
	return 0;
}

/* ---- the run's windows ---- */

struct steady_set {
	struct steady_unit *units;
	size_t nunits;
	struct steady_unit **of_clone; /* by clone: its window, or NULL */
	unsigned *member;              /* by clone: its slot in the window */
	size_t *first_clone;           /* by unit: the report unit's first clone */
	size_t nclones;
};

/* The report unit starting at clone first and ending before end: a window if one of its
 * clones has ss_dur (the first such keeps it). */
static int plan_unit(const struct steady_of_clone *clones, struct steady_set *set, size_t first, size_t end)
{
	size_t lead = first;
	while (lead < end && !clones[lead].o->ss.steady.dur_us)
		lead++;
	if (lead == end)
		return 0;
	struct steady_unit *u = &set->units[set->nunits];
	const struct steady_opts *so = &clones[lead].o->ss.steady;
	u->o = clones[lead].o;
	u->n = (unsigned)(so->dur_us / so->interval_us);
	u->nmembers = (unsigned)(end - first);
	u->members = calloc(u->nmembers, sizeof(*u->members));
	u->bw = calloc(u->n, sizeof(*u->bw));
	u->iops = calloc(u->n, sizeof(*u->iops));
	u->rep_bw = calloc(u->n, sizeof(*u->rep_bw));
	u->rep_iops = calloc(u->n, sizeof(*u->rep_iops));
	u->scratch = calloc(u->n, sizeof(*u->scratch));
	pthread_mutex_init(&u->lock, NULL);
	set->first_clone[set->nunits++] = first;
	if (!u->members || !u->bw || !u->iops || !u->rep_bw || !u->rep_iops || !u->scratch)
		return -ENOMEM;
	/* The window's keeper is member 0; the others follow in clone order. */
	set->of_clone[lead] = u;
	set->member[lead] = 0;
	unsigned m = 1;
	for (size_t i = first; i < end; i++)
		if (i != lead) {
			set->of_clone[i] = u;
			set->member[i] = m++;
		}
	return 0;
}

int steady_plan(struct steady_set **out, const struct steady_of_clone *clones, size_t n)
{
	bool any = false;
	*out = NULL;
	for (size_t i = 0; i < n; i++)
		any |= clones[i].o->ss.steady.dur_us != 0;
	if (!any)
		return 0;
	struct steady_set *set = calloc(1, sizeof(*set));
	if (!set)
		return -ENOMEM;
	*out = set;
	set->nclones = n;
	set->units = calloc(n, sizeof(*set->units));
	set->of_clone = calloc(n, sizeof(*set->of_clone));
	set->member = calloc(n, sizeof(*set->member));
	set->first_clone = calloc(n, sizeof(*set->first_clone));
	if (!set->units || !set->of_clone || !set->member || !set->first_clone)
		return -ENOMEM;
	for (size_t first = 0, end; first < n; first = end) {
		for (end = first + 1; end < n && clones[end].joins_previous; end++)
			;
		int ret = plan_unit(clones, set, first, end);
		if (ret)
			return ret;
	}
	return 0;
}

void steady_free(struct steady_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; set->units && i < set->nunits; i++) {
		struct steady_unit *u = &set->units[i];
		pthread_mutex_destroy(&u->lock);
		free(u->members);
		free(u->bw);
		free(u->iops);
		free(u->rep_bw);
		free(u->rep_iops);
		free(u->scratch);
	}
	free(set->units);
	free(set->of_clone);
	free(set->member);
	free(set->first_clone);
	free(set);
}

struct steady_unit *steady_for_clone(const struct steady_set *set, size_t clone, unsigned *member)
{
	if (!set || clone >= set->nclones || !set->of_clone[clone])
		return NULL;
	*member = set->member[clone];
	return set->of_clone[clone];
}

void steady_report(const struct steady_set *set, size_t clone, struct steady_result *out)
{
	memset(out, 0, sizeof(*out));
	struct steady_unit *u = set && clone < set->nclones ? set->of_clone[clone] : NULL;
	if (!u || set->first_clone[u - set->units] != clone) /* not the first clone of its unit */
		return;
	const struct steady_opts *so = &u->o->ss.steady;
	uint64_t bw_sum = 0, iops_sum = 0;
	pthread_mutex_lock(&u->lock);
	/* oldest first: from head once the ring is full, else from 0 with zeros after */
	unsigned start = u->count == u->n ? u->head : 0;
	for (unsigned i = 0; i < u->n; i++) {
		unsigned k = (start + i) % u->n;
		u->rep_bw[i] = i < u->count ? u->bw[k] : 0;
		u->rep_iops[i] = i < u->count ? u->iops[k] : 0;
		bw_sum += u->rep_bw[i];
		iops_sum += u->rep_iops[i];
	}
	out->criterion = u->verdict.criterion;
	out->max_dev = u->verdict.max_dev;
	out->slope = u->verdict.slope;
	pthread_mutex_unlock(&u->lock);
	out->on = true;
	out->crit = so->crit;
	out->pct = so->pct;
	out->limit = so->limit;
	out->duration_s = so->dur_us / 1000000;
	out->attained = atomic_load(&u->attained);
	out->n = u->n;
	out->bw = u->rep_bw;
	out->iops = u->rep_iops;
	out->bw_mean = u->n ? bw_sum / u->n : 0;
	out->iops_mean = u->n ? iops_sum / u->n : 0;
}

/* ---- a worker's part ---- */

/* Times in ns, saturated: a window of years never overflows into the past. */
static uint64_t ns_of_us(uint64_t us)
{
	return us > UINT64_MAX / 1000 ? UINT64_MAX : us * 1000;
}

static uint64_t ns_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

void steady_start(struct steady_clone *c, struct steady_unit *u, unsigned member, uint64_t start_ns, unsigned debug)
{
	memset(c, 0, sizeof(*c));
	if (!u)
		return;
	c->unit = u;
	c->me = &u->members[member];
	c->leader = member == 0;
	c->debug = debug;
	const struct job_opts *o = u->o;
	uint64_t ramp_us = o->ss.steady.ramp_us > o->ramp_time_us ? o->ss.steady.ramp_us : o->ramp_time_us;
	c->collect_ns = ns_add(start_ns, ns_of_us(ramp_us));
}

/* The clone's totals since it started, published for the window's keeper. */
static void publish(struct steady_clone *c, const struct thread_stats *ts)
{
	uint64_t bytes = 0, ios = 0;
	for (int d = 0; d < DDIR_NR; d++) {
		bytes += ts->dir[d].io_bytes;
		ios += ts->dir[d].total_ios;
	}
	/* The statistics restart (after ramp_time, latency_target's last run): count on. */
	c->bytes += bytes >= c->seen_bytes ? bytes - c->seen_bytes : bytes;
	c->ios += ios >= c->seen_ios ? ios - c->seen_ios : ios;
	c->seen_bytes = bytes;
	c->seen_ios = ios;
	atomic_store_explicit(&c->me->bytes, c->bytes, memory_order_relaxed);
	atomic_store_explicit(&c->me->ios, c->ios, memory_order_relaxed);
}

static void unit_totals(const struct steady_unit *u, uint64_t *bytes, uint64_t *ios)
{
	*bytes = *ios = 0;
	for (unsigned i = 0; i < u->nmembers; i++) {
		*bytes += atomic_load_explicit(&u->members[i].bytes, memory_order_relaxed);
		*ios += atomic_load_explicit(&u->members[i].ios, memory_order_relaxed);
	}
}

/* One sample into the ring; a full window is judged. Returns the verdict. */
static bool add_sample(struct steady_clone *c, uint64_t bw, uint64_t iops)
{
	struct steady_unit *u = c->unit;
	const struct steady_opts *so = &u->o->ss.steady;
	pthread_mutex_lock(&u->lock);
	unsigned tail = (u->head + u->count) % u->n;
	u->bw[tail] = bw;
	u->iops[tail] = iops;
	if (u->count < u->n)
		u->count++;
	else
		u->head = (u->head + 1) % u->n;
	bool full = u->count == u->n;
	if (full) {
		const uint64_t *y = (so->crit & SS_IOPS) ? u->iops : u->bw;
		for (unsigned i = 0; i < u->n; i++) /* oldest first */
			u->scratch[i] = y[(u->head + i) % u->n];
		ss_judge(u->scratch, u->n, (double)so->interval_us / 1e6, so, &u->verdict);
	}
	struct ss_verdict v = u->verdict;
	pthread_mutex_unlock(&u->lock);
	if (debug_on(c->debug, DBG_STEADYSTATE))
		debug_print(DBG_STEADYSTATE,
			    "job '%s': iops: %llu, bw: %llu, samples: %u/%u, criterion: %f, limit: %f%s\n", u->o->name,
			    (unsigned long long)iops, (unsigned long long)bw, u->count, u->n, v.criterion, so->limit,
			    full && v.attained ? ", attained" : "");
	return full && v.attained;
}

bool steady_tick(struct steady_clone *c, uint64_t now, const struct thread_stats *ts)
{
	struct steady_unit *u = c->unit;
	publish(c, ts);
	if (!c->leader)
		return atomic_load_explicit(&u->attained, memory_order_relaxed);
	uint64_t interval = ns_of_us(u->o->ss.steady.interval_us), bytes, ios;
	if (!c->collecting) { /* the ramps are over: the first window starts */
		if (now < c->collect_ns)
			return false;
		c->collecting = true;
		c->last_ns = now;
		c->next_ns = ns_add(now, interval);
		unit_totals(u, &c->last_bytes, &c->last_ios);
		return false;
	}
	if (now < c->next_ns || atomic_load_explicit(&u->attained, memory_order_relaxed))
		return atomic_load_explicit(&u->attained, memory_order_relaxed);
	unit_totals(u, &bytes, &ios);
	double dt = (double)(now - c->last_ns);
	uint64_t bw = (uint64_t)((double)(bytes - c->last_bytes) * 1e9 / dt + 0.5);
	uint64_t iops = (uint64_t)((double)(ios - c->last_ios) * 1e9 / dt + 0.5);
	c->last_ns = now;
	c->last_bytes = bytes;
	c->last_ios = ios;
	c->next_ns = ns_add(c->next_ns, interval);
	if (c->next_ns <= now) /* a long pause (thinktime): the next interval starts now */
		c->next_ns = ns_add(now, interval);
	if (!add_sample(c, bw, iops))
		return false;
	atomic_store(&u->attained, true);
	return true;
}
