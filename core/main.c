/* iobench: parse, prepare, run, report. Only main() exits. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cli.h"
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

int main(int argc, char **argv)
{
	struct run_cfg cfg = { 0 };
	struct run_ctx rc = { 0 };
	struct signal_watch sw = { 0 };
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
	if (run_prepare(&rc, &cfg))
		goto out_ctx;
	if (cfg.parse_only) {
		status = 0;
		goto out_ctx;
	}
	if (cfg.output_path) {
		out = fopen(cfg.output_path, "w");
		if (!out) {
			fprintf(stderr, "iobench: --output: cannot open '%s': %s\n", cfg.output_path,
				strerror(errno));
			goto out_ctx;
		}
	}
	if (signals_start(&sw, &rc.stop, &rc.interrupted))
		fprintf(stderr, "iobench: cannot watch signals; Ctrl-C will not print results\n");
	bool normal = cfg.formats & FMT_NORMAL;
	if (normal)
		report_normal_header(out, &rc);
	struct monitor_out mo = { out, false };
	rc.eta = cfg.eta > 0 || (cfg.eta == 0 && isatty(STDERR_FILENO));
	rc.status_interval_ms = cfg.status_interval_ms;
	rc.status_cb = status_report;
	rc.eta_cb = eta_line;
	rc.cb_arg = &mo;
	int run_err = run_execute(&rc, normal ? out : NULL);
	signals_stop(&sw);
	if (mo.eta_shown)
		fprintf(stderr, "\n");
	if (run_summarize(&rc)) {
		fprintf(stderr, "iobench: out of memory while summing up\n");
		goto out_file;
	}
	int rep_err = report_all(out, &rc);
	/* Exit status: 0 all done; 1 an error (bad input, I/O error, a job failed);
	 * 128 + N when signal N stopped the run (results so far are printed). */
	int sig = atomic_load(&rc.interrupted);
	status = sig ? 128 + sig : run_err || rep_err ? 1 : 0;
out_file:
	if (out != stdout && fclose(out) && !status) {
		fprintf(stderr, "iobench: --output: %s\n", strerror(errno));
		status = 1;
	}
out_ctx:
	run_ctx_free(&rc);
out_cfg:
	run_cfg_free(&cfg);
	return status;
}
