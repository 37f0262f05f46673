/* After the run: clones merged into report units, units into group summaries. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/run.h"

static int build_units(struct run_ctx *rc)
{
	rc->units = calloc(rc->nclones ? rc->nclones : 1, sizeof(*rc->units));
	if (!rc->units)
		return -ENOMEM;
	for (size_t i = 0; i < rc->nclones; i++) {
		const struct clone_result *c = &rc->clones[i];
		const struct job *job = &rc->cfg->jobs[c->job];
		struct report_unit *u;
		bool joins = job->o.group_reporting && c->clone > 0;
		if (joins) {
			u = &rc->units[rc->nunits - 1];
		} else {
			u = &rc->units[rc->nunits++];
			u->job = job;
			u->groupid = job->groupid;
		}
		if (job->o.group_reporting)
			thread_stats_merge(&u->ts, c->ts, true);
		else
			u->ts = *c->ts;
		u->nr_clones++;
		if (c->elapsed_s > u->elapsed_s)
			u->elapsed_s = c->elapsed_s;
	}
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
		if (u->groupid != gs->groupid)
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

int run_summarize(struct run_ctx *rc)
{
	int ret = build_units(rc);
	if (ret)
		return ret;
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
