/* The job model's code: option lists as given, in order, and questions about a job's
 * options (its smallest block, which errors it goes on after). Resolving the lists into
 * options is core/run/resolve.c's. */
#include "core/job/job.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	free(job->eng_opts);
	job->eng_opts = NULL;
}


uint64_t job_min_bs(const struct job_opts *o)
{
	uint64_t g = 0;
	for (int d = 0; d < DDIR_NR; d++) {
		if (!job_has_dir(o, d))
			continue;
		uint64_t b = o->bs_min[d] ? o->bs_min[d] : o->bs[d];
		for (unsigned i = 0; i < o->nbssplit[d]; i++)
			if (o->bssplit[d][i].pct && o->bssplit[d][i].bs < b)
				b = o->bssplit[d][i].bs;
		if (!g || b < g)
			g = b;
	}
	return g ? g : o->bs[DDIR_READ];
}

const char *ioerr_name(int err)
{
	return err > 0 ? strerrorname_np(err) : NULL;
}

bool ioerr_ignored(const struct job_opts *o, unsigned t, int err)
{
	for (unsigned i = 0; t < IOERR_TYPES && i < o->io.nignore[t]; i++)
		if (o->io.ignore_err[t][i] == err)
			return true;
	return false;
}

bool ioerr_tolerated(const struct job_opts *o, unsigned t, int err)
{
	static const unsigned cont[IOERR_TYPES] = { CONT_READ, CONT_WRITE, CONT_VERIFY };
	if (t >= IOERR_TYPES || !(o->continue_on_error & cont[t]))
		return false;
	if (o->io.nignore[t])
		return ioerr_ignored(o, t, err);
	return err == EIO || err == EILSEQ; /* fio's non-fatal errors */
}
