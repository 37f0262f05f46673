/* --output-format=csv: one header line, then one row per reported job (RFC 4180). */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "report/report.h"

/* A field, RFC 4180: quoted when it holds a comma, a quote or a control character (a line
 * break among them), quotes doubled; a byte that is not UTF-8 written as U+FFFD, so the file
 * is always UTF-8. */
static void field(FILE *out, const char *s, bool last)
{
	const unsigned char *p = (const unsigned char *)s;
	bool quote = false;
	for (; *p && !quote; p++)
		quote = *p == ',' || *p == '"' || *p < 0x20 || *p == 0x7f;
	if (quote)
		fputc('"', out);
	for (p = (const unsigned char *)s; *p;) {
		size_t n = *p >= 0x80 ? utf8_len(p) : 1;
		if (!n) {
			fputs("\xef\xbf\xbd", out);
			p++;
			continue;
		}
		if (*p == '"')
			fputc('"', out);
		fwrite(p, 1, n, out);
		p += n;
	}
	if (quote)
		fputc('"', out);
	fputc(last ? '\n' : ',', out);
}

/* A float field; one that is not finite is left empty (a missing value, as RFC 4180
 * readers take it), so the row keeps its columns. */
static void float_field(FILE *out, int decimals, double v, bool last)
{
	char buf[400]; /* %f of DBL_MAX is 316 characters */
	if (isfinite(v))
		snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	else
		buf[0] = '\0';
	field(out, buf, last);
}

static const char *const dir_cols[] = { "iops", "bw_kib", "io_bytes", "clat_mean_us", "clat_p50_us",
					"clat_p90_us", "clat_p99_us", "clat_p99.9_us", "lat_mean_us" };

static void header(FILE *out, bool clients, unsigned nextra, const char *const *extra)
{
	static const char *const head[] = { "jobname", "groupid", "rw", "bs", "iodepth", "numjobs",
					    "ioengine", "direct", "runtime_ms" };
	for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		field(out, head[i], false);
	static const char *const dirs[] = { "read", "write", "trim" };
	for (int d = 0; d < DDIR_NR; d++)
		for (size_t i = 0; i < sizeof(dir_cols) / sizeof(dir_cols[0]); i++) {
			char name[64];
			snprintf(name, sizeof(name), "%s_%s", dirs[d], dir_cols[i]);
			field(out, name, false);
		}
	field(out, "usr_cpu", false);
	field(out, "sys_cpu", false);
	field(out, "cpu_limit", false);
	field(out, "memory_limit_bytes", false);
	field(out, "cpuset", nextra == 0 && !clients);
	if (clients)
		field(out, "hostname", nextra == 0);
	for (unsigned i = 0; i < nextra; i++)
		field(out, extra[i], i + 1 == nextra);
}

void report_csv_header(FILE *out)
{
	header(out, false, 0, NULL);
}

static void dir_fields(FILE *out, const struct report_unit *u, int d)
{
	const struct dir_stats *ds = &u->ts.dir[d];
	const uint64_t *p = u->dir[d].clat_key_ns;
	uint64_t run = u->dir[d].run_ms;
	char buf[64];
	float_field(out, 6, run ? (double)ds->total_ios * 1000.0 / (double)run : 0.0, false);
	snprintf(buf, sizeof(buf), "%" PRIu64, run ? ds->io_bytes * 1000 / run / 1024 : 0);
	field(out, buf, false);
	snprintf(buf, sizeof(buf), "%" PRIu64, ds->io_bytes);
	field(out, buf, false);
	float_field(out, 3, series_mean(&ds->clat) / 1000.0, false);
	for (int i = 0; i < KEY_PCT_NR; i++)
		float_field(out, 3, (double)p[i] / 1000.0, false);
	float_field(out, 3, series_mean(&ds->lat) / 1000.0, false);
}

/* The container's limits (empty where none applies): the cgroup CPU quota in CPUs, the memory
 * limit in bytes, the CPU set when it is narrower than the online CPUs. */
static void limit_fields(FILE *out, const struct cpu_limit *cl, bool last)
{
	char buf[32];
	float_field(out, 2, cl->quota_set ? cl->cpus : NAN, false);
	if (cl->mem_set)
		snprintf(buf, sizeof(buf), "%llu", cl->mem_bytes);
	else
		buf[0] = '\0';
	field(out, buf, false);
	field(out, cl->cpuset_restricted ? cl->cpuset : "", last);
}

void report_csv_sweep(FILE *out, const struct run_results *r, bool with_header, unsigned nextra,
		      const char *const *names, const char *const *values)
{
	if (with_header)
		header(out, r->clients, nextra, names);
	for (size_t i = 0; i < r->nunits; i++) {
		const struct report_unit *u = &r->units[i];
		const struct job_opts *o = &u->job->o;
		char buf[64];
		field(out, unit_name(u), false);
		snprintf(buf, sizeof(buf), "%u", u->groupid);
		field(out, buf, false);
		field(out, o->rw_text, false);
		field(out, u->jr->bs_text, false);
		snprintf(buf, sizeof(buf), "%u", o->iodepth);
		field(out, buf, false);
		snprintf(buf, sizeof(buf), "%u", u->nr_clones);
		field(out, buf, false);
		field(out, u->jr->engine, false);
		field(out, o->direct ? "1" : "0", false);
		snprintf(buf, sizeof(buf), "%" PRIu64, u->ts.runtime_ms);
		field(out, buf, false);
		dir_fields(out, u, DDIR_READ);
		dir_fields(out, u, DDIR_WRITE);
		dir_fields(out, u, DDIR_TRIM);
		double run_us = (double)u->ts.job_runtime_ms * 1000.0;
		float_field(out, 2, run_us > 0 ? (double)u->ts.usr_us * 100.0 / run_us : 0.0, false);
		float_field(out, 2, run_us > 0 ? (double)u->ts.sys_us * 100.0 / run_us : 0.0, false);
		limit_fields(out, &r->cpu_limit, nextra == 0 && !r->clients);
		if (r->clients)
			field(out, u->all_clients ? "All clients" : u->host, nextra == 0);
		for (unsigned k = 0; k < nextra; k++)
			field(out, values[k], k + 1 == nextra);
	}
	fflush(out);
}

void report_csv(FILE *out, const struct run_results *r, bool with_header)
{
	report_csv_sweep(out, r, with_header, 0, NULL, NULL);
}
