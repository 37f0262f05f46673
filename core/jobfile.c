/* fio job files: [global] and job sections, ';'/'#' comments (also inline), flags
 * without values, ${VAR} from the environment, $ncpus/$pagesize/$mb_memory with
 * arithmetic, `include FILE` (relative to the including file), --section filters. */
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "core/expr.h"
#include "core/options.h"

#define MAX_LINE 8192
#define MAX_INCLUDE_DEPTH 16

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* A comment starts at ';' or '#' at the line's start or after white space. */
static void strip_comment(char *s)
{
	for (char *p = s; *p; p++)
		if ((*p == ';' || *p == '#') && (p == s || isspace((unsigned char)p[-1]))) {
			*p = '\0';
			return;
		}
}

/* Expand ${VAR} into out. -ENOENT names the unset variable in var. */
static int expand_env(const char *in, char *out, size_t len, char *var, size_t varlen)
{
	size_t o = 0;
	for (const char *p = in; *p;) {
		if (p[0] == '$' && p[1] == '{') {
			const char *end = strchr(p + 2, '}');
			if (end) {
				snprintf(var, varlen, "%.*s", (int)(end - p - 2), p + 2);
				const char *v = getenv(var);
				if (!v)
					return -ENOENT;
				size_t n = strlen(v);
				if (o + n >= len)
					return -E2BIG;
				memcpy(out + o, v, n);
				o += n;
				p = end + 1;
				continue;
			}
		}
		if (o + 1 >= len)
			return -E2BIG;
		out[o++] = *p++;
	}
	out[o] = '\0';
	return 0;
}

struct jf_state {
	struct run_cfg *cfg;
	unsigned file_index;
	struct opt_list globals; /* this file's [global] options so far */
	struct job *job;         /* NULL while in [global] */
	bool in_section;
	bool skipping;           /* a job section --section did not ask for */
	struct sys_values sys;
	const char *stack[MAX_INCLUDE_DEPTH];
	unsigned depth;
};

static bool section_wanted(const struct run_cfg *cfg, const char *name)
{
	if (!cfg->nsections)
		return true;
	for (unsigned i = 0; i < cfg->nsections; i++)
		if (!strcmp(cfg->sections[i], name))
			return true;
	return false;
}

static int jf_section(struct jf_state *st, const char *file, char *line, int lineno)
{
	size_t n = strlen(line);
	if (st->depth > 1) {
		fprintf(stderr, "iobench: %s:%d: an included file may not contain sections\n", file, lineno);
		return -EINVAL;
	}
	if (line[n - 1] != ']') {
		fprintf(stderr, "iobench: %s:%d: unterminated section header '%s'\n", file, lineno, line);
		return -EINVAL;
	}
	line[n - 1] = '\0';
	char *name = trim(line + 1);
	if (!*name) {
		fprintf(stderr, "iobench: %s:%d: empty section name\n", file, lineno);
		return -EINVAL;
	}
	st->in_section = true;
	st->skipping = false;
	if (strncmp(name, "global", 6) == 0) {
		st->job = NULL;
		return 0;
	}
	if (!section_wanted(st->cfg, name)) {
		st->job = NULL;
		st->skipping = true;
		return 0;
	}
	struct job *job = run_cfg_add_job(st->cfg);
	if (!job)
		return -ENOMEM;
	if (strlen(name) >= sizeof(job->o.name)) {
		fprintf(stderr, "iobench: %s:%d: section name is too long\n", file, lineno);
		return -EINVAL;
	}
	snprintf(job->o.name, sizeof(job->o.name), "%s", name);
	job->file = file;
	job->line = lineno;
	job->file_index = st->file_index;
	st->job = job;
	return opt_list_copy(&job->inherit, &st->globals);
}

/* ${VAR}, then the reserved keywords and arithmetic; *out is malloc'd. */
static int jf_value(struct jf_state *st, const char *file, int lineno, const char *key, const char *val,
		    char **out)
{
	char env[MAX_LINE], var[256];
	int ret = expand_env(val, env, sizeof(env), var, sizeof(var));
	if (ret == -ENOENT) {
		fprintf(stderr, "iobench: %s:%d: %s: environment variable '%s' is not set\n", file, lineno,
			key, var);
		return -EINVAL;
	}
	if (!ret) {
		const struct option_def *def = option_find(key);
		ret = expr_substitute(env, &st->sys, !def || def->type != OPT_STR, out);
	}
	if (ret) {
		fprintf(stderr, "iobench: %s:%d: %s: cannot evaluate '%.200s%s': %s\n", file, lineno, key, val,
			strlen(val) > 200 ? "..." : "", expr_why(ret));
		return -EINVAL;
	}
	return 0;
}

static int jf_parse_file(struct jf_state *st, const char *path, const char *name);

static int jf_include(struct jf_state *st, const char *file, int lineno, const char *arg)
{
	char dir[PATH_MAX], path[PATH_MAX * 2];
	if (!*arg) {
		fprintf(stderr, "iobench: %s:%d: include needs a file name\n", file, lineno);
		return -EINVAL;
	}
	snprintf(dir, sizeof(dir), "%s", file);
	if (arg[0] == '/' || !strcmp(file, "<stdin>"))
		snprintf(path, sizeof(path), "%s", arg);
	else
		snprintf(path, sizeof(path), "%s/%s", dirname(dir), arg);
	if (st->depth >= MAX_INCLUDE_DEPTH) {
		fprintf(stderr, "iobench: %s:%d: includes nested too deep\n", file, lineno);
		return -ELOOP;
	}
	char real[PATH_MAX];
	if (realpath(path, real))
		for (unsigned i = 0; i < st->depth; i++) {
			char other[PATH_MAX];
			if (realpath(st->stack[i], other) && !strcmp(other, real)) {
				fprintf(stderr, "iobench: %s:%d: include cycle: '%s' includes itself\n", file,
					lineno, arg);
				return -ELOOP;
			}
		}
	return jf_parse_file(st, path, path);
}

static int jf_option(struct jf_state *st, const char *file, char *line, int lineno)
{
	char *eq = strchr(line, '=');
	char *key = line, *val = NULL, *expanded = NULL;
	if (eq) {
		*eq = '\0';
		val = trim(eq + 1);
	}
	key = trim(key);
	if (!eq && !strncmp(key, "include", 7) && isspace((unsigned char)key[7]))
		return jf_include(st, file, lineno, trim(key + 8));
	if (!st->in_section) {
		fprintf(stderr, "iobench: %s:%d: option '%s' outside of any [section]\n", file, lineno, key);
		return -EINVAL;
	}
	if (st->skipping)
		return 0;
	if (val) {
		int ret = jf_value(st, file, lineno, key, val, &expanded);
		if (ret)
			return ret;
		val = expanded;
	}
	/* Unknown options are reported when the job is resolved, after its engine is
	 * checked: an unsupported engine's own options then do not hide the real reason. */
	int ret;
	if (st->job) {
		ret = opt_list_add(&st->job->given, key, val, file, lineno);
	} else {
		ret = opt_list_add(&st->globals, key, val, file, lineno);
		if (!ret)
			ret = opt_list_add(&st->cfg->globals, key, val, file, lineno);
	}
	free(expanded);
	return ret;
}

static bool is_text(const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];
		if (c == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r'))
			return false;
	}
	return true;
}

static int jf_parse_stream(struct jf_state *st, FILE *f, const char *name);

/* Keep the name for messages (opt_kv.file points into it). NULL when out of room. */
static const char *keep_name(struct run_cfg *cfg, const char *label)
{
	if (cfg->nfile_names >= sizeof(cfg->file_names) / sizeof(cfg->file_names[0])) {
		fprintf(stderr, "iobench: %s: too many job files\n", label);
		return NULL;
	}
	char *name = strdup(label);
	if (name)
		cfg->file_names[cfg->nfile_names++] = name;
	return name;
}

static int jf_parse_file(struct jf_state *st, const char *path, const char *label)
{
	const char *name = keep_name(st->cfg, strcmp(path, "-") == 0 ? "<stdin>" : label);
	if (!name)
		return -E2BIG;
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	if (!f) {
		int err = -errno;
		fprintf(stderr, "iobench: %s: cannot open job file: %s\n", name, strerror(-err));
		return err;
	}
	int ret = jf_parse_stream(st, f, name);
	if (f != stdin)
		fclose(f);
	return ret;
}

static int jf_parse_stream(struct jf_state *st, FILE *f, const char *name)
{
	st->stack[st->depth++] = name;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, ret = 0;
	while (!ret && (len = getline(&buf, &cap, f)) >= 0) {
		lineno++;
		if (len >= MAX_LINE) {
			fprintf(stderr, "iobench: %s:%d: line is too long\n", name, lineno);
			ret = -EINVAL;
			break;
		}
		if (!is_text(buf, (size_t)len)) {
			fprintf(stderr, "iobench: %s:%d: not a job file (binary data)\n", name, lineno);
			ret = -EINVAL;
			break;
		}
		strip_comment(buf);
		char *line = trim(buf);
		if (!*line)
			continue;
		ret = line[0] == '[' ? jf_section(st, name, line, lineno) : jf_option(st, name, line, lineno);
	}
	free(buf);
	st->depth--;
	return ret;
}

int jobfile_parse_buffer(const char *data, size_t len, const char *label, struct run_cfg *cfg)
{
	struct jf_state st = { .cfg = cfg, .file_index = 1 };
	const char *name = keep_name(cfg, label);
	FILE *f = len ? fmemopen((void *)data, len, "r") : NULL;
	int ret = name && f ? 0 : -ENOMEM;
	sys_values_read(&st.sys);
	if (!ret)
		ret = jf_parse_stream(&st, f, name);
	if (f)
		fclose(f);
	opt_list_free(&st.globals);
	return ret;
}

int jobfile_parse(const char *path, struct run_cfg *cfg, unsigned file_index)
{
	struct jf_state st = { .cfg = cfg, .file_index = file_index };
	size_t jobs_before = cfg->njobs;
	sys_values_read(&st.sys);
	int ret = jf_parse_file(&st, path, path);
	opt_list_free(&st.globals);
	if (!ret && cfg->njobs == jobs_before && !cfg->nsections) {
		fprintf(stderr, "iobench: %s: no jobs defined\n", strcmp(path, "-") ? path : "<stdin>");
		ret = -EINVAL;
	}
	return ret;
}
