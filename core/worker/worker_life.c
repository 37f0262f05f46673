/* One clone's life around its loop: start delay, the engine, files, and every part of the
 * worker (worker_int.h) set up in order, worker_loop (worker.c), then all of it torn down
 * in reverse however the job went. Nothing here runs per I/O. */
#include "core/worker/worker.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lib/clock.h"
#include "core/lib/debug.h"
#include "core/lib/say.h"
#include "core/worker/worker_int.h"

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
	job_say(s->o->name, "engine %s: %s%s%s%s", s->w->ops->name, what, strerror(-ret), s->eng.why[0] ? ": " : "",
		s->eng.why);
}

static int logs_setup(struct wstate *s)
{
	const struct job_opts *o = s->o;
	if (!o->bw_log[0] && !o->iops_log[0] && !o->lat_log[0] && !o->hist_log[0])
		return 0;
	if (!(s->logs = malloc(sizeof(*s->logs))))
		return worker_nomem(s, "state of its logs", sizeof(*s->logs));
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
	worker_loop(s);
	if (s->logs && perflogs_write(s->logs, s->o, s->w->log_index) && !s->w->err)
		s->w->err = -EIO;
}

/* --debug=job,random: the clone's start. */
static void debug_start(const struct wstate *s)
{
	const struct worker *w = s->w;
	if (debug_on(w->debug, DBG_JOB))
		debug_print(DBG_JOB, "job '%s' clone %u: starting, depth %u, %u file%s\n", w->o->name, w->clone, s->depth,
			    s->nfiles, s->nfiles == 1 ? "" : "s");
	if (debug_on(w->debug, DBG_RANDOM))
		debug_print(DBG_RANDOM, "job '%s' clone %u: seed 0x%llx (randrepeat=%d)\n", w->o->name, w->clone,
			    (unsigned long long)w->seed, (int)w->o->randrepeat);
}

/* The parts set up once the files are open: verify, trims, core/job/options_io.c's (pre_read
 * reads the files here), the logs. */
static int parts_setup(struct wstate *s)
{
	int ret = verify_setup(s);
	if (!ret)
		ret = trim_setup(s);
	if (!ret)
		ret = extra_setup(s);
	if (!ret)
		ret = extra_pre_read(s);
	return ret ? ret : logs_setup(s);
}

static void parts_teardown(struct wstate *s)
{
	extra_teardown(s);
	trim_teardown(s);
	verify_teardown(s);
}

/* The very end, however the job went: the real engine back, the flow left, the state freed. */
static void worker_release(struct wstate *s, const struct engine_ops *real_ops)
{
	s->w->ops = real_ops;
	extra_leave(s); /* the offload threads' state, the flow */
	free_state(s);
	env_leave(s);
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
	ret = env_enter(&s); /* cgroup, priorities, NUMA, uid/gid, lockmem: in the thread */
	if (ret)
		goto out_free_state;
	start_delay(&s);
	ret = extra_offload_wrap(&s);
	if (ret)
		goto out_free_state;
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
	debug_start(&s);
	offsets_init(&s);
	pace_init(&s);
	ret = zone_setup(&s);
	if (ret)
		goto out_zone_teardown;
	ret = iolog_setup(&s);
	if (ret)
		goto out_iolog_teardown;
	ret = parts_setup(&s);
	if (ret)
		goto out_verify_teardown;
	ret = env_prerun(&s);
	if (!ret) {
		worker_body(&s);
		if (env_postrun(&s) && !s.w->err)
			s.w->err = -EIO;
	}
	logs_teardown(&s);
out_verify_teardown:
	parts_teardown(&s);
out_iolog_teardown:
	if (iolog_teardown(&s) && !ret)
		ret = -EIO;
out_zone_teardown:
	zone_teardown(&s);
out_close_files:
	close_files(&s);
out_cleanup_engine:
	engine_cleanup(w->ops, &s.eng);
out_free_state:
	worker_release(&s, real_ops);
	if (ret && !w->err) {
		w->err = ret;
		w->ts->error = -ret;
	}
	if (debug_on(w->debug, DBG_JOB))
		debug_print(DBG_JOB, "job '%s' clone %u: done, err=%d\n", w->o->name, w->clone, -w->err);
	return w->err;
}
