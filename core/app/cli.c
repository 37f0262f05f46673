/* Command-line parsing. */
#include "core/app/cli.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/app/cli_int.h"
#include "core/job/expr.h"
#include "core/lib/nomem.h"
#include "core/job/parse.h"
#include "core/job/options.h"
#include "core/app/opthelp.h"
#include "core/app/profile.h"
#include "core/lib/version.h"
#include "engines/secret.h"

static unsigned format_bit(const char *name)
{
	static const struct {
		const char *name;
		unsigned bit;
	} formats[] = { { "normal", FMT_NORMAL }, { "json", FMT_JSON }, { "json+", FMT_JSON_PLUS },
			{ "terse", FMT_TERSE }, { "csv", FMT_CSV }, { "html", FMT_HTML } };
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(name, formats[i].name))
			return formats[i].bit;
	return 0;
}

/* "json,terse,...": a list of any length (a format named twice is printed once). */
static int parse_formats(const char *v, unsigned *formats)
{
	char *buf = strdup(v);
	unsigned f = 0;
	if (!buf)
		return nomem(NULL, "list of --output-format", strlen(v) + 1);
	char *save = NULL;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned bit = format_bit(tok);
		if (!bit) {
			fprintf(stderr, "iobench: --output-format: unknown format '%.100s%s' (normal, json, json+, terse, csv, html)\n",
				tok, strlen(tok) > 100 ? "..." : "");
			free(buf);
			return -EINVAL;
		}
		f |= bit;
	}
	free(buf);
	if (!f) {
		fprintf(stderr, "iobench: --output-format: no format given\n");
		return -EINVAL;
	}
	*formats = f;
	return 0;
}

/* The program's own flags (not a job's): one table, from which the parser, --help and the
 * man page's PROGRAM OPTIONS come. -x and --x are the same; so are a name and its alias. */


static int flag_help(const struct flag_call *c)
{
	cli_usage(c->out, cli_flags, cli_nflags);
	return FLAG_EXIT;
}

static int flag_version(const struct flag_call *c)
{
	fprintf(c->out, "%s\n", IOBENCH_VERSION_STRING);
	return FLAG_EXIT;
}

static int flag_minimal(const struct flag_call *c)
{
	c->cfg->formats = FMT_TERSE;
	return FLAG_NEXT;
}

static int flag_terse_version(const struct flag_call *c)
{
	const char *v = c->val;
	if (!v || (strcmp(v, "3") && strcmp(v, "4") && strcmp(v, "5"))) {
		fprintf(stderr, "iobench: --terse-version: '%s' is not supported (3, 4 or 5)\n", v ? v : "");
		return -EINVAL;
	}
	c->cfg->terse_version = (unsigned)(v[0] - '0');
	return FLAG_NEXT;
}

static int flag_eta(const struct flag_call *c)
{
	const char *v = c->val;
	if (!v || (strcmp(v, "auto") && strcmp(v, "always") && strcmp(v, "never"))) {
		fprintf(stderr, "iobench: --eta: '%s' is not auto, always or never\n", v ? v : "");
		return -EINVAL;
	}
	c->cfg->eta = !strcmp(v, "always") ? 1 : !strcmp(v, "never") ? -1 : 0;
	return FLAG_NEXT;
}

static int flag_status_interval(const struct flag_call *c)
{
	uint64_t us;
	if (!c->val || parse_time_us(c->val, 1000000, &us) || us < 1000) {
		fprintf(stderr, "iobench: --status-interval: cannot parse '%s' as a time (1s, 500ms...)\n",
			c->val ? c->val : "");
		return -EINVAL;
	}
	c->cfg->status_interval_ms = us / 1000;
	return FLAG_NEXT;
}

static int flag_plot(const struct flag_call *c)
{
	if (!c->val) {
		fprintf(stderr, "iobench: --plot needs a file name (--plot=chart.svg)\n");
		return -EINVAL;
	}
	c->cfg->plot_path = c->val;
	return FLAG_NEXT;
}

static int flag_compare_threshold(const struct flag_call *c)
{
	const char *v = c->val;
	char *end;
	double t = v ? strtod(v, &end) : -1;
	if (!v || end == v || *end || !(t >= 0 && isfinite(t))) { /* not NaN either */
		fprintf(stderr, "iobench: --compare-threshold: '%s' is not a percentage\n", v ? v : "");
		return -EINVAL;
	}
	c->cfg->compare_threshold = t;
	return FLAG_NEXT;
}

static int flag_cmdhelp(const struct flag_call *c)
{
	if (c->cfg->profile) { /* fio: after --profile, the profile's options */
		if (profile_print_help(c->out, c->cfg->profile, c->val) < 0) {
			fprintf(stderr, "iobench: --cmdhelp: profile %s has no option '%.*s%s'\n", c->cfg->profile,
				SHOWN(c->val));
			return -ENOENT;
		}
		return FLAG_EXIT;
	}
	if (options_print_help(c->out, c->val) < 0) {
		fprintf(stderr, "iobench: --cmdhelp: no option '%s'\n", c->val);
		return -ENOENT;
	}
	return FLAG_EXIT;
}

static int flag_enghelp(const struct flag_call *c)
{
	if (options_print_enghelp(c->out, c->val) < 0) {
		fprintf(stderr, "iobench: --enghelp: no engine or engine option '%.*s%s' (iobench --enghelp lists the "
				"engines)\n", SHOWN(c->val));
		return -ENOENT;
	}
	return FLAG_EXIT;
}

/* For the docs: docs/options.md and the man page come from the tables. */
static int flag_dump_options(const struct flag_call *c)
{
	if (c->val && !strcmp(c->val, "markdown"))
		options_print_markdown(c->out);
	else if (c->val && !strcmp(c->val, "man"))
		cli_print_man(c->out, cli_flags, cli_nflags);
	else if (c->val && !strcmp(c->val, "tsv"))
		options_print_tsv(c->out);
	else {
		fprintf(stderr, "iobench: --dump-options: markdown, man or tsv\n");
		return -EINVAL;
	}
	return FLAG_EXIT;
}

static int flag_section(const struct flag_call *c)
{
	if (!c->val) {
		fprintf(stderr, "iobench: --section: needs a name\n");
		return -EINVAL;
	}
	return FLAG_NEXT; /* section_scan has it already */
}

static int flag_output(const struct flag_call *c)
{
	if (!c->val) {
		fprintf(stderr, "iobench: --%s needs a value\n", c->key);
		return -EINVAL;
	}
	c->cfg->output_path = c->val;
	return FLAG_NEXT;
}

static int flag_output_format(const struct flag_call *c)
{
	if (!c->val) {
		fprintf(stderr, "iobench: --%s needs a value\n", c->key);
		return -EINVAL;
	}
	c->cfg->formats_given = true;
	int ret = parse_formats(c->val, &c->cfg->formats);
	return ret ? ret : FLAG_NEXT;
}

static int flag_merge(const struct flag_call *c)
{
	if (c->val || c->nargs < 1) {
		fprintf(stderr, "iobench: --merge takes json+ files: --merge A.json B.json ...\n");
		return -EINVAL;
	}
	c->cfg->merge = c->args;
	c->cfg->nmerge = c->nargs;
	return FLAG_RUN_NOW;
}

static int flag_compare(const struct flag_call *c)
{
	if (c->val || c->nargs < 2) {
		fprintf(stderr, "iobench: --compare takes two JSON files: --compare BASE.json NEW.json\n");
		return -EINVAL;
	}
	c->cfg->compare[0] = c->args[0];
	c->cfg->compare[1] = c->args[1];
	return FLAG_NEXT;
}

/* In --help's and the man page's order. */
/* clang-format off */
const struct cli_flag cli_flags[] = {
	{ "output", "o", FLAG_VALUE, "FILE", flag_output,
	  "write the report to FILE instead of stdout", 0 },
	{ "output-format", NULL, FLAG_VALUE, "FMT", flag_output_format,
	  "the report's format: normal, json, json+, terse, csv or html (comma-separated for several)", 0 },
	{ "minimal", NULL, FLAG_BARE, NULL, flag_minimal,
	  "the terse format", 0 },
	{ "terse-version", NULL, FLAG_VALUE, "N", flag_terse_version,
	  "the terse format's version: 3 (the default), 4 or 5", 0 },
	{ "append-terse", NULL, FLAG_BARE, NULL, flag_append_terse,
	  "the terse lines as well as the formats chosen so far (deprecated in fio: --output-format=...,terse)", 0 },
	{ "eta", NULL, FLAG_VALUE, "WHEN", flag_eta,
	  "the progress line on stderr: auto (a terminal), always, never", 0 },
	{ "eta-interval", NULL, FLAG_VALUE, "T", flag_eta_interval,
	  "the progress line every T (250ms at least; default 1s)", 0 },
	{ "eta-newline", NULL, FLAG_VALUE, "T", flag_eta_newline,
	  "the progress line on a line of its own every T (implies --eta unless --eta=never; off a terminal only these "
	  "lines)", 0 },
	{ "status-interval", NULL, FLAG_VALUE, "T", flag_status_interval,
	  "a full report every T (1s, 500ms...) while running", 0 },
	{ "idle-prof", NULL, FLAG_VALUE, "MODE", flag_idle_prof,
	  "how idle the CPUs stayed (cpu_idleness): system, percpu, or calibrate (the unit of work only, then exit)", 0 },
	{ "bandwidth-log", NULL, FLAG_BARE, NULL, NULL,
	  "the aggregate bandwidth of all jobs every --eta-interval, in agg-read_bw.log, agg-write_bw.log and "
	  "agg-trim_bw.log", offsetof(struct run_cfg, prog.bandwidth_log) },
	{ "debug", NULL, FLAG_VALUE, "CATS", flag_debug,
	  "debug lines on stderr in fio's categories: file, io, mem, parse, job, time... or all; job:N for one job; "
	  "help lists them", 0 },
	{ "parse-only", NULL, FLAG_BARE, NULL, NULL,
	  "parse the options and job files, then exit", offsetof(struct run_cfg, parse_only) },
	{ "showcmd", NULL, FLAG_BARE, NULL, NULL,
	  "print the job files as one command line", offsetof(struct run_cfg, showcmd) },
	{ "section", NULL, FLAG_VALUE, "NAME", flag_section,
	  "run only this job section (repeatable)", 0 },
	{ "readonly", NULL, FLAG_BARE_ONLY, NULL, NULL,
	  "refuse every job that writes", offsetof(struct run_cfg, readonly) },
	{ "warnings-fatal", NULL, FLAG_BARE, NULL, NULL,
	  "a note on stderr (a capped iodepth, a CPU set, a clock) ends the run with exit status 1",
	  offsetof(struct run_cfg, prog.warnings_fatal) },
	{ "max-jobs", NULL, FLAG_VALUE, "N", flag_max_jobs,
	  "refuse a run that would start more than N threads (numjobs counted; at most 4096)", 0 },
	{ "alloc-size", NULL, FLAG_VALUE, "KB", flag_alloc_size,
	  "accepted, no effect: the size of fio's shared memory pool (iobench has none)", 0 },
	{ "aux-path", NULL, FLAG_VALUE, "DIR", flag_aux_path,
	  "where state files go (the trigger's write state); default: the current directory", 0 },
	{ "trigger-file", NULL, FLAG_VALUE, "FILE", flag_trigger_file,
	  "when FILE appears: save the write state, remove FILE, stop the jobs, run --trigger", 0 },
	{ "trigger-timeout", NULL, FLAG_VALUE, "T", flag_trigger_timeout,
	  "the same T after the run starts", 0 },
	{ "trigger", NULL, FLAG_VALUE, "CMD", flag_trigger,
	  "the command the trigger runs (sh -c)", 0 },
	{ "daemonize", NULL, FLAG_VALUE, "PIDFILE", flag_daemonize,
	  "run in the background: the pid in PIDFILE (removed at the end), the report to --output or stdout", 0 },
	{ "cmdhelp", NULL, FLAG_OPTIONAL, "OPTION", flag_cmdhelp,
	  "help on one option, or a list of all", 0 },
	{ "profile", NULL, FLAG_VALUE, "NAME", flag_profile,
	  "run fio's profile NAME (act, tiobench): its jobs, from its options on the command line", 0 },
	{ "enghelp", NULL, FLAG_OPTIONAL, "ENGINE[,OPTION]", flag_enghelp,
	  "the engines, one engine's options, or one of them", 0 },
	{ "dump-options", NULL, FLAG_INLINE, "FMT", flag_dump_options,
	  "the job options' docs: markdown or man (make docs), or tsv (a row an option, with what it can change)", 0 },
	{ "sweep", NULL, FLAG_VALUE, "OPT=V1,V2,...", flag_sweep,
	  "run every combination of the swept values (repeatable)", 0 },
	{ "plot", NULL, FLAG_VALUE, "FILE.svg", flag_plot,
	  "a chart: a sweep's bw and IOPS, or a run's clat percentiles", 0 },
	{ "merge", NULL, FLAG_REST, "A B ...", flag_merge,
	  "merge the json+ results of several runs, percentiles from summed bins", 0 },
	{ "compare", NULL, FLAG_PAIR, "BASE NEW", flag_compare,
	  "compare two JSON results (fio's or ours)", 0 },
	{ "compare-threshold", NULL, FLAG_VALUE, "P", flag_compare_threshold,
	  "with --compare, exit 2 when IOPS or bw drop, or p99 rises, by more than P%", 0 },
	{ "crctest", NULL, FLAG_OPTIONAL, "LIST", flag_crctest,
	  "the checksums' speed (all, or md5,crc32c,...), then exit", 0 },
	{ "cpuclock-test", NULL, FLAG_BARE, NULL, flag_cpuclock_test,
	  "check the CPU clock (TSC) on every CPU and across them, then exit", 0 },
	{ "inflate-log", NULL, FLAG_VALUE, "FILE", flag_inflate_log,
	  "print a log fio stored compressed (log_store_compressed, .fz), then exit", 0 },
	{ "merge-blktrace-only", NULL, FLAG_BARE, NULL, flag_merge_blktrace_only,
	  "merge the jobs' blktrace files (read_iolog, merge_blktrace_file), then exit without I/O", 0 },
	{ "client", NULL, FLAG_VALUE, "HOST", flag_remote,
	  "refused: fio's client/server protocol (iobench spreads work with MPI and Kubernetes)", 0 },
	{ "server", NULL, FLAG_OPTIONAL, "ARGS", flag_remote,
	  "refused, as --client", 0 },
	{ "remote-config", NULL, FLAG_VALUE, "FILE", flag_remote,
	  "refused, as --client", 0 },
	{ "trigger-remote", NULL, FLAG_VALUE, "CMD", flag_remote,
	  "refused, as --client (use --trigger)", 0 },
	{ "version", "v", FLAG_BARE, NULL, flag_version,
	  "print the version and exit", 0 },
	{ "help", "h", FLAG_BARE, NULL, flag_help,
	  "print this text and exit", 0 },
};
/* clang-format on */

const size_t cli_nflags = sizeof(cli_flags) / sizeof(cli_flags[0]);
#define NFLAGS cli_nflags

static const struct cli_flag *flag_find(const char *key, const char *val)
{
	for (size_t i = 0; i < NFLAGS; i++) {
		const struct cli_flag *f = &cli_flags[i];
		if (!strcmp(key, f->name) || (f->alias && !strcmp(key, f->alias)))
			return f->arg == FLAG_BARE_ONLY && val ? NULL : f;
	}
	return NULL;
}

/* Run flag f found at argv[*i]; *i moves past the arguments it took. */
static int flag_run(const struct cli_flag *f, const char *key, const char *val, int argc, char **argv, int *i,
		    struct run_cfg *cfg, FILE *out)
{
	struct flag_call c = {
		.key = key, .val = val, .args = argv + *i + 1, .nargs = argc - *i - 1, .cfg = cfg, .out = out
	};
	if (f->arg == FLAG_BARE)
		c.val = NULL;
	if (f->arg == FLAG_VALUE && !val && c.nargs > 0) {
		c.val = argv[*i + 1];
		++*i;
	}
	if (!f->handle) { /* --parse-only, --showcmd, --readonly */
		*(bool *)((char *)cfg + f->sets) = true;
		return FLAG_NEXT;
	}
	int ret = f->handle(&c);
	if (ret >= 0 && f->arg == FLAG_PAIR)
		*i += 2;
	return ret;
}

/* Keywords and arithmetic in a value ("(2*$ncpus)g"); the option name as it was given. */
static int job_option(const char *key, const struct option_def *def, const char *val,
		      struct run_cfg *cfg, struct job *job)
{
	char *expanded = NULL;
	if (val) {
		struct sys_values sv;
		sys_values_read(&sv);
		int ret = expr_substitute(val, &sv, def->type != OPT_STR, &expanded);
		if (ret) {
			/* A long value is cut short in the message, which stays one line; a secret's is not shown. */
			const char *shown = opt_value_shown(def->name, val);
			fprintf(stderr, "iobench: --%s: cannot evaluate '%.*s%s': %s\n", key, SHOWN(shown),
				expr_why(ret));
			return ret;
		}
		val = expanded;
	}
	int ret;
	if (job) {
		ret = opt_list_add(&job->given, key, val, NULL, 0);
	} else {
		ret = opt_list_add(&cfg->cmdline_globals, key, val, NULL, 0);
		if (!ret)
			ret = opt_list_add(&cfg->globals, key, val, NULL, 0);
	}
	if (ret == -ENOMEM) {
		char what[128];
		snprintf(what, sizeof(what), "option --%.64s%s", key, job ? "" : " (a global one)");
		/* A job on the command line starts with its --name (the first of its options). */
		nomem(!job ? NULL : job->given.n ? job->given.v[0].value : val, what, opt_list_bytes(key, val));
	}
	free(expanded);
	return ret;
}

/* --section must be known before the first job file is read, wherever it stands: all of
 * them are taken here, once. */
static int section_scan(int argc, char **argv, struct run_cfg *cfg)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = !strncmp(a, "--section=", 10) ? a + 10 : !strncmp(a, "-section=", 9) ? a + 9 : NULL;
		if (!v && (!strcmp(a, "--section") || !strcmp(a, "-section")) && i + 1 < argc)
			v = argv[++i];
		if (!v)
			continue;
		if (cfg->nsections >= sizeof(cfg->sections) / sizeof(cfg->sections[0])) {
			fprintf(stderr, "iobench: --section: too many sections (%zu at most)\n",
				sizeof(cfg->sections) / sizeof(cfg->sections[0]));
			return -E2BIG;
		}
		cfg->sections[cfg->nsections++] = v;
	}
	return 0;
}

/* A job option on the command line: --name starts a job; before the first, global. */
static int job_arg(const char *key, const char *val, int argc, char **argv, int *i, struct run_cfg *cfg,
		   struct job **job, unsigned nfiles)
{
	const struct option_def *def = option_find(key);
	if (!def) {
		char buf[160];
		const char *shown = opt_name_shown(key, buf, sizeof(buf)); /* "--http_pass:KEY": not the key */
		fprintf(stderr, "iobench: unrecognized option '--%.*s%s'\n", SHOWN(shown));
		return -EINVAL;
	}
	if (!val && !option_is_flag(def)) {
		if (*i + 1 >= argc) {
			fprintf(stderr, "iobench: option '--%s' needs a value\n", key);
			return -EINVAL;
		}
		val = argv[++*i];
	}
	if (strcmp(def->name, "name") == 0) {
		if (cfg->njobs >= MAX_JOBS) {
			fprintf(stderr, "iobench: --name: too many jobs (%d at most)\n", MAX_JOBS);
			return -E2BIG;
		}
		*job = run_cfg_add_job(cfg, val);
		if (!*job)
			return -ENOMEM;
		(*job)->file_index = nfiles;
	}
	return job_option(key, def, val, cfg, *job);
}

/* --profile's jobs, taken as options after the command line's: its globals win over the
 * user's of the same name (as in fio), its --name options start its jobs. */
static int profile_jobs(struct run_cfg *cfg)
{
	if (cfg->njobs) {
		fprintf(stderr, "iobench: --profile=%s makes its own jobs: give it no job file and no --name\n",
			cfg->profile);
		return -EINVAL;
	}
	char **tok = NULL;
	size_t n = 0;
	int ret = profile_tokens(cfg, &tok, &n);
	struct job *job = NULL;
	for (size_t k = 0; !ret && k < n; k++) {
		char *eq = strchr(tok[k], '=');
		if (eq)
			*eq = '\0';
		char *argv[] = { tok[k], NULL };
		int i = 0;
		ret = job_arg(tok[k], eq ? eq + 1 : NULL, 1, argv, &i, cfg, &job, 0);
	}
	profile_tokens_free(tok, n);
	return ret;
}

enum cli_result cli_parse(int argc, char **argv, struct run_cfg *cfg, FILE *out)
{
	struct job *job = NULL;
	unsigned nfiles = 0;
	cfg->formats = FMT_NORMAL;
	if (section_scan(argc, argv, cfg))
		return CLI_ERROR;
	cfg->terse_version = 3;
	cfg->compare_threshold = -1.0;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (arg[0] != '-' || arg[1] == '\0') {
			/* A job file ("-" is stdin); jobs after it get their own groups. */
			if (jobfile_parse(arg, cfg, ++nfiles))
				return CLI_ERROR;
			job = NULL;
			continue;
		}
		const char *name = arg + (arg[1] == '-' ? 2 : 1);
		char key[128];
		const char *eq = strchr(name, '=');
		size_t klen = eq ? (size_t)(eq - name) : strlen(name);
		if (klen == 0 || klen >= sizeof(key)) {
			fprintf(stderr, "iobench: unrecognized option '%.*s%s'\n", SHOWN(arg));
			return CLI_ERROR;
		}
		memcpy(key, name, klen);
		key[klen] = '\0';
		const char *val = eq ? eq + 1 : NULL;
		const struct cli_flag *flag = flag_find(key, val);
		int ret = flag ? flag_run(flag, key, val, argc, argv, &i, cfg, out)
			       : job_arg(key, val, argc, argv, &i, cfg, &job, nfiles);
		if (ret < 0)
			return CLI_ERROR;
		if (ret == FLAG_EXIT)
			return CLI_EXIT_OK;
		if (ret == FLAG_RUN_NOW)
			return CLI_RUN;
	}
	if (cfg->profile && profile_jobs(cfg))
		return CLI_ERROR;
	return cli_flags_finish(cfg) ? CLI_ERROR : CLI_RUN;
}

/* One option, a secret's value (or a name that starts with a secret's) OPT_REDACTED. */
static void print_kv(FILE *out, const struct opt_kv *kv)
{
	char name[160];
	const char *shown = opt_name_shown(kv->name, name, sizeof(name));
	if (kv->value)
		fprintf(out, "--%s=%s ", shown, opt_value_shown_any(kv->name, kv->value));
	else
		fprintf(out, "--%s ", shown);
}

void cli_print_showcmd(FILE *out, const struct run_cfg *cfg)
{
	fprintf(out, "iobench ");
	for (size_t i = 0; i < cfg->globals.n; i++)
		print_kv(out, &cfg->globals.v[i]);
	for (size_t j = 0; j < cfg->njobs; j++) {
		const struct job *job = &cfg->jobs[j];
		if (job->file)
			fprintf(out, "--name=%s ", job->o.name);
		for (size_t i = 0; i < job->given.n; i++)
			print_kv(out, &job->given.v[i]);
	}
	fprintf(out, "\n");
}
