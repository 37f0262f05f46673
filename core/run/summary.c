/* After the run: clones merged into report units, units into group summaries, and the
 * values the printers show derived from them, once (core/stats/results.h). */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "engines/engine.h"
#include "core/worker/latency_target.h"
#include "core/job/options.h"
#include "core/run/run.h"
#include "core/worker/steadystate.h"
#include "engines/secret.h"

const double results_key_pct[KEY_PCT_NR] = { 50.0, 90.0, 99.0, 99.9 };

/* The block sizes a job may use, per direction, as fio's header shows them (bs=(R)
 * MIN-MAX): bsrange's ends, or bs; with bssplit, its smallest and largest. */
static void bs_range(const struct job_opts *o, uint64_t lo[DDIR_NR], uint64_t hi[DDIR_NR])
{
	for (int d = 0; d < DDIR_NR; d++) {
		lo[d] = o->bs_min[d] ? o->bs_min[d] : o->bs[d];
		hi[d] = o->bs_max[d] > lo[d] ? o->bs_max[d] : lo[d];
		for (unsigned k = 0; k < o->nbssplit[d]; k++) {
			uint64_t b = o->bssplit[d][k].bs;
			lo[d] = k == 0 || b < lo[d] ? b : lo[d];
			hi[d] = b > hi[d] ? b : hi[d];
		}
	}
}

/* The text an option was given as (the last of command line, [global], section), or def. */
static const char *option_text(const struct run_cfg *cfg, const struct job *job, const char *name,
			       const char *def)
{
	const struct opt_list *lists[] = { &cfg->cmdline_globals, &job->inherit, &job->given };
	const char *v = def;
	for (int i = 0; i < 3; i++)
		for (size_t k = 0; k < lists[i]->n; k++)
			if (!strcmp(lists[i]->v[k].name, name) && lists[i]->v[k].value)
				v = lists[i]->v[k].value;
	return v;
}

/* An option's row: the core's, the engine's (ops: the job's; NULL: any engine's). */
static const struct option_def *row_of(const char *name, const struct engine_ops *ops)
{
	const struct option_def *d = option_find_core(name);
	if (d || ops)
		return d ? d : option_find_in(ops->options, name);
	for (size_t i = 0; (ops = engine_by_index(i)); i++)
		if ((d = option_find_in(ops->options, name)))
			return d;
	return NULL;
}

/* The options as given, named as fio prints them: the row's name for an alias
 * (readwrite= is "rw", blocksize= "bs", timeout= "runtime"), as kubestr and fio-plot read;
 * a secret option's value is OPT_REDACTED (the report never holds it).
 * An engine's own options from a job file come after the others, as fio parses them once
 * the section's engine is loaded (uri= in [global] is printed last); the command line's
 * stay where they are, as in fio. */
static int fio_names(struct opt_list *dst, const struct opt_list *src, const struct engine_ops *ops)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < src->n; i++) {
			const struct opt_kv *kv = &src->v[i];
			const struct option_def *d = row_of(kv->name, ops);
			bool late = kv->file && d && !option_find_core(kv->name);
			if (late != (pass == 1))
				continue;
			const char *name = d ? d->name : kv->name; /* a secret's value: OPT_REDACTED */
			int ret = opt_list_add(dst, name, opt_value_shown(name, kv->value), kv->file, kv->line);
			if (ret)
				return ret;
		}
	return 0;
}

static int describe_job(struct job_result *jr, const struct job *job, const struct run_cfg *cfg)
{
	const struct engine_ops *ops = job->ops;
	jr->job = job;
	bs_range(&job->o, jr->bs_min_bytes, jr->bs_max_bytes);
	jr->engine = job->o.ioengine;
	jr->depth = ops && (ops->flags & ENGINE_SYNC) && job->o.io.submit_mode != SUBMIT_OFFLOAD ? 1 : job->o.iodepth;
	jr->bs_text = option_text(cfg, job, "bs", "4k");
	jr->no_io = ops && (ops->flags & ENGINE_NO_IO);
	if (ops)
		engine_describe(ops, &job->o, job->eng_opts, jr->intro, sizeof(jr->intro));
	return fio_names(&jr->options, &job->given, ops);
}

static void free_jobs(struct run_results *r)
{
	for (size_t i = 0; r->jobs && i < r->njobs; i++)
		opt_list_free(&r->jobs[i].options);
	free(r->jobs);
	r->jobs = NULL;
	r->njobs = 0;
	opt_list_free(&r->globals);
}

int run_describe(struct run_ctx *rc)
{
	struct run_results *r = &rc->results;
	const struct run_cfg *cfg = rc->cfg;
	free_jobs(r);
	r->jobs = calloc(cfg->njobs ? cfg->njobs : 1, sizeof(*r->jobs));
	if (!r->jobs)
		return -ENOMEM;
	int ret = fio_names(&r->globals, &cfg->globals, NULL);
	for (; !ret && r->njobs < cfg->njobs; r->njobs++)
		ret = describe_job(&r->jobs[r->njobs], &cfg->jobs[r->njobs], cfg);
	r->nclones = rc->nclones;
	r->nranks = cfg->cluster ? cfg->cluster->size : 1;
	r->profile = cfg->profile;
	r->cpu_limit = rc->cpu_limit;
	return ret;
}

/* What the units hold; the header's part stays. */
static void free_units(struct run_results *r)
{
	for (size_t i = 0; r->units && i < r->nunits; i++) {
		free(r->units[i].mixed);
		free(r->units[i].mixed_prio);
	}
	free(r->units);
	free(r->groups);
	free(r->disks);
	r->units = NULL;
	r->groups = NULL;
	r->disks = NULL;
	r->nunits = 0;
	r->ngroups = 0;
	r->ndisks = 0;
}

/* What one clone ended with: this process's clones, or a rank's in a cluster run. */
struct clone_end {
	struct thread_stats ts;
	uint64_t elapsed_s;
	int pid;
};

/* fio's group_reporting: a clone of a group_reporting job is reported with the clone
 * before it when both are of one group, whatever that one's job (clones follow their job). */
static bool joins_previous(const struct run_ctx *rc, size_t i)
{
	if (i == 0 || i >= rc->nclones)
		return false;
	const struct job *job = &rc->cfg->jobs[rc->clones[i].job], *prev = &rc->cfg->jobs[rc->clones[i - 1].job];
	return job->o.group_reporting && prev->groupid == job->groupid && prev->o.io.stats;
}

/* Append the units of one set of clones (clone i's stats: ts[i], or end[i].ts). */
static void add_units(struct run_ctx *rc, const struct clone_end *end, const char *host, unsigned rank)
{
	struct run_results *r = &rc->results;
	bool summed = false; /* the last unit sums its clones as a group */
	for (size_t i = 0; i < rc->nclones; i++) {
		const struct clone_result *c = &rc->clones[i];
		const struct job *job = &rc->cfg->jobs[c->job];
		const struct thread_stats *ts = end ? &end[i].ts : c->ts;
		uint64_t elapsed = end ? end[i].elapsed_s : c->elapsed_s;
		int pid = end ? end[i].pid : (int)getpid();
		struct report_unit *u;
		if (!job->o.io.stats) /* stats=0: it ran, and is reported nowhere (as fio) */
			continue;
		if (joins_previous(rc, i)) {
			u = &r->units[r->nunits - 1];
		} else {
			u = &r->units[r->nunits++];
			u->job = job;
			u->jr = &r->jobs[c->job];
			u->groupid = job->groupid;
			u->host = host;
			u->rank = rank;
			u->pid = pid;
			summed = job->o.group_reporting || joins_previous(rc, i + 1);
			if (!end) /* this process's clones: their steady-state window */
				steady_report(rc->steady, i, &u->ss);
		}
		u->options = &r->jobs[c->job].options;
		if (summed)
			thread_stats_merge(&u->ts, ts, true);
		else
			u->ts = *ts;
		u->nr_clones++;
		if (elapsed > u->elapsed_s)
			u->elapsed_s = elapsed;
	}
}

static int build_units(struct run_ctx *rc)
{
	rc->results.units = calloc(rc->nclones ? rc->nclones : 1, sizeof(*rc->results.units));
	if (!rc->results.units)
		return -ENOMEM;
	add_units(rc, NULL, NULL, 0);
	return 0;
}

static const struct dir_stats *unit_dir(const struct report_unit *u, int d)
{
	return d == DDIR_MIXED ? u->mixed : &u->ts.dir[d];
}

static uint64_t unit_bw(const struct report_unit *u, int d)
{
	return u->ts.runtime_ms ? unit_dir(u, d)->io_bytes * 1000 / u->ts.runtime_ms : 0;
}

/* unified_rw_reporting: every direction summed into one. */
static int build_mixed(struct report_unit *u)
{
	struct dir_result *m = &u->dir[DDIR_MIXED];
	u->mixed = calloc(1, sizeof(*u->mixed));
	u->mixed_prio = calloc(1, sizeof(*u->mixed_prio));
	if (!u->mixed || !u->mixed_prio)
		return -ENOMEM;
	for (int d = 0; d < PRIO_DIRS; d++)
		prio_stats_merge(u->mixed_prio, &u->ts.prio[d]);
	for (int d = 0; d < DDIR_NR; d++) {
		dir_stats_merge(u->mixed, &u->ts.dir[d]);
		struct sample_summary bw = dir_bw_summary(&u->ts, d), io = dir_iops_summary(&u->ts, d);
		sample_summary_add(&m->bw, &bw);
		sample_summary_add(&m->iops, &io);
	}
	return 0;
}

static void summarize_group(const struct run_results *r, struct group_summary *gs)
{
	for (size_t i = 0; i < r->nunits; i++) {
		const struct report_unit *u = &r->units[i];
		if (u->groupid != gs->groupid || u->all_clients)
			continue;
		gs->kb_base = u->job->o.kb_base;
		gs->unit_base = u->job->o.unit_base;
		gs->unified = u->job->o.unified;
		gs->sig_figs = u->job->o.sig_figs;
		for (int d = 0; d <= DDIR_MIXED; d++) {
			if ((d == DDIR_MIXED && !u->mixed) || (!unit_dir(u, d)->total_ios && !unit_dir(u, d)->io_bytes) ||
			    (u->jr->no_io && !unit_dir(u, d)->io_bytes)) /* as fio: no group line for cpuio's */
				continue;
			uint64_t bw = unit_bw(u, d), run = u->ts.runtime_ms;
			bool first = gs->io_bytes[d] == 0 && gs->max_run[d] == 0;
			gs->io_bytes[d] += unit_dir(u, d)->io_bytes;
			if (first || bw < gs->min_bw[d])
				gs->min_bw[d] = bw;
			if (bw > gs->max_bw[d])
				gs->max_bw[d] = bw;
			if (first || run < gs->min_run[d])
				gs->min_run[d] = run;
			if (run > gs->max_run[d])
				gs->max_run[d] = run;
		}
	}
	for (int d = 0; d <= DDIR_MIXED; d++)
		gs->agg_bw[d] = gs->max_run[d] ? gs->io_bytes[d] * 1000 / gs->max_run[d] : 0;
}

static void pct_of(struct pct_values *p, const struct hist *h, const struct job_opts *o)
{
	p->samples = hist_percentiles(h, o->pct_list, o->npct, p->ns);
}

/* cmdprio: each priority's latencies, as fio shows them when a direction's I/Os had two
 * or more (and none are missing for want of room). */
static void derive_prios(struct dir_result *v, const struct prio_stats *p, const struct job_opts *o)
{
	v->nprios = 0;
	if (!p || p->overflow || prio_stats_used(p) < 2)
		return;
	uint64_t total = 0;
	for (unsigned i = 0; i < PRIO_STATS_MAX; i++)
		total += p->e[i].n;
	v->prio_lat = p->lat;
	for (unsigned i = 0; i < PRIO_STATS_MAX; i++) {
		const struct prio_stat *e = &p->e[i];
		if (!e->n)
			continue;
		struct prio_result *r = &v->prios[v->nprios++];
		r->cls = ioprio_class_of(e->ioprio);
		r->level = ioprio_level_of(e->ioprio);
		r->lat = (struct series){ e->n, e->min, e->max, e->sum, e->sumsq };
		r->hist = &e->hist;
		pct_of(&r->pct, &e->hist, o);
		r->share_pct = (double)e->n * 100.0 / (double)total;
	}
}

/* What a unit shows of each direction: its samples, its share of the group, percentiles. */
static void derive_unit(struct report_unit *u, const struct group_summary *gs)
{
	static const char *const names[DDIR_NR + 1] = { "read", "write", "trim", "mixed" };
	const struct job_opts *o = &u->job->o;
	for (int d = 0; d <= DDIR_MIXED; d++) {
		struct dir_result *v = &u->dir[d];
		v->name = names[d];
		v->slot = d;
		v->ds = d == DDIR_MIXED ? u->mixed : &u->ts.dir[d];
		if (d != DDIR_MIXED) { /* the mixed slot's: summed by build_mixed */
			v->bw = dir_bw_summary(&u->ts, d);
			v->iops = dir_iops_summary(&u->ts, d);
		}
		v->bw_agg_pct = gs->agg_bw[d] ? v->bw.mean * 1024.0 / (double)gs->agg_bw[d] * 100.0 : 0.0;
		if (!v->ds)
			continue;
		v->run_ms = v->ds->total_ios && (v->ds->io_bytes || !u->jr->no_io) ? u->ts.runtime_ms : 0;
		pct_of(&v->slat_pct, &v->ds->slat_hist, o);
		pct_of(&v->clat_pct, &v->ds->clat_hist, o);
		pct_of(&v->lat_pct, &v->ds->lat_hist, o);
		hist_percentiles(&v->ds->clat_hist, results_key_pct, KEY_PCT_NR, v->clat_key_ns);
		derive_prios(v, d == DDIR_MIXED ? u->mixed_prio : d < PRIO_DIRS ? &u->ts.prio[d] : NULL, o);
	}
	pct_of(&u->sync_pct, &u->ts.sync_hist, o);
	lat_target_report(o, u->jr->depth, &u->ts, &u->lat);
	pct_of(&u->file_oc_pct, &u->ts.file_oc_hist, o);
}

/* The disks' deltas, the end time. */
/* --profile=act: the share of the reads over ACT's three limits, from their clat histograms. */
static void act_table(struct run_results *r)
{
	static const uint64_t limit_ns[3] = { 1000000, 8000000, 64000000 };
	static const double max_pct[3] = { 5.0, 1.0, 0.1 };
	uint64_t over[3] = { 0 }, n = 0;
	r->act.on = true;
	for (size_t i = 0; i < r->nunits; i++) {
		const struct hist *h = &r->units[i].ts.dir[DDIR_READ].clat_hist;
		for (unsigned b = 0; b < HIST_NR; b++) {
			n += h->bucket[b];
			for (int k = 0; k < 3; k++)
				if (hist_bucket_value(b) > limit_ns[k])
					over[k] += h->bucket[b];
		}
	}
	r->act.reads = n;
	r->act.passed = true;
	for (int k = 0; k < 3; k++) {
		r->act.over_pct[k] = n ? 100.0 * (double)over[k] / (double)n : 0.0;
		r->act.passed &= r->act.over_pct[k] <= max_pct[k];
	}
}

static int derive_run(struct run_ctx *rc)
{
	struct run_results *r = &rc->results;
	if (r->profile && !strcmp(r->profile, "act"))
		act_table(r);
	r->disks = calloc(rc->disks.n ? rc->disks.n : 1, sizeof(*r->disks));
	if (!r->disks)
		return -ENOMEM;
	for (unsigned i = 0; i < rc->disks.n; i++)
		disk_report_of(&rc->disks.disks[i], &r->disks[i]);
	r->ndisks = rc->disks.n;
	r->end_time = rc->end_time;
	r->end_ms = rc->end_ms;
	return 0;
}

/* Mixed views, group summaries, what each unit shows, the disks. */
static int summarize_units(struct run_ctx *rc)
{
	struct run_results *r = &rc->results;
	int ret = 0;
	for (size_t i = 0; i < r->nunits; i++)
		if (r->units[i].job->o.unified != UNIFIED_NONE && (ret = build_mixed(&r->units[i])))
			return ret;
	r->groups = calloc(rc->ngroups ? rc->ngroups : 1, sizeof(*r->groups));
	if (!r->groups)
		return -ENOMEM;
	r->ngroups = rc->ngroups;
	for (unsigned g = 0; g < r->ngroups; g++) {
		r->groups[g].groupid = g;
		summarize_group(r, &r->groups[g]);
	}
	for (size_t i = 0; i < r->nunits; i++)
		derive_unit(&r->units[i], &r->groups[r->units[i].groupid]);
	return derive_run(rc);
}

int run_summarize(struct run_ctx *rc)
{
	run_summary_free(rc);
	int ret = run_describe(rc);
	if (!ret)
		ret = build_units(rc);
	return ret ? ret : summarize_units(rc);
}

/* Rank 0: a block per rank, in rank order, then per job one "All clients" block, the
 * rank's units summed as clones of one job (fio's group reporting: exact histograms). */
static int build_client_units(struct run_ctx *rc, const struct clone_end *all, unsigned nranks)
{
	struct run_results *res = &rc->results;
	size_t per_rank = res->nunits; /* this rank's units: every rank has the same */
	free_units(res);
	res->units = calloc(rc->nclones * nranks + per_rank + 1, sizeof(*res->units));
	if (!res->units)
		return -ENOMEM;
	for (unsigned r = 0; r < nranks; r++)
		add_units(rc, all + (size_t)r * rc->nclones, rc->hosts[r], r);
	for (size_t k = 0; k < per_rank; k++) {
		struct report_unit *a = &res->units[res->nunits++];
		const struct report_unit *first = &res->units[k];
		a->job = first->job;
		a->jr = first->jr;
		a->options = first->options;
		a->groupid = first->groupid;
		a->all_clients = true;
		for (unsigned r = 0; r < nranks; r++) {
			const struct report_unit *u = &res->units[(size_t)r * per_rank + k];
			thread_stats_merge(&a->ts, &u->ts, true);
			a->nr_clones += u->nr_clones;
			if (u->elapsed_s > a->elapsed_s)
				a->elapsed_s = u->elapsed_s;
		}
	}
	res->clients = true;
	return summarize_units(rc);
}

int run_summarize_cluster(struct run_ctx *rc)
{
	const struct cluster *cl = rc->cfg->cluster;
	if (!cl || cl->size < 2)
		return 0;
	/* Every rank runs the same jobs; a rank that does not (other job files) is an error. */
	int n = (int)rc->nclones;
	if (cluster_max_int(cl, n) != n || cluster_max_int(cl, -n) != -n) {
		if (cl->rank == 0)
			fprintf(stderr, "iobench: the ranks do not run the same jobs\n");
		return -EINVAL;
	}
	bool root = cl->rank == 0;
	struct clone_end *mine = calloc(rc->nclones ? rc->nclones : 1, sizeof(*mine));
	struct clone_end *all = root ? calloc(rc->nclones * cl->size + 1, sizeof(*all)) : NULL;
	rc->hosts = root ? calloc(cl->size, sizeof(*rc->hosts)) : NULL;
	int ret = mine && (!root || (all && rc->hosts)) ? 0 : -ENOMEM;
	for (size_t i = 0; !ret && i < rc->nclones; i++) {
		mine[i].ts = *rc->clones[i].ts;
		mine[i].elapsed_s = rc->clones[i].elapsed_s;
		mine[i].pid = (int)getpid();
	}
	/* The ranks agree to go on (a rank out of memory stops them all) before gathering. */
	if (cluster_max_int(cl, ret ? 1 : 0))
		ret = -ENOMEM;
	if (!ret)
		ret = cl->gather(cl, cl->host, sizeof(cl->host), rc->hosts);
	if (!ret)
		ret = cl->gather(cl, mine, rc->nclones * sizeof(*mine), all);
	if (!ret && root)
		ret = build_client_units(rc, all, cl->size);
	free(mine);
	free(all);
	return ret;
}

void run_summary_free(struct run_ctx *rc)
{
	free_units(&rc->results);
	free_jobs(&rc->results);
	memset(&rc->results, 0, sizeof(rc->results));
}
