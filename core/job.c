/* Job option lists and resolution of a job's options: defaults <- command-line globals
 * <- job-file [global] <- the job's own section (job-file values win, as in fio 3.33). */
#include "core/job.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"

int opt_list_add(struct opt_list *l, const char *name, const char *value, const char *file, int line)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		struct opt_kv *v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	struct opt_kv *kv = &l->v[l->n];
	kv->name = strdup(name);
	kv->value = value ? strdup(value) : NULL;
	kv->file = file;
	kv->line = line;
	if (!kv->name || (value && !kv->value)) {
		free(kv->name);
		free(kv->value);
		return -ENOMEM;
	}
	l->n++;
	return 0;
}

int opt_list_copy(struct opt_list *dst, const struct opt_list *src)
{
	for (size_t i = 0; i < src->n; i++) {
		const struct opt_kv *kv = &src->v[i];
		int ret = opt_list_add(dst, kv->name, kv->value, kv->file, kv->line);
		if (ret)
			return ret;
	}
	return 0;
}

void opt_list_free(struct opt_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].value);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void job_free(struct job *job)
{
	if (!job)
		return;
	opt_list_free(&job->inherit);
	opt_list_free(&job->given);
}

/* kb_base changes how every size reads, so it is applied before the rest. */
static int apply_list(struct job_opts *o, const struct opt_list *l, const char *jobname,
		      bool kb_base_pass)
{
	char err[512];
	for (size_t i = 0; i < l->n; i++) {
		const struct opt_kv *kv = &l->v[i];
		const struct option_def *def = option_find(kv->name);
		if (!def) {
			if (kv->file)
				fprintf(stderr, "iobench: %s:%d: unknown option '%s'\n", kv->file,
					kv->line, kv->name);
			else
				fprintf(stderr, "iobench: unknown option '--%s'\n", kv->name);
			return -EINVAL;
		}
		bool is_kb = strcmp(def->name, "kb_base") == 0;
		if (is_kb != kb_base_pass)
			continue;
		int ret = option_set(o, def, kv->value, err, sizeof(err));
		if (ret) {
			if (kv->file)
				fprintf(stderr, "iobench: %s:%d: job '%s': %s: %s\n", kv->file, kv->line,
					jobname, def->name, err);
			else
				fprintf(stderr, "iobench: job '%s': %s: %s\n", jobname, def->name, err);
			return ret;
		}
	}
	return 0;
}

int job_resolve(struct job *job, const struct opt_list *cmdline_globals)
{
	const struct opt_list *lists[] = { cmdline_globals, &job->inherit, &job->given };
	struct job_opts *o = &job->o;
	char name[sizeof(o->name)];

	snprintf(name, sizeof(name), "%s", o->name);
	options_defaults(o);
	snprintf(o->name, sizeof(o->name), "%s", name);
	for (int pass = 1; pass >= 0; pass--)
		for (size_t i = 0; i < 3; i++) {
			int ret = apply_list(o, lists[i], name, pass);
			if (ret)
				return ret;
		}
	/* A job's name is its section's; a name= option inside a section does not rename it. */
	if (name[0])
		snprintf(o->name, sizeof(o->name), "%s", name);
	return 0;
}
