/* Per-priority latency statistics: merging clones and directions by priority. */
#include "core/stats/prio.h"

static struct prio_stat *slot_for(struct prio_stats *p, uint16_t ioprio)
{
	for (unsigned i = 0; i < PRIO_STATS_MAX; i++)
		if (p->e[i].n && p->e[i].ioprio == ioprio)
			return &p->e[i];
	for (unsigned i = 0; i < PRIO_STATS_MAX; i++)
		if (!p->e[i].n)
			return &p->e[i];
	return NULL;
}

void prio_stats_merge(struct prio_stats *dst, const struct prio_stats *src)
{
	dst->lat |= src->lat;
	dst->overflow |= src->overflow;
	for (unsigned i = 0; i < PRIO_STATS_MAX; i++) {
		const struct prio_stat *s = &src->e[i];
		if (!s->n)
			continue;
		struct prio_stat *d = slot_for(dst, s->ioprio);
		if (!d) {
			dst->overflow = true;
			continue;
		}
		if (!d->n || s->min < d->min)
			d->min = s->min;
		if (s->max > d->max)
			d->max = s->max;
		d->ioprio = s->ioprio;
		d->n += s->n;
		d->sum += s->sum;
		d->sumsq += s->sumsq;
		hist_merge(&d->hist, &s->hist);
	}
}

unsigned prio_stats_used(const struct prio_stats *p)
{
	unsigned n = 0;
	for (unsigned i = 0; i < PRIO_STATS_MAX; i++)
		n += p->e[i].n != 0;
	return n;
}
