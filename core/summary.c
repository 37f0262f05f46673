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

static uint64_t unit_bw(const struct report_unit *u, int d)
{
	return u->ts.runtime_ms ? u->ts.dir[d].io_bytes * 1000 / u->ts.runtime_ms : 0;
}

static void summarize_group(struct run_ctx *rc, struct group_summary *gs)
{
	for (size_t i = 0; i < rc->nunits; i++) {
		const struct report_unit *u = &rc->units[i];
		if (u->groupid != gs->groupid)
			continue;
		gs->kb_base = u->job->o.kb_base;
		gs->unit_base = u->job->o.unit_base;
		for (int d = 0; d < DDIR_NR; d++) {
			uint64_t bw = unit_bw(u, d), run = u->ts.runtime_ms;
			if (!u->ts.dir[d].total_ios && !u->ts.dir[d].io_bytes)
				continue;
			bool first = gs->io_bytes[d] == 0 && gs->max_run[d] == 0;
			gs->io_bytes[d] += u->ts.dir[d].io_bytes;
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
	for (int d = 0; d < DDIR_NR; d++)
		gs->agg_bw[d] = gs->max_run[d] ? gs->io_bytes[d] * 1000 / gs->max_run[d] : 0;
}

int run_summarize(struct run_ctx *rc)
{
	int ret = build_units(rc);
	if (ret)
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
		for (int d = 0; d < DDIR_NR; d++) {
			struct sample_summary bw = dir_bw_summary(&u->ts, d);
			u->bw_agg_pct[d] = gs->agg_bw[d] ? bw.mean * 1024.0 / (double)gs->agg_bw[d] * 100.0 : 0.0;
		}
	}
	return 0;
}
