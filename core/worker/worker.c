/* One clone's loop: prepare and issue (the workload's I/O, verify reads, the trims of
 * chosen blocks), fill the queue, reap. The I/O with the engine (completions, submit, reap,
 * drain) is worker_io.c's; the clone's life around the loop (set-up and teardown of its
 * parts) is worker_life.c's. The other parts of the worker (worker_int.h) are called from
 * here and never call back.
 * Per I/O: no locks, no allocation, no syscalls but the I/O's own; one clock read per
 * timestamp (prepare, submit batch, reap batch). */
#include "core/worker/worker.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/lib/clock.h"
#include "core/lib/debug.h"
#include "core/lib/say.h"
#include "core/worker/worker_int.h"

/* ---- issue ---- */

/* The workload has issued all it may for now: all of it, or (verify after each loop) this
 * loop's share. */
static inline bool workload_spent(const struct wstate *s)
{
	const struct job_opts *o = s->o;
	if (s->replay.on) /* the log says how much */
		return replay_done(&s->replay);
	if (o->number_ios && s->issued_ios >= o->number_ios)
		return true;
	if (o->time_based)
		return false;
	return s->issued_bytes >= s->io_limit || (verify_pass_end(s) && s->issued_bytes >= verify_pass_end(s));
}

/* ... and the chosen blocks left are trimmed (trim_percentage): a verify phase, or the end,
 * may come. */
static bool workload_paused(const struct wstate *s)
{
	return workload_spent(s) && !trim_owed(s);
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
	io_commit(s);
	wait = pace_bound(s, wait);
	if (!wait) /* the deadline has come */
		s->now = clock_fast_ns(s->clk);
	else if (s->inflight)
		io_reap(s, 1, wait);
	else
		clock_sleep_ns(wait), s->now = clock_fast_ns(s->clk);
}

/* opendir whole-file reads: the file f is the one open (drained and switched if not). */
static bool whole_ready(struct wstate *s, struct wfile *f)
{
	if (wf_fd(s, f) >= 0 && !whole_switching(s, f))
		return true;
	if (whole_switching(s, f))
		io_drain(s);
	int ret = whole_open(s, f);
	if (ret)
		worker_fail(s, ret);
	return !ret;
}

static bool queue_prepared(struct wstate *s, struct io_unit *u);

/* zonemode: where the I/O goes (zone_run.c decides). A zone with writes in flight waits:
 * this clone's are drained, another's are waited for. false: nothing is issued now. */
static bool zone_ready(struct wstate *s, struct wfile **f, enum ddir d, uint64_t *off, uint64_t *len)
{
	int r;
	while ((r = zone_next(s, f, d, off, len)) == ZONE_BUSY && !atomic_load_explicit(s->w->stop, memory_order_relaxed)) {
		if (s->inflight)
			io_drain(s);
		else
			clock_sleep_ns(ZONE_WAIT_NS);
	}
	if (r == ZONE_GO)
		return true;
	if (r < 0)
		worker_fail(s, r);
	/* The zones are done: so is the workload (a verify phase may follow), or the run stops. */
	s->io_limit = s->issued_bytes;
	if (r < 0 || r == ZONE_BUSY || s->o->time_based)
		s->issuing_done = true;
	return false;
}

/* A verify read of what was written (verify_phase.c chose it). */
static bool issue_check(struct wstate *s, const struct verify_entry *e)
{
	struct wfile *f = &s->files[e->file];
	struct io_unit *u = unit_take(s);
	u->ddir = DDIR_READ;
	u->len = e->len;
	u->offset = e->off;
	u->fd = wf_fd(s, f);
	u->file_index = e->file;
	verify_mark(s, u, e->zeros ? VCHECK_ZEROS : VCHECK_DATA);
	trim_verified(s, e->file, e->off); /* read back as written: not trimmed now (trim_percentage) */
	return queue_prepared(s, u);
}

/* A chosen block's trim (trim.c chose it). */
static bool issue_trim(struct wstate *s, const struct trim_entry *e)
{
	struct wfile *f = &s->files[e->file];
	struct io_unit *u = unit_take(s);
	u->ddir = DDIR_TRIM;
	u->len = e->len;
	u->offset = e->off;
	u->fd = wf_fd(s, f);
	u->file_index = e->file;
	verify_mark(s, u, VCHECK_NONE);
	return queue_prepared(s, u);
}

/* trim_percentage: true when a chosen block's trim is next (*issued: it was queued). */
static bool trim_turn(struct wstate *s, bool *issued)
{
	struct trim_entry e;
	enum trim_step step;
	while ((step = trim_next(s, workload_spent(s), s->last_done == DDIR_READ, &e)) == TSTEP_DRAIN)
		io_drain(s); /* its write must be done first */
	*issued = step == TSTEP_TRIM && issue_trim(s, &e);
	return step == TSTEP_TRIM;
}

/* verify: true when it is not the workload's turn (*issued: a read back was queued). */
static bool verify_turn(struct wstate *s, bool *issued)
{
	struct verify_entry e;
	enum verify_step step;
	while ((step = verify_next(s, workload_paused(s), &e)) == VSTEP_DRAIN)
		io_drain(s); /* what it reads back must be written first */
	*issued = step == VSTEP_READ && issue_check(s, &e);
	return step == VSTEP_READ || workload_paused(s);
}

/* read_iolog: the log's next I/O or sync, when it is due. */
static bool issue_replay(struct wstate *s)
{
	struct replay_io io;
	switch (replay_next(s, &io)) {
	case REPLAY_WAIT:
		wait_for_slot(s, io.wait_ns);
		return false;
	case REPLAY_SYNC:
		io_sync_file(s, &s->files[io.file], io.act == IOLOG_DATASYNC ? IOSYNC_DATA : 0);
		return true;
	case REPLAY_DONE:
		return false;
	case REPLAY_IO:
		break;
	}
	struct wfile *f = &s->files[io.file];
	struct io_unit *u = unit_take(s);
	u->ddir = (enum ddir)io.act;
	u->len = io.len;
	u->offset = io.off;
	u->fd = wf_fd(s, f);
	u->file_index = io.file;
	verify_mark(s, u, false);
	if (u->ddir == DDIR_WRITE)
		buffers_fill(s, u);
	return queue_prepared(s, u);
}

static bool queue_lean(struct wstate *s, struct io_unit *u);

/* issue_one when no per-I/O extra is on (s->lean): direction, length, file, offset. */
static bool issue_lean(struct wstate *s)
{
	enum ddir d = s->lean_ddir >= 0 ? (enum ddir)s->lean_ddir : offsets_next_ddir(s);
	uint64_t len = s->lean_bs[d] ? s->lean_bs[d] : offsets_next_len(s, d);
	if (!s->o->time_based && s->issued_bytes + len > s->io_limit)
		len = s->io_limit - s->issued_bytes; /* the last I/O takes what is left */
	struct wfile *f = s->nfiles == 1 ? &s->files[0] : offsets_next_file(s);
	struct io_unit *u = unit_take(s);
	u->ddir = d;
	u->len = len;
	u->offset = s->off.uniform == 1 ? offsets_uniform(s, f, len) : offsets_next(s, f, d, len);
	u->fd = wf_fd(s, f);
	u->file_index = (unsigned)(f - s->files);
	if (d == DDIR_WRITE)
		buffers_fill(s, u);
	return queue_lean(s, u);
}

/* Prepare one I/O and queue it. Returns false when the caller should stop filling for now. */
static bool issue_one(struct wstate *s)
{
	const struct job_opts *o = s->o;
	if (s->retry) /* the engine was busy: the I/O it refused goes first, as prepared */
		return queue_prepared(s, s->retry);
	if (s->lean)
		return issue_lean(s);
	if (s->replay.on)
		return issue_replay(s);
	bool issued;
	if (s->ver.on && verify_turn(s, &issued))
		return issued;
	if (s->x.flow && extra_flow_held(s)) { /* flow control: ahead of its share; let the others go */
		io_drain(s);
		extra_flow_wait(s);
		return false;
	}
	if (s->x.sfr_due) { /* sync_file_range: N writes were issued, before the next I/O */
		io_drain(s);
		int ret = extra_sfr_sync(s);
		if (ret)
			return worker_fail(s, ret), false;
	}
	if (s->trim.chosen_on && trim_turn(s, &issued))
		return issued;
	enum ddir d = s->zone.mode ? zone_ddir(s, offsets_next_ddir(s)) : offsets_next_ddir(s);
	bool dry = o->verify_only && job_has_dir(o, DDIR_WRITE);
	uint64_t wait = dry ? 0 : pace_wait_pick(s, &d);
	if (wait) {
		wait_for_slot(s, wait);
		return false;
	}
	uint64_t len = offsets_next_len(s, d);
	bool counted = d != DDIR_TRIM || s->trim.counted;
	if (counted && !o->time_based && s->issued_bytes + len > s->io_limit)
		len = s->io_limit - s->issued_bytes; /* the last I/O takes what is left */
	struct wfile *f = offsets_next_file(s);
	io_sync_if_due(s, f);
	if (s->trim.pairs) { /* trimwrite: a new pass over f, or the end */
		enum trim_pass p = offsets_pass_check(s, f, d, len);
		if (p == PASS_END)
			s->issuing_done = true;
		if (p != PASS_GO)
			return p == PASS_AGAIN;
	}
	uint64_t zoff = 0;
	if (s->zone.mode && !zone_ready(s, &f, d, &zoff, &len))
		return false;
	if (dry)
		return verify_dry(s, f, d, len, s->zone.mode ? zoff : offsets_next(s, f, d, len)), true;
	if (s->whole.on) {
		if (!whole_ready(s, f))
			return false;
		len = whole_len(s, f, d, len);
	}
	struct io_unit *u = unit_take(s);
	u->ddir = d;
	u->len = len;
	u->offset = s->zone.mode ? zoff : offsets_next(s, f, d, len);
	if (!s->syncs.last_sync) { /* a new pass may have begun (fio reopens the files): its first I/O's sync */
		s->retry = u;     /* prepared, not in flight, while the queue drains */
		io_sync_if_due(s, f);
		s->retry = NULL;
	}
	u->fd = wf_fd(s, f);
	u->file_index = (unsigned)(f - s->files);
	if (s->zone.mode)
		zone_bind(s, u);
	verify_mark(s, u, VCHECK_NONE);
	while (o->io.serialize_overlap && extra_overlaps(s, u)) { /* what it overlaps completes first */
		io_commit(s);
		io_reap(s, 1, 0);
	}
	if (d == DDIR_WRITE) {
		if (s->ver.on)
			verify_stamp(s, u);
		else
			buffers_fill(s, u);
	}
	return queue_prepared(s, u);
}

/* After a write was handed over: fsync=N / fdatasync=N, the verify map and backlog, the
 * trim_percentage choice. */
static void after_write(struct wstate *s, struct wfile *f, const struct io_unit *u)
{
	const struct job_opts *o = s->o;
	wf_mark_written(s, (size_t)(f - s->files));
	s->syncs.writes++; /* fsync=N, fdatasync=N: the sync comes before the next I/O */
	if (s->ver.on)
		verify_written(s, f, u->offset, u->len);
	if (o->io.sfr_nr)
		extra_sfr_written(s, u->file_index, u->offset, u->len);
	trim_written(s, f, u->offset, u->len);
}

/* lockfile=: the I/O's file is locked for it; when the lock must be waited for, the queue
 * drains first (false: the run stops, the I/O is given up). */
static bool lock_for_io(struct wstate *s, struct io_unit *u)
{
	if (lockfile_take(&s->env, u) != -EAGAIN)
		return true;
	s->retry = u; /* prepared, not in flight, while the queue drains */
	io_drain(s);
	s->retry = NULL;
	if (!lockfile_wait(&s->env, u, s->w->stop))
		return true;
	unit_free(s, u, UNIT_PREPARED);
	s->issuing_done = true;
	return false;
}

/* The engine did not take u: busy (kept for a retry), failed, or done. */
static bool queue_refused(struct wstate *s, struct io_unit *u, int r)
{
	lockfile_done(&s->env, u); /* taken again when it is queued again */
	if (r == Q_BUSY) { /* keep it, offset and data as they are; try again after a commit */
		s->retry = u;
		io_commit(s);
		return false;
	}
	unit_free(s, u, UNIT_PREPARED); /* failed, or the engine has nothing more to do */
	if (r < 0)
		worker_fail(s, r);
	else
		s->issuing_done = true;
	return false;
}

/* A unit the engine queued (not completed): submitted at the batch's end or when no unit is left. */
static inline void queue_pending(struct wstate *s, struct io_unit *u)
{
	unit_move(s, u, UNIT_PREPARED, UNIT_QUEUED);
	s->pending[s->nr_pending++] = u;
	s->inflight++;
	if (s->nr_pending >= s->batch_submit || !s->nr_free)
		io_commit(s);
}

/* queue_prepared when no per-I/O extra is on (s->lean). */
static bool queue_lean(struct wstate *s, struct io_unit *u)
{
	enum ddir d = u->ddir;
	cmdprio_pick(&s->env, u);
	s->now = u->start_ns = u->issue_ns = clock_fast_ns(s->clk);
	int r = engine_queue(s->w->ops, &s->eng, u);
	if (r != Q_COMPLETED && r != Q_QUEUED)
		return queue_refused(s, u, r);
	if (!s->no_io)
		s->issued_bytes += u->len;
	s->issued_ios++;
	s->ts->issued[d]++;
	s->syncs.last_sync = false;
	if (d == DDIR_WRITE) {
		wf_mark_written(s, u->file_index);
		s->syncs.writes++;
	}
	if (r == Q_COMPLETED) {
		io_complete_at_once(s, u);
		return false; /* a sync engine lets the caller check the time */
	}
	queue_pending(s, u);
	return true;
}

/* Hand a prepared I/O to the engine and account for it. */
static bool queue_prepared(struct wstate *s, struct io_unit *u)
{
	enum ddir d = u->ddir;
	struct wfile *f = &s->files[u->file_index];
	bool again = s->retry == u; /* a busy engine refused it: as it was prepared */
	s->retry = NULL;
	if (!again)
		cmdprio_pick(&s->env, u); /* its priority (cmdprio_*) */
	if (s->env.lock_mode && !lock_for_io(s, u))
		return false;
	s->now = u->start_ns = u->issue_ns = clock_fast_ns(s->clk);
	/* zonemode=zbd: a sequential zone's trim is its reset, done by zone_run.c */
	int r = s->zone.mode && zone_trim(s, u) ? Q_COMPLETED : engine_queue(s->w->ops, &s->eng, u);
	if (r != Q_COMPLETED && r != Q_QUEUED)
		return queue_refused(s, u, r);
	if (__builtin_expect(s->debug_io, 0))
		io_debug(s, "queue", u);
	if (s->rec.on)
		iolog_rec_io(s, u);
	bool check = verify_is_check(s, u); /* a verify read: not the workload's */
	if (!check) {
		if (d != DDIR_TRIM || s->trim.counted) {
			if (!s->no_io)
				s->issued_bytes += u->len;
			s->issued_ios++;
		}
		pace_issued(s, d, u->len);
	}
	s->ts->issued[d]++;
	s->syncs.last_sync = false;
	if (r == Q_COMPLETED) {
		io_complete_at_once(s, u);
	} else {
		queue_pending(s, u);
	}
	if (d == DDIR_WRITE)
		after_write(s, f, u);
	else if (d == DDIR_TRIM && s->ver.on)
		verify_trimmed(s, f, u->offset, u->len); /* what it held reads back as zeros now */
	if (!check && pace_think_due(s)) {
		if (s->o->io.think_type == THINK_COMPLETE) /* after the blocks completed; =issue: in flight */
			io_drain(s);
		else
			io_commit(s);
		pace_think(s);
		return false;
	}
	return r != Q_COMPLETED; /* a sync engine lets the caller check the time */
}

/* Room for another I/O: a free unit, within the depth latency_target allows. The unit a busy
 * engine refused (s->retry) holds a unit of its own: with nothing in flight no unit will come
 * free (iodepth=1: it is the only one; io_uring's ring full while its kernel submission thread
 * had not taken the last entry yet), so it is room then, or the loop waits for ever. */
static inline bool queue_room(const struct wstate *s)
{
	return (s->nr_free || (s->retry && !s->inflight)) && s->inflight < s->lat.depth;
}

/* Prepare and queue I/Os until the depth is full or there is nothing left to issue. */
static void fill_queue(struct wstate *s)
{
	int ret;
	while (queue_room(s) && !s->issuing_done) {
		if (out_of_work(s)) {
			if (s->retry) { /* never handed over: back to the free units */
				unit_free(s, s->retry, UNIT_PREPARED);
				s->retry = NULL;
			}
			s->issuing_done = true;
			break;
		}
		if (s->x.loop_end && extra_loop_over(s) && (io_drain(s), ret = extra_next_loop(s))) { /* unlink_each_loop */
			worker_fail(s, ret);
			break;
		}
		if (!issue_one(s))
			break;
	}
	io_commit(s);
}

static void reap(struct wstate *s)
{
	bool full = !queue_room(s);
	if (!s->inflight || !(full || s->issuing_done))
		return;
	unsigned min = s->complete_min ? s->complete_min : 1;
	if (full && s->depth_low < s->depth && s->inflight > s->depth_low)
		min = s->inflight - s->depth_low;
	if (min > s->inflight)
		min = s->inflight;
	io_reap(s, min, 0);
}

/* ---- the loop ---- */

/* latency_target: what the depth search asks for at this turn of the loop. */
static void check_latency(struct wstate *s)
{
	enum lat_action a = lat_search_check(&s->lat, s->now, s->measuring);
	if (a == LAT_DRAIN || a == LAT_FINAL)
		io_drain(s);
	if (a == LAT_FINAL)
		time_restart(s); /* the depth is found: its own window is what the job reports */
	if (a == LAT_DRAIN || a == LAT_FINAL)
		lat_search_window(&s->lat, s->now);
	if (a == LAT_DONE)
		s->issuing_done = true;
	s->ts->latency_depth = s->lat.depth;
}

static void check_time(struct wstate *s)
{
	int ret = time_check(s);
	if (ret)
		worker_fail(s, ret);
	if (s->ssc.unit && steady_tick(&s->ssc, s->now, s->ts))
		s->issuing_done = true; /* steady state attained: the job (and its unit) ends */
	if (s->lat.on)
		check_latency(s);
}

/* After the loop: end_fsync, and a job that did less than asked (short I/Os, tolerated
 * errors) fails. */
static void end_of_run(struct wstate *s)
{
	struct thread_stats *ts = s->ts;
	for (unsigned i = 0; i < s->nfiles && !s->w->err; i++)
		if (wf_written(s, i) && (s->o->end_fsync || s->o->fsync_on_close))
			io_sync_file(s, &s->files[i], IOSYNC_QUIET); /* not in the sync figures, as fio */
	uint64_t shorts = ts->dir[0].short_ios + ts->dir[1].short_ios + ts->dir[2].short_ios;
	if (shorts && !s->w->err) {
		job_say(s->o->name, "%llu short I/O%s: the job did less than it was asked", (unsigned long long)shorts,
			shorts > 1 ? "s" : "");
		s->w->err = -EIO;
		if (!ts->error)
			ts->error = EIO;
	}
	int ret = werr_finish(s); /* errors gone on after: short of what was asked, unless named */
	if (ret && !s->w->err)
		s->w->err = ret;
}

/* The loop itself, from the first clock read to the last completion and end_fsync. */
void worker_loop(struct wstate *s)
{
	s->now = s->start_ns = clock_fast_ns(s->clk);
	time_start(s);
	steady_start(&s->ssc, s->w->ss, s->w->ss_member, s->start_ns, s->w->debug);
	lat_search_init(&s->lat, s->o, s->depth, s->start_ns, s->w->debug);
	setup_lean(s);
	check_time(s);
	while (!s->issuing_done || s->inflight) {
		fill_queue(s);
		reap(s);
		units_check(s);
		if (s->now >= s->tick_ns || s->ssc.unit || s->lat.on) /* else time_check has nothing due */
			check_time(s);
	}
	int ret = verify_finish(s);
	if (ret)
		worker_fail(s, ret);
	end_of_run(s);
	time_finish(s);
	whole_close(s);
}
