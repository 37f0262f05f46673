/* After the run: clones merged into report units, units into group summaries. */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/run.h"

/* What one clone ended with: this process's clones, or a rank's in a cluster run. */
struct clone_end {
	struct thread_stats ts;
	uint64_t elapsed_s;
	int pid;
};

/* Append the units of one set of clones (clone i's stats: ts[i], or end[i].ts). */
static void add_units(struct run_ctx *rc, const struct clone_end *end, const char *host, unsigned rank)
{
	size_t first = rc->nunits;
	for (size_t i = 0; i < rc->nclones; i++) {
		const struct clone_result *c = &rc->clones[i];
		const struct job *job = &rc->cfg->jobs[c->job];
		const struct thread_stats *ts = end ? &end[i].ts : c->ts;
		uint64_t elapsed = end ? end[i].elapsed_s : c->elapsed_s;
		int pid = end ? end[i].pid : (int)getpid();
		struct report_unit *u;
		bool joins = job->o.group_reporting && c->clone > 0 && rc->nunits > first;
		if (joins) {
			u = &rc->units[rc->nunits - 1];
		} else {
			u = &rc->units[rc->nunits++];
			u->job = job;
			u->groupid = job->groupid;
			u->host = host;
			u->rank = rank;
			u->pid = pid;
		}
		if (job->o.group_reporting)
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
	rc->units = calloc(rc->nclones ? rc->nclones : 1, sizeof(*rc->units));
	if (!rc->units)
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
	u->mixed = calloc(1, sizeof(*u->mixed));
	if (!u->mixed)
		return -ENOMEM;
	for (int d = 0; d < DDIR_NR; d++) {
		dir_stats_merge(u->mixed, &u->ts.dir[d]);
		struct sample_summary bw = dir_bw_summary(&u->ts, d), io = dir_iops_summary(&u->ts, d);
		sample_summary_add(&u->mixed_bw, &bw);
		sample_summary_add(&u->mixed_iops, &io);
	}
	return 0;
}

static void summarize_group(struct run_ctx *rc, struct group_summary *gs)
{
	for (size_t i = 0; i < rc->nunits; i++) {
		const struct report_unit *u = &rc->units[i];
		if (u->groupid != gs->groupid || u->all_clients)
			continue;
		gs->kb_base = u->job->o.kb_base;
		gs->unit_base = u->job->o.unit_base;
		gs->unified = u->job->o.unified;
		gs->sig_figs = u->job->o.sig_figs;
		for (int d = 0; d <= DDIR_MIXED; d++) {
			if ((d == DDIR_MIXED && !u->mixed) || (!unit_dir(u, d)->total_ios && !unit_dir(u, d)->io_bytes))
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

/* Mixed views, group summaries and each unit's share of its group. */
static int summarize_units(struct run_ctx *rc)
{
	int ret = 0;
	for (size_t i = 0; i < rc->nunits; i++)
		if (rc->units[i].job->o.unified != UNIFIED_NONE && (ret = build_mixed(&rc->units[i])))
			return ret;
	rc->groups = calloc(rc->ngroups ? rc->ngroups : 1, sizeof(*rc->groups));
	if (!rc->groups)
		return -ENOMEM;
	for (unsigned g = 0; g < rc->ngroups; g++) {
		rc->groups[g].groupid = g;
		summarize_group(rc, &rc->groups[g]);
	}
	for (size_t i = 0; i < rc->nunits; i++) {
		struct report_unit *u = &rc->units[i];
		const struct group_summary *gs = &rc->groups[u->groupid];
		for (int d = 0; d <= DDIR_MIXED; d++) {
			struct sample_summary bw = d == DDIR_MIXED ? u->mixed_bw : dir_bw_summary(&u->ts, d);
			u->bw_agg_pct[d] = gs->agg_bw[d] ? bw.mean * 1024.0 / (double)gs->agg_bw[d] * 100.0 : 0.0;
		}
	}
	return 0;
}

int run_summarize(struct run_ctx *rc)
{
	int ret = build_units(rc);
	return ret ? ret : summarize_units(rc);
}

/* Rank 0: a block per rank, in rank order, then per job one "All clients" block, the
 * rank's units summed as clones of one job (fio's group reporting: exact histograms). */
static int build_client_units(struct run_ctx *rc, const struct clone_end *all, unsigned nranks)
{
	size_t per_rank = rc->nunits; /* this rank's units: every rank has the same */
	run_summary_free(rc);
	rc->units = calloc(rc->nclones * nranks + per_rank + 1, sizeof(*rc->units));
	if (!rc->units)
		return -ENOMEM;
	for (unsigned r = 0; r < nranks; r++)
		add_units(rc, all + (size_t)r * rc->nclones, rc->hosts[r], r);
	for (size_t k = 0; k < per_rank; k++) {
		struct report_unit *a = &rc->units[rc->nunits++];
		const struct report_unit *first = &rc->units[k];
		a->job = first->job;
		a->groupid = first->groupid;
		a->all_clients = true;
		for (unsigned r = 0; r < nranks; r++) {
			const struct report_unit *u = &rc->units[(size_t)r * per_rank + k];
			thread_stats_merge(&a->ts, &u->ts, true);
			a->nr_clones += u->nr_clones;
			if (u->elapsed_s > a->elapsed_s)
				a->elapsed_s = u->elapsed_s;
		}
	}
	rc->clients = true;
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
	for (size_t i = 0; rc->units && i < rc->nunits; i++)
		free(rc->units[i].mixed);
	free(rc->units);
	free(rc->groups);
	rc->units = NULL;
	rc->groups = NULL;
	rc->nunits = 0;
}
