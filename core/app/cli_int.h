/* Inside the command line's parser: how a flag of cli_flags[] (core/app/cli.c) takes its value
 * and what its handler is given. The handlers of fio 3.33's tool and run flags live in
 * core/app/cli_flags.c; cli.c holds the table and calls them, never the other way round. */
#ifndef IOBENCH_CLI_INT_H
#define IOBENCH_CLI_INT_H
#include <stddef.h>
#include <stdio.h>

#include "core/run/run.h"

/* How a flag takes its value. */
enum flag_arg {
	FLAG_BARE,      /* --x; a value given (--x=1) is ignored */
	FLAG_BARE_ONLY, /* --x; with a value it is not this flag (--readonly=1 is the job option) */
	FLAG_OPTIONAL,  /* --x or --x=V, never the next argument */
	FLAG_INLINE,    /* --x=V, never the next argument; the handler gets NULL for --x */
	FLAG_VALUE,     /* --x=V or --x V; the handler gets NULL when there is none */
	FLAG_PAIR,      /* --x A B: the next two arguments */
	FLAG_REST,      /* --x A B ...: every argument after it */
};

/* What a handler is given. */
struct flag_call {
	const char *key; /* the name as given ("o" or "output"), for messages */
	const char *val; /* the value; NULL if none */
	char **args;     /* FLAG_PAIR and FLAG_REST: the arguments after the flag */
	int nargs;
	struct run_cfg *cfg;
	FILE *out; /* --help, --version, --cmdhelp, --dump-options print here */
};

/* A handler returns one of these, or -errno after one line on stderr. */
enum { FLAG_NEXT = 0, FLAG_EXIT = 1, FLAG_RUN_NOW = 2 };

/* One flag of the table. */
struct cli_flag {
	const char *name;
	const char *alias; /* another name ("h": -h, --h), or NULL */
	enum flag_arg arg;
	const char *syntax; /* the value in --help and the man page: FILE, OPT=V1,V2,... */
	int (*handle)(const struct flag_call *c); /* NULL: the flag sets the bool at sets */
	const char *help; /* lowercase, no final period: "write the report to FILE" */
	size_t sets;      /* without a handler: offsetof(struct run_cfg, the bool it sets) */
};

/* core/app/cli.c: the table, in --help's and the man page's order. */
extern const struct cli_flag cli_flags[];
extern const size_t cli_nflags;

/* core/app/cli_help.c: --help's text and the man page (docs/iobench.1), the flags from the
 * table (flags[0..n)), the job options from theirs. */
void cli_usage(FILE *out, const struct cli_flag *flags, size_t n);
void cli_print_man(FILE *out, const struct cli_flag *flags, size_t n);

/* core/app/cli_flags.c: fio 3.33's flags beyond the report's. */
int flag_debug(const struct flag_call *c);
int flag_idle_prof(const struct flag_call *c);
int flag_eta_newline(const struct flag_call *c);
int flag_eta_interval(const struct flag_call *c);
int flag_inflate_log(const struct flag_call *c);
int flag_trigger_file(const struct flag_call *c);
int flag_trigger_timeout(const struct flag_call *c);
int flag_trigger(const struct flag_call *c);
int flag_crctest(const struct flag_call *c);
int flag_cpuclock_test(const struct flag_call *c);
int flag_alloc_size(const struct flag_call *c);
int flag_aux_path(const struct flag_call *c);
int flag_daemonize(const struct flag_call *c);
int flag_merge_blktrace_only(const struct flag_call *c);
int flag_append_terse(const struct flag_call *c);
int flag_max_jobs(const struct flag_call *c);
/* core/app/profile.c: --profile=NAME (act, tiobench). */
int flag_profile(const struct flag_call *c);
/* After the whole command line: flags that need each other (--trigger needs a time to run),
 * and --debug=parse's lines for every option given. 0, or -EINVAL after one line. */
int cli_flags_finish(struct run_cfg *cfg);
/* --client, --server, --remote-config, --trigger-remote: fio's network protocol. */
int flag_remote(const struct flag_call *c);
/* core/app/cli_sweep.c: --sweep. */
int flag_sweep(const struct flag_call *c);

#endif
