/* The option table: options are data (name, type, offset, default, range, help).
 * --cmdhelp, --showcmd, docs/options.md and the man page come from it. */
#ifndef IOBENCH_OPTIONS_H
#define IOBENCH_OPTIONS_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/job.h"

enum opt_type {
	OPT_STR,         /* fixed char array in job_opts */
	OPT_BOOL,        /* bool; a bare flag means 1 */
	OPT_UINT,        /* unsigned, [min, max] */
	OPT_U64,         /* uint64_t, [min, max] */
	OPT_SIZE,        /* uint64_t bytes with k/m/g suffixes */
	OPT_TIME,        /* uint64_t microseconds; a bare number is in .unit */
	OPT_FUNC,        /* parsed by .parse */
	OPT_UNSUPPORTED, /* fio's, parsed as text; a job using it is refused when run */
	OPT_NOOP,        /* fio's, accepted; has no effect in iobench (docs say why) */
};

struct option_def;
typedef int (*opt_parse_fn)(struct job_opts *o, const struct option_def *def, const char *v,
			    char *err, size_t errlen);

struct option_def {
	const char *name;
	const char *alias;
	enum opt_type type;
	size_t offset;
	size_t size;         /* OPT_STR: buffer size */
	const char *def;     /* default, as text; NULL = zero */
	int64_t min, max;    /* OPT_UINT, OPT_U64 */
	uint64_t unit;       /* OPT_TIME: microseconds a bare number stands for */
	opt_parse_fn parse;  /* OPT_FUNC */
	const char *engines; /* engine options: the engines that take them ("io_uring") */
	const char *category;
	const char *syntax;  /* how the value is written, for --cmdhelp */
	const char *help;
};

extern const struct option_def option_table[];
extern const size_t option_count;

const struct option_def *option_find(const char *name);

/* Set one option in o. Returns 0, or -errno with a reason in err. */
int option_set(struct job_opts *o, const struct option_def *def, const char *value,
	       char *err, size_t errlen);

/* All defaults. */
void options_defaults(struct job_opts *o);

/* Does this engine take this engine option? */
bool option_fits_engine(const struct option_def *def, const char *engine);

/* --cmdhelp=NAME (or "all"): 0, or -ENOENT when there is no such option. */
int options_print_help(FILE *out, const char *name);
/* docs/options.md and the man page's OPTIONS section. */
void options_print_markdown(FILE *out);
void options_print_man(FILE *out);

/* Custom parsers (core/option_parse.c). */
int opt_parse_bs(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_bsrange(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_bssplit(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_rw(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_rwmixwrite(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_size_pct(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_filesize(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_file_service(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_distribution(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_dir_uints(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_dir_sizes(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_startdelay(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_pattern(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_choice(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_cpus(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_randseed(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_percentiles(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_logname(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_buffered(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);

/* The words OPT_FUNC choice options take (opt_parse_choice), by option name. */
struct choice {
	const char *word;
	unsigned value;
	const char *help;
};
const struct choice *option_choices(const char *name);

#endif
