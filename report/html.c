/* --output-format=html: one self-contained page (inline CSS and SVG, no scripts): the
 * run's parameters, a table per job and direction, the charts, and a sweep's CSV table. */
#include <inttypes.h>
#include <string.h>

#include "report/report.h"


void html_begin(FILE *out, const char *cmdline)
{
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>iobench report</title>\n"
	      "<style>body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;"
	      "margin:1em 0}td,th{border:1px solid #bbb;padding:4px 8px;text-align:right}"
	      "th{background:#eee}td:first-child,td:nth-child(2){text-align:left}"
	      "code{background:#f4f4f4;padding:2px 4px}</style></head><body>\n"
	      "<h1>iobench report</h1>\n<p>" IOBENCH_VERSION_STRING ", command line: <code>", out);
	xml_escape(out, cmdline);
	fputs("</code></p>\n", out);
}

void html_end(FILE *out)
{
	fputs("</body></html>\n", out);
}

void html_run(FILE *out, const struct run_results *r)
{
	char when[64];
	fmt_time(when, sizeof(when), r->end_time);
	fprintf(out, "<p>finished %s</p>\n<h2>Jobs</h2>\n<table><tr><th>job</th><th>direction</th><th>group</th>"
		     "<th>IOPS</th><th>bandwidth (MiB/s)</th><th>I/O (MiB)</th><th>clat mean (us)</th>"
		     "<th>clat p50 (us)</th><th>clat p99 (us)</th><th>clat p99.9 (us)</th><th>runtime (ms)</th></tr>\n",
		when);
	for (size_t i = 0; i < r->nunits; i++) {
		const struct report_unit *u = &r->units[i];
		for (int d = 0; d < DDIR_NR; d++) {
			const struct dir_stats *ds = &u->ts.dir[d];
			const uint64_t *p = u->dir[d].clat_key_ns;
			if (!ds->total_ios)
				continue;
			uint64_t run = u->ts.runtime_ms;
			fputs("<tr><td>", out);
			xml_escape(out, u->job->o.name);
			fprintf(out, "</td><td>%s</td><td>%u</td><td>%.1f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td>"
				     "<td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%" PRIu64 "</td></tr>\n",
				d == 0 ? "read" : d == 1 ? "write" : "trim", u->groupid,
				run ? (double)ds->total_ios * 1000.0 / (double)run : 0.0,
				run ? (double)ds->io_bytes * 1000.0 / (double)run / 1048576.0 : 0.0,
				(double)ds->io_bytes / 1048576.0, series_mean(&ds->clat) / 1000.0,
				(double)p[KEY_P50] / 1000.0, (double)p[KEY_P99] / 1000.0, (double)p[KEY_P99_9] / 1000.0, run);
		}
	}
	fputs("</table>\n<h2>Completion latency percentiles</h2>\n", out);
	plot_percentiles_svg(out, r);
}

/* One field of the sweep's CSV (RFC 4180: a quoted one may hold commas, doubled quotes and
 * line breaks) into cell, cut to its size; where the next one starts. *row_end: it was the
 * last of its row. */
static const char *csv_cell(const char *p, char *cell, size_t len, bool *row_end)
{
	size_t c = 0;
	bool q = *p == '"';
	for (p += q; *p; p++) {
		if (q && *p == '"' && p[1] != '"') {
			q = false;
			continue;
		}
		if (!q && (*p == ',' || *p == '\n'))
			break;
		p += q && *p == '"'; /* "" in a quoted field: one quote */
		if (c + 1 < len)
			cell[c++] = *p;
	}
	cell[c] = '\0';
	*row_end = *p != ',';
	return *p ? p + 1 : p;
}

void html_sweep(FILE *out, const struct sweep_plot *p, const char *csv)
{
	fputs("<h2>Sweep</h2>\n", out);
	plot_sweep_svg(out, p);
	fputs("<table>\n", out);
	for (const char *at = csv, *first = csv; at && *at;) {
		fputs("<tr>", out);
		bool head = at == first, row_end = false;
		while (!row_end) {
			char cell[512];
			at = csv_cell(at, cell, sizeof(cell), &row_end);
			fputs(head ? "<th>" : "<td>", out);
			xml_escape(out, cell);
			fputs(head ? "</th>" : "</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}
