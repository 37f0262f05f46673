/* fio job files: [global] and job sections, ';'/'#' comments, flags without values,
 * ${VAR} from the environment. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "core/options.h"

#define MAX_LINE 8192

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
	const char *file;
	unsigned file_index;
	struct opt_list globals; /* this file's [global] options so far */
	struct job *job;         /* NULL while in [global] */
	bool in_section;
};

static int jf_section(struct jf_state *st, char *line, int lineno)
{
	size_t n = strlen(line);
	if (line[n - 1] != ']') {
		fprintf(stderr, "iobench: %s:%d: unterminated section header '%s'\n", st->file, lineno, line);
		return -EINVAL;
	}
	line[n - 1] = '\0';
	char *name = trim(line + 1);
	if (!*name) {
		fprintf(stderr, "iobench: %s:%d: empty section name\n", st->file, lineno);
		return -EINVAL;
	}
	st->in_section = true;
	if (strncmp(name, "global", 6) == 0) {
		st->job = NULL;
		return 0;
	}
	struct job *job = run_cfg_add_job(st->cfg);
	if (!job)
		return -ENOMEM;
	if (strlen(name) >= sizeof(job->o.name)) {
		fprintf(stderr, "iobench: %s:%d: section name is too long\n", st->file, lineno);
		return -EINVAL;
	}
	snprintf(job->o.name, sizeof(job->o.name), "%s", name);
	job->file = st->file;
	job->line = lineno;
	job->file_index = st->file_index;
	st->job = job;
	return opt_list_copy(&job->inherit, &st->globals);
}

static int jf_option(struct jf_state *st, char *line, int lineno)
{
	char *eq = strchr(line, '=');
	char *key = line, *val = NULL;
	if (eq) {
		*eq = '\0';
		val = trim(eq + 1);
	}
	key = trim(key);
	if (!st->in_section) {
		fprintf(stderr, "iobench: %s:%d: option '%s' outside of any [section]\n", st->file, lineno, key);
		return -EINVAL;
	}
	if (!option_find(key)) {
		fprintf(stderr, "iobench: %s:%d: unknown option '%s'\n", st->file, lineno, key);
		return -EINVAL;
	}
	char expanded[MAX_LINE], var[256];
	if (val) {
		int ret = expand_env(val, expanded, sizeof(expanded), var, sizeof(var));
		if (ret == -ENOENT) {
			fprintf(stderr, "iobench: %s:%d: %s: environment variable '%s' is not set\n", st->file,
				lineno, key, var);
			return -EINVAL;
		}
		if (ret) {
			fprintf(stderr, "iobench: %s:%d: %s: value is too long\n", st->file, lineno, key);
			return -EINVAL;
		}
		val = expanded;
	}
	if (st->job)
		return opt_list_add(&st->job->given, key, val, st->file, lineno);
	int ret = opt_list_add(&st->globals, key, val, st->file, lineno);
	return ret ? ret : opt_list_add(&st->cfg->globals, key, val, st->file, lineno);
}

static FILE *open_jobfile(const char *path)
{
	return strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
}

int jobfile_parse(const char *path, struct run_cfg *cfg, unsigned file_index)
{
	if (cfg->nfile_names >= sizeof(cfg->file_names) / sizeof(cfg->file_names[0])) {
		fprintf(stderr, "iobench: %s: too many job files\n", path);
		return -E2BIG;
	}
	char *name = strdup(strcmp(path, "-") == 0 ? "<stdin>" : path);
	if (!name)
		return -ENOMEM;
	cfg->file_names[cfg->nfile_names++] = name;
	FILE *f = open_jobfile(path);
	if (!f) {
		int err = -errno;
		fprintf(stderr, "iobench: %s: cannot open job file: %s\n", path, strerror(-err));
		return err;
	}
	struct jf_state st = { .cfg = cfg, .file = name, .file_index = file_index };
	char buf[MAX_LINE];
	int lineno = 0, ret = 0;
	size_t jobs_before = cfg->njobs;
	while (!ret && fgets(buf, sizeof(buf), f)) {
		lineno++;
		if (!strchr(buf, '\n') && !feof(f)) {
			fprintf(stderr, "iobench: %s:%d: line is too long\n", name, lineno);
			ret = -EINVAL;
			break;
		}
		strip_comment(buf);
		char *line = trim(buf);
		if (!*line)
			continue;
		ret = line[0] == '[' ? jf_section(&st, line, lineno) : jf_option(&st, line, lineno);
	}
	if (f != stdin)
		fclose(f);
	opt_list_free(&st.globals);
	if (!ret && cfg->njobs == jobs_before) {
		fprintf(stderr, "iobench: %s: no jobs defined\n", name);
		ret = -EINVAL;
	}
	return ret;
}
