/* Option machinery: lookup, setting one value, defaults, help and docs from the table. */
#include "core/job/options.h"

#include <errno.h>
#include <string.h>
#include <strings.h>

#include "core/job/parse.h"

const struct option_def *option_find_in(const struct option_def *table, const char *name)
{
	for (const struct option_def *d = table; d && d->name; d++)
		if (strcmp(d->name, name) == 0 || (d->alias && strcmp(d->alias, name) == 0))
			return d;
	return NULL;
}

const struct option_def *option_find_core(const char *name)
{
	struct option_iter it;
	FOR_EACH_CORE_OPTION(it, d)
		if (strcmp(d->name, name) == 0 || (d->alias && strcmp(d->alias, name) == 0))
			return d;
	return NULL;
}

static int set_int(const struct job_opts *o, char *field, const struct option_def *def, const char *value,
		   char *err, size_t errlen)
{
	int64_t i;
	uint64_t sz;
	int ret = parse_int(value, def->min, def->max, &i);
	/* fio's integers take size suffixes too (buffer_compress_chunk=4k, number_ios=1m). */
	if (ret == -EINVAL && parse_size(value, o->kb_base, &sz) == 0) {
		ret = sz > (uint64_t)INT64_MAX || (int64_t)sz < def->min || (int64_t)sz > def->max ? -ERANGE : 0;
		i = (int64_t)sz;
	}
	if (ret == -ERANGE)
		snprintf(err, errlen, "'%.*s%s' is out of range (%lld to %lld)", SHOWN(value), (long long)def->min,
			 (long long)def->max);
	else if (ret)
		snprintf(err, errlen, "cannot parse '%.*s%s' as an integer", SHOWN(value));
	if (ret)
		return ret;
	if (def->type == OPT_UINT)
		*(unsigned *)field = (unsigned)i;
	else if (def->type == OPT_INT)
		*(int *)field = (int)i;
	else
		*(uint64_t *)field = (uint64_t)i;
	return 0;
}

static int set_choice(unsigned *field, const struct option_def *def, const char *v, char *err, size_t errlen)
{
	for (const struct choice *c = def->choices; c && c->word; c++)
		if (!strcasecmp(c->word, v)) {
			*field = c->value;
			return 0;
		}
	char list[256] = "";
	for (const struct choice *c = def->choices; c && c->word; c++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", list[0] ? ", " : "", c->word);
	snprintf(err, errlen, "unknown value '%.*s%s' (%s)", SHOWN(v), list);
	return -EINVAL;
}

int option_set(struct job_opts *o, const struct option_def *def, const char *value,
	       char *err, size_t errlen)
{
	return option_set_at(o, o, def, value, err, errlen);
}

int option_set_at(struct job_opts *o, void *base, const struct option_def *def, const char *value,
		  char *err, size_t errlen)
{
	char *field = (char *)base + def->offset;
	bool b;
	int ret;

	bool flag = def->type == OPT_BOOL || def->type == OPT_TRIBOOL;
	if (!value && !flag && def->type != OPT_NOOP && def->type != OPT_UNSUPPORTED &&
	    def->parse != opt_parse_logname) {
		snprintf(err, errlen, "needs a value");
		return -EINVAL;
	}
	/* "bs=" is not the default block size, nor "direct=" a flag: as fio, an empty value
	 * is refused, but for text (name=, filename=...) and log names (a bare flag's). */
	if (value && !value[strspn(value, " \t")] && def->type != OPT_STR && def->type != OPT_NOOP &&
	    def->type != OPT_UNSUPPORTED && def->parse != opt_parse_logname) {
		snprintf(err, errlen, "the value is empty");
		return -EINVAL;
	}
	switch (def->type) {
	case OPT_STR:
		if (strlen(value) >= def->size) {
			snprintf(err, errlen, "value is too long (%zu bytes at most)", def->size - 1);
			return -ENAMETOOLONG;
		}
		memcpy(field, value, strlen(value) + 1);
		return 0;
	case OPT_BOOL:
	case OPT_TRIBOOL:
		if (parse_bool(value, &b)) {
			snprintf(err, errlen, "cannot parse '%.*s%s' as a boolean (0 or 1)", SHOWN(value));
			return -EINVAL;
		}
		if (def->type == OPT_BOOL)
			*(bool *)field = b;
		else
			*(int *)field = b;
		return 0;
	case OPT_UINT:
	case OPT_INT:
	case OPT_U64:
		return set_int(o, field, def, value, err, errlen);
	case OPT_CHOICE:
		return set_choice((unsigned *)field, def, value, err, errlen);
	case OPT_SIZE:
		ret = parse_file_size(value, o->kb_base, (uint64_t *)field);
		if (ret)
			parse_size_error(err, errlen, value, ret);
		return ret;
	case OPT_TIME:
		ret = parse_time_us(value, def->unit, (uint64_t *)field);
		if (ret)
			snprintf(err, errlen, ret == -ERANGE ? "'%.*s%s' is too long a time (" TIME_MAX_TEXT ")"
					      : ret == -EDOM ? "'%.*s%s' is less than one whole unit (fio would take 0: give "
							       "a unit, as 500ms)"
							     : "cannot parse '%.*s%s' as a time", SHOWN(value));
		return ret;
	case OPT_FUNC:
		if (base != o) {
			snprintf(err, errlen, "internal error: a parsed option outside the job's options");
			return -EINVAL;
		}
		return def->parse(o, def, value, err, errlen);
	case OPT_UNSUPPORTED:
		if (!o->unsupported[0])
			snprintf(o->unsupported, sizeof(o->unsupported), "%s", def->name);
		return 0;
	case OPT_NOOP:
		return 0;
	}
	snprintf(err, errlen, "internal error: unknown option type");
	return -EINVAL;
}

static void default_one(struct job_opts *o, void *base, const struct option_def *d)
{
	char err[256];
	if (d->type == OPT_TRIBOOL)
		*(int *)((char *)base + d->offset) = -1;
	if (d->def && d->type != OPT_UNSUPPORTED)
		option_set_at(o, base, d, d->def, err, sizeof(err));
}

void options_defaults_at(struct job_opts *o, void *base, const struct option_def *table)
{
	for (const struct option_def *d = table; d && d->name; d++)
		default_one(o, base, d);
}

const double job_default_pct[JOB_DEFAULT_NPCT] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };

void options_defaults(struct job_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->kb_base = 1024;
	struct option_iter it;
	FOR_EACH_CORE_OPTION(it, d)
		default_one(o, o, d);
	for (int d = 0; d < DDIR_NR; d++)
		o->dist[d].center = -1.0;
	o->io.fs_center = -1.0;
	o->npct = JOB_DEFAULT_NPCT;
	memcpy(o->pct_list, job_default_pct, sizeof(job_default_pct));
	o->pct_prec = 2;
}
