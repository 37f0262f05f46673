/* --debug: fio's categories, parsed, and the lines printed in fio's shape on stderr. */
#include "core/lib/debug.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/lib/shown.h"

static const char *const cat_names[DBG_NR] = {
	"process", "file", "io", "mem", "blktrace", "verify", "random", "parse", "diskutil", "job",
	"mutex", "profile", "time", "net", "rate", "compress", "steadystate", "helperthread", "zbd",
};

/* What iobench prints lines for; the others are accepted with a note. */
#define DBG_SHOWN                                                                                          \
	(DBG_BIT(DBG_FILE) | DBG_BIT(DBG_IO) | DBG_BIT(DBG_MEM) | DBG_BIT(DBG_RANDOM) | DBG_BIT(DBG_PARSE) |     \
	 DBG_BIT(DBG_DISKUTIL) | DBG_BIT(DBG_JOB) | DBG_BIT(DBG_TIME) | DBG_BIT(DBG_HELPERTHREAD) | DBG_BIT(DBG_RATE) | \
	 DBG_BIT(DBG_STEADYSTATE))

static void print_help(FILE *out)
{
	fprintf(out, "iobench: dumping debug options:");
	for (int c = 0; c < DBG_NR; c++)
		fprintf(out, "%s,", cat_names[c]);
	fprintf(out, "all\n");
}

/* "job:N": the lines of clone N only (and the job category on). */
static int parse_job(const char *tok, struct debug_opts *d, bool quiet)
{
	char *end;
	long n = strtol(tok + 4, &end, 10);
	if (!tok[4] || *end || n < 0 || n > 1000000) {
		fprintf(stderr, "iobench: --debug: '%.*s%s' is not job:N (N: a job's number, from 0)\n", SHOWN(tok));
		return -EINVAL;
	}
	d->job = (int)n;
	d->mask |= DBG_BIT(DBG_JOB);
	if (!quiet)
		fprintf(stderr, "iobench: set debug jobno %ld\n", n);
	return 0;
}

static int parse_one(const char *tok, struct debug_opts *d, bool quiet)
{
	if (!strncmp(tok, "job:", 4))
		return parse_job(tok, d, quiet);
	if (!strcmp(tok, "all")) {
		d->mask = DBG_BIT(DBG_NR) - 1;
		if (!quiet)
			fprintf(stderr, "iobench: set all debug options\n");
		return 0;
	}
	for (int c = 0; c < DBG_NR; c++)
		if (!strcmp(tok, cat_names[c])) {
			d->mask |= DBG_BIT(c);
			if (!quiet)
				fprintf(stderr, "iobench: set debug option %s\n", tok);
			return 0;
		}
	fprintf(stderr, "iobench: --debug: no category '%.*s%s' (--debug=help lists them)\n", SHOWN(tok));
	return -EINVAL;
}

/* The categories given that have nothing to show here, in one line. */
static void note_silent(const struct debug_opts *d, bool all)
{
	char list[256] = "";
	unsigned quiet = d->mask & ~DBG_SHOWN;
	if (!quiet || all)
		return;
	for (int c = 0; c < DBG_NR; c++)
		if (quiet & DBG_BIT(c))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", list[0] ? ", " : "", cat_names[c]);
	fprintf(stderr, "iobench: --debug: nothing to show for %s in iobench (threads, no network protocol, no "
			"blktrace, compressed logs or zoned devices; lines exist for file, io, mem, random, parse, "
			"diskutil, job, time, rate, steadystate, helperthread)\n", list);
}

int debug_parse(const char *spec, struct debug_opts *d, FILE *out, bool quiet)
{
	if (!spec || !spec[0]) {
		fprintf(stderr, "iobench: --debug needs categories (--debug=help lists them)\n");
		return -EINVAL;
	}
	if (!strcmp(spec, "help") || !strcmp(spec, "?")) {
		print_help(out);
		return DEBUG_HELP;
	}
	char *buf = strdup(spec);
	if (!buf)
		return -ENOMEM;
	int ret = 0;
	bool all = false;
	char *save = NULL;
	if (!d->mask) /* every clone's lines, unless job:N says one */
		d->job = -1;
	for (char *tok = strtok_r(buf, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		all |= !strcmp(tok, "all");
		ret = parse_one(tok, d, quiet);
	}
	free(buf);
	if (!ret && !quiet)
		note_silent(d, all);
	return ret;
}

void debug_print(enum debug_cat c, const char *fmt, ...)
{
	char line[4096];
	int n = snprintf(line, sizeof(line), "%-8s %-5d ", cat_names[c], (int)gettid());
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	fputs(line, stderr); /* one call: lines of several threads do not mix */
}
