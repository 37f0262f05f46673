/* The option table: options are data (name, type, offset, default, range, help). */
#ifndef IOBENCH_OPTIONS_H
#define IOBENCH_OPTIONS_H
#include <stddef.h>
#include <stdint.h>

#include "core/job.h"

enum opt_type {
	OPT_STR,      /* fixed char array in job_opts */
	OPT_BOOL,     /* bool; a bare flag means 1 */
	OPT_UINT,     /* unsigned, [min, max] */
	OPT_SIZE,     /* uint64_t bytes with k/m/g suffixes */
	OPT_TIME,     /* uint64_t microseconds; bare numbers in seconds */
	OPT_BS,       /* uint64_t[3]: "4k" or "4k,64k" (read,write,trim) */
	OPT_RW,       /* the rw mode */
	OPT_MIX_READ, /* rwmixread */
	OPT_MIX_WRITE,/* rwmixwrite: sets rwmixread = 100 - value */
};

struct option_def {
	const char *name;
	const char *alias;
	enum opt_type type;
	size_t offset;
	size_t size;      /* for OPT_STR: buffer size */
	const char *def;  /* default, as text; NULL = zero */
	int64_t min, max; /* for OPT_UINT */
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

#endif
