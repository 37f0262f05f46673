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

/* --showcmd: the job files as one command line. */
void cli_print_showcmd(FILE *out, const struct run_cfg *cfg);

#endif
