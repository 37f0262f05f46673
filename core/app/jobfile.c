/* fio job files: [global] and job sections, ';'/'#' comments (also inline), flags
 * without values, ${VAR} from the environment, $ncpus/$pagesize/$mb_memory with
 * arithmetic, `include FILE` (relative to the including file), --section filters. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/app/cli.h"
#include "core/job/expr.h"
#include "core/lib/nomem.h"
#include "core/job/options.h"
#include "core/job/parse.h"
#include "engines/secret.h"

#define MAX_LINE 8192                /* characters in a line, the newline not counted */
#define MAX_INCLUDE_DEPTH 16
#define MAX_FILE_BYTES (16u << 20)   /* a job file with what it includes; stdin too */
#define MAX_OPTS (1u << 20)          /* job options held, [global] copied into each job */

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
				if ((size_t)(end - p - 2) >= varlen) {
					snprintf(var, varlen, "%.*s...", (int)varlen - 4, p + 2);
					return -ENAMETOOLONG;
				}
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
	size_t bytes;            /* read so far from this job file and its includes */
	size_t nopts;            /* options held by the run's jobs (each job's [global] copy too) */
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
	if (strlen(name) >= sizeof(((struct job *)0)->o.name)) {
		fprintf(stderr, "iobench: %s:%d: section name is too long\n", file, lineno);
		return -EINVAL;
	}
	if (st->cfg->njobs >= MAX_JOBS) {
		fprintf(stderr, "iobench: %s:%d: too many jobs (%d at most)\n", file, lineno, MAX_JOBS);
		return -E2BIG;
	}
	if ((st->nopts += st->globals.n) > MAX_OPTS) {
		fprintf(stderr, "iobench: %s:%d: too many options (%u at most, each job's copy of [global] counted)\n",
			file, lineno, MAX_OPTS);
		return -E2BIG;
	}
	struct job *job = run_cfg_add_job(st->cfg, name);
	if (!job)
		return -ENOMEM;
	snprintf(job->o.name, sizeof(job->o.name), "%s", name);
	job->file = file;
	job->line = lineno;
	job->file_index = st->file_index;
	st->job = job;
	int ret = opt_list_copy(&job->inherit, &st->globals);
	return ret == -ENOMEM ? nomem(name, "[global] options it inherits", st->globals.n * sizeof(struct opt_kv)) : ret;
}

/* ${VAR}, then the reserved keywords and arithmetic; *out is malloc'd. */
static int jf_value(struct jf_state *st, const char *file, int lineno, const char *key, const char *val,
		    char **out)
{
	char env[MAX_LINE + 1], var[256];
	int ret = expand_env(val, env, sizeof(env), var, sizeof(var));
	if (ret == -ENOENT) {
		fprintf(stderr, "iobench: %s:%d: %s: environment variable '%s' is not set\n", file, lineno,
			key, var);
		return -EINVAL;
	}
	if (ret == -ENAMETOOLONG) {
		fprintf(stderr, "iobench: %s:%d: %s: environment variable name '%s' is too long\n", file,
			lineno, key, var);
		return -EINVAL;
	}
	if (ret == -E2BIG) {
		fprintf(stderr, "iobench: %s:%d: %s: the value is longer than %d bytes with its ${...} expanded\n",
			file, lineno, key, MAX_LINE);
		return -EINVAL;
	}
	const struct option_def *def = option_find(key);
	ret = expr_substitute(env, &st->sys, !def || def->type != OPT_STR, out);
	if (ret) {
		const char *shown = opt_value_shown(key, val); /* a secret's value is not shown */
		fprintf(stderr, "iobench: %s:%d: %s: cannot evaluate '%.*s%s': %s\n", file, lineno, key, SHOWN(shown),
			expr_why(ret));
		return -EINVAL;
	}
	return 0;
}

static int jf_parse_file(struct jf_state *st, const char *path, const char *from, int lineno);

static bool in_cycle(const struct jf_state *st, const char *path)
{
	char real[PATH_MAX], other[PATH_MAX];
	if (!realpath(path, real))
		return false;
	for (unsigned i = 0; i < st->depth; i++)
		if (realpath(st->stack[i], other) && !strcmp(other, real))
			return true;
	return false;
}

static int jf_include(struct jf_state *st, const char *file, int lineno, const char *arg)
{
	char dir[PATH_MAX], path[PATH_MAX];
	int n;
	if (!*arg) {
		fprintf(stderr, "iobench: %s:%d: include needs a file name\n", file, lineno);
		return -EINVAL;
	}
	snprintf(dir, sizeof(dir), "%s", file);
	if (arg[0] == '/' || !strcmp(file, "<stdin>"))
		n = snprintf(path, sizeof(path), "%s", arg);
	else
		n = snprintf(path, sizeof(path), "%s/%s", dirname(dir), arg);
	if (n < 0 || (size_t)n >= sizeof(path) || strlen(file) >= sizeof(dir)) {
		fprintf(stderr, "iobench: %s:%d: include: file name is too long\n", file, lineno);
		return -ENAMETOOLONG;
	}
	if (st->depth >= MAX_INCLUDE_DEPTH) {
		fprintf(stderr, "iobench: %s:%d: includes nested too deep\n", file, lineno);
		return -ELOOP;
	}
	if (in_cycle(st, path)) {
		fprintf(stderr, "iobench: %s:%d: include cycle: '%s' includes itself\n", file, lineno, arg);
		return -ELOOP;
	}
	return jf_parse_file(st, path, file, lineno);
}

static int jf_add(struct jf_state *st, struct opt_list *l, const char *file, int lineno,
		  const char *key, const char *val)
{
	if (++st->nopts > MAX_OPTS) {
		fprintf(stderr, "iobench: %s:%d: too many options (%u at most, each job's copy of [global] counted)\n",
			file, lineno, MAX_OPTS);
		return -E2BIG;
	}
	int ret = opt_list_add(l, key, val, file, lineno);
	if (ret == -ENOMEM) {
		char what[200];
		snprintf(what, sizeof(what), "option %.64s= (%.100s:%d)", key, file, lineno);
		nomem(st->job && l == &st->job->given ? st->job->o.name : NULL, what, opt_list_bytes(key, val));
	}
	return ret;
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
		char shown[160];
		fprintf(stderr, "iobench: %s:%d: option '%s' outside of any [section]\n", file, lineno,
			opt_name_shown(key, shown, sizeof(shown)));
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
		ret = jf_add(st, &st->job->given, file, lineno, key, val);
	} else {
		ret = jf_add(st, &st->globals, file, lineno, key, val);
		if (!ret)
			ret = jf_add(st, &st->cfg->globals, file, lineno, key, val);
	}
	free(expanded);
	return ret;
}

/* Keep the name for messages (opt_kv.file points into it). NULL after a line when out of
 * room or memory. */
static const char *keep_name(struct run_cfg *cfg, const char *label)
{
	if (cfg->nfile_names >= sizeof(cfg->file_names) / sizeof(cfg->file_names[0])) {
		fprintf(stderr, "iobench: %s: too many job files\n", label);
		return NULL;
	}
	char *name = strdup(label);
	if (name)
		cfg->file_names[cfg->nfile_names++] = name;
	else
		nomem(NULL, "name of a job file", strlen(label) + 1);
	return name;
}

/* The descriptor of a regular file: anything else (a directory, a device that never
 * ends, a FIFO that would block) is refused before it is read (*regular false, -EINVAL).
 * stat first, so a device is not even opened; fstat again on the descriptor, with
 * O_NONBLOCK so that a FIFO put there meanwhile does not block the open. */
static int open_regular(const char *path, bool *regular)
{
	struct stat sb;
	*regular = true;
	if (stat(path, &sb))
		return -errno;
	int fd = S_ISREG(sb.st_mode) ? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
	if (S_ISREG(sb.st_mode) && fd < 0)
		return -errno;
	if (fd >= 0 && !fstat(fd, &sb) && S_ISREG(sb.st_mode))
		return fd;
	if (fd >= 0)
		close(fd);
	*regular = false;
	return -EINVAL;
}

/* NULL after one line naming the file (and the include line, if any). */
static FILE *jf_open(const char *path, const char *label, const char *from, int lineno, int *err)
{
	bool regular;
	int fd = open_regular(path, &regular);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (f)
		return f;
	*err = fd >= 0 ? -errno : fd;
	if (fd >= 0)
		close(fd);
	if (from && !regular)
		fprintf(stderr, "iobench: %s:%d: include: '%s' is not a regular file\n", from, lineno, label);
	else if (from)
		fprintf(stderr, "iobench: %s:%d: include: cannot open '%s': %s\n", from, lineno, label,
			strerror(-*err));
	else if (!regular)
		fprintf(stderr, "iobench: %s: job file is not a regular file ('-' reads stdin)\n", label);
	else
		fprintf(stderr, "iobench: %s: cannot open job file: %s\n", label, strerror(-*err));
	return NULL;
}

static int jf_parse_stream(struct jf_state *st, FILE *f, const char *name);

/* A job file, "-" for stdin (a pipe is fine there); from and lineno name the include. */
static int jf_parse_file(struct jf_state *st, const char *path, const char *from, int lineno)
{
	bool is_stdin = !from && !strcmp(path, "-");
	const char *name = keep_name(st->cfg, is_stdin ? "<stdin>" : path);
	if (!name)
		return -E2BIG;
	int err = 0;
	FILE *f = is_stdin ? stdin : jf_open(path, name, from, lineno, &err);
	if (!f)
		return err;
	int ret = jf_parse_stream(st, f, name);
	if (f != stdin)
		fclose(f);
	return ret;
}

/* One line into buf (MAX_LINE + 1 bytes), without its newline. 1 for a line, 0 at the
 * end, or -errno after one line on stderr: a line too long, binary data, a read error,
 * or more than MAX_FILE_BYTES read (the file is not read further in each case). */
static int jf_getline(struct jf_state *st, FILE *f, const char *name, int lineno, char *buf)
{
	size_t n = 0;
	int c = EOF;
	bool any = false;
	while ((c = getc_unlocked(f)) != EOF) {
		any = true;
		if (++st->bytes > MAX_FILE_BYTES) {
			fprintf(stderr, "iobench: %s: job file is larger than 16 MiB%s\n", st->stack[0],
				st->depth > 1 ? " (with the files it includes)" : "");
			return -EFBIG;
		}
		if (c == '\n')
			break;
		if (c == 0 || (c < 0x20 && c != '\t' && c != '\r')) {
			fprintf(stderr, "iobench: %s:%d: not a job file (binary data)\n", name, lineno);
			return -EINVAL;
		}
		if (n >= MAX_LINE) {
			fprintf(stderr, "iobench: %s:%d: line is too long (%d characters at most)\n", name, lineno,
				MAX_LINE);
			return -EINVAL;
		}
		buf[n++] = (char)c;
	}
	if (ferror(f)) {
		fprintf(stderr, "iobench: %s: cannot read job file: %s\n", name, strerror(errno));
		return -EIO;
	}
	buf[n] = '\0';
	return any;
}

static int jf_parse_stream(struct jf_state *st, FILE *f, const char *name)
{
	char *buf = malloc(MAX_LINE + 1);
	if (!buf)
		return nomem(NULL, "line buffer of a job file", MAX_LINE + 1);
	st->stack[st->depth++] = name;
	int lineno = 0, ret = 0;
	while (!ret) {
		ret = jf_getline(st, f, name, ++lineno, buf);
		if (ret <= 0)
			break;
		ret = 0;
		strip_comment(buf);
		char *line = trim(buf);
		if (*line)
			ret = line[0] == '[' ? jf_section(st, name, line, lineno) : jf_option(st, name, line, lineno);
	}
	free(buf);
	st->depth--;
	return ret;
}

/* Options the run's jobs hold already (earlier job files, the command line). */
static size_t opts_held(const struct run_cfg *cfg)
{
	size_t n = cfg->globals.n;
	for (size_t i = 0; i < cfg->njobs; i++)
		n += cfg->jobs[i].inherit.n + cfg->jobs[i].given.n;
	return n;
}

int jobfile_parse_buffer(const char *data, size_t len, const char *label, struct run_cfg *cfg)
{
	struct jf_state st = { .cfg = cfg, .file_index = 1, .nopts = opts_held(cfg) };
	const char *name = keep_name(cfg, label);
	FILE *f = len && name ? fmemopen((void *)data, len, "r") : NULL;
	int ret = !name ? -ENOMEM : len && !f ? nomem(NULL, "stream of a profile's job file", len) : 0;
	sys_values_read(&st.sys);
	if (!ret && f)
		ret = jf_parse_stream(&st, f, name);
	if (f)
		fclose(f);
	opt_list_free(&st.globals);
	return ret;
}

int jobfile_parse(const char *path, struct run_cfg *cfg, unsigned file_index)
{
	struct jf_state st = { .cfg = cfg, .file_index = file_index, .nopts = opts_held(cfg) };
	size_t jobs_before = cfg->njobs;
	sys_values_read(&st.sys);
	int ret = jf_parse_file(&st, path, NULL, 0);
	opt_list_free(&st.globals);
	if (!ret && cfg->njobs == jobs_before && !cfg->nsections) {
		fprintf(stderr, "iobench: %s: no jobs defined\n", strcmp(path, "-") ? path : "<stdin>");
		ret = -EINVAL;
	}
	return ret;
}
