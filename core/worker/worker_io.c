/* The worker's I/O with its engine: completions (statistics, latencies, errors, the verify
 * check), submitting what is queued, reaping, draining, and the fsync/fdatasync calls that
 * need a drained queue. worker.c (the loop) calls these; they call no part of worker.c.
 * Per I/O: no locks, no allocation, no syscalls but the I/O's own; one clock read per
 * timestamp (submit batch, reap batch). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/lib/clock.h"
#include "core/lib/debug.h"
#include "core/worker/worker_int.h"
#include "core/lib/say.h"

static const char *const ddir_word[DDIR_NR] = { "read", "write", "trim" };

void __attribute__((noinline, cold)) io_debug(const struct wstate *s, const char *what, const struct io_unit *u)
{
	char res[32] = "";
	if (!strcmp(what, "complete"))
		snprintf(res, sizeof(res), ",res=%lld", (long long)u->result);
	debug_print(DBG_IO, "%s: io_u %p: off=0x%llx,len=0x%llx,ddir=%d,file=%s%s\n", what, (const void *)u,
		    (unsigned long long)u->offset, (unsigned long long)u->len, (int)u->ddir,
		    s->cfs[u->file_index].path, res);
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
		job_say(s->o->name, "short %s on file %s: offset=%llu, %llu of %llu bytes", ddir_word[u->ddir],
			s->cfs[u->file_index].path, (unsigned long long)u->offset, (unsigned long long)bytes,
			(unsigned long long)u->len);
	ts->dir[u->ddir].short_ios++;
}

/* A completion's clat, lat and per-priority latencies, as the job records them. */
static inline void record_lat(struct wstate *s, struct thread_stats *ts, struct dir_stats *ds,
			      const struct io_unit *u, uint64_t clat, uint64_t t)
{
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
	cmdprio_record(&s->env, ts, u, clat, t - u->start_ns);
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
	record_lat(s, ts, ds, u, clat, t);
	if (s->logs && perflogs_io(s->logs, (t - s->measure_start_ns) / NS_PER_MS, u->ddir, bytes, u->offset,
				   u->issue_ns - u->start_ns, clat, t - u->start_ns, !s->sync,
				   PERFLOG_PRIO(u->ioprio, cmdprio_high(u))))
		worker_fail(s, worker_nomem(s, "samples of its logs", 0));
}

/* latency_target: depth 1 is too slow for the target (latency_percentile=100). */
static void __attribute__((noinline, cold)) latency_fatal(struct wstate *s, const struct io_unit *u, uint64_t t)
{
	job_say(s->o->name,
		"latency of %" PRIu64 " nsec exceeds latency_target (%" PRIu64
		" nsec) at queue depth 1: %s %s offset=%llu, buflen=%llu",
		t - u->start_ns, s->lat.target_ns, s->cfs[u->file_index].path, ddir_word[u->ddir],
		(unsigned long long)u->offset, (unsigned long long)u->len);
	worker_fail(s, -ETIMEDOUT);
}

/* Every completion that moved bytes: the sample's counts and the pacing. */
static inline void count_done(struct wstate *s, const struct io_unit *u, uint64_t bytes)
{
	s->sample_bytes[u->ddir] += bytes;
	s->sample_ios[u->ddir]++;
	pace_done(s, u->ddir, bytes);
}

/* A completion while measuring: its bytes and I/O in the job's statistics (a short one said). */
static inline void count_measured(struct wstate *s, const struct io_unit *u, uint64_t bytes)
{
	struct dir_stats *ds = &s->ts->dir[u->ddir];
	if (__builtin_expect(bytes < u->len, 0) && !s->no_io)
		complete_short(s, u, bytes);
	ds->io_bytes += bytes;
	ds->total_ios++;
}

/* complete_one when no per-I/O extra is on (s->lean): counted and timed, as complete_one
 * counts and times (the same two steps and record_lat), with nothing else. */
static inline void complete_lean(struct wstate *s, struct io_unit *u, uint64_t t)
{
	uint64_t bytes = (uint64_t)u->result;
	s->last_done = u->ddir;
	count_done(s, u, bytes);
	if (!s->measuring)
		return;
	count_measured(s, u, bytes);
	record_lat(s, s->ts, &s->ts->dir[u->ddir], u, t - u->issue_ns, t);
}

static void complete_one(struct wstate *s, struct io_unit *u, enum unit_state from, uint64_t t)
{
	unit_free(s, u, from);
	if (s->lean && u->result >= 0) {
		complete_lean(s, u, t);
		return;
	}
	lockfile_done(&s->env, u);
	if (__builtin_expect(s->debug_io, 0))
		io_debug(s, "complete", u);
	s->last_done = u->ddir;
	if (s->zone.mode)
		zone_done(s, u);
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
	count_done(s, u, bytes);
	if (__builtin_expect(s->lat.on, 0) && lat_search_io(&s->lat, t - u->start_ns))
		latency_fatal(s, u, t);
	int late = s->o->io.max_latency_us[u->ddir] ? werr_latency(s, u, t - u->issue_ns) : 0;
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
	count_measured(s, u, bytes);
	complete_latency(s, u, bytes, t);
}

/* ---- submit and reap ---- */

void io_commit(struct wstate *s)
{
	struct thread_stats *ts = s->ts;
	if (!s->nr_pending)
		return;
	int ret = engine_commit(s->w->ops, &s->eng);
	s->now = clock_fast_ns(s->clk);
	if (ret < 0) {
		job_say(s->o->name, "submit failed: %s", strerror(-ret));
		worker_fail(s, ret);
		s->inflight -= s->nr_pending;
		for (unsigned i = 0; i < s->nr_pending; i++) {
			unit_free(s, s->pending[i], UNIT_QUEUED);
			lockfile_done(&s->env, s->pending[i]);
		}
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
	ts->depth_map[depth_bucket(s->inflight)] += s->nr_pending; /* as fio: the depth at submission */
	ts->submit_map[batch_bucket(s->nr_pending)]++;
	ts->total_submit++;
	s->nr_pending = 0;
}

/* The n I/Os just reaped had completed when the engine's last call into the kernel returned,
 * and the core read s->now right after that call (it reads the clock after every commit and
 * every reap that waited): s->now is their completion time, and no clock read is needed.
 * Not for an I/O issued by that very call (its issue time is s->now: it would show no
 * latency at all). */
static inline bool reaped_by_last_call(const struct wstate *s, int n)
{
	if (!s->eng.events_before_last_call || n <= 0)
		return false;
	for (int i = 0; i < n; i++)
		if (s->events[i]->issue_ns == s->now)
			return false;
	return true;
}

/* Wait for completions: at least min, or until timeout_ns (0 = no timeout). */
void io_reap(struct wstate *s, unsigned min, uint64_t timeout_ns)
{
	struct timespec ts = { 0, 0 };
	if (timeout_ns) /* no division per reap when there is no timeout */
		ts = (struct timespec){ (time_t)(timeout_ns / NS_PER_SEC), (long)(timeout_ns % NS_PER_SEC) };
	unsigned max = s->complete_max > min ? s->complete_max : min;
	if (max > s->inflight)
		max = s->inflight;
	int n = engine_getevents(s->w->ops, &s->eng, min, max, timeout_ns ? &ts : NULL);
	if (!reaped_by_last_call(s, n))
		s->now = clock_fast_ns(s->clk);
	if (n < 0) {
		job_say(s->o->name, "reaping I/O failed: %s", strerror(-n));
		worker_fail(s, n);
		for (unsigned i = 0; i < s->depth; i++) /* nothing more can be reaped: give them up */
			if (s->unit_state[i] == UNIT_INFLIGHT) {
				unit_free(s, &s->units[i], UNIT_INFLIGHT);
				lockfile_done(&s->env, &s->units[i]);
			}
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

void io_drain(struct wstate *s)
{
	io_commit(s);
	while (s->inflight)
		io_reap(s, s->inflight, 0);
	units_check(s);
}

/* fsync=N / fdatasync=N / end_fsync: the queue drained, then the call, timed. */
void io_sync_file(struct wstate *s, struct wfile *f, unsigned how)
{
	bool datasync = how & IOSYNC_DATA;
	bool by_engine = engine_syncs_files(s->w->ops); /* an RBD image: flushed by the engine */
	if (wf_fd(s, f) < 0 && !by_engine)
		return;
	io_drain(s);
	if (s->rec.on)
		iolog_rec_sync(s, (unsigned)(f - s->files), datasync);
	uint64_t t0 = clock_fast_ns(s->clk);
	int ret = by_engine ? engine_sync_file(s->w->ops, &s->eng, (unsigned)(f - s->files))
			    : (datasync ? fdatasync(wf_fd(s, f)) : fsync(wf_fd(s, f))) < 0 ? -errno : 0;
	s->now = clock_fast_ns(s->clk);
	if (ret < 0) {
		int err = ret;
		job_say(s->o->name, "%s of %s failed: %s", datasync ? "fdatasync" : "fsync", wf_cf(s, f)->path,
			strerror(-err));
		worker_fail(s, err);
		return;
	}
	if (how & IOSYNC_QUIET)
		return;
	s->ts->issued[DDIR_NR]++;
	if (s->measuring) {
		series_add(&s->ts->sync_lat, s->now - t0);
		hist_record(&s->ts->sync_hist, s->now - t0);
	}
}

/* An I/O the engine completed at once (sync engines): accounted as a batch of one. */
void io_complete_at_once(struct wstate *s, struct io_unit *u)
{
	struct thread_stats *ts = s->ts;
	s->now = clock_fast_ns(s->clk);
	ts->depth_map[depth_bucket(s->inflight + 1)]++; /* a trim amid an async engine's I/Os */
	ts->submit_map[batch_bucket(1)]++;
	ts->complete_map[batch_bucket(1)]++;
	ts->total_submit++;
	ts->total_complete++;
	complete_one(s, u, UNIT_PREPARED, s->now);
}

/* As fio 3.33 issues them: a sync comes before the job's next I/O once its writes (all files')
 * are a multiple of N, never two in a row; none after its last I/O. A new pass over the files
 * (loops, io_size beyond size) starts afresh (offsets.c), so its first I/O gets one again:
 * 16 writes with fsync=1 make 15 syncs, twice that over loops=2 make 32. */
void io_sync_if_due(struct wstate *s, struct wfile *f)
{
	const struct job_opts *o = s->o;
	uint64_t w = s->syncs.writes;
	if (s->syncs.last_sync || !w)
		return;
	if (o->fsync_blocks && w % o->fsync_blocks == 0)
		io_sync_file(s, f, 0);
	else if (o->fdatasync_blocks && w % o->fdatasync_blocks == 0)
		io_sync_file(s, f, IOSYNC_DATA);
	else
		return;
	s->syncs.last_sync = true;
}
