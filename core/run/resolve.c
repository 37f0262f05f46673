/* A job's options resolved: defaults <- command-line globals <- job-file [global] <- the
 * job's own section (job-file values win, as in fio 3.33), its engine found and asked. */
#include "core/run/resolve.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "core/lib/nomem.h"
#include "core/lib/say.h"
#include "core/job/options.h"
#include "core/plan/zone.h"
#include "engines/secret.h"

static void report(const struct opt_kv *kv, const char *jobname, const char *what, const char *detail)
{
	job_say_at(kv->file, kv->line, jobname, "%s%s", what, detail);
}

/* The engine a job ends up with: the last ioengine= of its lists. */
static const struct opt_kv *last_given(const struct opt_list *const *lists, size_t n, const char *name)
{
	const struct opt_kv *found = NULL;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < lists[i]->n; k++)
			if (!strcmp(lists[i]->v[k].name, name))
				found = &lists[i]->v[k];
	return found;
}

/* Which row an option of a job is: the core's, else its engine's (whose field lies in the
 * engine's options). NULL after a line: unknown, or another engine's. */
static const struct option_def *job_option(const struct job *job, const struct opt_kv *kv, const char *jobname,
					   void **base)
{
	const struct option_def *def = option_find_core(kv->name);
	*base = (void *)&job->o;
	if (def)
		return def;
	if ((def = option_find_in(job->ops->options, kv->name))) {
		*base = job->eng_opts;
		return def;
	}
	char what[400], engines[256] = "", shown[160];
	const struct engine_ops *e;
	/* The engines iobench carries out first; fio's others (sg, xnvme...) when none has it. */
	for (int absent = 0; absent < 2 && !engines[0]; absent++)
		for (size_t i = 0; (e = engine_by_index(i)); i++)
			if (!(e->flags & ENGINE_ABSENT) == !absent && option_find_in(e->options, kv->name))
				snprintf(engines + strlen(engines), sizeof(engines) - strlen(engines), "%s%s",
					 engines[0] ? " " : "", e->name);
	if (engines[0])
		snprintf(what, sizeof(what), "option '%.200s' is for the %s engine, not %s", kv->name, engines,
			 job->ops->name);
	else /* "http_pass KEY" (a space for '='): the key is not shown */
		snprintf(what, sizeof(what), "unknown option '%.200s'", opt_name_shown(kv->name, shown, sizeof(shown)));
	report(kv, jobname, what, "");
	return NULL;
}

/* Options apply in order, as in fio: kb_base changes how the sizes after it read. Those of
 * `skip` (the engine the globals chose, when the job changes it) are left out, as fio lets
 * a job inherit them without using them (examples/e4defrag2.fio: donorname= in [global],
 * a libaio job). */
static int apply_list(struct job *job, const struct opt_list *l, const char *jobname, const struct engine_ops *skip)
{
	char err[512];
	for (size_t i = 0; i < l->n; i++) {
		const struct opt_kv *kv = &l->v[i];
		void *base;
		if (skip && skip != job->ops && !option_find_core(kv->name) && option_find_in(skip->options, kv->name) &&
		    !option_find_in(job->ops->options, kv->name))
			continue;
		const struct option_def *def = job_option(job, kv, jobname, &base);
		if (!def)
			return -EINVAL;
		int ret = option_set_at(&job->o, base, def, kv->value, err, sizeof(err));
		if (ret) {
			char what[300];
			snprintf(what, sizeof(what), "%.200s: ", kv->name); /* as the user spelled it */
			report(kv, jobname, what, err);
			return ret;
		}
	}
	return 0;
}

/* Options fio takes and ignores in a job, which a user may well have meant otherwise. */
static void note_ignored(const struct opt_list *const *lists, size_t n, const char *jobname)
{
	const struct opt_kv *dir = last_given(lists, n, "dir");
	if (dir)
		report(dir, jobname, "note: dir= is an option of fio's tiobench profile; fio and iobench ignore it "
				     "in a job (the job's directory is directory=)", "");
}

int job_resolve(struct job *job, const struct opt_list *cmdline_globals)
{
	const struct opt_list *const lists[] = { cmdline_globals, &job->inherit, &job->given };
	struct job_opts *o = &job->o;
	char name[sizeof(o->name)];

	/* As fio: the section's name, unless the section says name= (the last one wins); a
	 * name= in [global] names no job. On the command line, --name starts the job. */
	snprintf(name, sizeof(name), "%s", o->name);
	char section[sizeof(o->section)];
	snprintf(section, sizeof(section), "%s", o->section[0] ? o->section : o->name);
	for (size_t k = 0; k < job->given.n; k++)
		if (!strcmp(job->given.v[k].name, "name") && job->given.v[k].value)
			snprintf(name, sizeof(name), "%s", job->given.v[k].value);
	/* The engine first: an unsupported engine is the reason, not its own options. */
	const struct opt_kv *eng = last_given(lists, 3, "ioengine");
	const char *engine = eng && eng->value ? eng->value : "psync";
	if (!(job->ops = engine_find(engine))) {
		char what[1400], names[1024];
		snprintf(what, sizeof(what), "ioengine: unknown engine '%.200s' (known: %s)", engine,
			 engine_names(names, sizeof(names)));
		if (eng)
			report(eng, name, what, "");
		else
			job_say(name, "%s", what);
		return -EINVAL;
	}
	options_defaults(o);
	free(job->eng_opts);
	job->eng_opts = calloc(1, job->ops->options_size ? job->ops->options_size : 1);
	if (!job->eng_opts) {
		char what[96];
		snprintf(what, sizeof(what), "options of engine %s", job->ops->name);
		return nomem(name, what, job->ops->options_size ? job->ops->options_size : 1);
	}
	options_defaults_at(o, job->eng_opts, job->ops->options);
	snprintf(o->name, sizeof(o->name), "%s", name);
	/* The engine in force where the globals were given. */
	const struct opt_kv *geng = last_given(lists, 2, "ioengine");
	const struct engine_ops *gops = geng && geng->value ? engine_find(geng->value) : NULL;
	for (size_t i = 0; i < 3; i++) {
		int ret = apply_list(job, lists[i], name, i < 2 ? gops : NULL);
		if (ret)
			return ret;
	}
	snprintf(o->name, sizeof(o->name), "%s", name); /* not [global]'s name= */
	snprintf(o->section, sizeof(o->section), "%s", section[0] ? section : name);
	note_ignored(lists, 3, name);
	char zerr[512], key[64];
	if (zone_resolve(o, zerr, sizeof(zerr))) { /* the reason starts with the option's name */
		snprintf(key, sizeof(key), "%.*s", (int)strcspn(zerr, ":="), zerr);
		const struct opt_kv *kv = last_given(lists, 3, key);
		if (kv)
			report(kv, name, zerr, "");
		else
			job_say(name, "%s", zerr);
		return -EINVAL;
	}
	/* As fio 3.33: no latencies. Its manual says bandwidth too, but fio still samples
	 * bandwidth and IOPS (bw_mean, iops_mean, the "bw (KiB/s)" and "iops" lines), which
	 * kubestr and others read from gtod_reduce=1 jobs. */
	if (o->gtod_reduce)
		o->disable_lat = o->disable_clat = o->disable_slat = true;
	char why[400] = "";
	if (engine_resolve(job->ops, o, job->eng_opts, why, sizeof(why))) {
		job_say(name, "%s", why[0] ? why : "invalid engine options");
		return -EINVAL;
	}
	compat_resolve(o);
	return opts_io_resolve(job, lists, 3);
}
