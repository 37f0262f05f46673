/* The command line and job files, into a run_cfg. */
#ifndef IOBENCH_CLI_H
#define IOBENCH_CLI_H
#include <stdio.h>

#include "core/run/run.h"

/* Jobs a run may define: fio's REAL_MAX_JOBS. */
#define MAX_JOBS 4096

enum cli_result { CLI_RUN = 0, CLI_EXIT_OK = 1, CLI_ERROR = -1 };

/* Parse argv as fio does: -opt=val or --opt=val; options before the first --name are
 * global; --name starts a job; other arguments are job files. Messages to stderr;
 * --help and --version print to out. */
enum cli_result cli_parse(int argc, char **argv, struct run_cfg *cfg, FILE *out);

/* Read one job file ("-" = stdin) into cfg. file_index counts job files (implicit
 * stonewall between them). 0 or -errno after one line on stderr. */
int jobfile_parse(const char *path, struct run_cfg *cfg, unsigned file_index);

/* The same from memory (the fuzzer). */
int jobfile_parse_buffer(const char *data, size_t len, const char *label, struct run_cfg *cfg);

/* The command line as one string (the HTML page's), a secret option's value (core/job/secret.c)
 * replaced by OPT_REDACTED: "--http_pass=KEY" and "--http_pass KEY" alike. NULL without memory. */
char *secret_command_line(int argc, char **argv);

/* --showcmd: the job files as one command line. */
void cli_print_showcmd(FILE *out, const struct run_cfg *cfg);

/* The man page's PROGRAM OPTIONS entries (.TP paragraphs), from the table of the
 * program's flags that --help and the parser use. */
/* The man page (docs/iobench.1): the flags from the table, the job options from theirs. */
void cli_print_man(FILE *out);

#endif
