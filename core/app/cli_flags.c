/* fio 3.33's program flags beyond the report's: their handlers, called from cli_flags[]
 * (core/app/cli.c). The tools (--crctest, --cpuclock-test, --inflate-log, --debug=help) run
 * here and end the program; the rest set run_cfg.prog, which the run reads. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/app/cli.h"
#include "core/app/cli_int.h"
#include "core/app/idle.h"
#include "core/app/inflate.h"
#include "core/lib/outfile.h"
#include "core/job/parse.h"
#include "core/app/selftest.h"
#include "engines/secret.h"

static int need_value(const struct flag_call *c)
{
	if (c->val && c->val[0])
		return 0;
	fprintf(stderr, "iobench: --%s needs a value\n", c->key);
	return -EINVAL;
}

int flag_debug(const struct flag_call *c)
{
	int ret = debug_parse(c->val, &c->cfg->prog.debug, c->out, c->cfg->prog.reparse);
	return ret < 0 ? ret : ret == DEBUG_HELP ? FLAG_EXIT : FLAG_NEXT;
}

int flag_idle_prof(const struct flag_call *c)
{
	static const char *const modes[] = { [IDLE_SYSTEM] = "system", [IDLE_PERCPU] = "percpu",
					     [IDLE_CALIBRATE] = "calibrate" };
	for (int m = IDLE_SYSTEM; c->val && m <= IDLE_CALIBRATE; m++)
		if (!strcmp(c->val, modes[m])) {
			c->cfg->prog.idle_prof = m;
			return FLAG_NEXT;
		}
	fprintf(stderr, "iobench: --idle-prof: '%.*s%s' is not system, percpu or calibrate\n", SHOWN(c->val ? c->val : ""));
	return -EINVAL;
}

/* A time as fio takes it: a bare number is seconds. */
static int flag_time_ms(const struct flag_call *c, uint64_t min_ms, uint64_t *ms)
{
	uint64_t us;
	int ret = need_value(c);
	if (ret)
		return ret;
	if (parse_time_us(c->val, 1000000, &us)) {
		fprintf(stderr, "iobench: --%s: cannot parse '%.*s%s' as a time (2, 500ms, 1m...)\n", c->key,
			SHOWN(c->val));
		return -EINVAL;
	}
	if (us < min_ms * 1000) {
		fprintf(stderr, "iobench: --%s: '%.*s%s' is shorter than %llu ms\n", c->key, SHOWN(c->val),
			(unsigned long long)min_ms);
		return -EINVAL;
	}
	*ms = us / 1000;
	return FLAG_NEXT;
}

int flag_eta_newline(const struct flag_call *c)
{
	return flag_time_ms(c, 1, &c->cfg->prog.eta_newline_ms);
}

/* fio refuses less than 250 ms ("to avoid flooding the console"). */
int flag_eta_interval(const struct flag_call *c)
{
	return flag_time_ms(c, 250, &c->cfg->prog.eta_interval_ms);
}

int flag_trigger_timeout(const struct flag_call *c)
{
	return flag_time_ms(c, 1, &c->cfg->prog.trigger_timeout_ms);
}

int flag_inflate_log(const struct flag_call *c)
{
	int ret = need_value(c);
	if (!ret)
		ret = inflate_log(c->out, c->val);
	return ret ? ret : FLAG_EXIT;
}

int flag_trigger_file(const struct flag_call *c)
{
	int ret = need_value(c);
	c->cfg->prog.trigger_file = c->val;
	return ret ? ret : FLAG_NEXT;
}

int flag_trigger(const struct flag_call *c)
{
	int ret = need_value(c);
	c->cfg->prog.trigger_cmd = c->val;
	return ret ? ret : FLAG_NEXT;
}

int flag_crctest(const struct flag_call *c)
{
	int ret = selftest_crc(c->out, c->val && c->val[0] ? c->val : NULL);
	return ret ? ret : FLAG_EXIT;
}

int flag_cpuclock_test(const struct flag_call *c)
{
	int ret = selftest_cpuclock(c->out);
	fflush(c->out);
	return ret ? ret : FLAG_EXIT;
}

/* fio's shared-memory pool (smalloc): iobench has none (one process, malloc), so the size
 * is checked and has no effect. */
int flag_alloc_size(const struct flag_call *c)
{
	int64_t kb;
	int ret = need_value(c);
	if (ret)
		return ret;
	if (parse_int(c->val, 1, INT32_MAX, &kb)) {
		fprintf(stderr, "iobench: --alloc-size: '%.*s%s' is not a size in KiB (1 to %d)\n", SHOWN(c->val),
			INT32_MAX);
		return -EINVAL;
	}
	return FLAG_NEXT;
}

int flag_aux_path(const struct flag_call *c)
{
	struct stat st;
	int ret = need_value(c);
	if (ret)
		return ret;
	if (stat(c->val, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "iobench: --aux-path: '%.*s%s' %s\n", SHOWN(c->val),
			errno == ENOENT ? "does not exist" : "is not a directory");
		return -ENOTDIR;
	}
	c->cfg->prog.aux_path = c->val;
	return FLAG_NEXT;
}

int flag_daemonize(const struct flag_call *c)
{
	int ret = need_value(c);
	c->cfg->prog.daemonize = c->val;
	return ret ? ret : FLAG_NEXT;
}

/* Only merge_blktrace_file's merges (core/run/iolog_plan.c): the jobs are parsed, their traces
 * merged, and nothing runs. */
int flag_merge_blktrace_only(const struct flag_call *c)
{
	c->cfg->prog.merge_blktrace_only = true;
	c->cfg->parse_only = true;
	return FLAG_NEXT;
}

/* Deprecated in fio for --output-format=...,terse: the terse lines as well. */
int flag_append_terse(const struct flag_call *c)
{
	c->cfg->formats |= FMT_TERSE;
	return FLAG_NEXT;
}

int flag_max_jobs(const struct flag_call *c)
{
	int64_t n;
	int ret = need_value(c);
	if (ret)
		return ret;
	if (parse_int(c->val, 1, MAX_JOBS, &n)) {
		fprintf(stderr, "iobench: --max-jobs: '%.*s%s' is not a number of jobs from 1 to %d\n", SHOWN(c->val),
			MAX_JOBS);
		return -EINVAL;
	}
	c->cfg->prog.max_jobs = (unsigned)n;
	return FLAG_NEXT;
}

int flag_remote(const struct flag_call *c)
{
	fprintf(stderr, "iobench: --%s: iobench has no fio server protocol; it spreads work over machines with MPI "
			"(docs/mpi.md) and Kubernetes (deploy/README.md)\n", c->key);
	return -ENOTSUP;
}

static void debug_option(const struct opt_kv *kv)
{
	char name[160];
	const char *v = opt_value_shown_any(kv->name, kv->value); /* a secret's, an unknown name's: OPT_REDACTED */
	debug_print(DBG_PARSE, "handle_option=%s, ptr=%s\n", opt_name_shown(kv->name, name, sizeof(name)), v ? v : "");
}

/* --debug=parse: every option as given, command line and job files, in order. */
static void debug_options(const struct run_cfg *cfg)
{
	const struct opt_list *g = &cfg->globals;
	for (size_t i = 0; i < g->n; i++)
		debug_option(&g->v[i]);
	for (size_t j = 0; j < cfg->njobs; j++) {
		const struct opt_list *l = &cfg->jobs[j].given;
		for (size_t i = 0; i < l->n; i++)
			debug_option(&l->v[i]);
	}
}

/* run_cfg.outfile_flags, from the options. */
static unsigned outfile_flags_of(const struct run_cfg *cfg)
{
	int global = -1; /* not given */
	for (size_t i = 0; i < cfg->globals.n; i++) {
		const struct opt_kv *kv = &cfg->globals.v[i];
		bool v;
		if (!strcmp(kv->name, "allow_mounted_write"))
			global = !kv->value || (!parse_bool(kv->value, &v) && v);
	}
	if (global >= 0)
		return global ? OUTFILE_ALLOW_BUSY : 0;
	/* else every job has it (each with its own line) */
	for (size_t i = 0; i < cfg->njobs; i++)
		if (!cfg->jobs[i].o.allow_mounted_write)
			return 0;
	return cfg->njobs ? OUTFILE_ALLOW_BUSY : 0;
}

int cli_flags_finish(struct run_cfg *cfg)
{
	cfg->outfile_flags = outfile_flags_of(cfg);
	const struct prog_flags *pf = &cfg->prog;
	if (pf->trigger_cmd && !prog_trigger_on(pf)) {
		fprintf(stderr, "iobench: --trigger: give --trigger-file or --trigger-timeout (when to run it)\n");
		return -EINVAL;
	}
	if (debug_on(pf->debug.mask, DBG_PARSE) && !pf->reparse)
		debug_options(cfg);
	return 0;
}
