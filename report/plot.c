/* Self-contained SVG charts (no scripts, no external fonts): a sweep's bandwidth and IOPS
 * against the first swept value, one series per combination of the others; or a single
 * run's clat percentile curves per job and direction on a log latency axis. */
#include <math.h>
#include <string.h>

#include "report/report.h"

static const char *const colours[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
				       "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22" };
#define W 760
#define H 300
#define L 80
#define R 170
#define T 36
#define B 46


static void panel_frame(FILE *out, int y0, const char *title, const char *ylabel)
{
	fprintf(out, "<g transform=\"translate(0,%d)\">\n", y0);
	fprintf(out, "<text x=\"%d\" y=\"20\" font-size=\"15\" font-weight=\"bold\">", L);
	xml_escape(out, title);
	fprintf(out, "</text>\n<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", L, H - B, W - R, H - B);
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", L, T, L, H - B);
	fprintf(out, "<text x=\"16\" y=\"%d\" font-size=\"12\" transform=\"rotate(-90 16 %d)\" text-anchor=\"middle\">",
		(T + H - B) / 2, (T + H - B) / 2);
	xml_escape(out, ylabel);
	fprintf(out, "</text>\n");
}

static double nice_max(double v)
{
	if (v <= 0)
		return 1;
	double p = pow(10, floor(log10(v))), m = v / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/* One panel of a sweep chart: y = metric per x value, one line per series. */
static void sweep_panel(FILE *out, const struct sweep_plot *p, int y0, bool iops)
{
	double ymax = 0;
	for (unsigned s = 0; s < p->ns; s++)
		for (unsigned x = 0; x < p->nx; x++) {
			double v = iops ? p->series[s].iops[x] : p->series[s].bw_mib[x];
			ymax = v > ymax ? v : ymax;
		}
	ymax = nice_max(ymax);
	char title[160];
	snprintf(title, sizeof(title), "%s against %s", iops ? "IOPS" : "Bandwidth", p->xname);
	panel_frame(out, y0, title, iops ? "IOPS" : "bandwidth (MiB/s)");
	double plot_w = W - L - R, plot_h = H - T - B;
	for (int t = 0; t <= 4; t++) {
		double v = ymax * t / 4, y = H - B - plot_h * t / 4;
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>", L, y, W - R, y);
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%g</text>\n", L - 6, y + 4, v);
	}
	for (unsigned x = 0; x < p->nx; x++) {
		double px = L + plot_w * (x + 0.5) / p->nx;
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">", px, H - B + 18);
		xml_escape(out, p->xvals[x]);
		fprintf(out, "</text>\n");
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">", L + plot_w / 2, H - 6);
	xml_escape(out, p->xname);
	fprintf(out, "</text>\n");
	for (unsigned s = 0; s < p->ns; s++) {
		const char *c = colours[s % 10];
		fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", c);
		for (unsigned x = 0; x < p->nx; x++) {
			double v = iops ? p->series[s].iops[x] : p->series[s].bw_mib[x];
			fprintf(out, "%.1f,%.1f ", L + plot_w * (x + 0.5) / p->nx, H - B - plot_h * v / ymax);
		}
		fprintf(out, "\"/>\n<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", W - R + 14,
			T + 18 * (int)s, c);
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\">", W - R + 32, T + 18 * (int)s + 11);
		xml_escape(out, p->series[s].name[0] ? p->series[s].name : "all");
		fprintf(out, "</text>\n");
	}
	fprintf(out, "</g>\n");
}

void plot_sweep_svg(FILE *out, const struct sweep_plot *p)
{
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		     "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		W, 2 * H, W, 2 * H);
	sweep_panel(out, p, 0, false);
	sweep_panel(out, p, H, true);
	fprintf(out, "</svg>\n");
}

/* Percentile curves: x = the percentile list, y = clat on a log scale (us). */
void plot_percentiles_svg(FILE *out, const struct run_results *r)
{
	double lo = 1e18, hi = 0;
	uint64_t vals[64][RESULTS_PCT_MAX];
	const char *names[64];
	const double *pl = NULL;
	unsigned np = 0, nc = 0;
	char labels[64][160];
	for (size_t i = 0; i < r->nunits && nc < 64; i++) {
		const struct report_unit *u = &r->units[i];
		pl = u->job->o.pct_list;
		np = u->job->o.npct;
		for (int d = 0; d < DDIR_NR && nc < 64; d++) {
			const struct pct_values *pv = &u->dir[d].clat_pct;
			if (!pv->samples)
				continue;
			memcpy(vals[nc], pv->ns, sizeof(vals[nc]));
			snprintf(labels[nc], sizeof(labels[nc]), "%.100s %s", u->job->o.name, d ? d == 1 ? "write" : "trim" : "read");
			names[nc] = labels[nc];
			for (unsigned k = 0; k < np; k++) {
				double v = (double)vals[nc][k] / 1000.0;
				lo = v > 0 && v < lo ? v : lo;
				hi = v > hi ? v : hi;
			}
			nc++;
		}
	}
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		     "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		W, H, W, H);
	panel_frame(out, 0, "Completion latency percentiles", "clat (us, log scale)");
	if (nc && hi > 0) {
		double ylo = pow(10, floor(log10(lo > 0 ? lo : 0.001))), yhi = pow(10, ceil(log10(hi)));
		if (yhi <= ylo)
			yhi = ylo * 10;
		double plot_w = W - L - R, plot_h = H - T - B, span = log10(yhi) - log10(ylo);
		for (double t = ylo; t <= yhi * 1.001; t *= 10) {
			double y = H - B - plot_h * (log10(t) - log10(ylo)) / span;
			fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>", L, y, W - R, y);
			fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%g</text>\n", L - 6, y + 4, t);
		}
		for (unsigned k = 0; k < np; k++)
			fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">p%g</text>\n",
				L + plot_w * (k + 0.5) / np, H - B + 16, pl[k]);
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">percentile</text>\n",
			L + plot_w / 2, H - 6);
		for (unsigned c = 0; c < nc; c++) {
			fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colours[c % 10]);
			for (unsigned k = 0; k < np; k++) {
				double v = (double)vals[c][k] / 1000.0;
				v = v < ylo ? ylo : v;
				fprintf(out, "%.1f,%.1f ", L + plot_w * (k + 0.5) / np,
					H - B - plot_h * (log10(v) - log10(ylo)) / span);
			}
			fprintf(out, "\"/>\n<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", W - R + 14,
				T + 18 * (int)c, colours[c % 10]);
			fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\">", W - R + 32, T + 18 * (int)c + 11);
			xml_escape(out, names[c]);
			fprintf(out, "</text>\n");
		}
	}
	fprintf(out, "</g>\n</svg>\n");
}
