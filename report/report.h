/* Printers: each takes a FILE * and a finished run's results (core/stats/results.h), as data;
 * printers never compute stats, and never see the run, its workers or its engines. */
#ifndef IOBENCH_REPORT_H
#define IOBENCH_REPORT_H
#include <stdio.h>

#include "core/stats/results.h"

/* fio's normal format: the job lines before the run, the results after it. */
void report_normal_header(FILE *out, const struct run_results *r);
void report_normal(FILE *out, const struct run_results *r);

/* CSV: a header line and a row per reported job (RFC 4180 quoting). */
void report_csv_header(FILE *out);
void report_csv(FILE *out, const struct run_results *r, bool header);
/* The same with one column per swept option (names) holding this run's values. */
void report_csv_sweep(FILE *out, const struct run_results *r, bool header, unsigned nextra,
		      const char *const *names, const char *const *values);


/* Sweep chart data: y per x value (the first swept option's), one series per
 * combination of the other swept values. */
#define PLOT_X_MAX 64
#define PLOT_SERIES_MAX 32
struct plot_series {
	char name[128];
	double bw_mib[PLOT_X_MAX], iops[PLOT_X_MAX];
};
struct sweep_plot {
	char xname[64];
	const char *xvals[PLOT_X_MAX];
	unsigned nx, ns;
	struct plot_series series[PLOT_SERIES_MAX];
};
void plot_sweep_svg(FILE *out, const struct sweep_plot *p);
void plot_percentiles_svg(FILE *out, const struct run_results *r);

/* The HTML page: begin (title, command line), a run's tables and chart, a sweep's chart
 * and CSV table, end. */
void html_begin(FILE *out, const char *cmdline);
void html_run(FILE *out, const struct run_results *r);
void html_sweep(FILE *out, const struct sweep_plot *p, const char *csv);
void html_end(FILE *out);

/* The one-line ETA. cr: it overwrites the line before (a carriage return first, spaces
 * over what is left of a longer one of prev_len characters); newline: it ends the line.
 * Returns its length, for the next one's prev_len. */
int report_eta(FILE *out, const struct run_progress *p, int prev_len, bool cr, bool newline);

/* --idle-prof=calibrate: the unit of work's time alone, as fio prints it. */
void report_idle_calibration(FILE *out, const struct idle_result *r);

/* fio's terse format, version 3, 4 or 5: one line per job. */
void report_terse(FILE *out, const struct run_results *r, unsigned version);

/* JSON (plus: with json+ histogram bins). 0 or -errno. */
int report_json(FILE *out, const struct run_results *r, bool plus);
/* One member of a --sweep's JSON document (first: no comma before it): the point's values
 * (n names and values), its results (r NULL: it did not run), and when it failed (status:
 * its exit status, not 0) why, the line it printed. 0 or -errno. */
int report_json_sweep_point(FILE *out, bool first, unsigned n, const char *const *names, const char *const *values,
			    const struct run_results *r, bool plus, int status, const char *why);

/* ---- helpers shared by the printers (report/units.c) ---- */

enum num_unit { UNIT_NONE, UNIT_BYTE, UNIT_BYTE_PER_SEC, UNIT_BIT_PER_SEC };

/* A number shortened to at most maxlen digits with a k/M/G (or Ki/Mi/Gi with iec) prefix
 * and a decimal part where room is left, as fio prints sizes and rates: "31.8MiB". */
char *fmt_num(char *buf, size_t len, uint64_t num, int maxlen, bool iec, enum num_unit unit);

/* Text for XML/HTML: < > & " ' escaped; what XML 1.0 cannot hold replaced (C0 controls but
 * tab, newline and carriage return by their control pictures, C1 controls, U+FFFE, U+FFFF
 * and bytes that are not UTF-8 by U+FFFD), so the page or chart always parses. */
void xml_escape(FILE *out, const char *s);

/* The length of the valid UTF-8 sequence at p (a byte >= 0x80 first), 0 if there is none:
 * no overlong forms, no surrogates, nothing above U+10FFFF (RFC 3629). */
size_t utf8_len(const unsigned char *p);

/* ctime() text without the newline: "Mon Nov 30 13:21:20 2026". */
void fmt_time(char *buf, size_t len, time_t t);

/* Percent of part in whole, with fio's floor for a non-zero share (min_pct). */
double share_pct(uint64_t part, uint64_t whole, double min_pct);
/* The unit of a normal-output percentile block, from its smallest and largest values (ns),
 * as fio 3.33 picks it: usec only when the smallest is over 2000 ns and the largest over
 * 99999 ns, msec when they are over 2000000 and 99999000 ns; else nsec (a block of fast and
 * very slow I/Os stays in nsec, as fio's). 0 nsec, 1 usec, 2 msec; *div is 1, 1000 or 1000000. */
int pct_unit(uint64_t min_ns, uint64_t max_ns, uint64_t *div);

/* The directions a unit reports, in fio's order for its unified_rw_reporting:
 * read, write, trim; or mixed; or all four. Returns how many. */
unsigned report_dir_views(const struct report_unit *u, const struct dir_result *views[DDIR_NR + 1]);

#endif
