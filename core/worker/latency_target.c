/* latency_target's queue-depth search (core/worker/latency_target.h). The debug lines
 * (--debug=rate) are fio's. */
#include "core/worker/latency_target.h"

#include <string.h>

#include "core/lib/debug.h"

static void say(const struct lat_search *l, const char *what)
{
	if (debug_on(l->debug, DBG_RATE))
		debug_print(DBG_RATE, "%s: %u %u %u\n", what, l->low, l->depth, l->high);
}

void lat_search_window(struct lat_search *l, uint64_t now)
{
	l->window_start_ns = now;
	l->window_ios = l->window_slow = 0;
	l->draining = false;
}

static void lat_search_restart(struct lat_search *l, uint64_t now)
{
	if (!l->on || l->final_run)
		return;
	l->depth = l->low = 1;
	l->high = l->max;
	l->stable = 0;
	lat_search_window(l, now);
}

/* In ns, saturated at INT64_MAX (JSON's integers are signed): centuries are never met. */
static uint64_t ns_of_us(uint64_t us)
{
	return us > INT64_MAX / 1000 ? INT64_MAX : us * 1000;
}

void lat_search_init(struct lat_search *l, const struct job_opts *o, unsigned max_depth, uint64_t now, unsigned debug)
{
	const struct lat_target_opts *lo = &o->ss.lat;
	memset(l, 0, sizeof(*l));
	l->max = max_depth ? max_depth : 1;
	l->depth = l->max;
	l->debug = debug;
	if (!lo->target_us)
		return;
	l->on = true;
	l->target_ns = ns_of_us(lo->target_us);
	l->window_ns = ns_of_us(lo->window_us);
	l->pct = lo->pct;
	l->keep_running = lo->run;
	if (debug_on(debug, DBG_RATE))
		debug_print(DBG_RATE, "Latency target=%llu\n", (unsigned long long)l->target_ns);
	lat_search_restart(l, now);
}

/* The depth failed: halfway down towards the highest that passed (the queue drains first,
 * so that I/Os issued at the higher depth do not fail the lower one). */
static void lower(struct lat_search *l)
{
	l->high = l->depth;
	if (l->depth == l->low)
		l->low--;
	l->depth = (l->depth + l->low) / 2;
	l->stable = 0;
	l->draining = true;
	say(l, "Ramped down");
}

bool lat_search_io(struct lat_search *l, uint64_t lat_ns)
{
	if (!l->on || l->done)
		return false;
	l->window_ios++;
	if (lat_ns <= l->target_ns)
		return false;
	l->window_slow++;
	if (l->pct < 100.0 || l->draining)
		return false;
	if (l->depth == 1) {
		l->done = true;
		return true;
	}
	lower(l);
	return false;
}

/* The depth passed: double it until one has failed, then halfway up towards that one. */
static enum lat_action raise_depth(struct lat_search *l, uint64_t now)
{
	unsigned was = l->depth;
	l->low = l->depth;
	/* latency_run: a depth just below a failed one that keeps passing tries that one again */
	if (l->keep_running && l->depth + 1 == l->high && ++l->stable >= 3) {
		l->high++;
		l->stable = 0;
	}
	l->depth = l->high != l->max ? (l->depth + l->high) / 2 : l->depth * 2;
	if (l->depth > l->max)
		l->depth = l->max;
	say(l, "Ramped up");
	if (!l->keep_running && l->depth == was) {
		if (l->final_run) {
			if (debug_on(l->debug, DBG_RATE))
				debug_print(DBG_RATE, "We are done\n");
			l->done = true;
			return LAT_DONE;
		}
		if (debug_on(l->debug, DBG_RATE))
			debug_print(DBG_RATE, "Quiesce and final run\n");
		l->final_run = true;
		return LAT_FINAL;
	}
	lat_search_window(l, now);
	return LAT_NONE;
}

enum lat_action lat_search_check(struct lat_search *l, uint64_t now, bool measuring)
{
	if (!l->on || l->done)
		return LAT_NONE;
	if (measuring && !l->measuring)
		lat_search_restart(l, now);
	l->measuring = measuring;
	if (l->draining)
		return LAT_DRAIN;
	if (now - l->window_start_ns < l->window_ns || !l->window_ios)
		return LAT_NONE;
	double ok = (double)(l->window_ios - l->window_slow) * 100.0 / (double)l->window_ios;
	if (debug_on(l->debug, DBG_RATE))
		debug_print(DBG_RATE, "Success rate: %.2f%% (target %.2f%%)\n", ok, l->pct);
	if (ok >= l->pct)
		return raise_depth(l, now);
	if (l->depth == 1) { /* nothing lower to try: depth 1 is judged again */
		lat_search_window(l, now);
		return LAT_NONE;
	}
	lower(l);
	return LAT_DRAIN;
}

void lat_target_report(const struct job_opts *o, unsigned depth_in_effect, const struct thread_stats *ts,
		       struct lat_result *out)
{
	const struct lat_target_opts *lo = &o->ss.lat;
	out->target_ns = ns_of_us(lo->target_us);
	out->window_us = lo->window_us > INT64_MAX ? INT64_MAX : lo->window_us;
	out->pct = lo->pct;
	out->depth = lo->target_us && ts->latency_depth ? ts->latency_depth : depth_in_effect;
}
