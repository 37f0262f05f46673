/* Preparing and executing a run: groups, clones, file layout, one thread per clone. */
#include "core/run/run.h"

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "core/lib/clock.h"
#include "core/worker/dedupe.h"
#include "engines/engine.h"
#include "core/run/jobenv_run.h"
#include "core/lib/guard.h"
#include "core/run/iolog_plan.h"
#include "core/run/layout.h"
#include "core/lib/nomem.h"
#include "core/lib/say.h"
#include "core/stats/perflog.h"
#include "core/run/plan.h"
#include "core/run/resolve.h"
#include "core/worker/steadystate.h"
#include "core/worker/worker.h"
#include "core/plan/zone.h"

/* Plans of this many files or more are held only while their group runs: a job file of
 * filecreate then filedelete over a million files holds one plan at a time, not both. A
 * later group's is made and checked at the start, freed, and made again when its group
 * starts (as fio sets a job's files up when the job starts: it sees what earlier groups
 * made). */
#define PLAN_HELD_MIN 65536

void run_cfg_free(struct run_cfg *cfg)
{
	opt_list_free(&cfg->globals);
	opt_list_free(&cfg->cmdline_globals);
	for (size_t i = 0; i < cfg->njobs; i++) {
		iolog_set_free(cfg->jobs[i].iologs);
		job_free(&cfg->jobs[i]);
	}
	free(cfg->jobs);
	for (unsigned i = 0; i < cfg->nfile_names; i++)
		free(cfg->file_names[i]);
	for (unsigned i = 0; i < cfg->nsweeps; i++)
		free(cfg->sweeps[i].text);
	memset(cfg, 0, sizeof(*cfg));
}

struct job *run_cfg_add_job(struct run_cfg *cfg, const char *name)
{
	if (cfg->njobs == cfg->cap_jobs) {
		size_t cap = cfg->cap_jobs ? cfg->cap_jobs * 2 : 8;
		struct job *jobs = realloc(cfg->jobs, cap * sizeof(*jobs));
		if (!jobs) {
			nomem(name, "table of the jobs", cap * sizeof(*jobs));
			return NULL;
		}
		cfg->jobs = jobs;
		cfg->cap_jobs = cap;
	}
	struct job *job = &cfg->jobs[cfg->njobs++];
	memset(job, 0, sizeof(*job));
	return job;
}

void run_ctx_free(struct run_ctx *rc)
{
	for (size_t i = 0; i < rc->nclones; i++) {
		struct clone_result *c = &rc->clones[i];
		free(c->ts);
		free(atomic_load(&c->progress.snap));
		free(c->status_copy);
		pthread_mutex_destroy(&c->progress.lock);
		files_plan_free(&c->plan);
	}
	free(rc->clones);
	free(rc->job_done);
	rc->job_done = NULL;
	free(rc->hosts);
	rc->hosts = NULL;
	free(rc->mon.agg);
	rc->mon.agg = NULL;
	steady_free(rc->steady);
	rc->steady = NULL;
	run_summary_free(rc);
	disks_free(&rc->disks);
	env_run_free(rc);
	zbd_set_free(&rc->zbd);
	rc->clones = NULL;
}

static void assign_groups(struct run_ctx *rc)
{
	unsigned g = 0;
	for (size_t i = 0; i < rc->cfg->njobs; i++) {
		struct job *job = &rc->cfg->jobs[i];
		if (i > 0 && (job->o.stonewall || job->o.new_group ||
			      job->file_index != rc->cfg->jobs[i - 1].file_index))
			g++;
		job->groupid = g;
	}
	rc->ngroups = rc->cfg->njobs ? g + 1 : 0;
}

static int check_job(const struct job *job, const struct run_cfg *cfg)
{
	const struct job_opts *o = &job->o;
	const struct engine_ops *ops = job->ops;
	for (int d = 0; d < DDIR_NR; d++)
		if (o->bs[d] > (1ULL << 31) || o->bs_max[d] > (1ULL << 31)) {
			job_say(o->name, "bs: larger than 2GiB");
			return -EINVAL;
		}
	if ((ops->flags & ENGINE_COMPILED_OUT) && !cfg->parse_only) {
		job_say(o->name,
			"ioengine=%s is compiled out of this static binary (%s can be neither "
			"linked statically nor loaded by a static program); use the dynamically linked iobench",
			ops->name, ops->library ? ops->library : "its library");
		return -ENOTSUP;
	}
	if ((ops->flags & ENGINE_ABSENT) && !cfg->parse_only) {
		job_say(o->name,
			"ioengine=%s is one of fio's engines that iobench does not carry out "
			"(it needs %s); its options are accepted, its jobs refused",
			ops->name, ops->library ? ops->library : "what this machine lacks");
		return -ENOTSUP;
	}
	if (steady_check_opts(o))
		return -EINVAL;
	if (o->unsupported[0] && !cfg->parse_only) {
		job_say(o->name, "option '%s' is not supported by iobench yet", o->unsupported);
		return -ENOTSUP;
	}
	if (cfg->readonly || o->readonly) { /* nothing is created, written, grown or removed */
		char what[128] = "";
		if (job_writes(o))
			snprintf(what, sizeof(what), "rw=%s %s", o->rw_text,
				 !job_has_dir(o, DDIR_TRIM)	? "writes"
				 : job_has_dir(o, DDIR_WRITE) ? "trims (discards blocks) and writes"
							      : "trims (discards blocks)");
		else if (ops->flags & ENGINE_CHANGES_FILES)
			snprintf(what, sizeof(what), "ioengine=%s creates or removes files", ops->name);
		else if (ops->flags & ENGINE_ALTERS_ON_READ)
			snprintf(what, sizeof(what), "ioengine=%s changes files even when it reads", ops->name);
		else if (o->unlink)
			snprintf(what, sizeof(what), "unlink=1 removes the job's files");
		else if (o->io.unlink_each_loop)
			snprintf(what, sizeof(what), "unlink_each_loop=1 removes the job's files");
		else if (o->env.exec_prerun[0] || o->env.exec_postrun[0])
			snprintf(what, sizeof(what), "%s runs a shell command, which --readonly cannot hold to its promise",
				 o->env.exec_prerun[0] ? "exec_prerun" : "exec_postrun");
		if (what[0]) {
			job_say(o->name, "%s, and --readonly is set", what);
			return -EROFS;
		}
	}
	if (!cfg->parse_only && engine_check_job(ops, o))
		return -EINVAL;
	char why[400] = "";
	int ret = cfg->parse_only ? 0 : engine_check(ops, o, job->eng_opts, why, sizeof(why));
	if (ret) {
		job_say(o->name, "%s", why[0] ? why : strerror(-ret));
		return ret;
	}
	if ((ops->flags & ENGINE_SYNC) && o->iodepth > 1 && !cfg->parse_only && o->io.submit_mode != SUBMIT_OFFLOAD) {
		job_say(o->name, "note: %s is synchronous, iodepth=%u runs at depth 1%s", ops->name, o->iodepth,
			cfg->prog.warnings_fatal ? " (fatal: --warnings-fatal)" : "");
		if (cfg->prog.warnings_fatal)
			return -EINVAL;
	}
	return 0;
}

/* wait_for=NAME: the index of the job of that name defined before this one, or -1. As in
 * fio, only an earlier job can be waited for: no cycles, and never a job of a later group
 * (which would wait for this group to end: a deadlock). */
static long find_waitee(const struct run_ctx *rc, const struct job *job)
{
	if (!job->o.wait_for[0])
		return -1;
	for (size_t i = 0; &rc->cfg->jobs[i] != job; i++)
		if (!strcmp(rc->cfg->jobs[i].o.name, job->o.wait_for))
			return (long)i;
	return -1;
}

/* ENGINE_REMOTE engines: the target is there (library, cluster, pool, image), and its size. */
static int probe_job(struct job *job)
{
	const struct engine_ops *ops = job->ops;
	char why[512] = "";
	job->target_bytes = 0;
	if (!(ops->flags & ENGINE_REMOTE))
		return 0;
	int ret = engine_probe(ops, &job->o, job->eng_opts, &job->target_bytes, why, sizeof(why));
	if (ret)
		job_say(job->o.name, "ioengine=%s: %s", ops->name, why[0] ? why : strerror(-ret));
	return ret;
}

/* Every clone's plan, checked before anything runs. The large ones of later groups first,
 * each freed once checked (and its disks found) and made again when its group starts: one
 * large plan is held at a time. */
static int plan_all(struct run_ctx *rc)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < rc->nclones; i++) {
			struct clone_result *c = &rc->clones[i];
			const struct job *job = &rc->cfg->jobs[c->job];
			bool held = job->groupid > 0 && !job->iologs && job->o.nrfiles >= PLAN_HELD_MIN;
			if (c->plan_later || held != (pass == 0))
				continue;
			if (plan_clone(rc->cfg, c) ||
			    perflogs_guard(&job->o, cluster_rank(rc->cfg->cluster) * (unsigned)rc->nclones + (unsigned)i + 1))
				return -EINVAL;
			if (held) {
				plan_clone_disks(rc, c);
				files_plan_free(&c->plan);
				c->plan_later = true;
			}
		}
	return 0;
}

/* ss_dur's windows, one per report unit (as core/run/summary.c reports them: a clone of a
 * group_reporting job joins the clone before it when both are of one group). A run without
 * ss_dur allocates nothing here. */
static int plan_steady(struct run_ctx *rc)
{
	bool any = false;
	for (size_t i = 0; i < rc->nclones; i++)
		any |= rc->cfg->jobs[rc->clones[i].job].o.ss.steady.dur_us != 0;
	if (!any)
		return 0;
	struct steady_of_clone *of = calloc(rc->nclones, sizeof(*of));
	if (!of)
		return nomem(NULL, "steady-state windows", rc->nclones * sizeof(*of));
	for (size_t i = 0; i < rc->nclones; i++) {
		const struct job *job = &rc->cfg->jobs[rc->clones[i].job];
		of[i].o = &job->o;
		of[i].joins_previous = i > 0 && job->o.group_reporting &&
				       rc->cfg->jobs[rc->clones[i - 1].job].groupid == job->groupid;
	}
	int ret = steady_plan(&rc->steady, of, rc->nclones);
	free(of);
	return ret == -ENOMEM ? nomem(NULL, "steady-state windows", 0) : ret;
}

int run_prepare(struct run_ctx *rc, struct run_cfg *cfg)
{
	size_t total = 0;
	rc->cfg = cfg;
	flow_table_init(&rc->flows); /* a mutex that holds nothing to free */
	for (size_t i = 0; i < cfg->njobs; i++) {
		struct job *job = &cfg->jobs[i];
		if (job_resolve(job, &cfg->cmdline_globals) || iolog_job_prepare(job, cfg))
			return -EINVAL;
		if (check_job(job, cfg) || env_check_job(job, cfg))
			return -EINVAL;
		if (job->o.time_based && !job->o.runtime_us)
			job->o.time_based = false; /* nothing to bound it: as fio, run the size once */
		total += job->o.numjobs;
	}
	if (cfg->prog.max_jobs && total > cfg->prog.max_jobs) {
		fprintf(stderr, "iobench: --max-jobs=%u: the jobs start %zu threads (numjobs counted)\n",
			cfg->prog.max_jobs, total);
		return -E2BIG;
	}
	assign_groups(rc);
	for (size_t i = 0; i < cfg->njobs; i++) {
		const struct job *job = &cfg->jobs[i];
		if (job->o.wait_for[0] && find_waitee(rc, job) < 0) {
			job_say(job->o.name,
				"wait_for: no job named '%s' before it (a job can "
				"only wait for one defined earlier, as in fio)",
				job->o.wait_for);
			return -EINVAL;
		}
	}
	if (cfg->parse_only)
		return 0;
	for (size_t i = 0; i < cfg->njobs; i++)
		if (probe_job(&cfg->jobs[i]))
			return -EINVAL;
	cpu_limit_read(&rc->cpu_limit);
	bool want_tsc = false;
	for (size_t i = 0; i < cfg->njobs; i++) {
		unsigned cs = cfg->jobs[i].o.clocksource;
		want_tsc |= cs == CLK_AUTO || cs == CLK_CPU;
	}
	if (want_tsc)
		tsc_calibrate(&rc->tsc);
	for (size_t i = 0; i < cfg->njobs && !rc->tsc.on; i++)
		if (cfg->jobs[i].o.clocksource == CLK_CPU) {
			job_say(cfg->jobs[i].o.name, "clocksource=cpu: no invariant TSC here; using clock_gettime%s",
				cfg->prog.warnings_fatal ? " (fatal: --warnings-fatal)" : "");
			if (cfg->prog.warnings_fatal)
				return -EINVAL;
			break;
		}
	rc->job_done = calloc(cfg->njobs ? cfg->njobs : 1, sizeof(*rc->job_done));
	if (!rc->job_done)
		return nomem(NULL, "jobs' counters", cfg->njobs * sizeof(*rc->job_done));
	rc->clones = calloc(total ? total : 1, sizeof(*rc->clones));
	if (!rc->clones)
		return nomem(NULL, "table of the clones (numjobs of every job)", total * sizeof(*rc->clones));
	for (size_t i = 0; i < cfg->njobs; i++) {
		const struct job *job = &cfg->jobs[i];
		for (unsigned k = 0; k < job->o.numjobs; k++) {
			struct clone_result *c = &rc->clones[rc->nclones++];
			if (!(job->ops->flags & ENGINE_NO_IO))
				atomic_fetch_add(&rc->io_jobs_left, 1);
			c->job = i;
			c->clone = k;
			c->gclone = cluster_rank(cfg->cluster) * job->o.numjobs + k;
			/* opendir of a tree an earlier group makes: planned when its group starts. */
			struct stat st;
			c->plan_later = job->o.opendir[0] && job->groupid > 0 && stat(job->o.opendir, &st) < 0;
			c->ts = calloc(1, sizeof(*c->ts));
			if (!c->ts)
				return nomem(job->o.name, "statistics of a clone", sizeof(*c->ts));
			pthread_mutex_init(&c->progress.lock, NULL);
		}
	}
	return plan_all(rc) ? -EINVAL : plan_steady(rc);
}

struct thread_arg {
	struct worker w;
	pthread_t tid;
	bool started;
	struct run_ctx *rc;
	size_t job;
	long waitee;       /* wait_for: job index to wait for, or -1 */
};

static void *thread_main(void *p)
{
	struct thread_arg *a = p;
	struct run_ctx *rc = a->rc;
	if (a->waitee >= 0) {
		unsigned want = rc->cfg->jobs[a->waitee].o.numjobs;
		while (atomic_load(&rc->job_done[a->waitee]) < want && !atomic_load(&rc->stop))
			clock_sleep_ns(NS_PER_MS);
	}
	atomic_store(&a->w.progress->state, CLONE_RUNNING);
	int err = worker_run(&a->w);
	const struct job_opts *o = a->w.o;
	if (o->exitall || (err && o->exitall_on_error)) {
		atomic_store(&rc->stop, true); /* exit_what=group and stonewall: the running group (there is one) */
		if (o->io.exit_what == EXIT_ALL)
			atomic_store(&rc->stop_all, true);
	}
	atomic_fetch_add(&rc->job_done[a->job], 1);
	if (!(a->w.ops->flags & ENGINE_NO_IO))
		atomic_fetch_sub(&rc->io_jobs_left, 1);
	atomic_store(&a->w.progress->state, CLONE_DONE);
	atomic_fetch_add(&rc->threads_done, 1);
	return NULL;
}


/* randrepeat (the default): the same sequence every run; randseed: the user's. */
static uint64_t clone_seed(const struct job_opts *o, size_t job, unsigned clone)
{
	uint64_t base = o->randseed_set ? o->randseed : 0x5eed0000ULL ^ ((uint64_t)job << 32);
	if (!o->randrepeat && !o->randseed_set)
		base ^= clock_now_ns();
	return base + clone * 0x9e3779b97f4a7c15ULL;
}

/* unlink=1: remove the files of group g's jobs once all its clones are done. */
static void unlink_group_files(struct run_ctx *rc, unsigned g)
{
	for (size_t i = 0; i < rc->nclones; i++) {
		const struct clone_result *c = &rc->clones[i];
		const struct job *job = &rc->cfg->jobs[c->job];
		if (job->groupid != g || !job->o.unlink ||
		    (job->ops->flags & ENGINE_NO_FILE))
			continue;
		for (unsigned k = 0; k < c->plan.nfiles; k++) {
			const char *path = c->plan.files[k].path;
			struct stat st;
			if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && unlink(path) < 0)
				job_say(job->o.name, "cannot remove '%s': %s", path, strerror(errno));
		}
	}
}

/* The main thread while a group runs: the ETA line every --eta-interval, a status report
 * every --status-interval, until the group's threads are all done. */
static void monitor_group(struct run_ctx *rc, unsigned started)
{
	uint64_t now = clock_now_ns();
	uint64_t next_status = now + rc->status_interval_ms * NS_PER_MS;
	uint64_t asked_due = 0; /* SIGUSR1: when the workers have published copies */
	unsigned ticks = 0;
	monitor_start(rc, now);
	while (atomic_load(&rc->threads_done) < started) {
		clock_sleep_ns(20 * NS_PER_MS);
		now = clock_now_ns();
		if (!asked_due && atomic_exchange(&rc->status_request, false)) { /* one pending: the next waits */
			bool had = rc->status_interval_ms != 0;
			asked_due = run_status_snapshots(rc) ? 0 : had ? now : now + 150 * NS_PER_MS;
		}
		if (rc->output_cb && ++ticks % 5 == 0 && !rc->output_cb(rc->cb_arg)) {
			rc->output_lost = true;
			atomic_store(&rc->stop, true);
		}
		if (asked_due && now >= asked_due && rc->status_cb) {
			rc->status_cb(rc, rc->cb_arg);
			asked_due = 0;
		}
		monitor_tick(rc, now); /* the ETA line, --bandwidth-log, the trigger */
		if (rc->status_interval_ms && rc->status_cb && now >= next_status) {
			rc->status_cb(rc, rc->cb_arg);
			next_status += rc->status_interval_ms * NS_PER_MS;
		}
	}
	/* A SIGUSR1 in the group's last moments still gets its report (of final figures). */
	if (rc->status_cb && (asked_due || atomic_exchange(&rc->status_request, false)))
		rc->status_cb(rc, rc->cb_arg);
	atomic_store(&rc->threads_done, 0);
}

/* How many files group g's clones have (planned). */
static size_t group_files(const struct run_ctx *rc, unsigned g)
{
	size_t n = 0;
	for (size_t i = 0; i < rc->nclones; i++)
		n += rc->cfg->jobs[rc->clones[i].job].groupid == g ? rc->clones[i].plan.nfiles : 0;
	return n;
}

/* Before group g starts: the plans made late, its files laid out (*lret: layout's answer),
 * its jobs' environment (cgroups, ioscheduler, lockfile). */
static int prepare_group(struct run_ctx *rc, unsigned g, FILE *notes, int *lret)
{
	struct run_cfg *cfg = rc->cfg;
	int ret = 0;
	/* Across ranks: every rank has finished the group before and laid out this one's
	 * files before any starts it (stonewall and new_group hold across the cluster). */
	cluster_barrier(cfg->cluster);
	for (size_t i = 0; i < rc->nclones; i++) {
		struct clone_result *c = &rc->clones[i];
		if (c->plan_later && cfg->jobs[c->job].groupid == g && (c->err = plan_clone(cfg, c)) && !ret)
			ret = c->err;
	}
	*lret = layout_group(rc, g, notes);
	ret = ret ? ret : *lret;
	if (group_files(rc, g) >= PLAN_HELD_MIN)
		malloc_trim(0); /* the layout's index of a large group freed: its pages back, not kept */
	int eret = env_group_start(rc, g);
	ret = ret ? ret : eret;
	cluster_barrier(cfg->cluster);
	return ret;
}

static int run_group(struct run_ctx *rc, unsigned g, FILE *notes)
{
	struct run_cfg *cfg = rc->cfg;
	struct thread_arg *args = calloc(rc->nclones, sizeof(*args));
	if (!args)
		return nomem(NULL, "threads' arguments", rc->nclones * sizeof(*args));
	int lret;
	int ret = prepare_group(rc, g, notes, &lret);
	/* A failed setup fails its own jobs; the others run. A stop during layout ends it all. */
	bool go = lret != -EINTR && !atomic_load(&rc->stop);
	for (size_t i = 0; i < rc->nclones && go; i++) {
		struct clone_result *c = &rc->clones[i];
		const struct job *job = &cfg->jobs[c->job];
		if (job->groupid != g)
			continue;
		if (c->err || job->o.io.create_only) { /* setup failed (its errno, as fio), or laid out: done */
			if (c->err && !c->ts->error)
				c->ts->error = -c->err;
			atomic_fetch_add(&rc->job_done[c->job], 1); /* nobody waits for it forever */
			if (!(job->ops->flags & ENGINE_NO_IO))
				atomic_fetch_sub(&rc->io_jobs_left, 1);
			continue;
		}
		struct worker *w = &args[i].w;
		w->o = &job->o;
		w->ops = job->ops;
		w->eng_opts = job->eng_opts;
		w->plan = &c->plan;
		w->env = env_for_clone(rc, i);
		w->clone = c->clone;
		w->log_index = cluster_rank(cfg->cluster) * (unsigned)rc->nclones + (unsigned)i + 1;
		w->seed = clone_seed(&job->o, c->job, c->gclone);
		w->stop = &rc->stop;
		w->io_jobs_left = &rc->io_jobs_left;
		w->debug = debug_for_clone(&cfg->prog.debug, (unsigned)i);
		w->warnings_fatal = cfg->prog.warnings_fatal;
		io_place(rc, i, w);
		w->ss = steady_for_clone(rc->steady, i, &w->ss_member);
		w->ts = c->ts;
		w->progress = &c->progress;
		w->zbd = &rc->zbd;
		w->clk = rc->tsc.on && (job->o.clocksource == CLK_AUTO || job->o.clocksource == CLK_CPU) ? &rc->tsc : NULL;
		args[i].rc = rc;
		args[i].job = c->job;
		args[i].waitee = find_waitee(rc, job);
		int err = pthread_create(&args[i].tid, NULL, thread_main, &args[i]);
		if (err) { /* this clone and those not started fail with it (EAGAIN: RLIMIT_NPROC, pids) */
			job_say(job->o.name, "cannot start a thread: %s%s", strerror(err),
				err == EAGAIN ? " (a limit on processes: RLIMIT_NPROC or a cgroup's pids.max, or no memory "
						"for its stack: ulimit -v?)" : "");
			atomic_store(&rc->stop, true);
			for (size_t k = i; k < rc->nclones; k++)
				if (cfg->jobs[rc->clones[k].job].groupid == g && !rc->clones[k].ts->error)
					rc->clones[k].ts->error = err;
			ret = -err;
			go = false;
			break;
		}
		args[i].started = true;
	}
	unsigned started = 0;
	for (size_t i = 0; i < rc->nclones; i++)
		started += args[i].started;
	monitor_group(rc, started);
	for (size_t i = 0; i < rc->nclones; i++) {
		if (!args[i].started)
			continue;
		pthread_join(args[i].tid, NULL);
		struct clone_result *c = &rc->clones[i];
		c->err = args[i].w.err;
		c->elapsed_s = (clock_now_ns() - rc->start_ns + NS_PER_SEC - 1) / NS_PER_SEC;
		if (c->err && !ret)
			ret = c->err;
	}
	free(args);
	unlink_group_files(rc, g);
	return ret;
}

static void find_disks(struct run_ctx *rc)
{
	for (size_t i = 0; i < rc->nclones && !plan_clone_disks(rc, &rc->clones[i]); i++)
		;
}

/* Free the large plans of group g once it has run (files_plan_free leaves nfiles 0). */
static void plans_release(struct run_ctx *rc, unsigned g)
{
	bool freed = false;
	for (size_t i = 0; i < rc->nclones; i++) {
		struct clone_result *c = &rc->clones[i];
		const struct job *job = &rc->cfg->jobs[c->job];
		if (c->plan.nfiles >= PLAN_HELD_MIN && !job->iologs && job->groupid == g) {
			files_plan_free(&c->plan);
			freed = true;
		}
	}
	if (freed)
		malloc_trim(0); /* the pages back: the next group's plan is made in the main heap */
}

int run_execute(struct run_ctx *rc, FILE *notes)
{
	int ret = 0;
	if (rc->status_interval_ms && run_status_snapshots(rc))
		return -ENOMEM;
	find_disks(rc);
	zbd_set_init(&rc->zbd);
	disks_snapshot(&rc->disks, true);
	rc->start_ns = rc->last_eta_ns = clock_now_ns();
	for (unsigned g = 0; g < rc->ngroups; g++) {
		int r = run_group(rc, g, notes);
		plans_release(rc, g);
		if (r && !ret)
			ret = r;
		if (atomic_load(&rc->interrupted) || rc->output_lost || rc->mon.triggered || atomic_load(&rc->stop_all))
			break;
		atomic_store(&rc->stop, false); /* exitall ends its own group only */
	}
	disks_snapshot(&rc->disks, false);
	env_run_end(rc);
	struct timeval tv;
	gettimeofday(&tv, NULL);
	rc->end_time = tv.tv_sec;
	rc->end_ms = (uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000;
	return ret;
}
