/* The submit/reap loop. Per I/O: no locks, no allocation, no syscalls but the I/O's own;
 * one clock read per timestamp (prepare, submit batch, reap batch). */
#include "core/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/rand.h"

#define SAMPLE_NS (500 * NS_PER_MS) /* bw/iops sample interval, as fio's bw_avg_time */

struct wstate {
	struct worker *w;
	const struct job_opts *o;
	struct engine_ctx eng;
	struct io_unit *units;
	struct io_unit **free_units;
	struct io_unit **pending;
	unsigned nr_free, nr_pending, depth, inflight;
	int fd;
	void *bufmem;
	bool sync;
	struct rng rng;
	struct perm perm;
	uint64_t granule;
	uint64_t seq_pos[DDIR_NR];
	uint64_t issued_bytes, io_limit;
	bool issuing_done, measuring;
	uint64_t now, measure_start_ns, ramp_end_ns, deadline_ns;
	uint64_t last_sample_ns, sample_bytes[DDIR_NR], sample_ios[DDIR_NR];
	struct rusage ru0;
};

static uint64_t tv_us(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000ULL + (uint64_t)tv.tv_usec;
}

static void fail(struct wstate *s, int err)
{
	if (!s->w->err)
		s->w->err = err;
	if (!s->w->ts->error)
		s->w->ts->error = -err;
	s->issuing_done = true;
}

/* ---- setup ---- */

static int alloc_units(struct wstate *s)
{
	const struct job_opts *o = s->o;
	uint64_t max_bs = o->bs[DDIR_READ] > o->bs[DDIR_WRITE] ? o->bs[DDIR_READ] : o->bs[DDIR_WRITE];
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t stride = (max_bs + page - 1) / page * page;

	s->units = calloc(s->depth, sizeof(*s->units));
	s->free_units = calloc(s->depth, sizeof(*s->free_units));
	s->pending = calloc(s->depth, sizeof(*s->pending));
	if (!s->units || !s->free_units || !s->pending)
		return -ENOMEM;
	if (posix_memalign(&s->bufmem, page, stride * s->depth))
		return -ENOMEM;
	/* Write data: random bytes, filled once (fio's default without refill_buffers). */
	uint64_t *words = s->bufmem;
	for (size_t i = 0; i < stride * s->depth / sizeof(uint64_t); i++)
		words[i] = rng_next(&s->rng);
	for (unsigned i = 0; i < s->depth; i++) {
		s->units[i].index = i;
		s->units[i].buf = (char *)s->bufmem + (size_t)i * stride;
		s->units[i].fd = s->fd;
		s->free_units[s->nr_free++] = &s->units[i];
	}
	return 0;
}

static int open_target(struct wstate *s)
{
	const struct job_opts *o = s->o;
	int flags = (job_has_dir(o, DDIR_WRITE) ? O_RDWR : O_RDONLY) | (o->direct ? O_DIRECT : 0);
	int ret = engine_open_file(s->w->ops, &s->eng, s->w->path, flags, &s->fd);
	if (ret)
		fprintf(stderr, "iobench: job '%s': cannot open '%s': %s\n", o->name, s->w->path,
			strerror(-ret));
	return ret;
}

static void setup_pattern(struct wstate *s)
{
	const struct job_opts *o = s->o;
	uint64_t g = 0;
	for (int d = 0; d < DDIR_NR; d++)
		if (job_has_dir(o, d) && (!g || o->bs[d] < g))
			g = o->bs[d];
	s->granule = g ? g : o->bs[DDIR_READ];
	uint64_t blocks = s->w->region_bytes / s->granule;
	s->io_limit = blocks * s->granule;
	if (o->rw & RW_RANDOM)
		perm_init(&s->perm, blocks ? blocks : 1, &s->rng);
}

/* ---- per I/O ---- */

static enum ddir next_ddir(struct wstate *s)
{
	const struct job_opts *o = s->o;
	bool r = job_has_dir(o, DDIR_READ), wr = job_has_dir(o, DDIR_WRITE);
	if (r && wr)
		return rng_below(&s->rng, 100) < o->rwmixread ? DDIR_READ : DDIR_WRITE;
	return wr ? DDIR_WRITE : DDIR_READ;
}

static uint64_t next_offset(struct wstate *s, enum ddir d, uint64_t len)
{
	uint64_t region = s->io_limit;
	if (s->o->rw & RW_RANDOM) {
		for (;;) {
			uint64_t b = perm_next(&s->perm);
			if (b == UINT64_MAX) { /* pass over: start a new one */
				perm_init(&s->perm, s->perm.n, &s->rng);
				continue;
			}
			if (b * s->granule + len <= region)
				return b * s->granule;
		}
	}
	if (s->seq_pos[d] + len > region)
		s->seq_pos[d] = 0;
	uint64_t off = s->seq_pos[d];
	s->seq_pos[d] += len;
	return off;
}

static void complete_one(struct wstate *s, struct io_unit *u, uint64_t t)
{
	struct thread_stats *ts = s->w->ts;
	s->free_units[s->nr_free++] = u;
	if (u->result < 0) {
		fprintf(stderr, "iobench: job '%s': io_u error on file %s: %s: %s offset=%llu, buflen=%llu\n",
			s->o->name, s->w->path, strerror((int)-u->result),
			u->ddir == DDIR_READ ? "read" : "write", (unsigned long long)u->offset,
			(unsigned long long)u->len);
		fail(s, (int)u->result);
		return;
	}
	uint64_t bytes = (uint64_t)u->result;
	s->sample_bytes[u->ddir] += bytes;
	s->sample_ios[u->ddir]++;
	if (!s->measuring)
		return;
	struct dir_stats *ds = &ts->dir[u->ddir];
	if (bytes < u->len)
		ds->short_ios++;
	ds->io_bytes += bytes;
	ds->total_ios++;
	uint64_t clat = t - u->issue_ns;
	series_add(&ds->clat, clat);
	series_add(&ds->lat, t - u->start_ns);
	hist_record(&ds->clat_hist, clat);
	ts->lat_buckets[lat_bucket(clat)]++;
}

static void commit_pending(struct wstate *s);

/* Prepare and queue I/Os until the depth is full or there is nothing left to issue.
 * Each is handed over as it comes (fio's default iodepth_batch_submit=1); the depth the
 * queue reached is what the IO depths map records for them. */
static void fill_queue(struct wstate *s)
{
	struct thread_stats *ts = s->w->ts;
	unsigned submitted = 0;
	while (s->nr_free && !s->issuing_done) {
		if (atomic_load_explicit(s->w->stop, memory_order_relaxed) ||
		    (!s->o->time_based && s->issued_bytes >= s->io_limit)) {
			s->issuing_done = true;
			break;
		}
		struct io_unit *u = s->free_units[--s->nr_free];
		u->ddir = next_ddir(s);
		u->len = s->o->bs[u->ddir];
		u->offset = next_offset(s, u->ddir, u->len);
		u->fd = s->fd;
		s->now = u->start_ns = u->issue_ns = clock_now_ns();
		int r = engine_queue(s->w->ops, &s->eng, u);
		if (r == Q_BUSY) {
			s->free_units[s->nr_free++] = u;
			break;
		}
		if (r < 0) {
			s->free_units[s->nr_free++] = u;
			fail(s, r);
			break;
		}
		s->issued_bytes += u->len;
		ts->issued[u->ddir]++;
		if (r == Q_COMPLETED) {
			s->now = clock_now_ns();
			ts->depth_map[0]++;
			ts->submit_map[batch_bucket(1)]++;
			ts->complete_map[batch_bucket(1)]++;
			ts->total_submit++;
			ts->total_complete++;
			complete_one(s, u, s->now);
			return; /* let the caller check the time */
		}
		s->pending[s->nr_pending++] = u;
		s->inflight++;
		submitted++;
		commit_pending(s);
	}
	if (submitted)
		ts->depth_map[depth_bucket(s->inflight)] += submitted;
}

static void commit_pending(struct wstate *s)
{
	struct thread_stats *ts = s->w->ts;
	if (!s->nr_pending)
		return;
	int ret = engine_commit(s->w->ops, &s->eng);
	s->now = clock_now_ns();
	if (ret < 0) {
		fprintf(stderr, "iobench: job '%s': submit failed: %s\n", s->o->name, strerror(-ret));
		fail(s, ret);
		s->inflight -= s->nr_pending;
		for (unsigned i = 0; i < s->nr_pending; i++)
			s->free_units[s->nr_free++] = s->pending[i];
		s->nr_pending = 0;
		return;
	}
	for (unsigned i = 0; i < s->nr_pending; i++) {
		struct io_unit *u = s->pending[i];
		u->issue_ns = s->now;
		if (s->measuring)
			series_add(&ts->dir[u->ddir].slat, s->now - u->start_ns);
	}
	ts->submit_map[batch_bucket(s->nr_pending)]++;
	ts->total_submit++;
	s->nr_pending = 0;
}

static void reap(struct wstate *s)
{
	struct thread_stats *ts = s->w->ts;
	bool must_wait = s->nr_free == 0 || s->issuing_done;
	if (!s->inflight || !must_wait)
		return;
	int n = engine_getevents(s->w->ops, &s->eng, 1, s->inflight);
	s->now = clock_now_ns();
	if (n < 0) {
		fprintf(stderr, "iobench: job '%s': reaping I/O failed: %s\n", s->o->name, strerror(-n));
		fail(s, n);
		s->inflight = 0; /* nothing more can be reaped */
		return;
	}
	for (int i = 0; i < n; i++)
		complete_one(s, engine_event(s->w->ops, &s->eng, (unsigned)i), s->now);
	s->inflight -= (unsigned)n;
	ts->complete_map[batch_bucket((unsigned)n)]++;
	ts->total_complete++;
}

/* ---- time: ramp, samples, deadline ---- */

static void reset_stats(struct wstate *s)
{
	memset(s->w->ts, 0, sizeof(*s->w->ts));
	s->w->ts->nr_threads = 1;
	getrusage(RUSAGE_THREAD, &s->ru0);
}

static void take_sample(struct wstate *s)
{
	uint64_t spent_ms = (s->now - s->last_sample_ns) / NS_PER_MS;
	if (!spent_ms)
		return;
	for (int d = 0; d < DDIR_NR; d++) {
		if (!job_has_dir(s->o, d))
			continue;
		series_add(&s->w->ts->dir[d].bw_kib, s->sample_bytes[d] * 1000 / spent_ms / 1024);
		series_add(&s->w->ts->dir[d].iops, s->sample_ios[d] * 1000 / spent_ms);
	}
	memset(s->sample_bytes, 0, sizeof(s->sample_bytes));
	memset(s->sample_ios, 0, sizeof(s->sample_ios));
	s->last_sample_ns = s->now;
}

static void check_time(struct wstate *s)
{
	if (!s->measuring && s->now >= s->ramp_end_ns) {
		reset_stats(s);
		s->measuring = true;
		s->measure_start_ns = s->last_sample_ns = s->now;
		if (s->o->runtime_us)
			s->deadline_ns = s->now + s->o->runtime_us * 1000;
		memset(s->sample_bytes, 0, sizeof(s->sample_bytes));
		memset(s->sample_ios, 0, sizeof(s->sample_ios));
	}
	/* A sample ends every full interval before the deadline (none at the very end). */
	if (s->measuring && s->now - s->last_sample_ns >= SAMPLE_NS &&
	    (!s->deadline_ns || s->now < s->deadline_ns))
		take_sample(s);
	if (s->deadline_ns && s->now >= s->deadline_ns)
		s->issuing_done = true;
}

static void finish_stats(struct wstate *s)
{
	struct thread_stats *ts = s->w->ts;
	struct rusage ru1;
	getrusage(RUSAGE_THREAD, &ru1);
	ts->runtime_ms = s->measuring ? (s->now - s->measure_start_ns) / NS_PER_MS : 0;
	ts->job_runtime_ms = ts->runtime_ms;
	ts->usr_us = tv_us(ru1.ru_utime) - tv_us(s->ru0.ru_utime);
	ts->sys_us = tv_us(ru1.ru_stime) - tv_us(s->ru0.ru_stime);
	ts->ctx = (uint64_t)(ru1.ru_nvcsw + ru1.ru_nivcsw - s->ru0.ru_nvcsw - s->ru0.ru_nivcsw);
	ts->majf = (uint64_t)(ru1.ru_majflt - s->ru0.ru_majflt);
	ts->minf = (uint64_t)(ru1.ru_minflt - s->ru0.ru_minflt);
}

static void run_loop(struct wstate *s)
{
	uint64_t start = clock_now_ns();
	s->now = start;
	s->ramp_end_ns = start + s->o->ramp_time_us * 1000;
	check_time(s);
	while (!s->issuing_done || s->inflight) {
		fill_queue(s);
		reap(s);
		check_time(s);
	}
	finish_stats(s);
}

int worker_run(struct worker *w)
{
	struct wstate s = { .w = w, .o = w->o, .fd = -1 };
	int ret;

	reset_stats(&s);
	rng_seed(&s.rng, w->seed);
	s.sync = (w->ops->flags & ENGINE_SYNC) != 0;
	s.depth = s.sync ? 1 : w->o->iodepth;
	s.eng.depth = s.depth;
	s.eng.nr_units = s.depth;
	s.eng.opts = w->o;
	ret = open_target(&s);
	if (ret)
		goto out;
	ret = alloc_units(&s);
	s.eng.units = s.units;
	if (ret)
		goto out_close;
	ret = engine_init(w->ops, &s.eng);
	if (ret) {
		fprintf(stderr, "iobench: job '%s': engine %s: cannot start: %s\n", w->o->name,
			w->ops->name, strerror(-ret));
		goto out_close;
	}
	setup_pattern(&s);
	run_loop(&s);
	engine_cleanup(w->ops, &s.eng);
out_close:
	engine_close_file(w->ops, &s.eng, s.fd);
out:
	free(s.units);
	free(s.free_units);
	free(s.pending);
	free(s.bufmem);
	if (ret && !w->err) {
		w->err = ret;
		w->ts->error = -ret;
	}
	return w->err;
}
