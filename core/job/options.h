/* The option table: options are data (name, type, offset, default, range, help).
 * --cmdhelp, --showcmd, docs/options.md and the man page come from it. */
#ifndef IOBENCH_OPTIONS_H
#define IOBENCH_OPTIONS_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/job/job.h"

enum opt_type {
	OPT_STR,         /* fixed char array (.size bytes) */
	OPT_BOOL,        /* bool; a bare flag means 1 */
	OPT_TRIBOOL,     /* int: -1 until given (the default: "auto"), then 0 or 1; a bare flag means 1 */
	OPT_UINT,        /* unsigned, [min, max] */
	OPT_INT,         /* int, [min, max] */
	OPT_U64,         /* uint64_t, [min, max] */
	OPT_SIZE,        /* uint64_t bytes with k/m/g suffixes */
	OPT_TIME,        /* uint64_t microseconds; a bare number is in .unit */
	OPT_CHOICE,      /* unsigned: one of .choices, by word */
	OPT_FUNC,        /* parsed by .parse (core options only: the field is in struct job_opts) */
	OPT_UNSUPPORTED, /* fio's, parsed as text; a job using it is refused when run */
	OPT_NOOP,        /* fio's, accepted; has no effect in iobench (docs say why) */
};

/* What an option can do to files outside the run's reports (struct option_def.effects;
 * --dump-options=tsv lists them; tests/integration/t_guards_out.sh and t_readonly_all.sh
 * walk them). */
enum {
	OPT_EFFECT_OUTPUT = 1,  /* names or makes a file iobench writes (a log, a state, a dump): core/lib/outfile.h's door */
	OPT_EFFECT_CHANGES = 2, /* can create, write, extend, truncate, trim or remove the job's files: refused or
				   harmless under --readonly */
};

/* One word an OPT_CHOICE option takes, and what it stands for. */
struct choice {
	const char *word;
	unsigned value;
	const char *help;
};

struct option_def;
typedef int (*opt_parse_fn)(struct job_opts *o, const struct option_def *def, const char *v,
			    char *err, size_t errlen);

/* A row of an option table: the core's (offsets into struct job_opts) or an engine's
 * (offsets into the engine's own options struct; engine_ops.options). */
struct option_def {
	const char *name;
	const char *alias;
	enum opt_type type;
	size_t offset;
	size_t size;         /* OPT_STR: buffer size */
	const char *def;     /* default, as text; NULL = zero */
	int64_t min, max;    /* OPT_UINT, OPT_INT, OPT_U64 */
	uint64_t unit;       /* OPT_TIME: microseconds a bare number stands for */
	opt_parse_fn parse;  /* OPT_FUNC */
	const struct choice *choices; /* OPT_CHOICE: the words, ended by { NULL } */
	const char *category;
	const char *syntax;  /* how the value is written, for --cmdhelp (default: from the type) */
	const char *help;
	unsigned effects;    /* OPT_EFFECT_*: what the option can do outside the run */
	bool secret;         /* a credential (OPT_STR): its value is never printed (engines/secret.c) */
};

/* The core's tables (listed in core/job/options_table.c), each ended by { NULL }. */
extern const struct option_def option_table[];
extern const struct option_def *const option_tables[];
/* Every row of the core's tables, in order: for (d = ...; d; d = option_core_next(&it, d)). */
struct option_iter {
	const struct option_def *const *table;
};
static inline const struct option_def *option_core_first(struct option_iter *it)
{
	it->table = option_tables;
	return option_tables[0];
}
static inline const struct option_def *option_core_next(struct option_iter *it, const struct option_def *d)
{
	if ((++d)->name)
		return d;
	return *++it->table;
}
#define FOR_EACH_CORE_OPTION(it, d) for (const struct option_def *d = option_core_first(&(it)); d; d = option_core_next(&(it), d))

/* What stands in place of a secret option's value wherever values are printed
 * (engines/secret.h). */
#define OPT_REDACTED "<redacted>"

/* An option by name or alias in the core's table only (every table's: option_find,
 * engines/engine.h). */
const struct option_def *option_find_core(const char *name);
/* In one table ended by { NULL } (an engine's). */
const struct option_def *option_find_in(const struct option_def *table, const char *name);

/* Set one option in o. Returns 0, or -errno with a reason in err. */
int option_set(struct job_opts *o, const struct option_def *def, const char *value,
	       char *err, size_t errlen);
/* The same for a row whose field lies in base (an engine's options); o gives the context
 * (kb_base for sizes). OPT_FUNC rows need base == o. */
int option_set_at(struct job_opts *o, void *base, const struct option_def *def, const char *value,
		  char *err, size_t errlen);

/* All defaults. */
void options_defaults(struct job_opts *o);
/* The defaults of an engine's table into its (zeroed) options struct. */
void options_defaults_at(struct job_opts *o, void *base, const struct option_def *table);

/* Custom parsers (core/job/options_parse.c). */
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
int opt_parse_cpus(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
/* "0-3,6,8-9" into a CPUS_MAX-bit mask: the count of CPUs in it, or -EINVAL. */
int parse_cpu_list(const char *v, uint64_t *mask);
int opt_parse_randseed(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_percentiles(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_logname(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
/* offset, offset_increment, size, io_size: also "Nz" (zones; core/job/options_zone.c). */
int zone_parse_size(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);
int opt_parse_buffered(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n);

/* Does the option stand alone on the command line (--direct, --fixedbufs, --write_bw_log)? */
static inline bool option_is_flag(const struct option_def *d)
{
	return d->type == OPT_BOOL || d->type == OPT_TRIBOOL || d->parse == opt_parse_logname;
}

#endif
