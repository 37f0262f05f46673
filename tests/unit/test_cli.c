/* The program's flags (core/app/cli.c): the value forms (--x=V, --x V, -x, aliases), what each
 * flag sets, the refusals and their messages, and --help and the man page from the table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/app/cli.h"
#include "core/app/cli_int.h"

struct parsed {
	struct run_cfg cfg;
	enum cli_result result;
	char out[1 << 17]; /* what the flags printed (--help...) */
	char err[4096];    /* stderr */
};

static void read_all(FILE *f, char *buf, size_t len)
{
	rewind(f);
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* cli_parse over "iobench" and the NULL-terminated arguments, stderr caught. */
static struct parsed *parse(const char *first, ...)
{
	char *argv[32] = { "iobench" };
	int argc = 1;
	va_list ap;
	va_start(ap, first);
	for (const char *a = first; a && argc < 31; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;

	struct parsed *p = calloc(1, sizeof(*p));
	assert_non_null(p);
	FILE *out = tmpfile(), *err = tmpfile();
	assert_non_null(out);
	assert_non_null(err);
	fflush(stderr);
	int saved = dup(STDERR_FILENO);
	dup2(fileno(err), STDERR_FILENO);
	p->result = cli_parse(argc, argv, &p->cfg, out);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	read_all(out, p->out, sizeof(p->out));
	read_all(err, p->err, sizeof(p->err));
	return p;
}

static void done(struct parsed *p)
{
	run_cfg_free(&p->cfg);
	free(p);
}

/* A refusal: CLI_ERROR and one line on stderr holding msg. */
static void refused(struct parsed *p, const char *msg)
{
	assert_int_equal(p->result, CLI_ERROR);
	if (!strstr(p->err, msg))
		fail_msg("stderr '%s' does not hold '%s'", p->err, msg);
	const char *nl = strchr(p->err, '\n');
	assert_non_null(nl);
	assert_int_equal(nl[1], '\0');
	done(p);
}

static void test_value_forms(void **state)
{
	const char *forms[][2] = { { "--output=r.txt", NULL },
				   { "--output", "r.txt" },
				   { "-o", "r.txt" },
				   { "--o=r.txt", NULL },
				   { "-output=r.txt", NULL } };
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		struct parsed *p =
			parse(forms[i][0], forms[i][1] ? forms[i][1] : "--parse-only", "--parse-only", (char *)NULL);
		assert_int_equal(p->result, CLI_RUN);
		assert_string_equal(p->cfg.output_path, "r.txt");
		assert_true(p->cfg.parse_only);
		done(p);
	}
}

static void test_flags_set_the_config(void **state)
{
	struct parsed *p = parse("--output-format=json,terse,json", "--terse-version", "5", "--eta=never",
				 "--status-interval=500ms", "--showcmd", "--readonly", "--section=a",
				 "--compare-threshold", "2.5", "--plot=c.svg", "--sweep", "bs=4k,8k", (char *)NULL);
	assert_int_equal(p->result, CLI_RUN);
	assert_int_equal(p->cfg.formats, FMT_JSON | FMT_TERSE);
	assert_true(p->cfg.formats_given);
	assert_int_equal(p->cfg.terse_version, 5);
	assert_int_equal(p->cfg.eta, -1);
	assert_int_equal(p->cfg.status_interval_ms, 500);
	assert_true(p->cfg.showcmd);
	assert_true(p->cfg.readonly);
	assert_int_equal(p->cfg.nsections, 1);
	assert_string_equal(p->cfg.sections[0], "a");
	assert_true(p->cfg.compare_threshold == 2.5);
	assert_string_equal(p->cfg.plot_path, "c.svg");
	assert_int_equal(p->cfg.nsweeps, 1);
	assert_string_equal(p->cfg.sweeps[0].name, "bs");
	assert_int_equal(p->cfg.sweeps[0].nvalues, 2);
	assert_string_equal(p->cfg.sweeps[0].values[1], "8k");
	assert_int_equal(p->cfg.njobs, 0);
	assert_int_equal(p->cfg.globals.n, 0);
	done(p);

	p = parse("--minimal", "--eta", "always", (char *)NULL);
	assert_int_equal(p->cfg.formats, FMT_TERSE);
	assert_int_equal(p->cfg.terse_version, 3);
	assert_int_equal(p->cfg.eta, 1);
	assert_true(p->cfg.compare_threshold < 0);
	done(p);
}

/* --readonly=1 is the job option (fio's), not the flag; --parse-only=0 is still the flag. */
static void test_bare_flags_and_values(void **state)
{
	struct parsed *p = parse("--readonly=1", "--parse-only=0", "--name=j", "--size", "1m", (char *)NULL);
	assert_int_equal(p->result, CLI_RUN);
	assert_false(p->cfg.readonly);
	assert_true(p->cfg.parse_only);
	assert_int_equal(p->cfg.globals.n, 1);
	assert_string_equal(p->cfg.globals.v[0].name, "readonly");
	assert_string_equal(p->cfg.globals.v[0].value, "1");
	assert_int_equal(p->cfg.njobs, 1);
	assert_int_equal(p->cfg.jobs[0].given.n, 2);
	assert_string_equal(p->cfg.jobs[0].given.v[1].name, "size");
	assert_string_equal(p->cfg.jobs[0].given.v[1].value, "1m");
	done(p);
}

static void test_merge_and_compare(void **state)
{
	struct parsed *p = parse("--merge", "a.json", "b.json", "--name=x", (char *)NULL);
	assert_int_equal(p->result, CLI_RUN);
	assert_int_equal(p->cfg.nmerge, 3); /* the rest, whatever it is */
	assert_string_equal(p->cfg.merge[0], "a.json");
	assert_string_equal(p->cfg.merge[2], "--name=x");
	assert_int_equal(p->cfg.njobs, 0);
	done(p);

	p = parse("--compare", "base.json", "new.json", "--compare-threshold=5", (char *)NULL);
	assert_int_equal(p->result, CLI_RUN);
	assert_string_equal(p->cfg.compare[0], "base.json");
	assert_string_equal(p->cfg.compare[1], "new.json");
	assert_true(p->cfg.compare_threshold == 5.0);
	done(p);
}

static void test_refusals(void **state)
{
	refused(parse("--terse-version=6", (char *)NULL), "--terse-version: '6' is not supported (3, 4 or 5)");
	refused(parse("--terse-version", (char *)NULL), "--terse-version: '' is not supported");
	refused(parse("--eta=sometimes", (char *)NULL), "--eta: 'sometimes' is not auto, always or never");
	refused(parse("--status-interval=0", (char *)NULL), "--status-interval: cannot parse '0' as a time");
	refused(parse("--compare-threshold=nan", (char *)NULL), "--compare-threshold: 'nan' is not a percentage");
	refused(parse("--compare-threshold=-1", (char *)NULL), "'-1' is not a percentage");
	refused(parse("--plot", (char *)NULL), "--plot needs a file name");
	refused(parse("--sweep=bs", (char *)NULL), "--sweep: 'bs' is not OPTION=V1,V2,...");
	refused(parse("--sweep=nosuch=1", (char *)NULL), "--sweep: unknown option 'nosuch'");
	refused(parse("--section", (char *)NULL), "--section: needs a name");
	refused(parse("-o", (char *)NULL), "iobench: --o needs a value");
	refused(parse("--output-format", (char *)NULL), "iobench: --output-format needs a value");
	refused(parse("--output-format=xml", (char *)NULL), "unknown format 'xml'");
	refused(parse("--dump-options", "man", (char *)NULL), "--dump-options: markdown, man or tsv");
	refused(parse("--cmdhelp=nosuch", (char *)NULL), "--cmdhelp: no option 'nosuch'");
	refused(parse("--merge", (char *)NULL), "--merge takes json+ files");
	refused(parse("--merge=a.json", "b.json", (char *)NULL), "--merge takes json+ files");
	refused(parse("--compare", "a.json", (char *)NULL), "--compare takes two JSON files");
	refused(parse("--nosuch", (char *)NULL), "unrecognized option '--nosuch'");
	refused(parse("--", (char *)NULL), "unrecognized option '--'");
	refused(parse("--name", (char *)NULL), "option '--name' needs a value");
}

static void test_exits(void **state)
{
	const char *help[] = { "--help", "-h", "--h", "-help", "--help=x" };
	for (size_t i = 0; i < sizeof(help) / sizeof(help[0]); i++) {
		struct parsed *p = parse("--name=j", help[i], "--nosuch", (char *)NULL);
		assert_int_equal(p->result, CLI_EXIT_OK);
		assert_non_null(strstr(p->out, "usage: iobench [options] [job file(s)]\n"));
		assert_string_equal(p->err, "");
		done(p);
	}
	struct parsed *p = parse("-v", (char *)NULL);
	assert_int_equal(p->result, CLI_EXIT_OK);
	assert_string_equal(p->out, "fio-3.33+iobench-" IOBENCH_VERSION "\n");
	done(p);
	p = parse("--cmdhelp=bs", (char *)NULL);
	assert_int_equal(p->result, CLI_EXIT_OK);
	assert_non_null(strstr(p->out, "bs: Block size"));
	done(p);
}

/* Every flag is in --help and in the man page, with its value and alias. */
static void test_help_and_man_from_the_table(void **state)
{
	struct parsed *p = parse("--help", (char *)NULL);
	size_t nhelp = 0; /* flag lines: after --name's, before the job options */
	const char *from = strstr(p->out, "  --name=NAME"), *to = strstr(p->out, "Job options");
	assert_true(from && to && from < to);
	for (const char *s = strchr(from, '\n') + 1; s < to; s = strchr(s, '\n') + 1)
		nhelp++;
	const char *lines[] = { "  -o, --output=FILE      write the report to FILE instead of stdout\n",
				"  --terse-version=N      ",
				"  --cmdhelp[=OPTION]     help on one option, or a list of all\n",
				"  --dump-options=FMT     ",
				"  --merge A B ...        ",
				"  --compare BASE NEW     compare two JSON results (fio's or ours)\n",
				"  -h, --help             print this text and exit\n",
				"  --iodepth " };
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (!strstr(p->out, lines[i]))
			fail_msg("--help has no line '%s'", lines[i]);
	done(p);

	char *man = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&man, &len);
	assert_non_null(f);
	cli_print_man(f, cli_flags, cli_nflags);
	fclose(f);
	char *jobs = strstr(man, ".SH JOB OPTIONS\n"); /* the flags' part ends there */
	assert_non_null(jobs);
	assert_non_null(strstr(man, ".SH PROGRAM OPTIONS\n"));
	*jobs = '\0';
	const char *entries[] = { ".TP\n.BI \"\\-\\-output=\" \"FILE\"\nWrite the report to FILE instead of stdout. "
				  "Alias: \\fB\\-o\\fR.\n",
				  ".TP\n.BI \"\\-\\-output\\-format=\" \"FMT\"\n",
				  ".TP\n.B \\-\\-parse\\-only\nParse the options and job files, then exit.\n",
				  ".TP\n.BI \"\\-\\-cmdhelp[=\" \"OPTION\" ]\n",
				  ".TP\n.BI \"\\-\\-compare \" \"BASE NEW\"\n",
				  "With \\-\\-compare, exit 2 when",
				  ".TP\n.B \\-\\-help\nPrint this text and exit. Alias: \\fB\\-h\\fR.\n" };
	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++)
		if (!strstr(man, entries[i]))
			fail_msg("the man page has no '%s'", entries[i]);
	size_t n = 0;
	for (const char *s = man; (s = strstr(s, ".TP\n")); s++)
		n++;
	assert_int_equal(n, nhelp);
	assert_true(n >= 19);
	free(man);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value_forms),
		cmocka_unit_test(test_flags_set_the_config),
		cmocka_unit_test(test_bare_flags_and_values),
		cmocka_unit_test(test_merge_and_compare),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_exits),
		cmocka_unit_test(test_help_and_man_from_the_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
