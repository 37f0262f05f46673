/* Per-I/O priorities (cmdprio_percentage, cmdprio_class, cmdprio, cmdprio_bssplit): each
 * I/O gets the job's own priority, or with the given share the prioritized one, which
 * ENGINE_IOPRIO engines give the kernel with it (io_uring's sqe->ioprio, libaio's
 * aio_reqprio). A direction keeps its priorities apart by index: 0 is the job's own, then
 * each other priority in the order the options name them (core/stats/prio.h keeps the latencies). */
#include "core/worker/jobenv.h"
#include "core/worker/worker_int.h"

uint16_t cmdprio_job_ioprio(const struct env_opts *e)
{
	if (!e->prio.set && !e->prioclass.set)
		return 0;
	unsigned cls = e->prioclass.set && e->prioclass.v ? (unsigned)e->prioclass.v : 2;
	return ioprio_value(cls, e->prio.set ? (unsigned)e->prio.v : 0);
}

/* A priority's index in direction d (a new one gets the next). */
static uint8_t index_of(uint16_t ioprio, uint16_t *seen, unsigned *nseen)
{
	for (unsigned i = 0; i < *nseen; i++)
		if (seen[i] == ioprio)
			return (uint8_t)i;
	if (*nseen >= PRIO_STATS_MAX) /* env_check_job refuses more */
		return 0;
	seen[*nseen] = ioprio;
	return (uint8_t)(*nseen)++;
}

static uint16_t split_ioprio(const struct env_opts *o, int d, const struct env_cmdprio_split *sp)
{
	int cls = sp->cls >= 0 ? sp->cls : (int)o->cmdprio_class[d];
	int level = sp->level >= 0 ? sp->level : (int)o->cmdprio[d];
	return ioprio_value(cls ? (unsigned)cls : 2, (unsigned)level);
}

unsigned cmdprio_count(const struct env_opts *o, int d)
{
	uint16_t seen[ENV_CMDPRIO_SPLIT_MAX + 2] = { cmdprio_job_ioprio(o) };
	unsigned n = 1;
	uint16_t v[ENV_CMDPRIO_SPLIT_MAX + 1];
	unsigned nv = 0;
	if (o->cmdprio_pct[d])
		v[nv++] = ioprio_value(o->cmdprio_class[d], o->cmdprio[d]);
	for (unsigned i = 0; i < o->ncmdprio_split[d]; i++)
		v[nv++] = split_ioprio(o, d, &o->cmdprio_split[d][i]);
	for (unsigned i = 0; i < nv; i++) {
		bool dup = false;
		for (unsigned k = 0; k < n; k++)
			dup |= seen[k] == v[i];
		if (!dup)
			seen[n++] = v[i];
	}
	return n;
}

void cmdprio_init(struct wstate *s)
{
	struct env_worker *e = &s->env;
	const struct env_opts *o = &s->o->env;
	e->def_ioprio = cmdprio_job_ioprio(o);
	for (unsigned i = 0; i < s->depth; i++)
		s->units[i].ioprio = e->def_ioprio;
	e->cmdprio = env_cmdprio_on(o) && (s->w->ops->flags & ENGINE_IOPRIO);
	if (!e->cmdprio)
		return;
	e->prio_lat = s->o->lat_percentiles;
	rng_seed(&e->rng, s->w->seed ^ 0xc0ffee5eedULL);
	for (int d = 0; d < PRIO_DIRS; d++) {
		uint16_t seen[PRIO_STATS_MAX] = { e->def_ioprio };
		unsigned nseen = 1;
		e->pct[d] = o->cmdprio_pct[d];
		e->ioprio[d] = ioprio_value(o->cmdprio_class[d], o->cmdprio[d]);
		e->index[d] = index_of(e->ioprio[d], seen, &nseen);
		e->nsplit[d] = o->ncmdprio_split[d];
		for (unsigned i = 0; i < e->nsplit[d]; i++) {
			const struct env_cmdprio_split *sp = &o->cmdprio_split[d][i];
			struct env_split *x = &e->split[d][i];
			x->bs = sp->bs;
			x->pct = sp->pct;
			x->ioprio = split_ioprio(o, d, sp);
			x->index = index_of(x->ioprio, seen, &nseen);
		}
	}
}

void cmdprio_pick_slow(struct env_worker *e, struct io_unit *u)
{
	u->ioprio = e->def_ioprio;
	u->prio_index = 0;
	if (u->ddir >= PRIO_DIRS)
		return;
	int d = u->ddir;
	if (e->nsplit[d]) { /* the entries of this block size share one draw */
		unsigned r = (unsigned)rng_below(&e->rng, 100), acc = 0;
		for (unsigned i = 0; i < e->nsplit[d]; i++) {
			const struct env_split *x = &e->split[d][i];
			if (x->bs != u->len)
				continue;
			acc += x->pct;
			if (r < acc) {
				u->ioprio = x->ioprio;
				u->prio_index = x->index;
				return;
			}
		}
		return;
	}
	if (e->pct[d] && rng_below(&e->rng, 100) < e->pct[d]) {
		u->ioprio = e->ioprio[d];
		u->prio_index = e->index[d];
	}
}
