/* Token-based flow control between jobs (core/worker/flow.h). */
#include "core/worker/flow.h"

#include <string.h>

void flow_table_init(struct flow_table *t)
{
	memset(t, 0, sizeof(*t));
	pthread_mutex_init(&t->lock, NULL);
}

/* A job joins (mine: its count, 0 so far) with the share its weight gives of what the flow has
 * issued already, so that it neither races to catch up nor holds the others back: the shares
 * are the weights' from its first I/O. */
struct flow *flow_join(struct flow_table *t, unsigned id, unsigned weight, uint64_t *mine)
{
	struct flow *f = NULL;
	pthread_mutex_lock(&t->lock);
	for (unsigned i = 0; i < t->n && !f; i++)
		if (t->flows[i].id == id)
			f = &t->flows[i];
	if (!f && t->n < FLOW_MAX) {
		f = &t->flows[t->n++];
		f->id = id;
		atomic_store(&f->weight, 0);
		atomic_store(&f->ios, 0);
	}
	if (f) {
		uint64_t w = atomic_load(&f->weight), all = atomic_load(&f->ios);
		*mine = w ? (uint64_t)((unsigned __int128)all * weight / w) : 0;
		atomic_fetch_add(&f->ios, *mine);
		f->members++;
		atomic_fetch_add(&f->weight, weight);
	}
	pthread_mutex_unlock(&t->lock);
	return f;
}

/* ... and leaves: its weight and its count go, so the others' shares stay the weights'. */
void flow_leave(struct flow_table *t, struct flow *f, unsigned weight, uint64_t mine)
{
	pthread_mutex_lock(&t->lock);
	atomic_fetch_sub(&f->weight, weight);
	atomic_fetch_sub(&f->ios, mine);
	f->members--;
	pthread_mutex_unlock(&t->lock);
}

bool flow_may_issue(struct flow *f, unsigned weight, uint64_t *mine)
{
	uint64_t all = atomic_load_explicit(&f->ios, memory_order_relaxed);
	uint64_t total = atomic_load_explicit(&f->weight, memory_order_relaxed);
	/* mine / all > weight / total, without division: the job is ahead of its share */
	if (all && total && (unsigned __int128)*mine * total > (unsigned __int128)weight * all)
		return false;
	(*mine)++;
	atomic_fetch_add_explicit(&f->ios, 1, memory_order_relaxed);
	return true;
}
