/* The option tables as documentation: --cmdhelp, --enghelp, docs/options.md, the man page's
 * JOB OPTIONS and --dump-options=tsv, from the core's table and every engine's. */
#include "core/app/opthelp.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engines/engine.h"
#include "core/job/options.h"
#include "engines/secret.h"

static const char *type_text(const struct option_def *d)
{
	if (d->syntax)
		return d->syntax;
	switch (d->type) {
	case OPT_STR:
		return "string";
	case OPT_BOOL:
		return "boolean (0 or 1; a bare flag means 1)";
	case OPT_TRIBOOL:
		return "boolean (0 or 1; a bare flag means 1; not given: where it can)";
	case OPT_UINT:
	case OPT_INT:
	case OPT_U64:
		return "integer";
	case OPT_SIZE:
		return "size (integer with k/m/g/t suffix)";
	case OPT_TIME:
		return d->unit == 1 ? "time (us unless suffixed: us, ms, s, m, h, d)"
				    : "time (s unless suffixed: us, ms, s, m, h, d)";
	case OPT_CHOICE:
		return "one of the words below";
	case OPT_FUNC:
		return "string";
	case OPT_UNSUPPORTED:
		return "fio option, not supported by iobench yet";
	case OPT_NOOP:
		return "fio option, accepted, no effect in iobench";
	}
	return "";
}

/* How the value is written, for the docs: a choice's words joined with '|', else the type. */
static const char *value_text(const struct option_def *d, char *buf, size_t len)
{
	buf[0] = '\0';
	for (const struct choice *c = d->choices; c && c->word; c++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? "|" : "", c->word);
	return buf[0] && !d->syntax ? buf : type_text(d);
}

/* The engines whose tables hold an option of this name, space-separated. */
static void engines_with(const char *name, char *buf, size_t len)
{
	const struct engine_ops *e;
	buf[0] = '\0';
	for (size_t i = 0; (e = engine_by_index(i)); i++)
		if (option_find_in(e->options, name))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? " " : "", e->name);
}

/* What --cmdhelp, docs/options.md and the man page say of a secret option. */
#define SECRET_NOTE(r) "a credential, never printed (reports, --debug, --showcmd and errors show " r ")"

static void print_one(FILE *out, const struct option_def *d)
{
	char engines[512];
	fprintf(out, "%20s: %s\n", d->name, d->help);
	if (d->alias)
		fprintf(out, "%20s: %s\n", "alias", d->alias);
	fprintf(out, "%20s: %s\n", "type", type_text(d));
	fprintf(out, "%20s: %s\n", "default", d->def ? d->def : d->type == OPT_TRIBOOL ? "not given" : "no default");
	if ((d->type == OPT_UINT || d->type == OPT_INT || d->type == OPT_U64) && d->max)
		fprintf(out, "%20s: min=%lld, max=%lld\n", "range", (long long)d->min, (long long)d->max);
	if (d->secret)
		fprintf(out, "%20s: %s\n", "secret", SECRET_NOTE(OPT_REDACTED));
	engines_with(d->name, engines, sizeof(engines));
	if (engines[0] && !option_find_core(d->name))
		fprintf(out, "%20s: %s\n", "engines", engines);
	bool first = true;
	for (const struct choice *c = d->choices; c && c->word; c++, first = false)
		fprintf(out, "%20s: %-10s %s\n", first ? "valid values" : "", c->word, c->help);
	fprintf(out, "\n");
}

static void list_table(FILE *out, const struct option_def *t, size_t n, const char *heading)
{
	const char *cat = NULL;
	for (size_t i = 0; t && i < n && t[i].name; i++) {
		const char *c = heading ? heading : t[i].category;
		if (!cat || strcmp(cat, c) != 0)
			fprintf(out, "%s\n", cat = c);
		fprintf(out, "  %-28s: %s\n", t[i].name, t[i].help);
	}
}

int options_print_help(FILE *out, const char *name)
{
	if (!name || !strcmp(name, "all")) {
		for (const struct option_def *const *t = option_tables; *t; t++)
			list_table(out, *t, SIZE_MAX, NULL);
		const struct engine_ops *e;
		for (size_t i = 0; (e = engine_by_index(i)); i++) {
			char heading[96];
			snprintf(heading, sizeof(heading), "Engine %s", e->name);
			list_table(out, e->options, SIZE_MAX, heading);
		}
		return 0;
	}
	const struct option_def *d = option_find(name);
	if (!d)
		return -ENOENT;
	print_one(out, d);
	return 0;
}

int options_print_enghelp(FILE *out, const char *arg)
{
	const struct engine_ops *e;
	if (!arg || !*arg) {
		fprintf(out, "Available IO engines:\n");
		for (size_t i = 0; (e = engine_by_index(i)); i++)
			fprintf(out, "\t%s%s\n", e->name,
				e->flags & ENGINE_COMPILED_OUT ? " (compiled out of this static binary)"
				: e->flags & ENGINE_ABSENT    ? " (fio's; not carried out by iobench)"
							      : "");
		return 0;
	}
	char name[64];
	const char *comma = strchr(arg, ',');
	snprintf(name, sizeof(name), "%.*s", comma ? (int)(comma - arg) : (int)strlen(arg), arg);
	if (!(e = engine_find(name)))
		return -ENOENT;
	if (comma) {
		const struct option_def *d = option_find_in(e->options, comma + 1);
		if (!d)
			return -ENOENT;
		print_one(out, d);
		return 0;
	}
	if (e->flags & ENGINE_COMPILED_OUT)
		fprintf(out, "%s: compiled out of this static binary (it needs %s, which the dynamic iobench loads "
			     "at run time); its options are accepted, its jobs refused\n",
			e->name, e->library ? e->library : "a shared library");
	if (e->flags & ENGINE_ABSENT)
		fprintf(out, "%s: one of fio's engines that iobench does not carry out (it needs %s); its options are "
			     "accepted, its jobs refused\n",
			e->name, e->library ? e->library : "what this machine lacks");
	if (!e->options || !e->options[0].name)
		fprintf(out, "%s: no engine-specific options\n", e->name);
	for (const struct option_def *d = e->options; d && d->name; d++)
		fprintf(out, "%-24s: %s\n", d->name, d->help);
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

static void md_row(FILE *out, const struct option_def *d)
{
	char words[512];
	fprintf(out, "| `%s`%s%s%s | ", d->name, d->alias ? " (`" : "", d->alias ? d->alias : "", d->alias ? "`)" : "");
	md_cell(out, value_text(d, words, sizeof(words)));
	fprintf(out, " | ");
	md_cell(out, d->def);
	fprintf(out, " | ");
	md_cell(out, d->help);
	if (d->secret)
		fprintf(out, ". Secret: %s", SECRET_NOTE("`" OPT_REDACTED "`"));
	fprintf(out, " |\n");
}

void options_print_markdown(FILE *out)
{
	static const char head[] = "| option | value | default | what it does |\n|---|---|---|---|\n";
	const char *cat = NULL;
	fprintf(out, "# iobench job options\n\n"
		     "Generated from the option tables (`iobench --cmdhelp=all`, `make docs`); fio's names "
		     "and semantics.\nOptions marked *not supported yet* are fio options that iobench parses "
		     "(so `--parse-only` accepts the job file) but refuses to run. Each engine's own options "
		     "follow the core's (`iobench --enghelp=ENGINE`).\n");
	struct option_iter it;
	FOR_EACH_CORE_OPTION(it, d) {
		if (!cat || strcmp(cat, d->category) != 0)
			fprintf(out, "\n## %s\n\n%s", cat = d->category, head);
		md_row(out, d);
	}
	const struct engine_ops *e;
	for (size_t i = 0; (e = engine_by_index(i)); i++) {
		if (e->flags & ENGINE_ABSENT)
		fprintf(out, "%s: one of fio's engines that iobench does not carry out (it needs %s); its options are "
			     "accepted, its jobs refused\n",
			e->name, e->library ? e->library : "what this machine lacks");
	if (!e->options || !e->options[0].name)
			continue;
		fprintf(out, "\n## Engine `%s`\n\n%s", e->name, head);
		for (const struct option_def *d = e->options; d->name; d++)
			md_row(out, d);
	}
}

/* One row of --dump-options=tsv: scope, name, type, default, choices, effects, syntax. */
static void tsv_row(FILE *out, const char *scope, const struct option_def *d)
{
	char words[512] = "";
	for (const struct choice *c = d->choices; c && c->word; c++)
		snprintf(words + strlen(words), sizeof(words) - strlen(words), "%s%s", words[0] ? "," : "", c->word);
	char eff[64] = "";
	if (d->effects & OPT_EFFECT_OUTPUT)
		strcat(eff, ",output");
	if (d->effects & OPT_EFFECT_CHANGES)
		strcat(eff, ",changes");
	if (d->secret)
		strcat(eff, ",secret");
	fprintf(out, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", scope, d->name, type_text(d), d->def ? d->def : "", words,
		eff + (eff[0] == ','), d->syntax ? d->syntax : "");
}

void options_print_tsv(FILE *out)
{
	fprintf(out, "scope\tname\ttype\tdefault\tchoices\teffects\tsyntax\n");
	struct option_iter it;
	FOR_EACH_CORE_OPTION(it, d)
		tsv_row(out, "core", d);
	const struct engine_ops *e;
	for (size_t i = 0; (e = engine_by_index(i)); i++)
		for (const struct option_def *d = e->options; d && d->name; d++)
			tsv_row(out, e->name, d);
}

void options_print_man_jobs(FILE *out)
{
	char words[512];
	struct option_iter it;
	FOR_EACH_CORE_OPTION(it, d) {
		fprintf(out, ".TP\n.BI %s \"\\fR=\\fP%s\"\n%s.", d->name, value_text(d, words, sizeof(words)), d->help);
		if (d->def)
			fprintf(out, " Default: %s.", d->def);
		if (d->alias)
			fprintf(out, " Alias: %s.", d->alias);
		fprintf(out, "\n");
	}
	const struct engine_ops *e;
	for (size_t i = 0; (e = engine_by_index(i)); i++)
		for (const struct option_def *d = e->options; d && d->name; d++) {
			fprintf(out, ".TP\n.BI %s \"\\fR=\\fP%s\"\n%s (engine %s).", d->name,
				value_text(d, words, sizeof(words)), d->help, e->name);
			if (d->secret)
				fprintf(out, " Secret: %s.", SECRET_NOTE(OPT_REDACTED));
			if (d->def)
				fprintf(out, " Default: %s.", d->def);
			fprintf(out, "\n");
		}
}
