/* fio's JSON and JSON+ formats: the same keys, nesting, order and number types
 * (integers as integers, floats always with 6 decimals). The tree is built with cJSON;
 * numbers go in as raw text so their type survives, and the printer lays it out as fio. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/json_int.h"
#include "report/report.h"

static void jint(cJSON *o, const char *key, int64_t v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%" PRId64, v);
	cJSON_AddRawToObject(o, key, buf);
}

/* A float with fio's 6 decimals; JSON has no inf or NaN, so those are null. */
static void jflt(cJSON *o, const char *key, double v)
{
	char buf[400]; /* %f of DBL_MAX is 316 characters */
	if (isfinite(v))
		snprintf(buf, sizeof(buf), "%f", v);
	else
		snprintf(buf, sizeof(buf), "null");
	cJSON_AddRawToObject(o, key, buf);
}

/* fio's "steadystate" block: the criterion as a string ("iops:5.000000%"), the window's
 * samples oldest first (integers: IOPS, bytes/s) and their means. */
static void add_steadystate(cJSON *job, const struct steady_result *ss)
{
	static const char *const names[] = { [SS_IOPS] = "iops", [SS_BW] = "bw", [SS_IOPS | SS_SLOPE] = "iops_slope",
					      [SS_BW | SS_SLOPE] = "bw_slope" };
	char text[400];
	cJSON *o = cJSON_AddObjectToObject(job, "steadystate");
	snprintf(text, sizeof(text), "%s:%f%s", names[ss->crit & 7] ? names[ss->crit & 7] : "?", ss->limit,
		 ss->pct ? "%" : "");
	cJSON_AddStringToObject(o, "ss", text);
	jint(o, "duration", (int64_t)ss->duration_s);
	jint(o, "attained", ss->attained);
	snprintf(text, sizeof(text), "%f%s", isfinite(ss->criterion) ? ss->criterion : 0.0, ss->pct ? "%" : "");
	cJSON_AddStringToObject(o, "criterion", text);
	jflt(o, "max_deviation", ss->max_dev);
	jflt(o, "slope", ss->slope);
	cJSON *data = cJSON_AddObjectToObject(o, "data");
	jint(data, "bw_mean", (int64_t)ss->bw_mean);
	jint(data, "iops_mean", (int64_t)ss->iops_mean);
	cJSON *iops = cJSON_AddArrayToObject(data, "iops"), *bw = cJSON_AddArrayToObject(data, "bw");
	for (unsigned i = 0; i < ss->n; i++) {
		char num[32];
		snprintf(num, sizeof(num), "%" PRIu64, ss->iops[i]);
		cJSON_AddItemToArray(iops, cJSON_CreateRaw(num));
		snprintf(num, sizeof(num), "%" PRIu64, ss->bw[i]);
		cJSON_AddItemToArray(bw, cJSON_CreateRaw(num));
	}
}

static void add_options(cJSON *parent, const char *key, const struct opt_list *l)
{
	cJSON *o = cJSON_AddObjectToObject(parent, key);
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].value) /* fio leaves bare flags out; a secret's value came as <redacted> */
			cJSON_AddStringToObject(o, l->v[i].name, l->v[i].value);
}

static cJSON *add_series(cJSON *parent, const char *key, const struct series *s)
{
	cJSON *o = cJSON_AddObjectToObject(parent, key);
	jint(o, "min", (int64_t)s->min);
	jint(o, "max", (int64_t)s->max);
	jflt(o, "mean", series_mean(s));
	jflt(o, "stddev", series_stddev(s));
	jint(o, "N", (int64_t)s->n);
	return o;
}

static void add_percentiles(cJSON *o, const struct pct_values *pv, const struct hist *h, const struct job_opts *jo,
			    bool plus)
{
	if (!pv->samples)
		return;
	cJSON *p = cJSON_AddObjectToObject(o, "percentile");
	for (size_t i = 0; i < jo->npct; i++) {
		char key[32];
		snprintf(key, sizeof(key), "%f", jo->pct_list[i]);
		jint(p, key, (int64_t)pv->ns[i]);
	}
	if (!plus)
		return;
	cJSON *bins = cJSON_AddObjectToObject(o, "bins");
	for (unsigned i = 0; i < HIST_NR; i++) {
		if (!h->bucket[i])
			continue;
		char key[32];
		snprintf(key, sizeof(key), "%" PRIu64, hist_bucket_value(i));
		jint(bins, key, (int64_t)h->bucket[i]);
	}
}

/* cmdprio: fio's "prios" array, one entry per priority the direction's I/Os had. */
static void add_prios(cJSON *o, const struct dir_result *v, const struct job_opts *jo, bool plus)
{
	if (!v->nprios)
		return;
	cJSON *arr = cJSON_AddArrayToObject(o, "prios");
	for (unsigned i = 0; i < v->nprios; i++) {
		const struct prio_result *p = &v->prios[i];
		cJSON *e = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, e);
		jint(e, "prioclass", p->cls);
		jint(e, "prio", p->level);
		cJSON *lat = add_series(e, v->prio_lat ? "lat_ns" : "clat_ns", &p->lat);
		if (v->prio_lat ? jo->lat_percentiles : jo->clat_percentiles)
			add_percentiles(lat, &p->pct, p->hist, jo, plus);
	}
}

static void add_ddir(cJSON *job, const struct report_unit *u, const struct dir_result *v, bool plus)
{
	const struct dir_stats *ds = v->ds;
	const struct job_opts *jo = &u->job->o;
	uint64_t run = v->run_ms;
	uint64_t bw_bytes = run ? ds->io_bytes * 1000 / run : 0;
	cJSON *o = cJSON_AddObjectToObject(job, v->name);
	jint(o, "io_bytes", (int64_t)ds->io_bytes);
	jint(o, "io_kbytes", (int64_t)(ds->io_bytes / 1024));
	jint(o, "bw_bytes", (int64_t)bw_bytes);
	jint(o, "bw", (int64_t)(bw_bytes / 1024));
	jflt(o, "iops", run ? (double)ds->total_ios * 1000.0 / (double)run : 0.0);
	jint(o, "runtime", (int64_t)run);
	jint(o, "total_ios", (int64_t)ds->total_ios);
	jint(o, "short_ios", (int64_t)ds->short_ios);
	jint(o, "drop_ios", (int64_t)ds->drop_ios);
	cJSON *slat = add_series(o, "slat_ns", &ds->slat);
	if (jo->slat_percentiles)
		add_percentiles(slat, &v->slat_pct, &ds->slat_hist, jo, plus);
	cJSON *clat = add_series(o, "clat_ns", &ds->clat);
	if (jo->clat_percentiles)
		add_percentiles(clat, &v->clat_pct, &ds->clat_hist, jo, plus);
	cJSON *lat = add_series(o, "lat_ns", &ds->lat);
	if (jo->lat_percentiles)
		add_percentiles(lat, &v->lat_pct, &ds->lat_hist, jo, plus);
	add_prios(o, v, jo, plus);
	jint(o, "bw_min", (int64_t)v->bw.min);
	jint(o, "bw_max", (int64_t)v->bw.max);
	jflt(o, "bw_agg", v->bw_agg_pct);
	jflt(o, "bw_mean", v->bw.mean);
	jflt(o, "bw_dev", sample_summary_stddev(&v->bw));
	jint(o, "bw_samples", (int64_t)v->bw.samples);
	jint(o, "iops_min", (int64_t)v->iops.min);
	jint(o, "iops_max", (int64_t)v->iops.max);
	jflt(o, "iops_mean", v->iops.mean);
	jflt(o, "iops_stddev", sample_summary_stddev(&v->iops));
	jint(o, "iops_samples", (int64_t)v->iops.samples);
}

static void add_map(cJSON *job, const char *key, const char *const *names, const uint64_t *map)
{
	uint64_t total = 0;
	for (int i = 0; i < DEPTH_MAP_NR; i++)
		total += map[i];
	cJSON *o = cJSON_AddObjectToObject(job, key);
	for (int i = 0; i < DEPTH_MAP_NR; i++)
		jflt(o, names[i], share_pct(map[i], total, 0.1));
}

static void add_lat_buckets(cJSON *job, const struct thread_stats *ts)
{
	static const char *const keys[] = { "latency_ns", "latency_us", "latency_ms" };
	static const unsigned first[] = { 0, LATB_NSEC, LATB_NSEC + LATB_USEC, LATB_NR };
	uint64_t total = 0;
	for (int d = 0; d < DDIR_NR; d++)
		total += ts->dir[d].total_ios;
	for (int g = 0; g < 3; g++) {
		cJSON *o = cJSON_AddObjectToObject(job, keys[g]);
		for (unsigned i = first[g]; i < first[g + 1]; i++) {
			char key[16];
			snprintf(key, sizeof(key), "%s%u", i == LATB_NR - 1 ? ">=" : "", lat_bucket_label[i]);
			jflt(o, key, share_pct(ts->lat_buckets[i], total, 0.01));
		}
	}
}

static void add_unit(cJSON *jobs, const struct report_unit *u, bool plus)
{
	static const char *const depth_names[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const batch_names[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	const struct thread_stats *ts = &u->ts;
	const struct job_opts *o = &u->job->o;
	cJSON *job = cJSON_CreateObject();
	cJSON_AddItemToArray(jobs, job);
	cJSON_AddStringToObject(job, "jobname", unit_name(u));
	jint(job, "groupid", u->groupid);
	jint(job, "error", ts->error);
	if (!u->host && !u->all_clients) { /* fio's client entries have no eta and elapsed */
		jint(job, "eta", 0);
		jint(job, "elapsed", (int64_t)u->elapsed_s);
	}
	if (!u->all_clients && u->options->n) /* fio: none for a job given no options of its own */
		add_options(job, "job options", u->options);
	/* fio's order: read, write, trim, sync, then mixed (unified_rw_reporting=both);
	 * a mixed-only report has no sync. */
	const struct dir_result *views[DDIR_NR + 1];
	unsigned nv = report_dir_views(u, views);
	for (unsigned i = 0; i < nv; i++)
		if (views[i]->slot != DDIR_MIXED)
			add_ddir(job, u, views[i], plus);
	if (o->unified != UNIFIED_MIXED) {
		cJSON *sync = cJSON_AddObjectToObject(job, "sync");
		jint(sync, "total_ios", (int64_t)ts->sync_lat.n);
		add_percentiles(add_series(sync, "lat_ns", &ts->sync_lat), &u->sync_pct, &ts->sync_hist, o, false);
	}
	if (nv && views[nv - 1]->slot == DDIR_MIXED)
		add_ddir(job, u, views[nv - 1], plus);
	double run_us = (double)ts->job_runtime_ms * 1000.0;
	jint(job, "job_runtime", (int64_t)ts->job_runtime_ms);
	jflt(job, "usr_cpu", run_us > 0 ? (double)ts->usr_us * 100.0 / run_us : 0.0);
	jflt(job, "sys_cpu", run_us > 0 ? (double)ts->sys_us * 100.0 / run_us : 0.0);
	jint(job, "ctx", (int64_t)ts->ctx);
	jint(job, "majf", (int64_t)ts->majf);
	jint(job, "minf", (int64_t)ts->minf);
	add_map(job, "iodepth_level", depth_names, ts->depth_map);
	add_map(job, "iodepth_submit", batch_names, ts->submit_map);
	add_map(job, "iodepth_complete", batch_names, ts->complete_map);
	add_lat_buckets(job, ts);
	if (o->continue_on_error) { /* fio's: the errors of the types it covers */
		jint(job, "total_err", (int64_t)ts->nr_errors);
		jint(job, "first_error", ts->first_error);
	}
	if (!u->all_clients && !o->io.create_only) { /* fio: none for a job that only laid out */
		jint(job, "latency_depth", u->lat.depth);
		jint(job, "latency_target", (int64_t)u->lat.target_ns);
		jflt(job, "latency_percentile", u->lat.pct);
		jint(job, "latency_window", (int64_t)u->lat.window_us);
	}
	if (ts->files_done) { /* opendir whole-file reads (not in fio) */
		cJSON *wf = cJSON_AddObjectToObject(job, "whole_files");
		jint(wf, "files", (int64_t)ts->files_done);
		jflt(wf, "files_per_sec", ts->runtime_ms ? (double)ts->files_done * 1000.0 / (double)ts->runtime_ms : 0.0);
		add_percentiles(add_series(wf, "open_close_ns", &ts->file_oc), &u->file_oc_pct, &ts->file_oc_hist, o,
				false);
	}
	if (o->description[0] && !u->all_clients)
		cJSON_AddStringToObject(job, "desc", o->description);
	if (u->ss.on)
		add_steadystate(job, &u->ss);
	if (u->host || u->all_clients) { /* fio's client shape: hostname and port; here the rank */
		cJSON_AddStringToObject(job, "hostname", u->all_clients ? "All clients" : u->host);
		jint(job, "port", u->all_clients ? -1 : (int64_t)u->rank);
	}
}

/* ---- printing in fio's layout: "key" : value, two-space indents ---- */

static void print_indent(FILE *out, int depth)
{
	for (int i = 0; i < depth; i++)
		fputs("  ", out);
}

/* As cJSON's printer for valid UTF-8 (fio's shapes stay the same): '"' and '\\' escaped,
 * \b \f \n \r \t, other control characters as \u00XX. A byte that is not part of a valid
 * UTF-8 sequence is written as \u00XX too, so the output is always valid JSON. */
void json_print_string(FILE *out, const char *s)
{
	static const char named[] = "\"\\\b\f\n\r\t", letter[] = "\"\\bfnrt";
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	fputc('"', out);
	while (*p) {
		size_t n = *p >= 0x80 ? utf8_len(p) : 0;
		if (n) {
			fwrite(p, 1, n, out);
			p += n;
			continue;
		}
		const char *e = strchr(named, *p);
		if (e)
			fprintf(out, "\\%c", letter[e - named]);
		else if (*p < 0x20 || *p >= 0x80)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
		p++;
	}
	fputc('"', out);
}

void json_print_fio(FILE *out, const cJSON *v, int depth)
{
	if (cJSON_IsRaw(v)) {
		fputs(v->valuestring, out);
	} else if (cJSON_IsString(v)) {
		json_print_string(out, v->valuestring);
	} else if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
		bool obj = cJSON_IsObject(v);
		fputs(obj ? "{\n" : "[\n", out);
		for (const cJSON *c = v->child; c; c = c->next) {
			print_indent(out, depth + 1);
			if (obj) {
				json_print_string(out, c->string);
				fputs(" : ", out);
			}
			json_print_fio(out, c, depth + 1);
			fputs(c->next ? ",\n" : "\n", out);
		}
		print_indent(out, depth);
		fputs(obj ? "}" : "]", out);
	} else {
		char *text = cJSON_PrintUnformatted(v);
		fputs(text ? text : "null", out);
		free(text);
	}
}

static void add_disks(cJSON *root, const struct run_results *r)
{
	cJSON *du = cJSON_AddArrayToObject(root, "disk_util");
	for (unsigned i = 0; i < r->ndisks; i++) {
		const struct disk_report *dr = &r->disks[i];
		cJSON *d = cJSON_CreateObject();
		cJSON_AddItemToArray(du, d);
		cJSON_AddStringToObject(d, "name", dr->name);
		jint(d, "read_ios", (int64_t)dr->ios[0]);
		jint(d, "write_ios", (int64_t)dr->ios[1]);
		jint(d, "read_merges", (int64_t)dr->merges[0]);
		jint(d, "write_merges", (int64_t)dr->merges[1]);
		jint(d, "read_ticks", (int64_t)dr->ticks[0]);
		jint(d, "write_ticks", (int64_t)dr->ticks[1]);
		jint(d, "in_queue", (int64_t)dr->in_queue);
		jflt(d, "util", dr->util_pct);
	}
}

/* --idle-prof: fio's cpu_idleness, floats all: system, then (percpu) cpu-N, the unit's time. */
static void add_idle(cJSON *root, const struct idle_result *ir)
{
	cJSON *o = cJSON_AddObjectToObject(root, "cpu_idleness");
	jflt(o, "system", ir->system_pct);
	for (unsigned i = 0; ir->mode == 2 && i < ir->ncpus; i++) {
		char key[32];
		snprintf(key, sizeof(key), "cpu-%u", ir->cpu[i]);
		jflt(o, key, ir->cpu_pct[i]);
	}
	jflt(o, "unit_mean", ir->unit_mean_us);
	jflt(o, "unit_stddev", ir->unit_stddev_us);
}

/* "iobench container": the limits this process ran under, when any applies (docs/output.md).
 * Every key is always there; a limit that does not apply is null. */
static void add_container(cJSON *root, const struct cpu_limit *cl)
{
	if (!cl->quota_set && !cl->mem_set && !cl->cpuset_restricted)
		return;
	cJSON *o = cJSON_AddObjectToObject(root, "iobench container");
	if (cl->quota_set) {
		jflt(o, "cpu_limit", cl->cpus);
		jint(o, "cpu_quota_us", cl->quota_us);
		jint(o, "cpu_period_us", cl->period_us);
		jint(o, "cpu_cgroup_version", cl->cgroup_version);
		cJSON_AddStringToObject(o, "cpu_cgroup", cl->where);
	} else {
		const char *k[] = { "cpu_limit", "cpu_quota_us", "cpu_period_us", "cpu_cgroup_version",
				    "cpu_cgroup" };
		for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
			cJSON_AddNullToObject(o, k[i]);
	}
	if (cl->mem_set) {
		jint(o, "memory_limit_bytes", (int64_t)cl->mem_bytes);
		jint(o, "memory_cgroup_version", cl->mem_cgroup_version);
		cJSON_AddStringToObject(o, "memory_cgroup", cl->mem_where);
	} else {
		cJSON_AddNullToObject(o, "memory_limit_bytes");
		cJSON_AddNullToObject(o, "memory_cgroup_version");
		cJSON_AddNullToObject(o, "memory_cgroup");
	}
	if (cl->cpuset_restricted)
		cJSON_AddStringToObject(o, "cpuset", cl->cpuset);
	else
		cJSON_AddNullToObject(o, "cpuset");
	jint(o, "cpuset_cpus", cl->cpuset_n);
	jint(o, "online_cpus", cl->online_n);
}

int report_json(FILE *out, const struct run_results *r, bool plus)
{
	char when[64];
	cJSON *root = cJSON_CreateObject();
	if (!root)
		return -ENOMEM;
	cJSON_AddStringToObject(root, "fio version", IOBENCH_VERSION_STRING);
	jint(root, "timestamp", (int64_t)r->end_time);
	jint(root, "timestamp_ms", (int64_t)r->end_ms);
	fmt_time(when, sizeof(when), r->end_time);
	cJSON_AddStringToObject(root, "time", when);
	if (r->globals.n)
		add_options(root, "global options", &r->globals);
	cJSON *jobs = cJSON_AddArrayToObject(root, r->clients ? "client_stats" : "jobs");
	for (size_t i = 0; i < r->nunits; i++)
		add_unit(jobs, &r->units[i], plus);
	if (r->ndisks)
		add_disks(root, r);
	if (r->idle.mode)
		add_idle(root, &r->idle);
	add_container(root, &r->cpu_limit);
	json_print_fio(out, root, 0);
	fputs("\n", out);
	cJSON_Delete(root);
	fflush(out);
	return ferror(out) ? -EIO : 0;
}

int report_json_sweep_point(FILE *out, bool first, unsigned n, const char *const *names, const char *const *values,
			    const struct run_results *r, bool plus, int status, const char *why)
{
	fputs(first ? "    {\n      \"values\" : {" : ",\n    {\n      \"values\" : {", out);
	for (unsigned k = 0; k < n; k++) {
		fputs(k ? ", " : " ", out);
		json_print_string(out, names[k]);
		fputs(" : ", out);
		json_print_string(out, values[k]);
	}
	fputs(" }", out);
	if (status) {
		fprintf(out, ",\n      \"exit_status\" : %d", status);
		if (!r || (why && why[0])) {
			fputs(",\n      \"error\" : ", out);
			json_print_string(out, why && why[0] ? why : "it could not be prepared (no message)");
		}
	}
	int ret = 0;
	if (r) {
		fputs(",\n      \"result\" : ", out);
		ret = report_json(out, r, plus);
		fputs("    }", out);
	} else {
		fputs("\n    }", out);
	}
	fflush(out);
	return ret ? ret : ferror(out) ? -EIO : 0;
}
