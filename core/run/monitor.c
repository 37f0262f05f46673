/* The monitor: while a group runs, the main thread shows progress (the ETA line every
 * --eta-interval, on its own line every --eta-newline), samples the aggregate bandwidth
 * (--bandwidth-log), watches the trigger (--trigger-file, --trigger-timeout) and, with
 * --status-interval, reports built from the clones' published copies. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/lib/clock.h"
#include "core/lib/debug.h"
#include "core/lib/outfile.h"
#include "core/run/run.h"
#include "core/lib/signals.h"

extern char **environ;

static char state_letter(const struct job_opts *o, int state)
{
	if (state == CLONE_WAITING)
		return 'P';
	if (state == CLONE_DONE)
		return '_';
	bool rnd = o->rw & RW_RANDOM;
	if (job_has_dir(o, DDIR_READ) && job_has_dir(o, DDIR_WRITE))
		return rnd ? 'm' : 'M';
	if (job_has_dir(o, DDIR_TRIM) && !job_has_dir(o, DDIR_WRITE)) /* trimwrite is a W, as fio */
		return rnd ? 'd' : 'D';
	return job_has_dir(o, DDIR_WRITE) ? (rnd ? 'w' : 'W') : (rnd ? 'r' : 'R');
}

/* One clone's share done: time for time_based jobs, bytes otherwise. */
static double clone_done(const struct job_opts *o, const struct clone_result *c, uint64_t bytes,
			 uint64_t elapsed_ms, int state)
{
	if (state == CLONE_DONE)
		return 1.0;
	if (state == CLONE_WAITING)
		return 0.0;
	double by_time = o->runtime_us ? (double)elapsed_ms * 1000.0 / (double)(o->runtime_us + o->ramp_time_us) : 0;
	double by_bytes = c->plan.io_limit ? (double)bytes / (double)c->plan.io_limit : 0;
	double f = o->time_based ? by_time : (by_time > by_bytes ? by_time : by_bytes);
	return f > 1.0 ? 1.0 : f;
}

void run_progress_get(struct run_ctx *rc, struct run_progress *p)
{
	uint64_t now = clock_now_ns(), bytes[DDIR_NR] = { 0 }, ios[DDIR_NR] = { 0 };
	uint64_t bw_lo = 0, bw_hi = 0, iops_lo = 0, iops_hi = 0;
	double done = 0.0;
	size_t k = 0;
	memset(p, 0, sizeof(*p));
	p->total = (unsigned)rc->nclones;
	for (size_t i = 0; i < rc->nclones; i++) {
		struct clone_result *c = &rc->clones[i];
		const struct job_opts *o = &rc->cfg->jobs[c->job].o;
		int state = atomic_load(&c->progress.state);
		uint64_t b = 0;
		for (int d = 0; d < DDIR_NR; d++) {
			uint64_t x = atomic_load_explicit(&c->progress.bytes[d], memory_order_relaxed);
			bytes[d] += x;
			ios[d] += atomic_load_explicit(&c->progress.ios[d], memory_order_relaxed);
			b += x;
		}
		done += clone_done(o, c, b, atomic_load_explicit(&c->progress.elapsed_ms, memory_order_relaxed), state);
		p->running += state == CLONE_RUNNING;
		p->done += state == CLONE_DONE;
		for (int d = 0; state == CLONE_RUNNING && d < DDIR_NR; d++) {
			if (!job_has_dir(o, (enum ddir)d)) /* as fio: the directions the job does */
				continue;
			bw_lo += o->rate_min[d];
			bw_hi += o->rate[d];
			iops_lo += o->rate_iops_min[d];
			iops_hi += o->rate_iops[d];
		}
		if (k + 1 < sizeof(p->states))
			p->states[k++] = state_letter(o, state);
	}
	p->rate_kind = bw_lo || bw_hi ? 1 : iops_lo || iops_hi ? 2 : 0;
	p->rate_lo = p->rate_kind == 1 ? bw_lo : iops_lo;
	p->rate_hi = p->rate_kind == 1 ? bw_hi : iops_hi;
	p->pct_done = rc->nclones ? done * 100.0 / (double)rc->nclones : 100.0;
	double spent = (double)(now - rc->start_ns) / 1e9;
	p->eta_s = p->pct_done > 0.0 ? (uint64_t)(spent * (100.0 - p->pct_done) / p->pct_done + 0.5) : 0;
	double dt = rc->last_eta_ns ? (double)(now - rc->last_eta_ns) / 1e9 : 0.0;
	for (int d = 0; d < DDIR_NR; d++) {
		/* Counters restart after ramp_time: a drop is a new start, not negative I/O. */
		uint64_t db = bytes[d] >= rc->last_eta_bytes[d] ? bytes[d] - rc->last_eta_bytes[d] : bytes[d];
		uint64_t di = ios[d] >= rc->last_eta_ios[d] ? ios[d] - rc->last_eta_ios[d] : ios[d];
		p->bw[d] = dt > 0 ? (uint64_t)((double)db / dt) : 0;
		p->iops[d] = dt > 0 ? (uint64_t)((double)di / dt) : 0;
		rc->last_eta_bytes[d] = bytes[d];
		rc->last_eta_ios[d] = ios[d];
	}
	rc->last_eta_ns = now;
}

int run_status_snapshots(struct run_ctx *rc)
{
	for (size_t i = 0; i < rc->nclones; i++) {
		struct clone_result *c = &rc->clones[i];
		if (atomic_load(&c->progress.snap))
			continue;
		if (!c->status_copy && !(c->status_copy = calloc(1, sizeof(*c->status_copy))))
			return -ENOMEM;
		struct thread_stats *snap = calloc(1, sizeof(*snap));
		if (!snap)
			return -ENOMEM;
		atomic_store_explicit(&c->progress.snap, snap, memory_order_release);
	}
	return 0;
}

void run_use_snapshots(struct run_ctx *rc, bool on)
{
	for (size_t i = 0; i < rc->nclones; i++) {
		struct clone_result *c = &rc->clones[i];
		struct thread_stats *snap = atomic_load(&c->progress.snap);
		/* A finished clone's own stats are final: the report reads them as they are. */
		if (on && (!snap || !c->status_copy || atomic_load(&c->progress.state) == CLONE_DONE))
			continue;
		if (!on && !c->status_swapped)
			continue;
		if (on) { /* copy under the lock, so a worker never waits on the printer */
			pthread_mutex_lock(&c->progress.lock);
			memcpy(c->status_copy, snap, sizeof(*c->status_copy));
			pthread_mutex_unlock(&c->progress.lock);
		}
		struct thread_stats *t = c->ts; /* the report reads c->ts */
		c->ts = c->status_copy;
		c->status_copy = t;
		c->status_swapped = on;
	}
}

/* ---- ETA timing and the aggregate bandwidth log ---- */

static uint64_t eta_interval_ns(const struct run_ctx *rc)
{
	uint64_t ms = rc->cfg->prog.eta_interval_ms;
	return (ms ? ms : 1000) * NS_PER_MS;
}

void monitor_start(struct run_ctx *rc, uint64_t now)
{
	struct monitor_state *m = &rc->mon;
	const struct prog_flags *pf = &rc->cfg->prog;
	m->next_eta_ns = now + eta_interval_ns(rc);
	if (!m->last_newline_ns)
		m->last_newline_ns = rc->start_ns + pf->eta_newline_ms * NS_PER_MS;
	if (debug_on(pf->debug.mask, DBG_HELPERTHREAD))
		debug_print(DBG_HELPERTHREAD, "monitor: eta %s every %" PRIu64 "ms%s, status every %" PRIu64 "ms, "
			    "trigger %s\n", rc->eta ? "on" : "off", (uint64_t)(eta_interval_ns(rc) / NS_PER_MS),
			    pf->bandwidth_log ? " with the aggregate log" : "", rc->status_interval_ms,
			    prog_trigger_on(pf) ? "watched" : "off");
}

static void agg_add(struct monitor_state *m, uint64_t t_ms, const struct run_progress *p)
{
	if (m->nagg == m->cap_agg) {
		size_t cap = m->cap_agg ? m->cap_agg * 2 : 64;
		struct agg_sample *a = realloc(m->agg, cap * sizeof(*a));
		if (!a)
			return; /* the log misses a sample; the run goes on */
		m->agg = a;
		m->cap_agg = cap;
	}
	struct agg_sample *s = &m->agg[m->nagg++];
	s->t_ms = t_ms;
	for (int d = 0; d < DDIR_NR; d++)
		s->kib_s[d] = p->bw[d] / 1024;
}

/* The ETA line and the aggregate sample, every --eta-interval. */
static void eta_tick(struct run_ctx *rc, uint64_t now)
{
	struct monitor_state *m = &rc->mon;
	const struct prog_flags *pf = &rc->cfg->prog;
	bool show = rc->eta && rc->eta_cb;
	if ((!show && !pf->bandwidth_log) || now < m->next_eta_ns)
		return;
	struct run_progress p;
	run_progress_get(rc, &p);
	bool newline = pf->eta_newline_ms && now >= m->last_newline_ns;
	if (newline) /* on a schedule, so that the monitor's 20 ms naps do not make it drift */
		while (m->last_newline_ns <= now)
			m->last_newline_ns += pf->eta_newline_ms * NS_PER_MS;
	if (show)
		rc->eta_cb(rc, &p, newline, rc->cb_arg);
	if (pf->bandwidth_log)
		agg_add(m, (now - rc->start_ns) / NS_PER_MS, &p);
	uint64_t step = eta_interval_ns(rc);
	m->next_eta_ns += step;
	if (m->next_eta_ns <= now)
		m->next_eta_ns = now + step;
}

int monitor_write_agg_logs(const struct run_ctx *rc)
{
	static const char *const names[DDIR_NR] = { "agg-read_bw.log", "agg-write_bw.log", "agg-trim_bw.log" };
	const struct monitor_state *m = &rc->mon;
	int bad = 0;
	for (int d = 0; d < DDIR_NR; d++) {
		struct outfile of;
		int ret = outfile_open(&of, names[d], rc->cfg->outfile_flags);
		for (size_t i = 0; !ret && i < m->nagg; i++)
			fprintf(of.f, "%" PRIu64 ", %" PRIu64 ", %d, 0, 0\n", m->agg[i].t_ms, m->agg[i].kib_s[d], d);
		if (!ret)
			ret = outfile_close(&of, true);
		if (ret) {
			fprintf(stderr, "iobench: --bandwidth-log: cannot write '%s': %s\n", names[d], outfile_strerror(&of, ret));
			bad = 1;
		}
	}
	return bad;
}

/* ---- the trigger ---- */

/* A job's name in a file name: no '/'. */
static void safe_name(char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s", name);
	for (char *c = out; *c; c++)
		if (*c == '/')
			*c = '_';
}

/* fio's names (local-JOB-N-verify.state), iobench's text: what each clone had completed. */
static int write_states(const struct run_ctx *rc)
{
	const char *dir = rc->cfg->prog.aux_path ? rc->cfg->prog.aux_path : ".";
	int bad = 0;
	for (size_t i = 0; i < rc->nclones; i++) {
		const struct clone_result *c = &rc->clones[i];
		const char *job = rc->cfg->jobs[c->job].o.name;
		char name[300], path[PATH_MAX];
		safe_name(name, sizeof(name), job);
		snprintf(path, sizeof(path), "%s/local-%s-%u-verify.state", dir, name, c->clone);
		struct outfile of;
		int ret = outfile_open(&of, path, rc->cfg->jobs[c->job].o.allow_mounted_write ? OUTFILE_ALLOW_BUSY : 0);
		if (!ret) {
			fprintf(of.f, "# iobench write state at the trigger: what the clone had completed (at least: the "
				      "counts are published every 100 ms)\njob=%s\nclone=%u\n", job, c->clone);
			static const char *const dn[DDIR_NR] = { "read", "write", "trim" };
			for (int d = 0; d < DDIR_NR; d++)
				fprintf(of.f, "%s_ios=%" PRIu64 "\n%s_bytes=%" PRIu64 "\n", dn[d],
					(uint64_t)atomic_load(&c->progress.ios[d]), dn[d],
					(uint64_t)atomic_load(&c->progress.bytes[d]));
			ret = outfile_close(&of, true);
		}
		if (ret) {
			fprintf(stderr, "iobench: trigger: cannot write the state file '%s': %s\n", path, outfile_strerror(&of, ret));
			bad = 1;
		}
	}
	return bad;
}

/* --trigger=CMD through sh -c, with the signals iobench blocks or ignores back to normal. */
static int run_trigger_cmd(const char *cmd)
{
	posix_spawnattr_t attr;
	sigset_t none, all;
	sigemptyset(&none);
	signals_child_defaults(&all);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &all);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	char *argv[] = { "sh", "-c", (char *)cmd, NULL };
	pid_t pid;
	int err = posix_spawn(&pid, "/bin/sh", NULL, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	if (err) {
		fprintf(stderr, "iobench: --trigger: cannot run '%s': %s\n", cmd, strerror(err));
		return 1;
	}
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (WIFEXITED(st))
		fprintf(stderr, "iobench: --trigger: '%s' exited with status %d\n", cmd, WEXITSTATUS(st));
	else
		fprintf(stderr, "iobench: --trigger: '%s' ended by signal %d\n", cmd, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	return 1;
}

/* As fio: the write state saved, the trigger file removed, the jobs stopped, the command
 * run. The results so far are reported; no further group starts. */
static void trigger_fire(struct run_ctx *rc, const char *why)
{
	const struct prog_flags *pf = &rc->cfg->prog;
	struct monitor_state *m = &rc->mon;
	m->triggered = true;
	fprintf(stderr, "iobench: trigger: %s; write state saved in %s, the jobs stop%s\n", why,
		pf->aux_path ? pf->aux_path : "the current directory", pf->trigger_cmd ? ", running the command" : "");
	int bad = write_states(rc);
	/* --readonly: the trigger file stays (it may be anything; nothing is removed) */
	if (pf->trigger_file && !rc->cfg->readonly && unlink(pf->trigger_file) < 0 && errno != ENOENT) {
		fprintf(stderr, "iobench: --trigger-file: cannot remove '%s': %s\n", pf->trigger_file, strerror(errno));
		bad = 1;
	}
	atomic_store(&rc->stop, true);
	if (pf->trigger_cmd)
		bad |= run_trigger_cmd(pf->trigger_cmd);
	m->trigger_err = bad;
}

static void trigger_tick(struct run_ctx *rc, uint64_t now)
{
	const struct prog_flags *pf = &rc->cfg->prog;
	struct monitor_state *m = &rc->mon;
	if (!prog_trigger_on(pf) || m->triggered || now < m->next_trigger_check_ns)
		return;
	m->next_trigger_check_ns = now + 100 * NS_PER_MS; /* a stat(2) ten times a second */
	char why[PATH_MAX + 64];
	struct stat st;
	if (pf->trigger_file && stat(pf->trigger_file, &st) == 0) {
		snprintf(why, sizeof(why), "'%s' exists", pf->trigger_file);
		trigger_fire(rc, why);
	} else if (pf->trigger_timeout_ms && now - rc->start_ns >= pf->trigger_timeout_ms * NS_PER_MS) {
		snprintf(why, sizeof(why), "%" PRIu64 "ms have passed (--trigger-timeout)", pf->trigger_timeout_ms);
		trigger_fire(rc, why);
	}
}

void monitor_tick(struct run_ctx *rc, uint64_t now)
{
	trigger_tick(rc, now);
	eta_tick(rc, now);
}
