/* A worker's part for core/job/options_io.c's file and sync options: pre_read, unlink_each_loop's
 * loop boundaries, sync_file_range's ranges and calls, max_latency. The loop (worker.c)
 * drains the queue before the calls that need it and decides what a failure does. */
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/lib/clock.h"
#include "core/worker/offload.h"
#include "core/worker/worker_int.h"
#include "core/lib/say.h"

int extra_setup(struct wstate *s)
{
	const struct job_opts *o = s->o;
	if (o->io.sfr_nr) {
		s->x.sfr_lo = calloc(s->nfiles, sizeof(*s->x.sfr_lo));
		s->x.sfr_hi = calloc(s->nfiles, sizeof(*s->x.sfr_hi));
		if (!s->x.sfr_lo || !s->x.sfr_hi)
			return worker_nomem(s, "sync_file_range's ranges", 2 * s->nfiles * sizeof(uint64_t));
		for (unsigned i = 0; i < s->nfiles; i++)
			s->x.sfr_lo[i] = UINT64_MAX;
	}
	s->x.flow = s->w->flow;
	s->x.flow_ios = s->w->flow_ios;
	if (o->io.flow && !s->x.flow && s->w->flows &&
	    !(s->x.flow = flow_join(s->w->flows, o->io.flow_id, o->io.flow, &s->x.flow_ios))) {
		job_say(o->name, "flow_id=%u: more than %d flows in one run", o->io.flow_id, FLOW_MAX);
		return -E2BIG;
	}
	if (o->io.unlink_each_loop && o->loops > 1 && !o->time_based && !(s->w->ops->flags & ENGINE_NO_FILE)) {
		s->x.loop_bytes = s->io_limit / o->loops;
		s->x.loop_end = s->x.loop_bytes;
	}
	return 0;
}

/* The worker ends, however it ends (engine cleaned up): the offload wrapper is freed, and its
 * weight leaves its flow (the others would wait for it). */
void extra_leave(struct wstate *s)
{
	offload_free(s->x.offload);
	s->x.offload = NULL;
	struct flow *f = s->x.flow ? s->x.flow : s->w->flow;
	if (f)
		flow_leave(s->w->flows, f, s->o->io.flow, s->x.flow ? s->x.flow_ios : s->w->flow_ios);
	s->x.flow = s->w->flow = NULL;
}

void extra_teardown(struct wstate *s)
{
	free(s->x.sfr_lo);
	free(s->x.sfr_hi);
	s->x.sfr_lo = s->x.sfr_hi = NULL;
}

/* pre_read: each file's region read once through the page cache, untimed, before the job. */
int extra_pre_read(struct wstate *s)
{
	const struct job_opts *o = s->o;
	if (!o->io.pre_read || (s->w->ops->flags & (ENGINE_NO_FILE | ENGINE_FILE_OP)))
		return 0;
	size_t chunk = 1u << 20;
	char *buf = malloc(chunk);
	if (!buf)
		return worker_nomem(s, "pre_read's buffer", chunk);
	int ret = 0;
	for (unsigned i = 0; i < s->nfiles && !ret; i++) {
		const struct clone_file *cf = &s->cfs[i];
		int fd = open(cf->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			job_say(o->name, "pre_read: cannot open '%s': %s", cf->path, strerror(-ret));
			break;
		}
		for (uint64_t off = cf->offset, end = cf->offset + cf->region; off < end;) {
			size_t n = end - off < chunk ? (size_t)(end - off) : chunk;
			ssize_t r = pread(fd, buf, n, (off_t)off);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) { /* the end of the file, or an error the job will meet itself */
				break;
			}
			off += (uint64_t)r;
		}
		close(fd);
	}
	free(buf);
	return ret;
}

bool extra_loop_over(const struct wstate *s)
{
	return s->x.loop_end && s->issued_bytes >= s->x.loop_end && s->issued_bytes < s->io_limit;
}

/* unlink_each_loop: between loops (the files are closed), as fio: removed, to be made again
 * when opened (a job that only reads then finds them gone). */
int extra_unlink_files(struct wstate *s)
{
	s->x.loop_end += s->x.loop_bytes;
	for (unsigned i = 0; i < s->nfiles; i++) {
		const char *path = s->cfs[i].path;
		struct stat st;
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && unlink(path) < 0) {
			int err = -errno;
			job_say(s->o->name, "unlink_each_loop: cannot remove '%s': %s", path, strerror(-err));
			return err;
		}
		s->files[i].pos[DDIR_READ] = s->files[i].pos[DDIR_WRITE] = 0;
	}
	return 0;
}

/* A write was handed over: its file's range grows; after N writes a sync is due. */
void extra_sfr_written(struct wstate *s, unsigned file, uint64_t off, uint64_t len)
{
	if (off < s->x.sfr_lo[file])
		s->x.sfr_lo[file] = off;
	if (off + len > s->x.sfr_hi[file])
		s->x.sfr_hi[file] = off + len;
	if (++s->x.sfr_writes % s->o->io.sfr_nr == 0)
		s->x.sfr_due = true;
}

/* sync_file_range(2) of each file's range, timed as a sync (the queue is drained). */
int extra_sfr_sync(struct wstate *s)
{
	s->x.sfr_due = false;
	for (unsigned i = 0; i < s->nfiles; i++) {
		struct wfile *f = &s->files[i];
		if (s->x.sfr_lo[i] == UINT64_MAX || wf_fd(s, f) < 0)
			continue;
		uint64_t t0 = clock_fast_ns(s->clk);
		int ret = sync_file_range(wf_fd(s, f), (off64_t)s->x.sfr_lo[i], (off64_t)(s->x.sfr_hi[i] - s->x.sfr_lo[i]),
					  s->o->io.sfr_flags);
		s->now = clock_fast_ns(s->clk);
		if (ret < 0) {
			int err = -errno;
			job_say(s->o->name, "sync_file_range of %s failed: %s", wf_cf(s, f)->path, strerror(-err));
			return err;
		}
		s->x.sfr_lo[i] = UINT64_MAX;
		s->x.sfr_hi[i] = 0;
		if (s->measuring) {
			series_add(&s->ts->sync_lat, s->now - t0);
			hist_record(&s->ts->sync_hist, s->now - t0);
		}
	}
	return 0;
}

bool extra_flow_held(struct wstate *s)
{
	return !flow_may_issue(s->x.flow, s->o->io.flow, &s->x.flow_ios);
}

/* Held back (the queue is drained): flow_sleep, or (0) just let the other jobs run. */
void extra_flow_wait(struct wstate *s)
{
	if (s->o->io.flow_sleep_us)
		clock_sleep_ns(pace_bound(s, s->o->io.flow_sleep_us * 1000ULL));
	else
		sched_yield();
	s->now = clock_fast_ns(s->clk);
}

bool extra_overlaps(const struct wstate *s, const struct io_unit *u)
{
	for (unsigned i = 0; i < s->depth; i++) {
		const struct io_unit *v = &s->units[i];
		unsigned char st = s->unit_state[i];
		if (v == u || (st != UNIT_QUEUED && st != UNIT_INFLIGHT) || v->file_index != u->file_index)
			continue;
		if (v->offset < u->offset + u->len && u->offset < v->offset + v->len)
			return true;
	}
	return false;
}

/* unlink_each_loop: a loop is over (the loop drained the queue): the files closed, removed,
 * and opened (made) again. 0 or -errno after a line. */
int extra_next_loop(struct wstate *s)
{
	close_files(s);
	int ret = extra_unlink_files(s);
	if (!ret)
		ret = open_files(s);
	if (!ret && (ret = engine_post_open(s->w->ops, &s->eng)))
		job_say(s->o->name, "engine %s: %s%s%s", s->w->ops->name, strerror(-ret), s->eng.why[0] ? ": " : "",
			s->eng.why);
	return ret;
}

/* io_submit_mode=offload: submitter threads behind a wrapper engine, which the loop calls. */
int extra_offload_wrap(struct wstate *s)
{
	if (s->o->io.submit_mode != SUBMIT_OFFLOAD)
		return 0;
	if (!(s->x.offload = offload_new(s, s->w->ops, s->o->iodepth, s->w->plan->nfiles)))
		return worker_nomem(s, "io_submit_mode=offload's threads", sizeof(void *) * s->o->iodepth);
	s->w->ops = offload_ops(s->x.offload);
	return 0;
}
