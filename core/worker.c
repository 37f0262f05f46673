/* One clone's life: set up its files and engine, run the submit/reap loop, clean up.
 * Per I/O: no locks, no allocation, no syscalls but the I/O's own; one clock read per
 * timestamp (prepare, submit batch, reap batch). */
#include "core/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/verify.h"
#include "core/worker_int.h"

#define SAMPLE_NS (500 * NS_PER_MS) /* bw/iops sample interval, as fio's bw_avg_time */

static const char *const ddir_word[DDIR_NR] = { "read", "write", "trim" };

void worker_fail(struct wstate *s, int err)
{
	if (!s->w->err)
		s->w->err = err;
	if (!s->ts->error)
		s->ts->error = -err;
	s->issuing_done = true;
}

static uint64_t tv_us(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000ULL + (uint64_t)tv.tv_usec;
}

/* ---- completion ---- */

static bool error_tolerated(const struct wstate *s, enum ddir d)
{
	unsigned want = d == DDIR_READ ? CONT_READ : CONT_WRITE;
	return (s->o->continue_on_error & want) != 0;
}

static void complete_one(struct wstate *s, struct io_unit *u, uint64_t t)
{
	struct thread_stats *ts = s->ts;
	s->free_units[s->nr_free++] = u;
	if (u->result < 0) {
		/* The first error is reported in full; tolerated ones are counted (see finish). */
		if (!ts->nr_errors++)
			fprintf(stderr, "iobench: job '%s': io_u error on file %s: %s: %s offset=%llu, buflen=%llu%s\n",
				s->o->name, s->files[u->file_index].cf->path, strerror((int)-u->result),
				ddir_word[u->ddir], (unsigned long long)u->offset, (unsigned long long)u->len,
				u->result == -EINVAL && s->o->direct
					? " (O_DIRECT needs sizes and offsets aligned to the device's logical block size)"
					: "");
		if (!ts->error)
			ts->error = (int)-u->result;
		if (!error_tolerated(s, u->ddir))
			worker_fail(s, (int)u->result);
		return;
	}
	uint64_t bytes = (uint64_t)u->result;
	s->sample_bytes[u->ddir] += bytes;
	s->sample_ios[u->ddir]++;
	s->rate_bytes[u->ddir] += bytes;
	s->rate_ios[u->ddir]++;
	if (!s->measuring)
		return;
	struct dir_stats *ds = &ts->dir[u->ddir];
	if (bytes < u->len) { /* counted, reported once, and the job's status says so */
		if (!ds->short_ios && !ts->dir[!u->ddir].short_ios)
			fprintf(stderr, "iobench: job '%s': short %s on file %s: offset=%llu, %llu of %llu bytes\n",
				s->o->name, ddir_word[u->ddir], s->files[u->file_index].cf->path,
				(unsigned long long)u->offset, (unsigned long long)bytes, (unsigned long long)u->len);
		ds->short_ios++;
	}
	ds->io_bytes += bytes;
	ds->total_ios++;
	uint64_t clat = t - u->issue_ns;
	if (s->file_ops) { /* as fio: one read clat per file operation, nothing else */
		if (u->file_op && s->rec_clat) {
			series_add(&ts->dir[DDIR_READ].clat, clat);
			hist_record(&ts->dir[DDIR_READ].clat_hist, clat);
			ts->lat_buckets[lat_bucket(clat)]++;
		}
		return;
	}
	if (s->rec_clat) {
		series_add(&ds->clat, clat);
		hist_record(&ds->clat_hist, clat);
		ts->lat_buckets[lat_bucket(clat)]++;
	}
	if (s->rec_lat) {
		series_add(&ds->lat, t - u->start_ns);
		if (s->hist_lat)
			hist_record(&ds->lat_hist, t - u->start_ns);
	}
	if (s->logs && perflogs_io(s->logs, (t - s->measure_start_ns) / NS_PER_MS, u->ddir, bytes, u->offset,
				   u->issue_ns - u->start_ns, clat, t - u->start_ns, !s->sync))
		worker_fail(s, -ENOMEM);
}

/* ---- submit ---- */

static void commit_pending(struct wstate *s)
{
	struct thread_stats *ts = s->ts;
	if (!s->nr_pending)
		return;
	int ret = engine_commit(s->w->ops, &s->eng);
	s->now = clock_fast_ns(s->clk);
	if (ret < 0) {
		fprintf(stderr, "iobench: job '%s': submit failed: %s\n", s->o->name, strerror(-ret));
		worker_fail(s, ret);
		s->inflight -= s->nr_pending;
		for (unsigned i = 0; i < s->nr_pending; i++)
			s->free_units[s->nr_free++] = s->pending[i];
		s->nr_pending = 0;
		return;
	}
	for (unsigned i = 0; i < s->nr_pending; i++) {
		struct io_unit *u = s->pending[i];
		u->issue_ns = s->now;
		if (s->measuring && s->rec_slat) {
			series_add(&ts->dir[u->ddir].slat, s->now - u->start_ns);
			if (s->hist_slat)
				hist_record(&ts->dir[u->ddir].slat_hist, s->now - u->start_ns);
		}
	}
	ts->submit_map[batch_bucket(s->nr_pending)]++;
	ts->total_submit++;
	s->nr_pending = 0;
}

/* Wait for completions: at least min, or until timeout_ns (0 = no timeout). */
static void reap_some(struct wstate *s, unsigned min, uint64_t timeout_ns)
{
	struct timespec ts = { (time_t)(timeout_ns / NS_PER_SEC), (long)(timeout_ns % NS_PER_SEC) };
	unsigned max = s->complete_max && s->complete_max < s->inflight ? s->complete_max : s->inflight;
	int n = engine_getevents(s->w->ops, &s->eng, min, max, timeout_ns ? &ts : NULL);
	s->now = clock_fast_ns(s->clk);
	if (n < 0) {
		fprintf(stderr, "iobench: job '%s': reaping I/O failed: %s\n", s->o->name, strerror(-n));
		worker_fail(s, n);
		s->inflight = 0; /* nothing more can be reaped */
		return;
	}
	for (int i = 0; i < n; i++)
		complete_one(s, s->events[i], s->now);
	s->inflight -= (unsigned)n;
	if (n) {
		s->ts->complete_map[batch_bucket((unsigned)n)]++;
		s->ts->total_complete++;
	}
}

void drain(struct wstate *s)
{
	commit_pending(s);
	while (s->inflight)
		reap_some(s, s->inflight, 0);
}

/* fsync=N / fdatasync=N / end_fsync: the queue drained, then the call, timed. */
static void sync_file(struct wstate *s, struct wfile *f, bool datasync)
{
	if (f->fd < 0)
		return;
	drain(s);
	uint64_t t0 = clock_fast_ns(s->clk);
	int ret = datasync ? fdatasync(f->fd) : fsync(f->fd);
	s->now = clock_fast_ns(s->clk);
	if (ret < 0) {
		int err = -errno;
		fprintf(stderr, "iobench: job '%s': %s of %s failed: %s\n", s->o->name,
			datasync ? "fdatasync" : "fsync", f->cf->path, strerror(-err));
		worker_fail(s, err);
		return;
	}
	s->ts->issued[DDIR_NR]++;
	if (s->measuring) {
		series_add(&s->ts->sync_lat, s->now - t0);
		hist_record(&s->ts->sync_hist, s->now - t0);
	}
}

static void after_write(struct wstate *s, struct wfile *f)
{
	const struct job_opts *o = s->o;
	f->written = true;
	if (o->fsync_blocks && ++f->writes_since_fsync >= o->fsync_blocks) {
		f->writes_since_fsync = 0;
		sync_file(s, f, false);
	}
	if (o->fdatasync_blocks && ++f->writes_since_fdatasync >= o->fdatasync_blocks) {
		f->writes_since_fdatasync = 0;
		sync_file(s, f, true);
	}
}

static bool out_of_work(struct wstate *s)
{
	const struct job_opts *o = s->o;
	if (atomic_load_explicit(s->w->stop, memory_order_relaxed))
		return true;
	if (o->number_ios && s->issued_ios >= o->number_ios)
		return true;
	return !o->time_based && s->issued_bytes >= s->io_limit;
}

static bool queue_prepared(struct wstate *s, struct io_unit *u);

/* Queue one I/O. Returns false when the caller should stop filling for now. */
static bool issue_one(struct wstate *s)
{
	const struct job_opts *o = s->o;
	if (s->retry) /* the engine was busy: the I/O it refused goes first, as prepared */
		return queue_prepared(s, s->retry);
	enum ddir d = offsets_next_ddir(s);
	uint64_t wait = pace_wait_ns(s, d);
	if (wait) {
		commit_pending(s);
		wait = pace_bound(s, wait);
		if (!wait) /* the deadline has come */
			s->now = clock_fast_ns(s->clk);
		else if (s->inflight)
			reap_some(s, 1, wait);
		else
			clock_sleep_ns(wait), s->now = clock_fast_ns(s->clk);
		return false;
	}
	uint64_t len = offsets_next_len(s, d);
	if (!o->time_based && s->issued_bytes + len > s->io_limit)
		len = s->io_limit - s->issued_bytes; /* the last I/O takes what is left */
	struct wfile *f = offsets_next_file(s);
	if (s->whole) {
		if (f->fd < 0 && whole_open(s, f))
			return false;
		len = whole_len(f, d, len);
	}
	struct io_unit *u = s->free_units[--s->nr_free];
	u->ddir = d;
	u->len = len;
	u->offset = offsets_next(s, f, d, len);
	u->fd = f->fd;
	u->file_index = (unsigned)(f - s->files);
	if (d == DDIR_WRITE) {
		buffers_fill(s, u);
		if (o->verify != VERIFY_NONE)
			verify_fill(o, u->buf, len, u->offset, s->vinterval);
	}
	return queue_prepared(s, u);
}

/* Hand a prepared I/O to the engine and account for it. */
static bool queue_prepared(struct wstate *s, struct io_unit *u)
{
	struct thread_stats *ts = s->ts;
	const struct job_opts *o = s->o;
	enum ddir d = u->ddir;
	uint64_t len = u->len;
	struct wfile *f = &s->files[u->file_index];
	s->retry = NULL;
	s->now = u->start_ns = u->issue_ns = clock_fast_ns(s->clk);
	int r = engine_queue(s->w->ops, &s->eng, u);
	if (r == Q_BUSY) { /* keep it, offset and data as they are; try again after a commit */
		s->retry = u;
		commit_pending(s);
		return false;
	}
	if (r < 0) {
		s->free_units[s->nr_free++] = u;
		worker_fail(s, r);
		return false;
	}
	s->issued_bytes += len;
	s->issued_ios++;
	ts->issued[d]++;
	pace_issued(s, d, len);
	if (r == Q_COMPLETED) {
		s->now = clock_fast_ns(s->clk);
		ts->depth_map[0]++;
		ts->submit_map[batch_bucket(1)]++;
		ts->complete_map[batch_bucket(1)]++;
		ts->total_submit++;
		ts->total_complete++;
		complete_one(s, u, s->now);
	} else {
		s->pending[s->nr_pending++] = u;
		s->inflight++;
		s->fill_queued++;
		if (s->nr_pending >= s->batch_submit || !s->nr_free)
			commit_pending(s);
	}
	if (d == DDIR_WRITE && (o->fsync_blocks || o->fdatasync_blocks))
		after_write(s, f);
	if (d == DDIR_WRITE && o->verify != VERIFY_NONE) {
		verify_written(s, f, u->offset, len);
		if (o->verify_backlog && s->nbacklog >= o->verify_backlog) {
			drain(s);
			verify_backlog_run(s);
		}
	}
	if (pace_think_due(s)) {
		drain(s);
		pace_think(s);
		return false;
	}
	return r != Q_COMPLETED; /* a sync engine lets the caller check the time */
}

/* Prepare and queue I/Os until the depth is full or there is nothing left to issue. The
 * depth the queue reached is what the IO depths map records for them. */
static void fill_queue(struct wstate *s)
{
	s->fill_queued = 0;
	while (s->nr_free && !s->issuing_done) {
		if (out_of_work(s)) {
			if (s->retry) { /* never handed over: back to the free units */
				s->free_units[s->nr_free++] = s->retry;
				s->retry = NULL;
			}
			s->issuing_done = true;
			break;
		}
		if (!issue_one(s))
			break;
	}
	commit_pending(s);
	if (s->fill_queued)
		s->ts->depth_map[depth_bucket(s->inflight)] += s->fill_queued;
}

static void reap(struct wstate *s)
{
	bool full = s->nr_free == 0;
	if (!s->inflight || !(full || s->issuing_done))
		return;
	unsigned min = s->complete_min ? s->complete_min : 1;
	if (full && s->depth_low < s->depth && s->inflight > s->depth_low)
		min = s->inflight - s->depth_low;
	if (min > s->inflight)
		min = s->inflight;
	reap_some(s, min, 0);
}

/* ---- time: ramp, samples, deadline, rate floors ---- */

static void reset_stats(struct wstate *s)
{
	memset(s->ts, 0, sizeof(*s->ts));
	s->ts->nr_threads = 1;
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
		series_add(&s->ts->dir[d].bw_kib, s->sample_bytes[d] * 1000 / spent_ms / 1024);
		series_add(&s->ts->dir[d].iops, s->sample_ios[d] * 1000 / spent_ms);
	}
	memset(s->sample_bytes, 0, sizeof(s->sample_bytes));
	memset(s->sample_ios, 0, sizeof(s->sample_ios));
	s->last_sample_ns = s->now;
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

static void check_time(struct wstate *s)
{
	if (!s->measuring && s->now >= s->ramp_end_ns) {
		reset_stats(s);
		s->measuring = true;
		s->measure_start_ns = s->last_sample_ns = s->rate_check_ns = s->now;
		if (s->o->runtime_us)
			s->deadline_ns = s->now + s->o->runtime_us * 1000;
		memset(s->sample_bytes, 0, sizeof(s->sample_bytes));
		memset(s->sample_ios, 0, sizeof(s->sample_ios));
		memset(s->rate_bytes, 0, sizeof(s->rate_bytes));
		memset(s->rate_ios, 0, sizeof(s->rate_ios));
	}
	/* A sample ends every full interval before the deadline (none at the very end). */
	if (s->measuring && s->rec_bw && s->now - s->last_sample_ns >= SAMPLE_NS &&
	    (!s->deadline_ns || s->now < s->deadline_ns))
		take_sample(s);
	if (s->deadline_ns && s->now >= s->deadline_ns)
		s->issuing_done = true;
	int ret = pace_check_min(s);
	if (ret)
		worker_fail(s, ret);
	publish(s, false);
	if (s->logs && s->measuring) {
		const struct hist *h[DDIR_NR] = { &s->ts->dir[0].clat_hist, &s->ts->dir[1].clat_hist,
						  &s->ts->dir[2].clat_hist };
		if (perflogs_tick(s->logs, (s->now - s->measure_start_ns) / NS_PER_MS, h, s->o->bs))
			worker_fail(s, -ENOMEM);
	}
}

static void finish_stats(struct wstate *s)
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

static void run_loop(struct wstate *s)
{
	s->now = s->start_ns = clock_fast_ns(s->clk);
	s->ramp_end_ns = s->start_ns + s->o->ramp_time_us * 1000;
	check_time(s);
	while (!s->issuing_done || s->inflight) {
		fill_queue(s);
		reap(s);
		check_time(s);
	}
	for (unsigned i = 0; i < s->nfiles && !s->w->err; i++)
		if (s->files[i].written && (s->o->end_fsync || s->o->fsync_on_close))
			sync_file(s, &s->files[i], false);
	uint64_t shorts = s->ts->dir[0].short_ios + s->ts->dir[1].short_ios + s->ts->dir[2].short_ios;
	if (shorts && !s->w->err) {
		fprintf(stderr, "iobench: job '%s': %llu short I/O%s: the job did less than it was asked\n",
			s->o->name, (unsigned long long)shorts, shorts > 1 ? "s" : "");
		s->w->err = -EIO;
		if (!s->ts->error)
			s->ts->error = EIO;
	}
	if (s->ts->nr_errors > 1 || (s->ts->nr_errors && !s->w->err)) {
		fprintf(stderr, "iobench: job '%s': %llu I/O error%s in all%s\n", s->o->name,
			(unsigned long long)s->ts->nr_errors, s->ts->nr_errors > 1 ? "s" : "",
			s->w->err ? "" : " (continue_on_error went on after them)");
		if (!s->w->err)
			s->w->err = -s->ts->error; /* results are short of what was asked */
	}
	finish_stats(s);
}

int worker_run(struct worker *w)
{
	struct wstate s = { .w = w, .o = w->o, .ts = w->ts, .clk = w->clk };
	const struct job_opts *o = w->o;
	int ret;

	reset_stats(&s);
	rng_seed(&s.rng, w->seed);
	rng_seed(&s.buf_rng, w->seed ^ 0xb0f);
	set_affinity(&s);
	if (o->startdelay_us[1]) { /* in short naps, so a signal is not kept waiting */
		uint64_t span = o->startdelay_us[1] - o->startdelay_us[0];
		clock_sleep_until(clock_now_ns() + (o->startdelay_us[0] + (span ? rng_below(&s.rng, span + 1) : 0)) * 1000,
				  w->stop);
	}
	setup_depth(&s);
	s.nfiles = w->plan->nfiles;
	s.io_limit = w->plan->io_limit;
	ret = alloc_state(&s);
	if (ret)
		goto out_free;
	ret = engine_init(w->ops, &s.eng);
	if (ret) {
		fprintf(stderr, "iobench: job '%s': engine %s: cannot start: %s%s%s\n", o->name, w->ops->name,
			strerror(-ret), s.eng.why[0] ? ": " : "", s.eng.why);
		goto out_cleanup_engine;
	}
	ret = open_files(&s);
	if (ret)
		goto out_close_files;
	ret = engine_post_open(w->ops, &s.eng);
	if (ret) {
		fprintf(stderr, "iobench: job '%s': engine %s: %s%s%s\n", o->name, w->ops->name, strerror(-ret),
			s.eng.why[0] ? ": " : "", s.eng.why);
		goto out_close_files;
	}
	offsets_init(&s);
	pace_init(&s);
	ret = verify_setup(&s);
	if (ret)
		goto out_close_files;
	if (o->bw_log[0] || o->iops_log[0] || o->lat_log[0] || o->hist_log[0]) {
		s.logs = malloc(sizeof(*s.logs));
		if (!s.logs) {
			ret = -ENOMEM;
			goto out_close_files;
		}
		perflogs_init(s.logs, o);
	}
	if (o->verify_only) {
		s.measuring = true;
		finish_stats(&s);
	} else {
		run_loop(&s);
		if (s.whole && s.open_file)
			whole_close(&s);
	}
	/* The verify phase: what was written is read back (or, verify_only, the region). */
	if (o->verify != VERIFY_NONE && !w->err && (o->verify_only || (o->do_verify && job_has_dir(o, DDIR_WRITE)))) {
		if (s.backlog)
			verify_backlog_run(&s);
		verify_all(&s);
	}
	if (s.logs && perflogs_write(s.logs, o, w->log_index) && !w->err)
		w->err = -EIO;
out_close_files:
	close_files(&s);
out_cleanup_engine:
	engine_cleanup(w->ops, &s.eng);
out_free:
	verify_teardown(&s);
	if (s.logs)
		perflogs_free(s.logs);
	free(s.logs);
	free(s.files);
	free(s.fds);
	free(s.events);
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
