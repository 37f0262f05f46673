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

void html_sweep(FILE *out, const struct sweep_plot *p, const char *csv)
{
	fputs("<h2>Sweep</h2>\n", out);
	plot_sweep_svg(out, p);
	fputs("<table>\n", out);
	bool head = true;
	for (const char *line = csv; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		fputs("<tr>", out);
		/* CSV fields: quoted ones may hold commas. */
		for (size_t i = 0; i <= len;) {
			char cell[512];
			size_t c = 0;
			bool q = i < len && line[i] == '"';
			i += q;
			while (i < len && c + 1 < sizeof(cell)) {
				if (q && line[i] == '"' && i + 1 < len && line[i + 1] == '"') {
					cell[c++] = '"';
					i += 2;
				} else if (q && line[i] == '"') {
					i++;
					q = false;
				} else if (!q && line[i] == ',') {
					break;
				} else {
					cell[c++] = line[i++];
				}
			}
			cell[c] = '\0';
			fputs(head ? "<th>" : "<td>", out);
			xml_escape(out, cell);
			fputs(head ? "</th>" : "</td>", out);
			i++;
		}
		fputs("</tr>\n", out);
		head = false;
		line = end ? end + 1 : NULL;
	}
	fputs("</table>\n", out);
}
