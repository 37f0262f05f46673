/* Option machinery: lookup, setting one value, defaults, help and docs from the table. */
#include "core/options.h"

#include <errno.h>
#include <string.h>

#include "core/cli.h"
#include "core/parse.h"

const struct option_def *option_find(const char *name)
{
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *d = &option_table[i];
		if (strcmp(d->name, name) == 0 || (d->alias && strcmp(d->alias, name) == 0))
			return d;
	}
	return NULL;
}

bool option_fits_engine(const struct option_def *def, const char *engine)
{
	if (!def->engines)
		return true;
	size_t len = strlen(engine);
	for (const char *p = def->engines; (p = strstr(p, engine)); p += len)
		if ((p == def->engines || p[-1] == ' ') && (p[len] == '\0' || p[len] == ' '))
			return true;
	return false;
}

static int set_int(struct job_opts *o, const struct option_def *def, const char *value, char *err,
		   size_t errlen)
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
	char *field = (char *)o + def->offset;
	if (def->type == OPT_UINT)
		*(unsigned *)field = (unsigned)i;
	else
		*(uint64_t *)field = (uint64_t)i;
	return 0;
}

int option_set(struct job_opts *o, const struct option_def *def, const char *value,
	       char *err, size_t errlen)
{
	char *field = (char *)o + def->offset;
	bool b;
	int ret;

	if (!value && def->type != OPT_BOOL && def->type != OPT_NOOP && def->type != OPT_UNSUPPORTED &&
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
		if (parse_bool(value, &b)) {
			snprintf(err, errlen, "cannot parse '%.*s%s' as a boolean (0 or 1)", SHOWN(value));
			return -EINVAL;
		}
		*(bool *)field = b;
		return 0;
	case OPT_UINT:
	case OPT_U64:
		return set_int(o, def, value, err, errlen);
	case OPT_SIZE:
		ret = parse_file_size(value, o->kb_base, (uint64_t *)field);
		if (ret)
			parse_size_error(err, errlen, value, ret);
		return ret;
	case OPT_TIME:
		ret = parse_time_us(value, def->unit, (uint64_t *)field);
		if (ret)
			snprintf(err, errlen, ret == -ERANGE ? "'%.*s%s' is too long a time"
							     : "cannot parse '%.*s%s' as a time", SHOWN(value));
		return ret;
	case OPT_FUNC:
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

void options_defaults(struct job_opts *o)
{
	char err[256];
	memset(o, 0, sizeof(*o));
	o->kb_base = 1024;
	for (size_t i = 0; i < option_count; i++)
		if (option_table[i].def && option_table[i].type != OPT_UNSUPPORTED)
			option_set(o, &option_table[i], option_table[i].def, err, sizeof(err));
	o->dist.center = -1.0;
	o->sqthread_poll_cpu = -1;
	static const double def_pct[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };
	o->npct = sizeof(def_pct) / sizeof(def_pct[0]);
	memcpy(o->pct_list, def_pct, sizeof(def_pct));
}

static const char *type_text(const struct option_def *d)
{
	if (d->syntax)
		return d->syntax;
	switch (d->type) {
	case OPT_STR:
		return "string";
	case OPT_BOOL:
		return "boolean (0 or 1; a bare flag means 1)";
	case OPT_UINT:
	case OPT_U64:
		return "integer";
	case OPT_SIZE:
		return "size (integer with k/m/g/t suffix)";
	case OPT_TIME:
		return d->unit == 1 ? "time (us unless suffixed: us, ms, s, m, h, d)"
				    : "time (s unless suffixed: us, ms, s, m, h, d)";
	case OPT_FUNC:
		return "string";
	case OPT_UNSUPPORTED:
		return "fio option, not supported by iobench yet";
	case OPT_NOOP:
		return "fio option, accepted, no effect in iobench";
	}
	return "";
}

static void print_one(FILE *out, const struct option_def *d)
{
	fprintf(out, "%20s: %s\n", d->name, d->help);
	if (d->alias)
		fprintf(out, "%20s: %s\n", "alias", d->alias);
	fprintf(out, "%20s: %s\n", "type", type_text(d));
	fprintf(out, "%20s: %s\n", "default", d->def ? d->def : "no default");
	if ((d->type == OPT_UINT || d->type == OPT_U64) && d->max)
		fprintf(out, "%20s: min=%lld, max=%lld\n", "range", (long long)d->min, (long long)d->max);
	if (d->engines)
		fprintf(out, "%20s: %s\n", "engines", d->engines);
	const struct choice *c = option_choices(d->name);
	for (bool first = true; c && c->word; c++, first = false)
		fprintf(out, "%20s: %-10s %s\n", first ? "valid values" : "", c->word, c->help);
	fprintf(out, "\n");
}

int options_print_help(FILE *out, const char *name)
{
	if (!name || !strcmp(name, "all")) {
		const char *cat = NULL;
		for (size_t i = 0; i < option_count; i++) {
			const struct option_def *d = &option_table[i];
			if (!cat || strcmp(cat, d->category) != 0) {
				cat = d->category;
				fprintf(out, "%s\n", cat);
			}
			fprintf(out, "  %-28s: %s\n", d->name, d->help);
		}
		return 0;
	}
	const struct option_def *d = option_find(name);
	if (!d)
		return -ENOENT;
	print_one(out, d);
	return 0;
}

/* Markdown table cell text: a '|' would end the cell. */
static void md_cell(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			fputc('\\', out);
		fputc(*s, out);
	}
}

void options_print_markdown(FILE *out)
{
	const char *cat = NULL;
	fprintf(out, "# iobench job options\n\n"
		     "Generated from the option table (`iobench --cmdhelp=all`, `make docs`); fio's names "
		     "and semantics.\nOptions marked *not supported yet* are fio options that iobench parses "
		     "(so `--parse-only` accepts the job file) but refuses to run.\n");
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *d = &option_table[i];
		if (!cat || strcmp(cat, d->category) != 0) {
			cat = d->category;
			fprintf(out, "\n## %s\n\n| option | value | default | what it does |\n|---|---|---|---|\n", cat);
		}
		fprintf(out, "| `%s`%s%s%s | ", d->name, d->alias ? " (`" : "", d->alias ? d->alias : "",
			d->alias ? "`)" : "");
		md_cell(out, type_text(d));
		fprintf(out, " | ");
		md_cell(out, d->def);
		fprintf(out, " | ");
		md_cell(out, d->help);
		fprintf(out, "%s%s |\n", d->engines ? "; engines: " : "", d->engines ? d->engines : "");
	}
}

void options_print_man(FILE *out)
{
	fprintf(out, ".TH IOBENCH 1 \"\" \"iobench %s\" \"User Commands\"\n"
		     ".SH NAME\niobench \\- a fio-compatible storage benchmark\n"
		     ".SH SYNOPSIS\n.B iobench\n[\\fIoptions\\fR] [\\fIjobfile\\fR]...\n"
		     ".SH DESCRIPTION\n"
		     "iobench takes fio's command lines and job files and prints fio's output formats.\n"
		     "Options before the first \\fB\\-\\-name\\fR are global; each \\fB\\-\\-name\\fR starts a job.\n"
		     ".SH PROGRAM OPTIONS\n", IOBENCH_VERSION);
	cli_print_man_flags(out);
	fprintf(out, ".SH JOB OPTIONS\n");
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *d = &option_table[i];
		fprintf(out, ".TP\n.BI %s \"\\fR=\\fP%s\"\n%s.", d->name, type_text(d), d->help);
		if (d->def)
			fprintf(out, " Default: %s.", d->def);
		if (d->alias)
			fprintf(out, " Alias: %s.", d->alias);
		fprintf(out, "\n");
	}
	fprintf(out, ".SH SEE ALSO\n.BR fio (1)\n");
}
