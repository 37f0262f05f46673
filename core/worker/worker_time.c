/* A worker's time: the ramp, bandwidth and IOPS samples, the deadline, the rate floors and
 * logs once a second or so, progress published for the monitor, and the final figures. */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "core/lib/clock.h"
#include "core/worker/worker_int.h"


static uint64_t tv_us(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000ULL + (uint64_t)tv.tv_usec;
}

void time_reset_stats(struct wstate *s)
{
	memset(s->ts, 0, sizeof(*s->ts));
	s->ts->nr_threads = 1;
	getrusage(RUSAGE_THREAD, &s->ru0);
}

/* The bandwidth sample's window: bwavgtime (500 ms), or log_avg_msec when a bandwidth log
 * averages over less, as fio. */
static uint64_t bw_window_ns(const struct job_opts *o)
{
	uint64_t ms = o->io.bwavgtime_ms;
	if (o->bw_log[0] && o->log_avg_msec && o->log_avg_msec < ms)
		ms = o->log_avg_msec;
	return ms * NS_PER_MS;
}

static uint64_t iops_window_ns(const struct job_opts *o)
{
	uint64_t ms = o->io.iopsavgtime_ms;
	if (o->iops_log[0] && o->log_avg_msec && o->log_avg_msec < ms)
		ms = o->log_avg_msec;
	return ms * NS_PER_MS;
}

/* Bandwidth (sample_bytes since last_sample_ns) and IOPS (sample_ios since x.iops_sample_ns)
 * samples, each over its own window. */
static void take_samples(struct wstate *s)
{
	uint64_t bw_ms = (s->now - s->last_sample_ns) / NS_PER_MS, io_ms = (s->now - s->x.iops_sample_ns) / NS_PER_MS;
	bool bw = bw_ms && s->now - s->last_sample_ns >= bw_window_ns(s->o);
	bool io = io_ms && s->now - s->x.iops_sample_ns >= iops_window_ns(s->o);
	for (int d = 0; d < DDIR_NR; d++) {
		if (!job_has_dir(s->o, d))
			continue;
		if (bw)
			series_add(&s->ts->dir[d].bw_kib, s->sample_bytes[d] * 1000 / bw_ms / 1024);
		if (io)
			series_add(&s->ts->dir[d].iops, s->sample_ios[d] * 1000 / io_ms);
	}
	if (bw) {
		memset(s->sample_bytes, 0, sizeof(s->sample_bytes));
		s->last_sample_ns = s->now;
	}
	if (io) {
		memset(s->sample_ios, 0, sizeof(s->sample_ios));
		s->x.iops_sample_ns = s->now;
	}
}

/* Show the monitor where the job is, about every 100 ms (not per I/O). */
static void publish(struct wstate *s, bool force)
{
	struct clone_progress *p = s->w->progress;
	if (!p || (!force && s->now < s->next_publish_ns))
		return;
	s->next_publish_ns = s->now + 100 * NS_PER_MS;
	for (int d = 0; d < DDIR_NR; d++) {
		atomic_store_explicit(&p->bytes[d], s->ts->dir[d].io_bytes, memory_order_relaxed);
		atomic_store_explicit(&p->ios[d], s->ts->dir[d].total_ios, memory_order_relaxed);
	}
	atomic_store_explicit(&p->elapsed_ms, (s->now - s->start_ns) / NS_PER_MS, memory_order_relaxed);
	struct thread_stats *snap = atomic_load_explicit(&p->snap, memory_order_acquire);
	if (snap) {
		pthread_mutex_lock(&p->lock);
		memcpy(snap, s->ts, sizeof(*snap));
		snap->runtime_ms = snap->job_runtime_ms = s->measuring ? (s->now - s->measure_start_ns) / NS_PER_MS : 0;
		pthread_mutex_unlock(&p->lock);
	}
}

void time_start(struct wstate *s)
{
	s->ramp_end_ns = s->start_ns + s->o->ramp_time_us * 1000;
}

/* The ramp is over: the statistics start from here. */
static void start_measuring(struct wstate *s)
{
	s->tick_ns = 0;
	time_reset_stats(s);
	s->measuring = true;
	s->measure_start_ns = s->last_sample_ns = s->x.iops_sample_ns = s->now;
	if (s->o->runtime_us)
		s->deadline_ns = s->now + s->o->runtime_us * 1000;
	memset(s->sample_bytes, 0, sizeof(s->sample_bytes));
	memset(s->sample_ios, 0, sizeof(s->sample_ios));
	pace_reset_floors(s);
	if (s->logs)
		perflogs_start(s->logs, s->o);
}

static int time_tick(struct wstate *s);

static uint64_t min_ns(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* The earliest time time_check has something to do (the ramp's end, a sample, the rate
 * floors' rate_cycle, the deadline, progress): per I/O it is one comparison until then. */
static uint64_t next_tick(const struct wstate *s)
{
	if (s->logs)
		return 0; /* their own intervals: looked at every time */
	uint64_t t = s->measuring ? s->pace.check_ns + s->o->io.rate_cycle_ms * NS_PER_MS : s->ramp_end_ns;
	if (s->measuring && s->rec_bw)
		t = min_ns(t, min_ns(s->last_sample_ns + bw_window_ns(s->o), s->x.iops_sample_ns + iops_window_ns(s->o)));
	if (s->deadline_ns)
		t = min_ns(t, s->deadline_ns);
	if (s->w->progress)
		t = min_ns(t, s->next_publish_ns);
	return t;
}

int time_check(struct wstate *s)
{
	if (s->now < s->tick_ns)
		return 0;
	int ret = time_tick(s);
	s->tick_ns = next_tick(s);
	return ret;
}

static int time_tick(struct wstate *s)
{
	if (!s->measuring && s->now >= s->ramp_end_ns)
		start_measuring(s);
	/* A sample ends every full window before the deadline (none at the very end). */
	if (s->measuring && s->rec_bw && (!s->deadline_ns || s->now < s->deadline_ns))
		take_samples(s);
	if (s->deadline_ns && s->now >= s->deadline_ns)
		s->issuing_done = true;
	int ret = pace_check_min(s);
	publish(s, false);
	if (s->logs && s->measuring) {
		const struct hist *h[DDIR_NR] = { &s->ts->dir[0].clat_hist, &s->ts->dir[1].clat_hist,
						  &s->ts->dir[2].clat_hist };
		if (perflogs_tick(s->logs, (s->now - s->measure_start_ns) / NS_PER_MS, h, s->o->bs) && !ret)
			ret = worker_nomem(s, "samples of its logs", 0);
	}
	return ret;
}

void time_restart(struct wstate *s)
{
	if (s->measuring)
		start_measuring(s);
}

void time_finish(struct wstate *s)
{
	struct thread_stats *ts = s->ts;
	struct rusage ru1;
	getrusage(RUSAGE_THREAD, &ru1);
	/* Rounded up, as fio's: a job that did any I/O ran at least 1 ms. */
	ts->runtime_ms = s->measuring ? (s->now - s->measure_start_ns + NS_PER_MS - 1) / NS_PER_MS : 0;
	ts->job_runtime_ms = ts->runtime_ms;
	ts->usr_us = tv_us(ru1.ru_utime) - tv_us(s->ru0.ru_utime);
	ts->sys_us = tv_us(ru1.ru_stime) - tv_us(s->ru0.ru_stime);
	ts->ctx = (uint64_t)(ru1.ru_nvcsw + ru1.ru_nivcsw - s->ru0.ru_nvcsw - s->ru0.ru_nivcsw);
	ts->majf = (uint64_t)(ru1.ru_majflt - s->ru0.ru_majflt);
	ts->minf = (uint64_t)(ru1.ru_minflt - s->ru0.ru_minflt);
	publish(s, true);
}
