/* The row macros of the core's option tables (core/job/options_table.c and the options_*.c of
 * each area): one per row type, with one argument order, and the categories rows are listed
 * under. Included by those table files only.
 *
 * Arguments, in this order where a macro has them:
 *   n     the option's name (fio's), a string
 *   f     the field: its path in struct job_opts (name, io.flow_id, trim.percentage, zone.size)
 *   fn    OPT_FUNC: the parser
 *   list  OPT_CHOICE: the words (struct choice[], ended by { NULL })
 *   d     the default as a user writes it; NULL: zero
 *   lo hi the integers' bounds (.min, .max)
 *   u     OPT_TIME: the microseconds a bare number stands for (1: us, SEC: seconds)
 *   syn   OPT_FUNC: how the value is written, for --cmdhelp
 *   c     the category (C_*): the heading in --cmdhelp=all and docs/options.md
 *   h     the help, one line
 *   ...   further fields, designated: .alias, .effects, .secret, .syntax, .unit; for FUNC,
 *         .min and .max for a parser that checks bounds, and .size = SZ(f): a FUNC row has
 *         no .size unless given (opt_parse_dir_uints and opt_parse_logname read it). */
#ifndef IOBENCH_OPTIONS_ROWS_H
#define IOBENCH_OPTIONS_ROWS_H
#include <stddef.h>
#include <stdint.h>

#include "core/job/options.h"

#define OFF(f) offsetof(struct job_opts, f)
#define SZ(f) sizeof(((struct job_opts *)0)->f)
#define SEC 1000000ULL /* u: seconds */

#define C_JOB "Job description"
#define C_FILE "Files and sizes"
#define C_PAT "I/O pattern"
#define C_TIME "Time and pacing"
#define C_SYNC "Sync and cache"
#define C_BUF "Buffers"
#define C_GRP "Groups and errors"
#define C_ENG "Engines"
#define C_UNIT "Units and placement"
#define C_REP "Reporting"
#define C_LOG "Logs"
#define C_VER "Verify"
#define C_TRIM "Trim"
#define C_REPLAY "I/O replay"
#define C_ENV "Job environment: users, priorities, CPUs, memory"
#define C_SS "Steady state"
#define C_LAT "Latency target"
#define C_ZONE "Zones"
#define C_PROF "Profiles (--profile=act, --profile=tiobench)"
#define C_NOT "fio options iobench does not carry out yet"

/* OPT_STR: a char array, .size its bytes. */
#define STR(n, f, d, c, h, ...) \
	{ .name = n, .type = OPT_STR, .offset = OFF(f), .size = SZ(f), .def = d, .category = c, .help = h, __VA_ARGS__ }
#define BOOL(n, f, d, c, h, ...) \
	{ .name = n, .type = OPT_BOOL, .offset = OFF(f), .def = d, .category = c, .help = h, __VA_ARGS__ }
#define UINT(n, f, d, lo, hi, c, h, ...) \
	{ .name = n, .type = OPT_UINT, .offset = OFF(f), .def = d, .min = lo, .max = hi, .category = c, .help = h, \
	  __VA_ARGS__ }
#define INT(n, f, d, lo, hi, c, h, ...) \
	{ .name = n, .type = OPT_INT, .offset = OFF(f), .def = d, .min = lo, .max = hi, .category = c, .help = h, \
	  __VA_ARGS__ }
#define U64(n, f, d, lo, hi, c, h, ...) \
	{ .name = n, .type = OPT_U64, .offset = OFF(f), .def = d, .min = lo, .max = hi, .category = c, .help = h, \
	  __VA_ARGS__ }
#define SIZE(n, f, d, c, h, ...) \
	{ .name = n, .type = OPT_SIZE, .offset = OFF(f), .def = d, .category = c, .help = h, __VA_ARGS__ }
#define TIME(n, f, d, u, c, h, ...) \
	{ .name = n, .type = OPT_TIME, .offset = OFF(f), .def = d, .unit = u, .category = c, .help = h, __VA_ARGS__ }
#define CHOICE(n, f, list, d, c, h, ...) \
	{ .name = n, .type = OPT_CHOICE, .offset = OFF(f), .choices = list, .def = d, .category = c, .help = h, \
	  __VA_ARGS__ }
/* OPT_FUNC: parsed by fn; no .size unless given (see above). */
#define FUNC(n, f, fn, d, syn, c, h, ...) \
	{ .name = n, .type = OPT_FUNC, .offset = OFF(f), .parse = fn, .def = d, .syntax = syn, .category = c, \
	  .help = h, __VA_ARGS__ }
/* OPT_UNSUPPORTED: fio's, not carried out (a job using it is refused when run). */
#define NOT(n, h) { .name = n, .type = OPT_UNSUPPORTED, .category = C_NOT, .help = h }
/* OPT_NOOP: fio's, accepted, no effect (h says why). */
#define NOOP(n, c, h, ...) { .name = n, .type = OPT_NOOP, .category = c, .help = h, __VA_ARGS__ }

#endif
