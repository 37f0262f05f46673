/* Pacing: rate and rate_iops slots (linear or Poisson), thinktime, the rate floors. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/lib/clock.h"
#include "core/worker/worker_int.h"
#include "core/lib/say.h"

void pace_init(struct wstate *s)
{
	for (int d = 0; d < DDIR_NR; d++)
		s->pace.next_issue_ns[d] = 0;
	s->pace.think_count = 0;
}

/* The gap one I/O of len bytes takes at the job's rate, in ns; 0 = unlimited. */
static uint64_t slot_ns(const struct wstate *s, enum ddir d, uint64_t len)
{
	const struct job_opts *o = s->o;
	double gap = 0.0;
	if (o->rate[d])
		gap = (double)len * 1e9 / (double)o->rate[d];
	if (o->rate_iops[d]) {
		double g = 1e9 / (double)o->rate_iops[d];
		if (g > gap)
			gap = g;
	}
	return (uint64_t)gap;
}

uint64_t pace_wait_ns(struct wstate *s, enum ddir d)
{
	if (!s->pace.next_issue_ns[d] || s->now >= s->pace.next_issue_ns[d])
		return 0;
	return s->pace.next_issue_ns[d] - s->now;
}

/* A mixed job whose direction must wait for its rate slot does the other direction meanwhile,
 * if that one may go sooner (as fio): a rate on one direction does not hold the other back. */
uint64_t pace_wait_pick(struct wstate *s, enum ddir *d)
{
	uint64_t wait = pace_wait_ns(s, *d);
	if (!wait || !job_has_dir(s->o, DDIR_READ) || !job_has_dir(s->o, DDIR_WRITE))
		return wait;
	enum ddir other = *d == DDIR_READ ? DDIR_WRITE : DDIR_READ;
	uint64_t w2 = pace_wait_ns(s, other);
	if (w2 < wait) {
		*d = other;
		wait = w2;
	}
	return wait;
}

void pace_issued(struct wstate *s, enum ddir d, uint64_t len)
{
	uint64_t gap = slot_ns(s, d, len);
	if (!gap)
		return;
	if (s->o->rate_process == RATE_POISSON) { /* up to ~37 times the mean: held below 2^63 ns */
		double u = rng_unit(&s->rng), g = -log(1.0 - u) * (double)gap;
		gap = g < 9e18 ? (uint64_t)g : (uint64_t)9e18;
	}
	/* Slots follow a schedule from the first I/O, so a late one does not slow the rest. */
	uint64_t base = s->pace.next_issue_ns[d] ? s->pace.next_issue_ns[d] : s->now;
	s->pace.next_issue_ns[d] = base + gap;
}

void pace_reset_floors(struct wstate *s)
{
	s->pace.check_ns = s->now;
	memset(s->pace.bytes, 0, sizeof(s->pace.bytes));
	memset(s->pace.ios, 0, sizeof(s->pace.ios));
}

/* thinktime_blocks I/Os issued since the last pause, or thinktime_iotime of I/O, whichever
 * comes first. (thinktime_blocks_type=complete, the default, has the loop drain the queue
 * first, so the pause follows that many completions; =issue pauses with them in flight.) */
bool pace_think_due(struct wstate *s)
{
	const struct job_opts *o = s->o;
	if (!o->thinktime_us)
		return false;
	if (++s->pace.think_count >= (o->thinktime_blocks ? o->thinktime_blocks : 1))
		return true;
	if (!s->x.think_from_ns)
		s->x.think_from_ns = s->now;
	return o->io.thinktime_iotime_us && s->now - s->x.think_from_ns >= o->io.thinktime_iotime_us * 1000;
}

uint64_t pace_bound(const struct wstate *s, uint64_t wait_ns)
{
	if (s->deadline_ns)
		wait_ns = s->now < s->deadline_ns ? (wait_ns < s->deadline_ns - s->now ? wait_ns : s->deadline_ns - s->now) : 0;
	return wait_ns < PACE_NAP_NS ? wait_ns : PACE_NAP_NS;
}

void pace_think(struct wstate *s)
{
	const struct job_opts *o = s->o;
	uint64_t spin = o->thinktime_spin_us * 1000, total = o->thinktime_us * 1000;
	uint64_t start = clock_fast_ns(s->clk);
	if (spin > total)
		spin = total;
	/* Spinning and sleeping both end when the job is stopped or its runtime is over. */
	uint64_t end = s->deadline_ns && s->deadline_ns < start + total ? s->deadline_ns : start + total;
	uint64_t spin_end = start + spin < end ? start + spin : end;
	for (uint64_t i = 0; clock_fast_ns(s->clk) < spin_end; i++)
		if (!(i & 1023) && atomic_load_explicit(s->w->stop, memory_order_relaxed))
			break;
	clock_sleep_until(s->clk, end, s->w->stop);
	s->now = clock_fast_ns(s->clk);
	s->pace.think_count = 0;
	s->x.think_from_ns = s->now;
	/* As fio, the rate catches up on the time spent thinking, unless rate_ignore_thinktime. */
	for (int d = 0; d < DDIR_NR && o->io.rate_ignore_thinktime; d++)
		if (s->pace.next_issue_ns[d] && s->pace.next_issue_ns[d] < s->now)
			s->pace.next_issue_ns[d] = s->now;
}

int pace_check_min(struct wstate *s)
{
	const struct job_opts *o = s->o;
	if (!s->measuring || s->now - s->pace.check_ns < o->io.rate_cycle_ms * NS_PER_MS) /* rate_cycle */
		return 0;
	double secs = (double)(s->now - s->pace.check_ns) / 1e9;
	int ret = 0;
	for (int d = 0; d < DDIR_NR && !ret; d++) {
		if (!job_has_dir(o, (enum ddir)d)) /* rate_iops_min=100 is for all three; a read job reads */
			continue;
		double bw = (double)s->pace.bytes[d] / secs, iops = (double)s->pace.ios[d] / secs;
		if (o->rate_min[d] && bw < (double)o->rate_min[d]) {
			job_say(o->name, "min rate %llu B/s not met, got %.0f B/s",
				(unsigned long long)o->rate_min[d], bw);
			ret = -EIO;
		} else if (o->rate_iops_min[d] && iops < (double)o->rate_iops_min[d]) {
			job_say(o->name, "min rate %llu IOPS not met, got %.0f IOPS",
				(unsigned long long)o->rate_iops_min[d], iops);
			ret = -EIO;
		}
	}
	for (int d = 0; d < DDIR_NR; d++)
		s->pace.bytes[d] = s->pace.ios[d] = 0;
	s->pace.check_ns = s->now;
	return ret;
}
