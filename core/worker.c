/* One clone's life, and its loop: prepare, submit, reap, drain, fail. The other parts of the
 * worker (worker_int.h) are called from here and never call back.
 * Per I/O: no locks, no allocation, no syscalls but the I/O's own; one clock read per
 * timestamp (prepare, submit batch, reap batch). */
#include "core/worker.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/debug.h"
#include "core/offload.h"
#include "core/worker_int.h"

static const char *const ddir_word[DDIR_NR] = { "read", "write", "trim" };

static void worker_fail(struct wstate *s, int err)
{
	if (!s->w->err)
		s->w->err = err;
	if (!s->ts->error)
		s->ts->error = -err;
	s->issuing_done = true;
}

/* ---- the I/O-unit state machine (asserted in debug and sanitizer builds) ---- */

static inline void unit_move(struct wstate *s, const struct io_unit *u, enum unit_state from, enum unit_state to)
{
	W_ASSERT(s->unit_state[u->index] == from);
	s->unit_state[u->index] = (unsigned char)to;
	(void)from;
}

static inline struct io_unit *unit_take(struct wstate *s)
{
	struct io_unit *u = s->free_units[--s->nr_free];
	unit_move(s, u, UNIT_FREE, UNIT_PREPARED);
	return u;
}

static inline void unit_free(struct wstate *s, struct io_unit *u, enum unit_state from)
{
	unit_move(s, u, from, UNIT_FREE);
	s->free_units[s->nr_free++] = u;
}

/* Between steps every unit is free, in flight, or the one a busy engine refused. */
static inline void units_check(const struct wstate *s)
{
	W_ASSERT(s->nr_free + s->inflight + (s->retry != NULL) == s->depth);
	W_ASSERT(s->nr_pending <= s->inflight);
	(void)s;
}

/* --debug=io: a line per I/O queued and completed (the caller tests the mask). */
static void __attribute__((noinline, cold)) debug_io(const struct wstate *s, const char *what, const struct io_unit *u)
{
	char res[32] = "";
	if (!strcmp(what, "complete"))
		snprintf(res, sizeof(res), ",res=%lld", (long long)u->result);
	debug_print(DBG_IO, "%s: io_u %p: off=0x%llx,len=0x%llx,ddir=%d,file=%s%s\n", what, (const void *)u,
		    (unsigned long long)u->offset, (unsigned long long)u->len, (int)u->ddir,
		    s->files[u->file_index].cf->path, res);
}

/* ---- completion ---- */

/* A failed I/O: worker_err.c counts it and says whether the job goes on. */
static void complete_error(struct wstate *s, const struct io_unit *u)
{
	enum werr_action a = werr_complete(s, u);
	if (a == WERR_FAIL)
		worker_fail(s, (int)u->result);
	else if (a == WERR_FULL)
		s->issuing_done = true;
}

/* A short transfer is counted, reported once, and the job's status says so. */
static void complete_short(struct wstate *s, const struct io_unit *u, uint64_t bytes)
{
	struct thread_stats *ts = s->ts;
	if (!ts->dir[DDIR_READ].short_ios && !ts->dir[DDIR_WRITE].short_ios && !ts->dir[DDIR_TRIM].short_ios)
		fprintf(stderr, "iobench: job '%s': short %s on file %s: offset=%llu, %llu of %llu bytes\n", s->o->name,
			ddir_word[u->ddir], s->files[u->file_index].cf->path, (unsigned long long)u->offset,
			(unsigned long long)bytes, (unsigned long long)u->len);
	ts->dir[u->ddir].short_ios++;
}

/* Latencies of a completed I/O: clat (and lat, the logs) or, for file operations, the
 * operation's time as one read clat, as fio. */
static void complete_latency(struct wstate *s, const struct io_unit *u, uint64_t bytes, uint64_t t)
{
	struct thread_stats *ts = s->ts;
	struct dir_stats *ds = &ts->dir[u->ddir];
	uint64_t clat = t - u->issue_ns;
	if (s->file_ops) {
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

static void complete_one(struct wstate *s, struct io_unit *u, enum unit_state from, uint64_t t)
{
	unit_free(s, u, from);
	if (__builtin_expect(s->debug_io, 0))
		debug_io(s, "complete", u);
	int ret = s->ver.on && u->result >= 0 ? verify_completed(s, u) : 0; /* reads checked, writes noted */
	if (ret)
		worker_fail(s, ret);
	if (u->result < 0) {
		if (s->measuring) /* counted, with no bytes, as fio */
			s->ts->dir[u->ddir].total_ios++;
		complete_error(s, u);
		return;
	}
	uint64_t bytes = (uint64_t)u->result;
	s->sample_bytes[u->ddir] += bytes;
	s->sample_ios[u->ddir]++;
	pace_done(s, u->ddir, bytes);
	int late = s->o->io.max_latency_us[u->ddir] ? extra_latency_check(s, u, t - u->issue_ns) : 0;
	if (late)
		worker_fail(s, late);
	if (bytes < u->len && werr_fill_end(s, u, bytes)) { /* fill_device: full */
		s->issuing_done = true;
		if (s->measuring && u->ddir == DDIR_WRITE) /* counted, as fio, its bytes not */
			s->ts->dir[u->ddir].total_ios++;
		return;
	}
	if (!s->measuring)
		return;
	if (bytes < u->len)
		complete_short(s, u, bytes);
	s->ts->dir[u->ddir].io_bytes += bytes;
	s->ts->dir[u->ddir].total_ios++;
	complete_latency(s, u, bytes, t);
}

/* ---- submit and reap ---- */

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
			unit_free(s, s->pending[i], UNIT_QUEUED);
		s->nr_pending = 0;
		return;
	}
	for (unsigned i = 0; i < s->nr_pending; i++) {
		struct io_unit *u = s->pending[i];
		unit_move(s, u, UNIT_QUEUED, UNIT_INFLIGHT);
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
		for (unsigned i = 0; i < s->depth; i++) /* nothing more can be reaped: give them up */
			if (s->unit_state[i] == UNIT_INFLIGHT)
				unit_free(s, &s->units[i], UNIT_INFLIGHT);
		s->inflight = 0;
		return;
	}
	W_ASSERT((unsigned)n <= max);
	for (int i = 0; i < n; i++)
		complete_one(s, s->events[i], UNIT_INFLIGHT, s->now);
	s->inflight -= (unsigned)n;
	if (n) {
		s->ts->complete_map[batch_bucket((unsigned)n)]++;
		s->ts->total_complete++;
	}
}

static void drain(struct wstate *s)
{
	commit_pending(s);
	while (s->inflight)
		reap_some(s, s->inflight, 0);
	units_check(s);
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
		fprintf(stderr, "iobench: job '%s': %s of %s failed: %s\n", s->o->name, datasync ? "fdatasync" : "fsync",
			f->cf->path, strerror(-err));
		worker_fail(s, err);
		return;
	}
	s->ts->issued[DDIR_NR]++;
	if (s->measuring) {
		series_add(&s->ts->sync_lat, s->now - t0);
		hist_record(&s->ts->sync_hist, s->now - t0);
	}
}

/* ---- issue ---- */

/* The workload has issued all it may for now: all of it, or (verify after each loop) this
 * loop's share. */
static bool workload_paused(const struct wstate *s)
{
	const struct job_opts *o = s->o;
	if (o->number_ios && s->issued_ios >= o->number_ios)
		return true;
	if (o->time_based)
		return false;
	return s->issued_bytes >= s->io_limit || (verify_pass_end(s) && s->issued_bytes >= verify_pass_end(s));
}

static bool out_of_work(struct wstate *s)
{
	if (atomic_load_explicit(s->w->stop, memory_order_relaxed))
		return true;
	return workload_paused(s) && !verify_busy(s);
}

/* The rate slot of the next I/O is not there yet: wait one nap for it (reaping meanwhile). */
static void wait_for_slot(struct wstate *s, uint64_t wait)
{
	commit_pending(s);
	wait = pace_bound(s, wait);
	if (!wait) /* the deadline has come */
		s->now = clock_fast_ns(s->clk);
	else if (s->inflight)
		reap_some(s, 1, wait);
	else
		clock_sleep_ns(wait), s->now = clock_fast_ns(s->clk);
}

/* opendir whole-file reads: the file f is the one open (drained and switched if not). */
static bool whole_ready(struct wstate *s, struct wfile *f)
{
	if (f->fd >= 0 && !whole_switching(s, f))
		return true;
	if (whole_switching(s, f))
		drain(s);
	int ret = whole_open(s, f);
	if (ret)
		worker_fail(s, ret);
	return !ret;
}

static bool queue_prepared(struct wstate *s, struct io_unit *u);
static void engine_failed(const struct wstate *s, const char *what, int ret);

/* A verify read of what was written (verify_phase.c chose it). */
static bool issue_check(struct wstate *s, const struct verify_entry *e)
{
	struct wfile *f = &s->files[e->file];
	struct io_unit *u = unit_take(s);
	u->ddir = DDIR_READ;
	u->len = e->len;
	u->offset = e->off;
	u->fd = f->fd;
	u->file_index = e->file;
	verify_mark(s, u, true);
	return queue_prepared(s, u);
}

/* verify: true when it is not the workload's turn (*issued: a read back was queued). */
static bool verify_turn(struct wstate *s, bool *issued)
{
	struct verify_entry e;
	enum verify_step step;
	while ((step = verify_next(s, workload_paused(s), &e)) == VSTEP_DRAIN)
		drain(s); /* what it reads back must be written first */
	*issued = step == VSTEP_READ && issue_check(s, &e);
	return step == VSTEP_READ || workload_paused(s);
}

/* Prepare one I/O and queue it. Returns false when the caller should stop filling for now. */
static bool issue_one(struct wstate *s)
{
	const struct job_opts *o = s->o;
	if (s->retry) /* the engine was busy: the I/O it refused goes first, as prepared */
		return queue_prepared(s, s->retry);
	bool issued;
	if (s->ver.on && verify_turn(s, &issued))
		return issued;
	if (s->x.flow && extra_flow_held(s)) { /* flow control: ahead of its share; let the others go */
		drain(s);
		extra_flow_wait(s);
		return false;
	}
	if (s->x.sfr_due) { /* sync_file_range: N writes were issued, before the next I/O */
		drain(s);
		int ret = extra_sfr_sync(s);
		if (ret)
			return worker_fail(s, ret), false;
	}
	enum ddir d = offsets_next_ddir(s);
	bool dry = o->verify_only && job_has_dir(o, DDIR_WRITE);
	uint64_t wait = dry ? 0 : pace_wait_pick(s, &d);
	if (wait) {
		wait_for_slot(s, wait);
		return false;
	}
	uint64_t len = offsets_next_len(s, d);
	if (!o->time_based && s->issued_bytes + len > s->io_limit)
		len = s->io_limit - s->issued_bytes; /* the last I/O takes what is left */
	struct wfile *f = offsets_next_file(s);
	if (dry)
		return verify_dry(s, f, d, len, offsets_next(s, f, d, len)), true;
	if (s->whole.on) {
		if (!whole_ready(s, f))
			return false;
		len = whole_len(f, d, len);
	}
	struct io_unit *u = unit_take(s);
	u->ddir = d;
	u->len = len;
	u->offset = offsets_next(s, f, d, len);
	u->fd = f->fd;
	u->file_index = (unsigned)(f - s->files);
	verify_mark(s, u, false);
	while (o->io.serialize_overlap && extra_overlaps(s, u)) { /* what it overlaps completes first */
		commit_pending(s);
		reap_some(s, 1, 0);
	}
	if (d == DDIR_WRITE) {
		if (s->ver.on)
			verify_stamp(s, u);
		else
			buffers_fill(s, u);
	}
	return queue_prepared(s, u);
}

/* After a write was handed over: fsync=N / fdatasync=N, the verify map and backlog. */
static void after_write(struct wstate *s, struct wfile *f, const struct io_unit *u)
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
	if (s->ver.on)
		verify_written(s, f, u->offset, u->len);
	if (o->io.sfr_nr)
		extra_sfr_written(s, u->file_index, u->offset, u->len);
}

/* An I/O the engine completed at once (sync engines): accounted as a batch of one. */
static void completed_at_once(struct wstate *s, struct io_unit *u)
{
	struct thread_stats *ts = s->ts;
	s->now = clock_fast_ns(s->clk);
	ts->depth_map[0]++;
	ts->submit_map[batch_bucket(1)]++;
	ts->complete_map[batch_bucket(1)]++;
	ts->total_submit++;
	ts->total_complete++;
	complete_one(s, u, UNIT_PREPARED, s->now);
}

/* Hand a prepared I/O to the engine and account for it. */
static bool queue_prepared(struct wstate *s, struct io_unit *u)
{
	enum ddir d = u->ddir;
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
		unit_free(s, u, UNIT_PREPARED);
		worker_fail(s, r);
		return false;
	}
	if (__builtin_expect(s->debug_io, 0))
		debug_io(s, "queue", u);
	bool check = verify_is_check(s, u); /* a verify read: not the workload's */
	if (!check) {
		s->issued_bytes += u->len;
		s->issued_ios++;
		pace_issued(s, d, u->len);
	}
	s->ts->issued[d]++;
	if (r == Q_COMPLETED) {
		completed_at_once(s, u);
	} else {
		unit_move(s, u, UNIT_PREPARED, UNIT_QUEUED);
		s->pending[s->nr_pending++] = u;
		s->inflight++;
		s->fill_queued++;
		if (s->nr_pending >= s->batch_submit || !s->nr_free)
			commit_pending(s);
	}
	if (d == DDIR_WRITE)
		after_write(s, f, u);
	if (!check && pace_think_due(s)) {
		if (s->o->io.think_type == THINK_COMPLETE) /* after the blocks completed; =issue: in flight */
			drain(s);
		else
			commit_pending(s);
		pace_think(s);
		return false;
	}
	return r != Q_COMPLETED; /* a sync engine lets the caller check the time */
}

/* unlink_each_loop: a loop is over; the files are closed, removed and opened (made) again. */
static bool next_loop(struct wstate *s)
{
	drain(s);
	close_files(s);
	int ret = extra_unlink_files(s);
	if (!ret)
		ret = open_files(s);
	if (!ret && (ret = engine_post_open(s->w->ops, &s->eng)))
		engine_failed(s, "", ret);
	if (ret)
		worker_fail(s, ret);
	return !ret;
}

/* Prepare and queue I/Os until the depth is full or there is nothing left to issue. The
 * depth the queue reached is what the IO depths map records for them. */
static void fill_queue(struct wstate *s)
{
	s->fill_queued = 0;
	while (s->nr_free && !s->issuing_done) {
		if (out_of_work(s)) {
			if (s->retry) { /* never handed over: back to the free units */
				unit_free(s, s->retry, UNIT_PREPARED);
				s->retry = NULL;
			}
			s->issuing_done = true;
			break;
		}
		if (extra_loop_over(s) && !next_loop(s))
			break;
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

/* ---- the loop ---- */

static void check_time(struct wstate *s)
{
	int ret = time_check(s);
	if (ret)
		worker_fail(s, ret);
}

/* After the loop: end_fsync, and a job that did less than asked (short I/Os, tolerated
 * errors) fails. */
static void end_of_run(struct wstate *s)
{
	struct thread_stats *ts = s->ts;
	for (unsigned i = 0; i < s->nfiles && !s->w->err; i++)
		if (s->files[i].written && (s->o->end_fsync || s->o->fsync_on_close))
			sync_file(s, &s->files[i], false);
	uint64_t shorts = ts->dir[0].short_ios + ts->dir[1].short_ios + ts->dir[2].short_ios;
	if (shorts && !s->w->err) {
		fprintf(stderr, "iobench: job '%s': %llu short I/O%s: the job did less than it was asked\n", s->o->name,
			(unsigned long long)shorts, shorts > 1 ? "s" : "");
		s->w->err = -EIO;
		if (!ts->error)
			ts->error = EIO;
	}
	int ret = werr_finish(s); /* errors gone on after: short of what was asked, unless named */
	if (ret && !s->w->err)
		s->w->err = ret;
}

static void run_loop(struct wstate *s)
{
	s->now = s->start_ns = clock_fast_ns(s->clk);
	time_start(s);
	check_time(s);
	while (!s->issuing_done || s->inflight) {
		fill_queue(s);
		reap(s);
		units_check(s);
		check_time(s);
	}
	int ret = verify_finish(s);
	if (ret)
		worker_fail(s, ret);
	end_of_run(s);
	time_finish(s);
	whole_close(s);
}

/* ---- the worker's life ---- */

static void start_delay(struct wstate *s)
{
	const struct job_opts *o = s->o;
	if (!o->startdelay_us[1])
		return;
	uint64_t span = o->startdelay_us[1] - o->startdelay_us[0];
	clock_sleep_until(NULL, clock_now_ns() + (o->startdelay_us[0] + (span ? rng_below(&s->rng, span + 1) : 0)) * 1000,
			  s->w->stop);
}

static void engine_failed(const struct wstate *s, const char *what, int ret)
{
	fprintf(stderr, "iobench: job '%s': engine %s: %s%s%s%s\n", s->o->name, s->w->ops->name, what, strerror(-ret),
		s->eng.why[0] ? ": " : "", s->eng.why);
}

static int logs_setup(struct wstate *s)
{
	const struct job_opts *o = s->o;
	if (!o->bw_log[0] && !o->iops_log[0] && !o->lat_log[0] && !o->hist_log[0])
		return 0;
	if (!(s->logs = malloc(sizeof(*s->logs))))
		return -ENOMEM;
	perflogs_init(s->logs, o);
	return 0;
}

static void logs_teardown(struct wstate *s)
{
	if (s->logs)
		perflogs_free(s->logs);
	free(s->logs);
	s->logs = NULL;
}

/* The job itself, once everything is set up. */
static void worker_body(struct wstate *s)
{
	run_loop(s);
	if (s->logs && perflogs_write(s->logs, s->o, s->w->log_index) && !s->w->err)
		s->w->err = -EIO;
}

int worker_run(struct worker *w)
{
	struct wstate s = { .w = w, .o = w->o, .ts = w->ts, .clk = w->clk, .debug_io = debug_on(w->debug, DBG_IO) };
	const struct engine_ops *real_ops = w->ops; /* offload swaps a wrapper in */
	int ret;

	time_reset_stats(&s);
	rng_seed(&s.rng, w->seed);
	rng_seed(&s.buf_rng, w->seed ^ 0xb0f);
	if (set_affinity(&s) && w->warnings_fatal) { /* its note said why */
		ret = -EINVAL;
		goto out_free_state;
	}
	start_delay(&s);
	if (w->o->io.submit_mode == SUBMIT_OFFLOAD) { /* submitter threads behind a wrapper engine */
		if (!(s.x.offload = offload_new(&s, w->ops, w->o->iodepth, w->plan->nfiles))) {
			ret = worker_nomem(&s, "io_submit_mode=offload's threads", sizeof(void *) * w->o->iodepth);
			goto out_free_state;
		}
		w->ops = offload_ops(s.x.offload);
	}
	setup_depth(&s);
	s.nfiles = w->plan->nfiles;
	s.io_limit = w->plan->io_limit;
	ret = alloc_state(&s);
	if (ret)
		goto out_free_state;
	s.eng.priv = s.x.offload;
	ret = engine_init(w->ops, &s.eng);
	if (ret) {
		engine_failed(&s, "cannot start: ", ret);
		goto out_cleanup_engine;
	}
	ret = open_files(&s);
	if (ret)
		goto out_close_files;
	ret = engine_post_open(w->ops, &s.eng);
	if (ret) {
		engine_failed(&s, "", ret);
		goto out_close_files;
	}
	if (debug_on(w->debug, DBG_JOB))
		debug_print(DBG_JOB, "job '%s' clone %u: starting, depth %u, %u file%s\n", w->o->name, w->clone, s.depth,
			    s.nfiles, s.nfiles == 1 ? "" : "s");
	if (debug_on(w->debug, DBG_RANDOM))
		debug_print(DBG_RANDOM, "job '%s' clone %u: seed 0x%llx (randrepeat=%d)\n", w->o->name, w->clone,
			    (unsigned long long)w->seed, (int)w->o->randrepeat);
	offsets_init(&s);
	pace_init(&s);
	ret = verify_setup(&s);
	if (!ret)
		ret = extra_setup(&s);
	if (!ret)
		ret = extra_pre_read(&s);
	if (ret)
		goto out_verify_teardown;
	ret = logs_setup(&s);
	if (ret)
		goto out_verify_teardown;
	worker_body(&s);
	logs_teardown(&s);
out_verify_teardown:
	extra_teardown(&s);
	verify_teardown(&s);
out_close_files:
	close_files(&s);
out_cleanup_engine:
	engine_cleanup(w->ops, &s.eng);
out_free_state:
	w->ops = real_ops;
	offload_free(s.x.offload);
	extra_leave(&s);
	free_state(&s);
	if (ret && !w->err) {
		w->err = ret;
		w->ts->error = -ret;
	}
	if (debug_on(w->debug, DBG_JOB))
		debug_print(DBG_JOB, "job '%s' clone %u: done, err=%d\n", w->o->name, w->clone, -w->err);
	return w->err;
}
