/* The option tables as documentation (core/app/opthelp.c). */
#ifndef IOBENCH_OPTHELP_H
#define IOBENCH_OPTHELP_H
#include <stdio.h>

/* --cmdhelp=NAME (or "all"): 0, or -ENOENT when there is no such option. */
int options_print_help(FILE *out, const char *name);
/* --enghelp[=ENGINE[,OPTION]]: the engines, one engine's options, or one of them. 0, or
 * -ENOENT when there is no such engine or option. */
int options_print_enghelp(FILE *out, const char *arg);
/* docs/options.md and the man page's OPTIONS section. */
void options_print_markdown(FILE *out);
/* Every row, core's then engines', one a line, tab-separated (tests walk the tables with it). */
void options_print_tsv(FILE *out);
/* The man page's JOB OPTIONS entries (core/app/cli.c writes the page around them). */
void options_print_man_jobs(FILE *out);

#endif
