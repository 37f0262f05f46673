/* What a clone of the run shares with others for core/job/options_io.c's options: its place in
 * flow control and in a dedupe_global working set.
 *
 * dedupe_mode=working_set: the buffers a deduplicated write repeats are a working set of
 * dedupe_working_set_percentage of the job's size, made by its first unique writes; with
 * dedupe_global the clones that have it share one set, each making its own slice of it.
 * A buffer of the set is random data from a seed that its index gives, so the set takes no
 * memory and every clone can rebuild any of its buffers. */
#include "core/worker/dedupe.h"

#include "core/run/run.h"

/* How many buffers one clone's part of the set holds. */
static uint64_t set_len(const struct job_opts *o, const struct file_plan *plan)
{
	uint64_t size = o->size, bs = job_min_bs(o);
	for (unsigned i = 0; !size && i < plan->nfiles; i++)
		size += plan->files[i].region;
	uint64_t n = size / 100 * o->io.dedupe_ws_pct / (bs ? bs : 1);
	return n ? n : 1;
}

static bool in_set(const struct job_opts *o)
{
	return o->dedupe_pct && o->io.dedupe_mode == DEDUPE_WORKING_SET;
}

void io_place(struct run_ctx *rc, size_t ci, struct worker *w)
{
	const struct job_opts *o = &rc->cfg->jobs[rc->clones[ci].job].o;
	w->flows = &rc->flows;
	/* flow=: the clones of a group join before any starts, so that the first to start does
	 * not run alone; one that waits first (startdelay, wait_for) joins when it starts. */
	w->flow = NULL;
	w->flow_ios = 0;
	if (o->io.flow && !o->startdelay_us[1] && !o->wait_for[0])
		w->flow = flow_join(&rc->flows, o->io.flow_id, o->io.flow, &w->flow_ios);
	w->dedupe_start = 0;
	w->dedupe_len = w->dedupe_total = in_set(o) ? set_len(o, &rc->clones[ci].plan) : 0;
	if (!in_set(o) || !o->io.dedupe_global)
		return;
	w->dedupe_total = 0;
	for (size_t i = 0; i < rc->nclones; i++) {
		const struct clone_result *c = &rc->clones[i];
		const struct job_opts *oi = &rc->cfg->jobs[c->job].o;
		if (!in_set(oi) || !oi->io.dedupe_global)
			continue;
		if (i < ci)
			w->dedupe_start += set_len(oi, &c->plan);
		w->dedupe_total += set_len(oi, &c->plan);
	}
}

uint64_t dedupe_seed(uint64_t key, uint64_t index)
{
	uint64_t z = key + (index + 1) * 0x9e3779b97f4a7c15ULL; /* splitmix64 */
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
