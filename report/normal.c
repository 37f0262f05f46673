/* fio's normal (human) output format. */
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"

static const char *const ddir_upper[DDIR_NR + 1] = { "   READ", "  WRITE", "   TRIM", "  MIXED" };

/* fio's unit choices: kb_base=1000 puts decimal units first, unit_base=1 shows rates in
 * bits. Primary and secondary renderings of a rate or a size. */
struct units {
	bool si, bits;
	int sig; /* significant_figures */
};

static struct units units_of(const struct job_opts *o)
{
	return (struct units){ o->kb_base == 1000, o->unit_base == 1, (int)o->sig_figs };
}

static char *rate_txt(char *buf, size_t len, uint64_t bytes_per_sec, struct units u, bool primary)
{
	bool iec = primary ? !u.si : u.si;
	return u.bits ? fmt_num(buf, len, bytes_per_sec * 8, u.sig, iec, UNIT_BIT_PER_SEC)
		      : fmt_num(buf, len, bytes_per_sec, u.sig, iec, UNIT_BYTE_PER_SEC);
}

/* A byte count in the largest IEC unit it reaches, one decimal where it is not whole:
 * "256 MiB", "1.5 GiB". */
static char *mem_text(char *buf, size_t len, unsigned long long bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned i = 0;
	while (i + 1 < sizeof(unit) / sizeof(unit[0]) && bytes >> (10 * (i + 1)))
		i++;
	unsigned long long whole = bytes >> (10 * i), rest = bytes - (whole << (10 * i));
	if (!rest)
		snprintf(buf, len, "%llu %s", whole, unit[i]);
	else
		snprintf(buf, len, "%.1f %s", (double)bytes / (double)(1ULL << (10 * i)), unit[i]);
	return buf;
}

static char *size_txt(char *buf, size_t len, uint64_t bytes, struct units u, bool primary)
{
	return fmt_num(buf, len, bytes, u.sig, primary ? !u.si : u.si, UNIT_BYTE);
}

void report_normal_header(FILE *out, const struct run_results *r)
{
	char b[6][32];
	for (size_t i = 0; i < r->njobs; i++) {
		const struct job_result *jr = &r->jobs[i];
		const struct job_opts *o = &jr->job->o;
		const uint64_t *lo = jr->bs_min_bytes, *hi = jr->bs_max_bytes;
		struct units u = units_of(o);
		if (!jr->no_io) /* as fio: jobs that move no data say what they do as they start */
			fprintf(out, "%s: (g=%u): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, iodepth=%u\n",
				o->name, jr->job->groupid, o->rw_text, size_txt(b[0], 32, lo[0], u, true),
				size_txt(b[1], 32, hi[0], u, true), size_txt(b[2], 32, lo[1], u, true),
				size_txt(b[3], 32, hi[1], u, true), size_txt(b[4], 32, lo[2], u, true),
				size_txt(b[5], 32, hi[2], u, true), jr->engine, jr->depth);
		if (o->numjobs > 1)
			fprintf(out, "...\n");
	}
	if (!r->profile) /* as fio, whose profiles' jobs come without it */
		fprintf(out, "%s\n", IOBENCH_VERSION_STRING);
	const struct cpu_limit *cl = &r->cpu_limit;
	char m[32];
	if (cl->quota_set)
		fprintf(out, "cgroup CPU limit: %.2f CPUs (cgroup v%u quota %lldus per %lldus, %s)\n",
			cl->cpus, cl->cgroup_version, cl->quota_us, cl->period_us, cl->where);
	if (cl->mem_set)
		fprintf(out, "cgroup memory limit: %s (cgroup v%u, %s)\n", mem_text(m, sizeof(m), cl->mem_bytes),
			cl->mem_cgroup_version, cl->mem_where);
	if (cl->cpuset_restricted)
		fprintf(out, "CPU set: %s (%u of %u online CPUs)\n", cl->cpuset, cl->cpuset_n,
			cl->online_n);
	if (r->nranks > 1)
		fprintf(out, "Starting %zu thread%s on each of %u ranks\n", r->nclones,
			r->nclones == 1 ? "" : "s", r->nranks);
	else
		fprintf(out, "Starting %zu thread%s\n", r->nclones, r->nclones == 1 ? "" : "s");
	for (size_t i = 0; i < r->njobs; i++) /* the engines' own lines, one set per clone */
		for (unsigned k = 0; r->jobs[i].intro[0] && k < r->jobs[i].job->o.numjobs; k++)
			fprintf(out, "%s\n", r->jobs[i].intro);
	fflush(out);
}

/* fio's unit choice for a min/max/avg/stdev line. div: 1, 1000 or 1000000. */
static const char *lat_unit(const struct series *s, double dev, uint64_t *div)
{
	if (s->min > 2000000 && s->max > 99999999ULL && dev > 1000000.0) {
		*div = 1000000;
		return "msec";
	}
	if (s->min > 2000 && s->max > 99999 && dev > 1000.0) {
		*div = 1000;
		return "usec";
	}
	*div = 1;
	return "nsec";
}

static void show_lat(FILE *out, const char *name, const struct series *s)
{
	if (!s->n)
		return;
	double dev = series_stddev(s), mean = series_mean(s);
	uint64_t div;
	const char *unit = lat_unit(s, dev, &div);
	char mn[32], mx[32];
	fprintf(out, "    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, unit,
		fmt_num(mn, sizeof(mn), s->min / div, 6, false, UNIT_NONE),
		fmt_num(mx, sizeof(mx), s->max / div, 6, false, UNIT_NONE), mean / (double)div,
		dev / (double)div);
}

static void show_percentiles(FILE *out, const char *name, const struct pct_values *p, const struct job_opts *o);

/* cmdprio: "clat prio 1/0 (usec): min=..." for each priority the I/Os had. */
static void show_prio_lat(FILE *out, const struct dir_result *v)
{
	for (unsigned i = 0; i < v->nprios; i++) {
		char name[64];
		snprintf(name, sizeof(name), "%s prio %u/%u", v->prio_lat ? "lat" : "clat", v->prios[i].cls,
			 v->prios[i].level);
		show_lat(out, name, &v->prios[i].lat);
	}
}

/* ... and their percentiles: "clat prio 1/0 (51.17% of IOs) percentiles (usec):". */
static void show_prio_pct(FILE *out, const struct dir_result *v, const struct job_opts *o)
{
	if (!(v->prio_lat ? o->lat_percentiles : o->clat_percentiles))
		return;
	for (unsigned i = 0; i < v->nprios; i++) {
		char name[96];
		snprintf(name, sizeof(name), "%s prio %u/%u (%.2f%% of IOs)", v->prio_lat ? "lat" : "clat",
			 v->prios[i].cls, v->prios[i].level, v->prios[i].share_pct);
		show_percentiles(out, name, &v->prios[i].pct, o);
	}
}

static void show_percentiles(FILE *out, const char *name, const struct pct_values *p, const struct job_opts *o)
{
	size_t n = o->npct;
	if (!p->samples || !n)
		return;
	/* fio's units (report/units.c: pct_unit, from the smallest and the largest value). The
	 * values' width is the largest's digits (five at least), and as many go on a line as
	 * fit in 80 columns. */
	static const char *const units[] = { "nsec", "usec", "msec" };
	uint64_t lo = p->ns[0], hi = p->ns[0];
	for (size_t i = 1; i < n; i++) {
		lo = p->ns[i] < lo ? p->ns[i] : lo;
		hi = p->ns[i] > hi ? p->ns[i] : hi;
	}
	uint64_t div;
	int unit = pct_unit(lo, hi, &div);
	int width = 1;
	for (uint64_t v = (hi + div - 1) / div; v >= 10; v /= 10)
		width++;
	width = width < 5 ? 5 : width;
	int prec = (int)o->pct_prec, label = prec ? prec + 3 : 3; /* "99.99", "99.9", " 99" */
	size_t per_line = (size_t)(73 / (label + 7 + width));
	fprintf(out, "    %s percentiles (%s):\n", name, units[unit]);
	for (size_t i = 0; i < n; i++) {
		if (i % per_line == 0)
			fprintf(out, "     |");
		fprintf(out, " %*.*fth=[%*" PRIu64 "]%s", label, prec, o->pct_list[i], width, (p->ns[i] + div - 1) / div,
			i + 1 < n ? "," : "");
		if (i % per_line == per_line - 1 || i + 1 == n)
			fprintf(out, "\n");
	}
}

static void show_samples(FILE *out, const struct report_unit *u, const struct dir_result *v)
{
	const struct sample_summary *bw = &v->bw, *io = &v->iops;
	if (!bw->samples)
		return;
	/* Past six digits of KiB/s, fio shows MiB/s (and GiB/s). */
	static const char *const iec[] = { "  KiB/s", "  MiB/s", "  GiB/s" };
	static const char *const si[] = { "   kB/s", "   MB/s", "   GB/s" };
	int unit = 0;
	uint64_t div = 1;
	while (unit < 2 && bw->max / div > 999999) {
		div *= 1024;
		unit++;
	}
	fprintf(out, "   bw (%s): min=", u->job->o.kb_base == 1000 ? si[unit] : iec[unit]);
	fprintf(out, "%5" PRIu64 ", max=%5" PRIu64 ", per=%3.2f%%, avg=%5.02f, stdev=%5.02f, samples=%" PRIu64 "\n",
		bw->min / div, bw->max / div, v->bw_agg_pct, bw->mean / (double)div,
		sample_summary_stddev(bw) / (double)div, bw->samples);
	fprintf(out, "   iops        : min=%5" PRIu64 ", max=%5" PRIu64 ", avg=%5.02f, stdev=%5.02f, samples=%" PRIu64 "\n",
		io->min, io->max, io->mean, sample_summary_stddev(io), io->samples);
}

static void show_ddir(FILE *out, const struct report_unit *u, const struct dir_result *v)
{
	const struct dir_stats *ds = v->ds;
	const struct job_opts *o = &u->job->o;
	uint64_t run = u->ts.runtime_ms;
	uint64_t bw = run ? ds->io_bytes * 1000 / run : 0;
	uint64_t iops = run ? ds->total_ios * 1000 / run : 0;
	char a[32], b[32], c[32], e[32], zr[40] = "";
	struct units un = units_of(o);
	int sig = (int)o->sig_figs;
	if (v->slot == DDIR_WRITE)
		snprintf(zr, sizeof(zr), "; %" PRIu64 " zone resets", u->ts.zone_resets);
	fprintf(out, "  %s: IOPS=%s, BW=%s (%s)(%s/%" PRIu64 "msec)%s\n", v->name,
		fmt_num(a, sizeof(a), iops, sig, false, UNIT_NONE), rate_txt(b, sizeof(b), bw, un, true),
		rate_txt(c, sizeof(c), bw, un, false), size_txt(e, sizeof(e), ds->io_bytes, un, true), run, zr);
	show_lat(out, "slat", &ds->slat);
	show_lat(out, "clat", &ds->clat);
	show_lat(out, " lat", &ds->lat);
	show_prio_lat(out, v);
	if (o->slat_percentiles)
		show_percentiles(out, "slat", &v->slat_pct, o);
	if (o->clat_percentiles)
		show_percentiles(out, "clat", &v->clat_pct, o);
	if (o->lat_percentiles)
		show_percentiles(out, "lat", &v->lat_pct, o);
	show_prio_pct(out, v, o);
	show_samples(out, u, v);
}

static void show_lat_buckets(FILE *out, const struct thread_stats *ts)
{
	static const char *const unit[] = { "nsec", "usec", "msec" };
	static const unsigned first[] = { 0, LATB_NSEC, LATB_NSEC + LATB_USEC, LATB_NR };
	uint64_t total = 0;
	for (int d = 0; d < DDIR_NR; d++)
		total += ts->dir[d].total_ios;
	for (int g = 0; g < 3; g++) {
		int shown = 0;
		for (unsigned i = first[g]; i < first[g + 1]; i++) {
			if (!ts->lat_buckets[i])
				continue;
			if (shown % 5 == 0)
				fprintf(out, "%s  lat (%s)   : ", shown ? "\n" : "", unit[g]);
			else
				fprintf(out, ", ");
			fprintf(out, "%s%u=%3.2f%%", i == LATB_NR - 1 ? ">=" : "", lat_bucket_label[i],
				share_pct(ts->lat_buckets[i], total, 0.01));
			shown++;
		}
		if (shown)
			fprintf(out, "\n");
	}
}

static void show_map(FILE *out, const char *label, const char *const *names, const uint64_t *map)
{
	uint64_t total = 0;
	for (int i = 0; i < DEPTH_MAP_NR; i++)
		total += map[i];
	fprintf(out, "%s: ", label);
	for (int i = 0; i < DEPTH_MAP_NR; i++)
		fprintf(out, "%s=%3.1f%%%s", names[i], share_pct(map[i], total, 0.1),
			i + 1 < DEPTH_MAP_NR ? ", " : "\n");
}

/* fio's steady-state line. Its bandwidth is the window's mean in KiB (kb_base) shown with
 * the prefix of each base, as fio does: 4002 KiB/s is "4002KiB/s (4002kB/s)". */
static void show_steadystate(FILE *out, const struct steady_result *ss, struct units u)
{
	char p1[32], p2[32], p3[32];
	uint64_t base = u.si ? 1000 : 1024, k = ss->bw_mean / base, f = u.bits ? 8 : 1;
	enum num_unit nu = u.bits ? UNIT_BIT_PER_SEC : UNIT_BYTE_PER_SEC;
	fmt_num(p1, sizeof(p1), k * base * f, u.sig, !u.si, nu);
	fmt_num(p2, sizeof(p2), k * (u.si ? 1024 : 1000) * f, u.sig, u.si, nu);
	fmt_num(p3, sizeof(p3), ss->iops_mean, u.sig, false, UNIT_NONE);
	fprintf(out, "  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n", ss->attained ? "yes" : "no", p1,
		p2, p3, ss->crit & SS_IOPS ? "iops" : "bw", ss->crit & SS_SLOPE ? " slope" : " mean dev", ss->criterion,
		ss->pct ? "%" : "");
}

static void show_unit(FILE *out, const struct report_unit *u, const struct run_results *r)
{
	static const char *const depth_names[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const batch_names[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	const struct thread_stats *ts = &u->ts;
	const struct job_opts *o = &u->job->o;
	char when[64];
	fmt_time(when, sizeof(when), r->end_time);
	fprintf(out, "%s: (groupid=%u, jobs=%u): err=%2d: pid=%d: %s\n", unit_name(u), u->groupid,
		u->nr_clones, ts->error, u->pid, when);
	if (o->description[0])
		fprintf(out, "  Description  : [%s]\n", o->description);
	const struct dir_result *views[DDIR_NR + 1];
	unsigned nv = report_dir_views(u, views);
	for (unsigned i = 0; i < nv; i++)
		if ((views[i]->ds->total_ios && !u->jr->no_io) || views[i]->ds->io_bytes || views[i]->slot == DDIR_MIXED)
			show_ddir(out, u, views[i]);
	show_lat_buckets(out, ts);
	if (ts->sync_lat.n) {
		fprintf(out, "  fsync/fdatasync/sync_file_range:\n");
		show_lat(out, "sync", &ts->sync_lat);
		show_percentiles(out, "sync", &u->sync_pct, o);
	}
	if (ts->files_done) { /* opendir whole-file reads */
		fprintf(out, "  files        : %" PRIu64 " read whole, %.1f files/s\n", ts->files_done,
			ts->runtime_ms ? (double)ts->files_done * 1000.0 / (double)ts->runtime_ms : 0.0);
		show_lat(out, "open+close", &ts->file_oc);
		show_percentiles(out, "open+close", &u->file_oc_pct, o);
	}
	double run_us = (double)ts->job_runtime_ms * 1000.0;
	fprintf(out, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%" PRIu64 ", majf=%" PRIu64 ", minf=%" PRIu64 "\n",
		run_us > 0 ? (double)ts->usr_us * 100.0 / run_us : 0.0,
		run_us > 0 ? (double)ts->sys_us * 100.0 / run_us : 0.0, ts->ctx, ts->majf, ts->minf);
	show_map(out, "  IO depths    ", depth_names, ts->depth_map);
	show_map(out, "     submit    ", batch_names, ts->submit_map);
	show_map(out, "     complete  ", batch_names, ts->complete_map);
	fprintf(out, "     issued rwts: total=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		" short=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",0 dropped=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",0\n",
		ts->issued[0], ts->issued[1], ts->issued[2], ts->issued[3], ts->dir[0].short_ios,
		ts->dir[1].short_ios, ts->dir[2].short_ios, ts->dir[0].drop_ios, ts->dir[1].drop_ios,
		ts->dir[2].drop_ios);
	if (u->job->o.continue_on_error)
		fprintf(out, "     errors    : total=%" PRIu64 ", first_error=%d/<%s>\n", ts->nr_errors, ts->first_error,
			strerror(ts->first_error));
	fprintf(out, "     latency   : target=%" PRIu64 ", window=%" PRIu64 ", percentile=%.2f%%, depth=%u\n",
		u->lat.target_ns, u->lat.window_us, u->lat.pct, u->lat.depth);
	if (o->io.block_error_pct) /* fio's block states, which only trims change: none here */
		fprintf(out, "  block lifetime percentiles :\n   |        states               : unwritten=0, trimmed=0, "
			     "written=0, trim failure=0, write failure=0\n");
	if (u->ss.on)
		show_steadystate(out, &u->ss, units_of(o));
}

static void show_group(FILE *out, const struct group_summary *gs)
{
	char s[8][32];
	fprintf(out, "\nRun status group %u (all jobs):\n", gs->groupid);
	for (int d = 0; d <= DDIR_MIXED; d++) {
		if (!gs->max_run[d] && !gs->io_bytes[d])
			continue;
		if ((d == DDIR_MIXED) != (gs->unified == UNIFIED_MIXED) && gs->unified != UNIFIED_BOTH)
			continue;
		struct units u = { gs->kb_base == 1000, gs->unit_base == 1, (int)gs->sig_figs };
		fprintf(out, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%" PRIu64 "-%" PRIu64 "msec\n",
			ddir_upper[d], rate_txt(s[0], 32, gs->agg_bw[d], u, true),
			rate_txt(s[1], 32, gs->agg_bw[d], u, false), rate_txt(s[2], 32, gs->min_bw[d], u, true),
			rate_txt(s[3], 32, gs->max_bw[d], u, true), rate_txt(s[4], 32, gs->min_bw[d], u, false),
			rate_txt(s[5], 32, gs->max_bw[d], u, false), size_txt(s[6], 32, gs->io_bytes[d], u, true),
			size_txt(s[7], 32, gs->io_bytes[d], u, false), gs->min_run[d], gs->max_run[d]);
	}
}

/* --idle-prof: fio's lines after the disk stats (percpu: every CPU's share on one line). */
static void show_idle(FILE *out, const struct idle_result *ir)
{
	if (!ir->mode)
		return;
	fprintf(out, "\nCPU idleness:\n  system: %3.2f%%\n", ir->system_pct);
	if (ir->mode == 2) {
		fprintf(out, "  percpu: ");
		for (unsigned i = 0; i < ir->ncpus; i++)
			fprintf(out, "%s%3.2f%%", i ? ", " : "", ir->cpu_pct[i]);
		fprintf(out, "\n");
	}
	fprintf(out, "  unit work: mean=%3.2fus, stddev=%3.2f\n", ir->unit_mean_us, ir->unit_stddev_us);
}

/* --profile=act: ACT's table (fio's layout; one slice, the whole run) and its verdict. */
static void show_act(FILE *out, const struct act_result *a)
{
	const double *p = a->over_pct;
	fprintf(out, "        trans                   device\n        %%>(ms)                  %%>(ms)\n");
	fprintf(out, " slice\t  1\t  8\t 64\t  1\t  8\t 64\n");
	fprintf(out, " -----  -----   -----  ------   -----   -----  ------\n");
	fprintf(out, "    1\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\n\n", p[0], p[1], p[2], p[0], p[1], p[2]);
	fprintf(out, "act: test complete, device(s): %s\n", a->passed ? "PASSED" : "FAILED");
}

void report_normal(FILE *out, const struct run_results *r)
{
	if (r->act.on)
		show_act(out, &r->act);
	fprintf(out, "\n");
	for (size_t i = 0; i < r->nunits; i++) {
		const struct report_unit *u = &r->units[i];
		/* Cluster runs: each rank's blocks under its name, as fio's client output. */
		if (u->host && (i == 0 || r->units[i - 1].rank != u->rank))
			fprintf(out, "<%s>\n", u->host);
		/* As fio: a job that did no I/O has no block (create_only, exit_what=all's later
		 * groups); one that failed keeps it, with its err=. */
		const struct dir_stats *ds = u->ts.dir;
		if (!ds[0].total_ios && !ds[1].total_ios && !ds[2].total_ios && !u->ts.error && !u->ts.files_done)
			continue;
		show_unit(out, u, r);
	}
	for (unsigned g = 0; g < r->ngroups; g++)
		show_group(out, &r->groups[g]);
	if (r->ndisks)
		fprintf(out, "\nDisk stats (read/write):\n");
	for (unsigned i = 0; i < r->ndisks; i++) {
		const struct disk_report *d = &r->disks[i];
		fprintf(out, "  %s: ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64 "/%" PRIu64 ", ticks=%" PRIu64
			"/%" PRIu64 ", in_queue=%" PRIu64 ", util=%3.2f%%\n", d->name, d->ios[0], d->ios[1],
			d->merges[0], d->merges[1], d->ticks[0], d->ticks[1], d->in_queue, d->util_pct);
	}
	show_idle(out, &r->idle);
	fflush(out);
}

void report_idle_calibration(FILE *out, const struct idle_result *r)
{
	fprintf(out, "CPU idleness:\n  unit work: mean=%3.2fus, stddev=%3.2f\n", r->unit_mean_us, r->unit_stddev_us);
	fflush(out);
}
