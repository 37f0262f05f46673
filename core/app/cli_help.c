/* The command line's own documentation: --help and the man page's PROGRAM OPTIONS, both
 * printed from the table of flags (cli_flags[], core/app/cli.c, which passes it) and the option tables. */
#include <ctype.h>
#include <stdio.h>

#include "core/app/cli.h"
#include "core/app/cli_int.h"
#include "core/job/options.h"
#include "core/app/opthelp.h"
#include "core/lib/version.h"

/* "-o, --output=FILE", "--cmdhelp[=OPTION]", "--merge A B ...": a flag as --help shows it. */
static void flag_usage_name(const struct cli_flag *f, char *buf, size_t len)
{
	char alias[16] = "";
	const char *syn = f->syntax ? f->syntax : "";
	if (f->alias)
		snprintf(alias, sizeof(alias), "-%s, ", f->alias);
	if (f->arg == FLAG_OPTIONAL)
		snprintf(buf, len, "%s--%s[=%s]", alias, f->name, syn);
	else if (f->arg == FLAG_PAIR || f->arg == FLAG_REST)
		snprintf(buf, len, "%s--%s %s", alias, f->name, syn);
	else
		snprintf(buf, len, "%s--%s%s%s", alias, f->name, f->syntax ? "=" : "", syn);
}

void cli_usage(FILE *out, const struct cli_flag *flags, size_t n)
{
	fprintf(out,
		"iobench-%s: a fio-compatible storage benchmark\n"
		"usage: iobench [options] [job file(s)]\n"
		"  --name=NAME            start a job (options before the first --name are global)\n",
		IOBENCH_VERSION);
	for (size_t i = 0; i < n; i++) {
		char name[64];
		flag_usage_name(&flags[i], name, sizeof(name));
		fprintf(out, "  %-22s %s\n", name, flags[i].help);
	}
	fprintf(out, "Job options (fio's names and semantics), e.g.:\n"
		     "  iobench --name=seq --rw=read --bs=1m --size=1g --ioengine=libaio --iodepth=32 --direct=1\n");
	struct option_iter it;
	FOR_EACH_CORE_OPTION(it, d)
		fprintf(out, "  --%-22s %s\n", d->name, d->help);
}

/* Text for roff: a backslash is printed as one, a line may not start with a control
 * character, and a dash is a minus sign (names: every dash; prose: one that starts a
 * word, as in "--name", not "comma-separated"). */
static void man_text(FILE *out, const char *s, bool name)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (const char *p = s; *p; p++) {
		if (*p == '\\')
			fputs("\\e", out);
		else if (*p == '-' && (name || p == s || !isalnum((unsigned char)p[-1])))
			fputs("\\-", out);
		else
			fputc(*p, out);
	}
}

static void man_flags(FILE *out, const struct cli_flag *flags, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct cli_flag *f = &flags[i];
		fputs(".TP\n", out);
		if (!f->syntax) {
			fputs(".B \\-\\-", out);
			man_text(out, f->name, true);
		} else {
			fputs(".BI \"\\-\\-", out);
			man_text(out, f->name, true);
			bool spaced = f->arg == FLAG_PAIR || f->arg == FLAG_REST;
			fputs(f->arg == FLAG_OPTIONAL ? "[=\" \"" : spaced ? " \" \"" : "=\" \"", out);
			man_text(out, f->syntax, false);
			fputs(f->arg == FLAG_OPTIONAL ? "\" ]" : "\"", out);
		}
		fprintf(out, "\n%c", toupper((unsigned char)f->help[0]));
		man_text(out, f->help + 1, false);
		fputs(".", out);
		if (f->alias) {
			fputs(" Alias: \\fB\\-", out);
			man_text(out, f->alias, true);
			fputs("\\fR.", out);
		}
		fputs("\n", out);
	}
}

void cli_print_man(FILE *out, const struct cli_flag *flags, size_t n)
{
	fprintf(out, ".TH IOBENCH 1 \"\" \"iobench %s\" \"User Commands\"\n"
		     ".SH NAME\niobench \\- a fio-compatible storage benchmark\n"
		     ".SH SYNOPSIS\n.B iobench\n[\\fIoptions\\fR] [\\fIjobfile\\fR]...\n"
		     ".SH DESCRIPTION\n"
		     "iobench takes fio's command lines and job files and prints fio's output formats.\n"
		     "Options before the first \\fB\\-\\-name\\fR are global; each \\fB\\-\\-name\\fR starts a job.\n"
		     ".SH PROGRAM OPTIONS\n", IOBENCH_VERSION);
	man_flags(out, flags, n);
	fprintf(out, ".SH JOB OPTIONS\n");
	options_print_man_jobs(out);
	fprintf(out, ".SH SEE ALSO\n.BR fio (1)\n");
}
