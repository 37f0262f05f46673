/* iobench: parse, prepare, run, report. Only main() exits. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/app/cli.h"
#include "core/lib/debug.h"
#include "core/app/docmodes.h"
#include "core/lib/errcap.h"
#include "core/app/idle.h"
#include "core/lib/nomem.h"
#include "core/job/options.h"
#include "core/lib/outfile.h"
#include "core/app/prog.h"
#include "core/run/run.h"
#include "core/lib/signals.h"
#include "report/report.h"
#include "engines/secret.h"

struct monitor_out {
	FILE *out;
	struct outfile *of;
	bool eta_shown;   /* an ETA line is on stderr without its newline */
	bool eta_tty;     /* stderr is a terminal: lines overwrite each other */
	int eta_len;      /* the last line's length, for the next to cover */
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
	outfile_flush(mo->of); /* a report that cannot be written stops the run (output_alive) */
}

/* Can the report still reach its reader? A pipe whose reader went away (`| head -c 1`),
 * or a write that failed, stops the run: nobody would see its results. Said once. */
static bool output_alive(void *arg)
{
	struct monitor_out *mo = arg;
	if (!mo->of->err && outfile_reader_gone(mo->of))
		mo->of->err = -EPIPE;
	if (!mo->of->err)
		return true;
	if (!mo->of->announced)
		fprintf(stderr, "iobench: %s: cannot write the report: %s; stopping the jobs\n",
			mo->of->path ? mo->of->path : "stdout", strerror(-mo->of->err));
	mo->of->announced = true;
	return false;
}

/* On a terminal each line overwrites the last, and --eta-newline's stay. Elsewhere (a log,
 * kubectl logs) with --eta-newline only those are printed, each on its own line. */
static void eta_line(const struct run_ctx *rc, const struct run_progress *p, bool newline, void *arg)
{
	struct monitor_out *mo = arg;
	bool lines_only = !mo->eta_tty && rc->cfg->prog.eta_newline_ms;
	if (lines_only && !newline)
		return;
	mo->eta_len = report_eta(stderr, p, lines_only ? 0 : mo->eta_len, !lines_only, newline);
	mo->eta_shown = !newline;
	if (newline)
		mo->eta_len = 0;
}

static int report_all(FILE *out, const struct run_ctx *rc)
{
	int ret = 0;
	unsigned f = rc->cfg->formats;
	/* fio's order: terse, then JSON, then normal. */
	const struct run_results *r = &rc->results;
	if (f & FMT_TERSE)
		report_terse(out, r, rc->cfg->terse_version);
	if (f & (FMT_JSON | FMT_JSON_PLUS))
		ret = report_json(out, r, (f & FMT_JSON_PLUS) != 0);
	if (f & FMT_NORMAL)
		report_normal(out, r);
	if (f & FMT_CSV)
		report_csv(out, r, true);
	return ret;
}

/* What a sweep gathers for its chart and its HTML page, and how far its outputs are. */
struct sweep_collect {
	struct sweep_plot plot;
	char *csv;
	size_t csv_len;
	FILE *csvf;
	unsigned members, csv_rows, html_rows; /* printed so far: the first has no comma, a header */
	char why[512];                          /* the line a point that could not run printed */
};

/* One --sweep point: the values of this combination (NULL outside a sweep). */
struct sweep_point {
	const struct run_cfg *sweep; /* names */
	const char *values[RUN_SWEEPS_MAX];
	unsigned index, total;
	struct sweep_collect *col;
};

/* A point of the sweep chart: x = the first swept value, series = the others. */
static void collect_point(struct sweep_collect *col, const struct sweep_point *sp, const struct run_results *r)
{
	const struct run_cfg *cfg = sp->sweep; /* outlives the runs: the plot keeps its strings */
	struct sweep_plot *p = &col->plot;
	const struct sweep *first = &cfg->sweeps[0];
	snprintf(p->xname, sizeof(p->xname), "%s", first->name);
	p->nx = first->nvalues < PLOT_X_MAX ? first->nvalues : PLOT_X_MAX;
	unsigned x = 0;
	for (unsigned k = 0; k < p->nx; k++) {
		p->xvals[k] = first->values[k];
		if (!strcmp(first->values[k], sp->values[0]))
			x = k;
	}
	char name[128] = "";
	for (unsigned k = 1; k < cfg->nsweeps; k++)
		snprintf(name + strlen(name), sizeof(name) - strlen(name), "%s%s=%s", k > 1 ? " " : "",
			 cfg->sweeps[k].name, sp->values[k]);
	unsigned s = 0;
	while (s < p->ns && strcmp(p->series[s].name, name))
		s++;
	if (s == p->ns) {
		if (p->ns == PLOT_SERIES_MAX)
			return;
		snprintf(p->series[p->ns++].name, sizeof(p->series[0].name), "%s", name);
	}
	double bw = 0, iops = 0;
	for (size_t i = 0; i < r->nunits; i++) {
		const struct report_unit *u = &r->units[i];
		for (int d = 0; d < DDIR_NR && u->ts.runtime_ms; d++) {
			bw += (double)u->ts.dir[d].io_bytes * 1000.0 / (double)u->ts.runtime_ms / 1048576.0;
			iops += (double)u->ts.dir[d].total_ios * 1000.0 / (double)u->ts.runtime_ms;
		}
	}
	p->series[s].bw_mib[x] = bw;
	p->series[s].iops[x] = iops;
}

/* --plot: written beside its place and renamed in when complete. 0, or 1 after a line. */
static int write_plot(const struct run_cfg *cfg, const struct sweep_plot *sp, const struct run_results *r)
{
	const char *path = cfg->plot_path;
	struct outfile of;
	int ret = outfile_open(&of, path, cfg->outfile_flags);
	if (!ret) {
		if (sp)
			plot_sweep_svg(of.f, sp);
		else
			plot_percentiles_svg(of.f, r);
		ret = outfile_close(&of, true);
	}
	if (ret)
		fprintf(stderr, "iobench: --plot: cannot write '%s': %s\n", path, outfile_strerror(&of, ret));
	return ret ? 1 : 0;
}

/* Put the swept values on every job: they beat the jobs' own values. */
static int apply_sweep(struct run_cfg *cfg, const struct sweep_point *sp)
{
	for (size_t j = 0; sp && j < cfg->njobs; j++)
		for (unsigned k = 0; k < cfg->nsweeps; k++)
			if (opt_list_add(&cfg->jobs[j].given, cfg->sweeps[k].name, sp->values[k], NULL, 0)) {
				const struct job *job = &cfg->jobs[j]; /* named by its section or its --name */
				return nomem(job->o.name[0] ? job->o.name : job->given.v[0].value, "swept option",
					     opt_list_bytes(cfg->sweeps[k].name, sp->values[k]));
			}
	return 0;
}

static void sweep_label(char *buf, size_t len, const struct run_cfg *cfg, const struct sweep_point *sp)
{
	size_t o = 0;
	buf[0] = '\0';
	for (unsigned k = 0; k < cfg->nsweeps && o < len; k++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s=%s", k ? " " : "", cfg->sweeps[k].name, sp->values[k]);
}

static bool same_file(const char *a, const struct stat *st)
{
	struct stat sa;
	return stat(a, &sa) == 0 && sa.st_dev == st->st_dev && sa.st_ino == st->st_ino;
}

/* An output that is one of the run's job files would be replaced by the report: refused,
 * with one line (one a job does I/O on: run.c, as each clone is planned). */
static int output_is_input(const struct run_ctx *rc, const char *path, const char *what)
{
	struct stat st;
	if (!path || stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	const struct run_cfg *cfg = rc->cfg;
	for (unsigned i = 0; i < cfg->nfile_names; i++)
		if (same_file(cfg->file_names[i], &st)) {
			fprintf(stderr, "iobench: %s: '%s' is the job file '%s': the report would replace it\n", what,
				path, cfg->file_names[i]);
			return -EINVAL;
		}
	return 0;
}

/* The report of one run (or of one sweep point) in the chosen formats. 0, or 1 when a part
 * of it could not be made. */
static int report_run(const struct run_cfg *cfg, FILE *out, const struct sweep_point *sp, struct run_ctx *rc,
		      const char *cmdline, int status)
{
	int rep_err = 0;
	bool normal = cfg->formats & FMT_NORMAL;
	if (sp && sp->col) {
		collect_point(sp->col, sp, &rc->results);
		if (sp->col->csvf)
			report_csv_sweep(sp->col->csvf, &rc->results, !sp->col->html_rows++, cfg->nsweeps,
					 (const char *const *)cfg->sweep_names, sp->values);
	}
	if (!sp && cfg->plot_path)
		rep_err |= write_plot(cfg, NULL, &rc->results);
	if (cfg->formats == FMT_HTML) {
		if (!sp) { /* a sweep's page comes at its end */
			html_begin(out, cmdline);
			html_run(out, &rc->results);
			html_end(out);
		}
	} else if (sp && (cfg->formats & (FMT_JSON | FMT_JSON_PLUS))) { /* a member of the sweep document */
		rep_err |= report_json_sweep_point(out, !sp->col->members++, cfg->nsweeps,
						   (const char *const *)cfg->sweep_names, sp->values, &rc->results,
						   (cfg->formats & FMT_JSON_PLUS) != 0, status, "") != 0;
	} else if (sp && (cfg->formats & FMT_CSV)) {
		report_csv_sweep(out, &rc->results, !sp->col->csv_rows++, cfg->nsweeps,
				 (const char *const *)cfg->sweep_names, sp->values);
		if (normal)
			report_normal(out, &rc->results);
	} else {
		rep_err |= report_all(out, rc);
	}
	return rep_err ? 1 : 0;
}

/* The groups with the monitor (ETA, status reports, a lost reader) and the idleness
 * profiler around them; then what the trigger and --bandwidth-log wrote. The run's error. */
static int execute(struct run_ctx *rc, struct idle_prof *ip, struct signal_watch *sw, struct outfile *of, bool quiet)
{
	const struct run_cfg *cfg = rc->cfg;
	struct monitor_out mo = { of->f, of, false, isatty(STDERR_FILENO), 0 };
	/* --eta-newline asks for the lines: shown unless --eta=never (fio needs --eta=always). */
	rc->eta = !quiet && (cfg->eta > 0 || (cfg->eta == 0 && (mo.eta_tty || cfg->prog.eta_newline_ms)));
	rc->status_interval_ms = quiet ? 0 : cfg->status_interval_ms;
	rc->status_cb = status_report;
	rc->output_cb = output_alive;
	rc->eta_cb = eta_line;
	rc->cb_arg = &mo;
	idle_begin(ip);
	int run_err = run_execute(rc, (cfg->formats & FMT_NORMAL) ? of->f : NULL);
	idle_stop(ip);
	rc->cb_arg = NULL;
	if (rc->mon.trigger_err && !run_err)
		run_err = 1; /* the trigger's command or state files failed */
	signals_reporting(sw);
	if (mo.eta_shown)
		fprintf(stderr, "\n");
	if (cfg->prog.bandwidth_log && !quiet && monitor_write_agg_logs(rc) && !run_err)
		run_err = 1;
	return run_err;
}

/* Prepare, run and report one configuration. Returns the exit status it deserves. */
static int run_once(struct run_cfg *cfg, struct outfile *of, const struct sweep_point *sp, int *signal_out,
		    const char *cmdline, bool *reported)
{
	FILE *out = of->f;
	struct run_ctx rc = { 0 };
	struct signal_watch sw = { 0 };
	struct idle_prof ip = { 0 };
	int status = 1;
	const struct cluster *cl = cfg->cluster;
	bool quiet = cluster_rank(cl) != 0; /* in a cluster, rank 0 reports */
	/* A sweep's JSON document names why a point could not be prepared: the line it printed. */
	struct errcap cap;
	bool hold = sp && sp->col && (cfg->formats & (FMT_JSON | FMT_JSON_PLUS));
	if (hold)
		errcap_begin(&cap);
	int perr = apply_sweep(cfg, sp) || run_prepare(&rc, cfg) ||
		   (!cfg->parse_only && (output_is_input(&rc, cfg->output_path, "--output") ||
					 output_is_input(&rc, cfg->plot_path, "--plot")));
	if (hold)
		errcap_end(&cap, sp->col->why, sizeof(sp->col->why));
	if (cluster_max_int(cl, perr)) /* all ranks go on, or none (a barrier waits for all) */
		goto out;
	if (cfg->parse_only) {
		status = 0;
		goto out;
	}
	prog_debug_prepared(&rc);
	if (signals_start(&sw, &rc.stop, &rc.interrupted, &rc.status_request))
		fprintf(stderr, "iobench: cannot watch signals; Ctrl-C will not print results\n");
	/* After the watcher: the profiler's threads block the signals as this one does. */
	if (cfg->prog.idle_prof && idle_start(&ip, cfg->prog.idle_prof))
		goto out;
	char label[512] = "";
	if (sp) {
		sweep_label(label, sizeof(label), cfg, sp);
		fprintf(stderr, "[%u/%u] %s\n", sp->index + 1, sp->total, label);
	}
	bool normal = cfg->formats & FMT_NORMAL;
	if (normal && sp)
		fprintf(out, "%s=== sweep %u/%u: %s ===\n", sp->index ? "\n" : "", sp->index + 1, sp->total, label);
	if (normal && run_describe(&rc))
		fprintf(stderr, "iobench: out of memory: no header\n");
	else if (normal)
		report_normal_header(out, &rc.results);
	int run_err = execute(&rc, &ip, &sw, of, quiet);
	if (run_summarize(&rc)) {
		fprintf(stderr, "iobench: out of memory while summing up\n");
		goto out;
	}
	if (run_summarize_cluster(&rc)) {
		fprintf(stderr, "iobench: cannot gather the ranks' results\n");
		goto out;
	}
	rc.results.idle = ip.res;
	prog_debug_disks(&rc);
	if (quiet) { /* the other ranks' results went to rank 0 */
		int sig = atomic_load(&rc.interrupted);
		*signal_out = sig;
		status = sig ? 128 + sig : run_err ? 1 : 0;
		goto out;
	}
	*reported = true;
	/* Exit status: 0 all done; 1 an error (bad input, I/O error, a job failed);
	 * 128 + N when signal N stopped the run (results so far are printed). */
	int sig = atomic_load(&rc.interrupted);
	*signal_out = sig;
	status = sig ? 128 + sig : run_err ? 1 : 0;
	if (report_run(cfg, out, sp, &rc, cmdline, status) && !sig)
		status = 1;
out:
	signals_stop(&sw);
	idle_stop(&ip);
	idle_free(&ip);
	run_ctx_free(&rc);
	return status;
}

/* --sweep: every combination, the first --sweep outermost; each a complete run. */
static int run_sweep(int argc, char **argv, const struct run_cfg *first, struct outfile *of, const char *cmdline,
		     bool *reported)
{
	FILE *out = of->f;
	struct sweep_collect *col = calloc(1, sizeof(*col));
	if (col && (first->formats & FMT_HTML) && !(col->csvf = open_memstream(&col->csv, &col->csv_len)))
		col = (free(col), NULL);
	if (!col) {
		nomem(NULL, "state of the sweep", 0);
		return 1;
	}
	unsigned total = 1;
	for (unsigned k = 0; k < first->nsweeps; k++)
		total *= first->sweeps[k].nvalues; /* at most SWEEP_RUNS_MAX (core/app/cli_sweep.c) */
	bool json = first->formats & (FMT_JSON | FMT_JSON_PLUS);
	int worst = 0;
	/* Pass 0 only parses every combination: a bad value stops the sweep before any run. */
	for (int pass = 0; pass < 2 && !worst; pass++) {
		if (pass == 1 && json) {
			fprintf(out, "{\n  \"iobench sweep\" : [\n");
			*reported = true;
		}
		for (unsigned i = 0; i < total; i++) {
			struct run_cfg cfg = { .prog.reparse = true, .prog.debug.job = -1 }; /* main's parse said its notes */
			struct sweep_point sp = { first, { 0 }, i, total, pass ? col : NULL };
			bool ran = false, stop = cli_parse(argc, argv, &cfg, stdout) != CLI_RUN;
			cfg.parse_only = pass == 0;
			cfg.formats = first->formats; /* as main settled them (--output=FILE.html) */
			unsigned rest = i;
			for (unsigned k = first->nsweeps; k-- > 0;) {
				sp.values[k] = first->sweeps[k].values[rest % first->sweeps[k].nvalues];
				rest /= first->sweeps[k].nvalues;
			}
			col->why[0] = '\0';
			int sig = 0, st = stop ? 1 : run_once(&cfg, of, &sp, &sig, cmdline, &ran);
			run_cfg_free(&cfg);
			*reported |= ran;
			if (pass && json && !ran && st && !sig) /* it could not be prepared: a member says why */
				report_json_sweep_point(out, !col->members++, first->nsweeps,
							(const char *const *)first->sweep_names, sp.values, NULL, false, st,
							col->why);
			if (st > worst)
				worst = st;
			if (sig || stop || (pass == 0 && st))
				break;
		}
		if (pass == 1 && json)
			fprintf(out, "\n  ]\n}\n");
	}
	if (col->csvf)
		fclose(col->csvf);
	if (first->plot_path && col->plot.ns && write_plot(first, &col->plot, NULL) && !worst)
		worst = 1;
	if (first->formats == FMT_HTML && col->plot.ns) {
		html_begin(out, cmdline);
		html_sweep(out, &col->plot, col->csv);
		html_end(out);
	}
	free(col->csv);
	free(col);
	return worst;
}

/* Descriptors 0-2 that are closed get /dev/null, so no file opened later takes their
 * place (and a report meant for stdout never lands in a job's file). Returns whether
 * stdout was closed. */
static bool claim_std_fds(void)
{
	bool out_closed = false;
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		out_closed |= fd == STDOUT_FILENO;
		int n = open("/dev/null", fd ? O_WRONLY : O_RDONLY);
		if (n >= 0 && n != fd) {
			dup2(n, fd);
			close(n);
		}
	}
	return out_closed;
}

/* Where the report goes: --output (written aside, renamed in when complete), stdout, or
 * /dev/null on the ranks of a cluster run other than 0. 0, or 1 after a line. */
static int open_report(struct run_cfg *cfg, struct outfile *of, bool stdout_closed)
{
	int ret;
	const char *what = cfg->output_path;
	if (cluster_rank(cfg->cluster) != 0) {
		cfg->output_path = NULL;
		what = "/dev/null";
		ret = outfile_open(of, what, 0);
	} else if (cfg->output_path && !cfg->parse_only) {
		ret = outfile_open(of, cfg->output_path, cfg->outfile_flags);
	} else {
		if (stdout_closed && !cfg->parse_only) {
			fprintf(stderr, "iobench: stdout is closed: nowhere to write the report (--output=FILE)\n");
			return 1;
		}
		what = "stdout";
		ret = outfile_open_fd(of, STDOUT_FILENO);
	}
	if (ret)
		fprintf(stderr, "iobench: --output: cannot open '%s': %s\n", what, outfile_strerror(of, ret));
	return ret ? 1 : 0;
}

/* The report's end: kept (renamed into place) when one was written, and every byte of it
 * checked. Returns the exit status. */
static int close_report(const struct run_cfg *cfg, struct outfile *of, bool reported, int status)
{
	bool said = of->announced;
	int ret = outfile_close(of, reported);
	if (!ret || !reported)
		return status;
	if (said)
		return status ? status : 1;
	fprintf(stderr, "iobench: %s%s%s: cannot write the report: %s\n", of->path ? "--output: '" : "stdout",
		of->path ? of->path : "", of->path ? "'" : "", strerror(-ret));
	return status ? status : 1;
}

/* --idle-prof=calibrate: 0, or 1 after a line. */
static int calibrate_only(void)
{
	struct idle_prof ip;
	int ret = idle_start(&ip, IDLE_CALIBRATE);
	idle_stop(&ip);
	if (!ret)
		report_idle_calibration(stdout, &ip.res);
	idle_free(&ip);
	return ret ? 1 : 0;
}

/* --merge, --compare, --showcmd: no run. Returns the exit status, or -1 to go on. */
static int other_modes(struct run_cfg *cfg)
{
	if (cfg->nmerge || cfg->compare[0])
		return docmodes_run(cfg);
	if (cfg->showcmd) {
		cli_print_showcmd(stdout, cfg);
		return 0;
	}
	if (!cfg->njobs) {
		fprintf(stderr, "iobench: no jobs given (see iobench --help)\n");
		return 1;
	}
	const struct cluster *cl = cfg->cluster;
	if (cl && cl->size > 1 && cfg->nsweeps) {
		if (cl->rank == 0)
			fprintf(stderr, "iobench: --sweep does not run under MPI; run one job per mpirun\n");
		return 1;
	}
	return -1;
}

static int iobench_main(int argc, char **argv, const struct cluster *cl)
{
	struct run_cfg cfg = { .prog.debug.job = -1 }; /* --debug: every clone's lines unless job:N */
	int status = 1;

	bool stdout_closed = claim_std_fds();
	signals_init();
	cfg.cluster = cl;
	/* Jobs with many files (nrfiles, opendir) open them all: allow what the hard limit allows. */
	struct rlimit nofile;
	if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < nofile.rlim_max) {
		nofile.rlim_cur = nofile.rlim_max;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
	enum cli_result cr = cli_parse(argc, argv, &cfg, stdout);
	if (cr != CLI_RUN) {
		status = cr == CLI_EXIT_OK ? 0 : 1;
		goto out_cfg;
	}
	if (cfg.prog.idle_prof == IDLE_CALIBRATE) { /* fio: the unit of work's time, then exit */
		status = calibrate_only();
		goto out_cfg;
	}
	status = other_modes(&cfg);
	if (status >= 0)
		goto out_cfg;
	if (cfg.prog.daemonize) { /* the parent ends here, the child runs */
		int d = prog_daemonize(&cfg);
		if (d) {
			status = d > 0 ? 0 : 1;
			goto out_cfg;
		}
	}
	/* --output=FILE.html without --output-format: the HTML page. */
	size_t olen = cfg.output_path ? strlen(cfg.output_path) : 0;
	if (olen > 5 && !strcmp(cfg.output_path + olen - 5, ".html") && !cfg.formats_given)
		cfg.formats = FMT_HTML;
	struct outfile of;
	status = open_report(&cfg, &of, stdout_closed);
	if (status)
		goto out_cfg;
	char why[600];
	if (cfg.plot_path && !cfg.parse_only && outfile_guard(cfg.plot_path, cfg.outfile_flags, why, sizeof(why))) {
		fprintf(stderr, "iobench: --plot: cannot write '%s': %s\n", cfg.plot_path, why);
		status = close_report(&cfg, &of, false, 1);
		goto out_cfg;
	}
	char *cmdline = secret_command_line(argc, argv); /* the HTML page's: secrets redacted */
	bool reported = false;
	if (cfg.nsweeps && !cfg.parse_only) {
		status = run_sweep(argc, argv, &cfg, &of, cmdline, &reported);
	} else {
		int sig;
		status = run_once(&cfg, &of, NULL, &sig, cmdline, &reported);
	}
	free(cmdline);
	status = close_report(&cfg, &of, reported, status);
	prog_daemon_end(&cfg);
out_cfg:
	if (fflush(stdout) == EOF && !status) { /* --merge, --compare, --help... */
		fprintf(stderr, "iobench: stdout: %s\n", strerror(errno));
		status = 1;
	}
	run_cfg_free(&cfg);
	return status;
}

int main(int argc, char **argv)
{
#ifdef IOBENCH_MPI
	struct cluster cl = { 0 };
	if (cluster_mpi_init(&cl, &argc, &argv)) {
		fprintf(stderr, "iobench: MPI_Init failed\n");
		return 1;
	}
	int status = cluster_max_int(&cl, iobench_main(argc, argv, &cl));
	cluster_mpi_finish();
	return status;
#else
	return iobench_main(argc, argv, NULL);
#endif
}
