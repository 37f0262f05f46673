/* Command-line parsing. */
#include "core/cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/expr.h"
#include "core/parse.h"
#include "core/options.h"


static void usage(FILE *out)
{
	fprintf(out,
		"iobench-%s: a fio-compatible storage benchmark\n"
		"usage: iobench [options] [job file(s)]\n"
		"  --name=NAME            start a job (options before the first --name are global)\n"
		"  --output=FILE          write the report to FILE instead of stdout\n"
		"  --output-format=FMT    normal, json, json+, terse, csv or html (comma-separated for several)\n"
		"  --minimal              the terse format (--terse-version=3, 4 or 5)\n"
		"  --eta=WHEN             the progress line on stderr: auto (a terminal), always, never\n"
		"  --status-interval=T    a full report every T (1s, 500ms...) while running\n"
		"  --parse-only           parse the options and job files, then exit\n"
		"  --showcmd              print the job files as one command line\n"
		"  --section=NAME         run only this job section (repeatable)\n"
		"  --readonly             refuse every job that writes\n"
		"  --cmdhelp[=OPTION]     help on one option, or a list of all\n"
		"  --sweep=OPT=V1,V2,...  run every combination of the swept values (repeatable)\n"
		"  --plot=FILE.svg        a chart: a sweep's bw and IOPS, or a run's clat percentiles\n"
		"  --merge A B ...        json+ results of several runs as one, percentiles from summed bins\n"
		"  --compare BASE NEW     compare two JSON results (fio's or ours); with\n"
		"  --compare-threshold=P  exit 2 when IOPS or bw drop, or p99 rises, by more than P%%\n"
		"  --version              print the version and exit\n"
		"  --help                 this text\n"
		"Job options (fio's names and semantics), e.g.:\n"
		"  iobench --name=seq --rw=read --bs=1m --size=1g --ioengine=libaio --iodepth=32 --direct=1\n",
		IOBENCH_VERSION);
	for (size_t i = 0; i < option_count; i++)
		fprintf(out, "  --%-22s %s\n", option_table[i].name, option_table[i].help);
}

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
		return -ENOMEM;
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

/* --sweep=OPTION=V1,V2,...: a job option and its values. */
static int add_sweep(struct run_cfg *cfg, const char *spec)
{
	const char *eq = spec ? strchr(spec, '=') : NULL;
	if (!eq || eq == spec || !eq[1]) {
		fprintf(stderr, "iobench: --sweep: '%s' is not OPTION=V1,V2,...\n", spec ? spec : "");
		return -EINVAL;
	}
	if (cfg->nsweeps >= RUN_SWEEPS_MAX) {
		fprintf(stderr, "iobench: --sweep: %d sweeps at most\n", RUN_SWEEPS_MAX);
		return -E2BIG;
	}
	struct sweep *sw = &cfg->sweeps[cfg->nsweeps];
	snprintf(sw->name, sizeof(sw->name), "%.*s", (int)(eq - spec), spec);
	const struct option_def *def = option_find(sw->name);
	if (!def) {
		fprintf(stderr, "iobench: --sweep: unknown option '%s'\n", sw->name);
		return -EINVAL;
	}
	snprintf(sw->name, sizeof(sw->name), "%s", def->name);
	sw->text = strdup(eq + 1);
	if (!sw->text)
		return -ENOMEM;
	char *save = NULL;
	for (char *t = strtok_r(sw->text, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (sw->nvalues >= SWEEP_VALUES_MAX) {
			fprintf(stderr, "iobench: --sweep=%s: %d values at most\n", sw->name, SWEEP_VALUES_MAX);
			return -E2BIG;
		}
		sw->values[sw->nvalues++] = t;
	}
	cfg->sweep_names[cfg->nsweeps] = sw->name;
	cfg->nsweeps++;
	return 0;
}

/* Options that belong to the program, not to a job. Returns 1 if handled, 0 if not
 * ours, -1 on error. *consumed is set when the value came from the next argument. */
static int program_option(const char *key, const char *val, const char *next, struct run_cfg *cfg,
			  FILE *out, bool *exit_now, bool *consumed)
{
	if (strcmp(key, "help") == 0 || strcmp(key, "h") == 0) {
		usage(out);
		*exit_now = true;
		return 1;
	}
	if (strcmp(key, "version") == 0 || strcmp(key, "v") == 0) {
		fprintf(out, "iobench-%s\n", IOBENCH_VERSION);
		*exit_now = true;
		return 1;
	}
	if (strcmp(key, "parse-only") == 0) {
		cfg->parse_only = true;
		return 1;
	}
	if (strcmp(key, "minimal") == 0) {
		cfg->formats = FMT_TERSE;
		return 1;
	}
	if (strcmp(key, "terse-version") == 0) {
		const char *v = val ? val : next;
		*consumed = !val && next;
		if (!v || (strcmp(v, "3") && strcmp(v, "4") && strcmp(v, "5"))) {
			fprintf(stderr, "iobench: --terse-version: '%s' is not supported (3, 4 or 5)\n", v ? v : "");
			return -1;
		}
		cfg->terse_version = (unsigned)(v[0] - '0');
		return 1;
	}
	if (strcmp(key, "eta") == 0) {
		const char *v = val ? val : next;
		*consumed = !val && next;
		if (!v || (strcmp(v, "auto") && strcmp(v, "always") && strcmp(v, "never"))) {
			fprintf(stderr, "iobench: --eta: '%s' is not auto, always or never\n", v ? v : "");
			return -1;
		}
		cfg->eta = !strcmp(v, "always") ? 1 : !strcmp(v, "never") ? -1 : 0;
		return 1;
	}
	if (strcmp(key, "status-interval") == 0) {
		const char *v = val ? val : next;
		uint64_t us;
		*consumed = !val && next;
		if (!v || parse_time_us(v, 1000000, &us) || us < 1000) {
			fprintf(stderr, "iobench: --status-interval: cannot parse '%s' as a time (1s, 500ms...)\n",
				v ? v : "");
			return -1;
		}
		cfg->status_interval_ms = us / 1000;
		return 1;
	}
	if (strcmp(key, "sweep") == 0) {
		const char *v = val ? val : next;
		*consumed = !val && next;
		return add_sweep(cfg, v) ? -1 : 1;
	}
	if (strcmp(key, "plot") == 0) {
		cfg->plot_path = val ? val : next;
		*consumed = !val && next;
		if (!cfg->plot_path) {
			fprintf(stderr, "iobench: --plot needs a file name (--plot=chart.svg)\n");
			return -1;
		}
		return 1;
	}
	if (strcmp(key, "compare-threshold") == 0) {
		const char *v = val ? val : next;
		char *end;
		*consumed = !val && next;
		double t = v ? strtod(v, &end) : -1;
		if (!v || end == v || *end || !(t >= 0 && isfinite(t))) { /* not NaN either */
			fprintf(stderr, "iobench: --compare-threshold: '%s' is not a percentage\n", v ? v : "");
			return -1;
		}
		cfg->compare_threshold = t;
		return 1;
	}
	if (strcmp(key, "showcmd") == 0) {
		cfg->showcmd = true;
		return 1;
	}
	if (strcmp(key, "readonly") == 0 && !val) {
		cfg->readonly = true;
		return 1;
	}
	if (strcmp(key, "cmdhelp") == 0) {
		if (options_print_help(out, val) < 0) {
			fprintf(stderr, "iobench: --cmdhelp: no option '%s'\n", val);
			return -1;
		}
		*exit_now = true;
		return 1;
	}
	if (strcmp(key, "dump-options") == 0) {
		/* For the docs: docs/options.md and the man page come from the table. */
		if (val && !strcmp(val, "markdown"))
			options_print_markdown(out);
		else if (val && !strcmp(val, "man"))
			options_print_man(out);
		else {
			fprintf(stderr, "iobench: --dump-options: markdown or man\n");
			return -1;
		}
		*exit_now = true;
		return 1;
	}
	if (strcmp(key, "section") == 0) {
		if (!val) {
			val = next;
			*consumed = true;
		}
		if (!val) {
			fprintf(stderr, "iobench: --section: needs a name\n");
			return -1;
		}
		return 1; /* section_scan has it already */
	}
	bool is_fmt = strcmp(key, "output-format") == 0;
	if (!is_fmt && strcmp(key, "output") != 0 && strcmp(key, "o") != 0)
		return 0;
	if (!val) {
		if (!next) {
			fprintf(stderr, "iobench: --%s needs a value\n", key);
			return -1;
		}
		val = next;
		*consumed = true;
	}
	if (is_fmt) {
		cfg->formats_given = true;
		return parse_formats(val, &cfg->formats) ? -1 : 1;
	}
	cfg->output_path = val;
	return 1;
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
			/* A long value is cut short in the message, which stays one line. */
			fprintf(stderr, "iobench: --%s: cannot evaluate '%.200s%s': %s\n", key, val,
				strlen(val) > 200 ? "..." : "", expr_why(ret));
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
		const char *next = i + 1 < argc ? argv[i + 1] : NULL;
		bool exit_now = false, consumed = false;
		int p = program_option(key, val, next, cfg, out, &exit_now, &consumed);
		if (p < 0)
			return CLI_ERROR;
		if (consumed)
			i++;
		if (exit_now)
			return CLI_EXIT_OK;
		if (p == 0 && !strcmp(key, "merge")) { /* --merge A.json B.json ...: the rest */
			if (val || i + 1 >= argc) {
				fprintf(stderr, "iobench: --merge takes json+ files: --merge A.json B.json ...\n");
				return CLI_ERROR;
			}
			cfg->merge = argv + i + 1;
			cfg->nmerge = argc - i - 1;
			return CLI_RUN;
		}
		if (p == 0 && !strcmp(key, "compare")) { /* --compare BASE.json NEW.json */
			if (val || i + 2 >= argc) {
				fprintf(stderr, "iobench: --compare takes two JSON files: --compare BASE.json NEW.json\n");
				return CLI_ERROR;
			}
			cfg->compare[0] = argv[++i];
			cfg->compare[1] = argv[++i];
			continue;
		}
		if (p > 0)
			continue;
		const struct option_def *def = option_find(key);
		if (!def) {
			fprintf(stderr, "iobench: unrecognized option '--%.*s%s'\n", SHOWN(key));
			return CLI_ERROR;
		}
		if (!val && !option_is_flag(def)) {
			if (!next) {
				fprintf(stderr, "iobench: option '--%s' needs a value\n", key);
				return CLI_ERROR;
			}
			val = next;
			i++;
		}
		if (strcmp(def->name, "name") == 0) {
			if (cfg->njobs >= MAX_JOBS) {
				fprintf(stderr, "iobench: --name: too many jobs (%d at most)\n", MAX_JOBS);
				return CLI_ERROR;
			}
			job = run_cfg_add_job(cfg);
			if (!job)
				return CLI_ERROR;
			job->file_index = nfiles;
		}
		if (job_option(key, def, val, cfg, job))
			return CLI_ERROR;
	}
	return CLI_RUN;
}

static void print_kv(FILE *out, const struct opt_kv *kv)
{
	if (kv->value)
		fprintf(out, "--%s=%s ", kv->name, kv->value);
	else
		fprintf(out, "--%s ", kv->name);
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
