/* fio's terse (--minimal) format: one ';'-separated line per job, versions 3, 4 and 5.
 * Latencies in usec; v4 and v5 add trim; v5 adds the bw and iops sample counts. */
#include <inttypes.h>
#include <math.h>

#include "report/report.h"

/* A value that is not finite is written as 0 (fio would print inf or nan): the line keeps
 * its fields, and each of them still reads as a number. */
static double fin(double v)
{
	return isfinite(v) ? v : 0.0;
}

static void lat_fields(FILE *out, const struct series *s)
{
	fprintf(out, ";%" PRIu64 ";%" PRIu64 ";%f;%f", s->min / 1000, s->max / 1000, fin(series_mean(s) / 1000.0),
		fin(series_stddev(s) / 1000.0));
}

static void ddir_fields(FILE *out, const struct report_unit *u, int d, unsigned version)
{
	const struct dir_stats *ds = &u->ts.dir[d];
	uint64_t run = u->dir[d].run_ms;
	uint64_t bw = run ? ds->io_bytes * 1000 / run : 0;
	fprintf(out, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64, ds->io_bytes / 1024, bw / 1024,
		run ? ds->total_ios * 1000 / run : 0, run);
	lat_fields(out, &ds->slat);
	lat_fields(out, &ds->clat);
	const struct job_opts *o = &u->job->o;
	const struct dir_result *v = &u->dir[d];
	for (size_t i = 0; i < RESULTS_PCT_MAX; i++) {
		if (i < o->npct)
			fprintf(out, ";%f%%=%" PRIu64, fin(o->pct_list[i]), v->clat_pct.ns[i] / 1000);
		else
			fprintf(out, ";0%%=0");
	}
	lat_fields(out, &ds->lat);
	const struct sample_summary *b = &v->bw, *io = &v->iops;
	fprintf(out, ";%" PRIu64 ";%" PRIu64 ";%f%%;%f;%f", b->min, b->max, fin(v->bw_agg_pct), fin(b->mean),
		fin(sample_summary_stddev(b)));
	if (version >= 5)
		fprintf(out, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%f;%f;%" PRIu64, b->samples, io->min, io->max,
			fin(io->mean), fin(sample_summary_stddev(io)), io->samples);
}

/* A name or description in a terse field: a ';' would split the line into one field too
 * many for every consumer, so it is written as '_' (and a newline as a space). */
static void terse_text(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' ? '_' : *s == '\n' ? ' ' : *s, out);
}

static void unit_line(FILE *out, const struct report_unit *u, const struct run_results *r, unsigned version)
{
	const struct thread_stats *ts = &u->ts;
	const struct job_opts *o = &u->job->o;
	fprintf(out, "%u;%s;", version, IOBENCH_VERSION_STRING);
	terse_text(out, unit_name(u));
	fprintf(out, ";%u;%d", u->groupid, ts->error);
	for (int d = 0; d < (version >= 4 ? DDIR_NR : DDIR_TRIM); d++)
		ddir_fields(out, u, d, version);
	double run_us = (double)ts->job_runtime_ms * 1000.0;
	fprintf(out, ";%f%%;%f%%;%" PRIu64 ";%" PRIu64 ";%" PRIu64,
		fin(run_us > 0 ? (double)ts->usr_us * 100.0 / run_us : 0.0),
		fin(run_us > 0 ? (double)ts->sys_us * 100.0 / run_us : 0.0), ts->ctx, ts->majf, ts->minf);
	uint64_t depth_total = 0, ios = 0;
	for (int i = 0; i < DEPTH_MAP_NR; i++)
		depth_total += ts->depth_map[i];
	for (int i = 0; i < DEPTH_MAP_NR; i++)
		fprintf(out, ";%3.1f%%", fin(share_pct(ts->depth_map[i], depth_total, 0.1)));
	for (int d = 0; d < DDIR_NR; d++)
		ios += ts->dir[d].total_ios;
	/* fio folds the nanosecond buckets into the microsecond ones here. */
	for (int i = 0; i < LATB_USEC; i++)
		fprintf(out, ";%3.2f%%", fin(share_pct(ts->lat_buckets[i] + ts->lat_buckets[LATB_NSEC + i], ios, 0.01)));
	for (int i = LATB_NSEC + LATB_USEC; i < LATB_NR; i++)
		fprintf(out, ";%3.2f%%", fin(share_pct(ts->lat_buckets[i], ios, 0.01)));
	for (unsigned i = 0; i < r->ndisks; i++) {
		const struct disk_report *dr = &r->disks[i];
		fprintf(out, ";%s;%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64
			";%3.2f%%", dr->name, dr->ios[0], dr->ios[1], dr->merges[0], dr->merges[1], dr->ticks[0],
			dr->ticks[1], dr->in_queue, fin(dr->util_pct));
	}
	if (o->continue_on_error)
		fprintf(out, ";%" PRIu64 ";%d", ts->nr_errors, ts->first_error);
	if (o->description[0]) {
		fputc(';', out);
		terse_text(out, o->description);
	}
	fprintf(out, "\n");
}

void report_terse(FILE *out, const struct run_results *r, unsigned version)
{
	for (size_t i = 0; i < r->nunits; i++)
		unit_line(out, &r->units[i], r, version);
	fflush(out);
}
