/* The monitor: while a group runs, the main thread shows progress (the ETA line) and,
 * with --status-interval, reports built from the clones' published copies. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/run.h"

static char state_letter(const struct job_opts *o, int state)
{
	if (state == CLONE_WAITING)
		return 'P';
	if (state == CLONE_DONE)
		return '_';
	bool rnd = o->rw & RW_RANDOM;
	if (job_has_dir(o, DDIR_READ) && job_has_dir(o, DDIR_WRITE))
		return rnd ? 'm' : 'M';
	return job_has_dir(o, DDIR_WRITE) ? (rnd ? 'w' : 'W') : (rnd ? 'r' : 'R');
}

/* One clone's share done: time for time_based jobs, bytes otherwise. */
static double clone_done(const struct job_opts *o, const struct clone_result *c, uint64_t bytes,
			 uint64_t elapsed_ms, int state)
{
	if (state == CLONE_DONE)
		return 1.0;
	if (state == CLONE_WAITING)
		return 0.0;
	double by_time = o->runtime_us ? (double)elapsed_ms * 1000.0 / (double)(o->runtime_us + o->ramp_time_us) : 0;
	double by_bytes = c->plan.io_limit ? (double)bytes / (double)c->plan.io_limit : 0;
	double f = o->time_based ? by_time : (by_time > by_bytes ? by_time : by_bytes);
	return f > 1.0 ? 1.0 : f;
}

void run_progress_get(struct run_ctx *rc, struct run_progress *p)
{
	uint64_t now = clock_now_ns(), bytes[DDIR_NR] = { 0 }, ios[DDIR_NR] = { 0 };
	double done = 0.0;
	size_t k = 0;
	memset(p, 0, sizeof(*p));
	p->total = (unsigned)rc->nclones;
	for (size_t i = 0; i < rc->nclones; i++) {
		struct clone_result *c = &rc->clones[i];
		const struct job_opts *o = &rc->cfg->jobs[c->job].o;
		int state = atomic_load(&c->progress.state);
		uint64_t b = 0;
		for (int d = 0; d < DDIR_NR; d++) {
			uint64_t x = atomic_load_explicit(&c->progress.bytes[d], memory_order_relaxed);
			bytes[d] += x;
			ios[d] += atomic_load_explicit(&c->progress.ios[d], memory_order_relaxed);
			b += x;
		}
		done += clone_done(o, c, b, atomic_load_explicit(&c->progress.elapsed_ms, memory_order_relaxed), state);
		p->running += state == CLONE_RUNNING;
		p->done += state == CLONE_DONE;
		if (k + 1 < sizeof(p->states))
			p->states[k++] = state_letter(o, state);
	}
	p->pct_done = rc->nclones ? done * 100.0 / (double)rc->nclones : 100.0;
	double spent = (double)(now - rc->start_ns) / 1e9;
	p->eta_s = p->pct_done > 0.0 ? (uint64_t)(spent * (100.0 - p->pct_done) / p->pct_done + 0.5) : 0;
	double dt = rc->last_eta_ns ? (double)(now - rc->last_eta_ns) / 1e9 : 0.0;
	for (int d = 0; d < DDIR_NR; d++) {
		/* Counters restart after ramp_time: a drop is a new start, not negative I/O. */
		uint64_t db = bytes[d] >= rc->last_eta_bytes[d] ? bytes[d] - rc->last_eta_bytes[d] : bytes[d];
		uint64_t di = ios[d] >= rc->last_eta_ios[d] ? ios[d] - rc->last_eta_ios[d] : ios[d];
		p->bw[d] = dt > 0 ? (uint64_t)((double)db / dt) : 0;
		p->iops[d] = dt > 0 ? (uint64_t)((double)di / dt) : 0;
		rc->last_eta_bytes[d] = bytes[d];
		rc->last_eta_ios[d] = ios[d];
	}
	rc->last_eta_ns = now;
}

int run_status_snapshots(struct run_ctx *rc)
{
	for (size_t i = 0; i < rc->nclones; i++) {
		struct clone_result *c = &rc->clones[i];
		if (atomic_load(&c->progress.snap))
			continue;
		if (!c->status_copy && !(c->status_copy = calloc(1, sizeof(*c->status_copy))))
			return -ENOMEM;
		struct thread_stats *snap = calloc(1, sizeof(*snap));
		if (!snap)
			return -ENOMEM;
		atomic_store_explicit(&c->progress.snap, snap, memory_order_release);
	}
	return 0;
}

void run_use_snapshots(struct run_ctx *rc, bool on)
{
	for (size_t i = 0; i < rc->nclones; i++) {
		struct clone_result *c = &rc->clones[i];
		struct thread_stats *snap = atomic_load(&c->progress.snap);
		/* A finished clone's own stats are final: the report reads them as they are. */
		if (on && (!snap || !c->status_copy || atomic_load(&c->progress.state) == CLONE_DONE))
			continue;
		if (!on && !c->status_swapped)
			continue;
		if (on) { /* copy under the lock, so a worker never waits on the printer */
			pthread_mutex_lock(&c->progress.lock);
			memcpy(c->status_copy, snap, sizeof(*c->status_copy));
			pthread_mutex_unlock(&c->progress.lock);
		}
		struct thread_stats *t = c->ts; /* the report reads c->ts */
		c->ts = c->status_copy;
		c->status_copy = t;
		c->status_swapped = on;
	}
}
