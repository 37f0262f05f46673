/* iobench: parse, prepare, run, report. Only main() exits. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/options.h"
#include "core/run.h"
#include "core/signals.h"
#include "report/report.h"

struct monitor_out {
	FILE *out;
	bool eta_shown;
};

static int report_all(FILE *out, const struct run_ctx *rc);

/* --status-interval: the cumulative results so far, in the chosen formats. */
static void status_report(struct run_ctx *rc, void *arg)
{
	struct monitor_out *mo = arg;
	run_use_snapshots(rc, true);
	if (!run_summarize(rc))
		report_all(mo->out, rc);
	run_summary_free(rc);
	run_use_snapshots(rc, false);
}

static void eta_line(const struct run_ctx *rc, const struct run_progress *p, void *arg)
{
	struct monitor_out *mo = arg;
	report_eta(stderr, p);
	mo->eta_shown = true;
}

static int report_all(FILE *out, const struct run_ctx *rc)
{
	int ret = 0;
	unsigned f = rc->cfg->formats;
	/* fio's order: terse, then JSON, then normal. */
	if (f & FMT_TERSE)
		report_terse(out, rc, rc->cfg->terse_version);
	if (f & (FMT_JSON | FMT_JSON_PLUS))
		ret = report_json(out, rc, (f & FMT_JSON_PLUS) != 0);
	if (f & FMT_NORMAL)
		report_normal(out, rc);
	if (f & FMT_CSV)
		report_csv(out, rc, true);
	return ret;
}

/* One --sweep point: the values of this combination (NULL outside a sweep). */
struct sweep_point {
	const struct run_cfg *sweep; /* names */
	const char *values[RUN_SWEEPS_MAX];
	unsigned index, total;
};

/* Put the swept values on every job: they beat the jobs' own values. */
static int apply_sweep(struct run_cfg *cfg, const struct sweep_point *sp)
{
	for (size_t j = 0; sp && j < cfg->njobs; j++)
		for (unsigned k = 0; k < cfg->nsweeps; k++)
			if (opt_list_add(&cfg->jobs[j].given, cfg->sweeps[k].name, sp->values[k], NULL, 0))
				return -ENOMEM;
	return 0;
}

static void sweep_label(char *buf, size_t len, const struct run_cfg *cfg, const struct sweep_point *sp)
{
	size_t o = 0;
	buf[0] = '\0';
	for (unsigned k = 0; k < cfg->nsweeps && o < len; k++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s=%s", k ? " " : "", cfg->sweeps[k].name, sp->values[k]);
}

/* Prepare, run and report one configuration. Returns the exit status it deserves. */
static int run_once(struct run_cfg *cfg, FILE *out, const struct sweep_point *sp, int *signal_out)
{
	struct run_ctx rc = { 0 };
	struct signal_watch sw = { 0 };
	int status = 1;
	if (apply_sweep(cfg, sp) || run_prepare(&rc, cfg))
		goto out;
	if (cfg->parse_only) {
		status = 0;
		goto out;
	}
	if (signals_start(&sw, &rc.stop, &rc.interrupted))
		fprintf(stderr, "iobench: cannot watch signals; Ctrl-C will not print results\n");
	char label[512] = "";
	if (sp) {
		sweep_label(label, sizeof(label), cfg, sp);
		fprintf(stderr, "[%u/%u] %s\n", sp->index + 1, sp->total, label);
	}
	bool normal = cfg->formats & FMT_NORMAL;
	if (normal && sp)
		fprintf(out, "%s=== sweep %u/%u: %s ===\n", sp->index ? "\n" : "", sp->index + 1, sp->total, label);
	if (normal)
		report_normal_header(out, &rc);
	struct monitor_out mo = { out, false };
	rc.eta = cfg->eta > 0 || (cfg->eta == 0 && isatty(STDERR_FILENO));
	rc.status_interval_ms = cfg->status_interval_ms;
	rc.status_cb = status_report;
	rc.eta_cb = eta_line;
	rc.cb_arg = &mo;
	int run_err = run_execute(&rc, normal ? out : NULL);
	signals_stop(&sw);
	if (mo.eta_shown)
		fprintf(stderr, "\n");
	if (run_summarize(&rc)) {
		fprintf(stderr, "iobench: out of memory while summing up\n");
		goto out;
	}
	int rep_err;
	if (sp && (cfg->formats & (FMT_JSON | FMT_JSON_PLUS))) { /* a member of the sweep document */
		fprintf(out, "%s    {\n      \"values\" : {", sp->index ? ",\n" : "");
		for (unsigned k = 0; k < cfg->nsweeps; k++)
			fprintf(out, "%s \"%s\" : \"%s\"", k ? "," : "", cfg->sweeps[k].name, sp->values[k]);
		fprintf(out, " },\n      \"result\" : ");
		rep_err = report_json(out, &rc, (cfg->formats & FMT_JSON_PLUS) != 0);
		fprintf(out, "    }");
	} else if (sp && (cfg->formats & FMT_CSV)) {
		report_csv_sweep(out, &rc, sp->index == 0, cfg->nsweeps, (const char *const *)cfg->sweep_names,
				 sp->values);
		rep_err = 0;
		if (normal)
			report_normal(out, &rc);
	} else {
		rep_err = report_all(out, &rc);
	}
	/* Exit status: 0 all done; 1 an error (bad input, I/O error, a job failed);
	 * 128 + N when signal N stopped the run (results so far are printed). */
	int sig = atomic_load(&rc.interrupted);
	*signal_out = sig;
	status = sig ? 128 + sig : run_err || rep_err ? 1 : 0;
out:
	run_ctx_free(&rc);
	return status;
}

/* --sweep: every combination, the first --sweep outermost; each a complete run. */
static int run_sweep(int argc, char **argv, const struct run_cfg *first, FILE *out)
{
	unsigned total = 1;
	for (unsigned k = 0; k < first->nsweeps; k++)
		total *= first->sweeps[k].nvalues;
	bool json = first->formats & (FMT_JSON | FMT_JSON_PLUS);
	int worst = 0;
	/* Pass 0 only parses every combination: a bad value stops the sweep before any run. */
	for (int pass = 0; pass < 2 && !worst; pass++) {
		if (pass == 1 && json)
			fprintf(out, "{\n  \"iobench sweep\" : [\n");
		for (unsigned i = 0; i < total; i++) {
			struct run_cfg cfg = { 0 };
			struct sweep_point sp = { first, { 0 }, i, total };
			if (cli_parse(argc, argv, &cfg, stdout) != CLI_RUN) {
				run_cfg_free(&cfg);
				return 1;
			}
			cfg.parse_only = pass == 0;
			unsigned rest = i;
			for (unsigned k = first->nsweeps; k-- > 0;) {
				sp.values[k] = first->sweeps[k].values[rest % first->sweeps[k].nvalues];
				rest /= first->sweeps[k].nvalues;
			}
			int sig = 0, st = run_once(&cfg, out, &sp, &sig);
			run_cfg_free(&cfg);
			if (st > worst)
				worst = st;
			if (sig || (pass == 0 && st))
				break;
		}
		if (pass == 1 && json)
			fprintf(out, "\n  ]\n}\n");
	}
	return worst;
}

int main(int argc, char **argv)
{
	struct run_cfg cfg = { 0 };
	FILE *out = stdout;
	int status = 1;

	enum cli_result cr = cli_parse(argc, argv, &cfg, stdout);
	if (cr != CLI_RUN) {
		status = cr == CLI_EXIT_OK ? 0 : 1;
		goto out_cfg;
	}
	if (cfg.nmerge) {
		status = report_merge(stdout, cfg.merge, cfg.nmerge) ? 1 : 0;
		goto out_cfg;
	}
	if (cfg.compare[0]) { /* exit 0: fine, 2: a regression past the threshold, 1: bad input */
		int r = report_compare(stdout, cfg.compare[0], cfg.compare[1],
				       (cfg.formats & (FMT_JSON | FMT_JSON_PLUS)) != 0, cfg.compare_threshold);
		status = r < 0 ? 1 : r ? 2 : 0;
		goto out_cfg;
	}
	if (cfg.showcmd) {
		cli_print_showcmd(stdout, &cfg);
		status = 0;
		goto out_cfg;
	}
	if (!cfg.njobs) {
		fprintf(stderr, "iobench: no jobs given (see iobench --help)\n");
		goto out_cfg;
	}
	if (cfg.output_path && !cfg.parse_only) {
		out = fopen(cfg.output_path, "w");
		if (!out) {
			fprintf(stderr, "iobench: --output: cannot open '%s': %s\n", cfg.output_path,
				strerror(errno));
			goto out_cfg;
		}
	}
	if (cfg.nsweeps && !cfg.parse_only) {
		status = run_sweep(argc, argv, &cfg, out);
	} else {
		int sig;
		status = run_once(&cfg, out, NULL, &sig);
	}
	if (out != stdout && fclose(out) && !status) {
		fprintf(stderr, "iobench: --output: %s\n", strerror(errno));
		status = 1;
	}
out_cfg:
	run_cfg_free(&cfg);
	return status;
}
