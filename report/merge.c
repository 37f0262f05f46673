/* --merge A.json B.json ...: json+ results of several runs (fio's or ours, e.g. one per pod)
 * become one fio-style document with client_stats: every input job, with a hostname, and
 * an "All clients" entry whose amounts are sums and whose percentiles come from the summed
 * json+ bins, exactly (averaging percentiles would be wrong). */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "core/hist.h"
#include "report/json_int.h"
#include "report/report.h"

struct dir_sum {
	double io_bytes, total_ios, short_ios, drop_ios, iops, bw_bytes, runtime;
	double n, min, max, sum, sumsq; /* clat */
	struct hist bins;
	bool any;
};

static double get(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItem(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : 0.0;
}

static void raw(cJSON *o, const char *k, const char *fmt, double v)
{
	char buf[64];
	if (!strcmp(fmt, "int"))
		snprintf(buf, sizeof(buf), "%.0f", v);
	else
		snprintf(buf, sizeof(buf), "%f", v);
	cJSON_AddRawToObject(o, k, buf);
}

static int add_dir(struct dir_sum *s, const cJSON *dir, const char *path)
{
	if (!dir || get(dir, "total_ios") == 0)
		return 0;
	const cJSON *clat = cJSON_GetObjectItem(dir, "clat_ns");
	const cJSON *bins = cJSON_GetObjectItem(clat, "bins");
	if (!bins) {
		fprintf(stderr, "iobench: --merge: '%s' has no json+ bins (run with --output-format=json+)\n", path);
		return -EINVAL;
	}
	s->io_bytes += get(dir, "io_bytes");
	s->total_ios += get(dir, "total_ios");
	s->short_ios += get(dir, "short_ios");
	s->drop_ios += get(dir, "drop_ios");
	s->iops += get(dir, "iops");
	s->bw_bytes += get(dir, "bw_bytes");
	if (get(dir, "runtime") > s->runtime)
		s->runtime = get(dir, "runtime");
	double n = get(clat, "N"), mean = get(clat, "mean"), sd = get(clat, "stddev");
	if (!s->any || get(clat, "min") < s->min)
		s->min = get(clat, "min");
	if (get(clat, "max") > s->max)
		s->max = get(clat, "max");
	s->n += n;
	s->sum += n * mean;
	s->sumsq += (n > 1 ? (n - 1) * sd * sd : 0) + n * mean * mean;
	s->any = true;
	const cJSON *b;
	cJSON_ArrayForEach(b, bins)
	{
		uint64_t value = strtoull(b->string, NULL, 10);
		s->bins.bucket[hist_index(value)] += (uint64_t)b->valuedouble;
	}
	return 0;
}

static void put_dir(cJSON *job, const char *name, const struct dir_sum *s, const double *pct, size_t npct)
{
	cJSON *o = cJSON_AddObjectToObject(job, name);
	raw(o, "io_bytes", "int", s->io_bytes);
	raw(o, "io_kbytes", "int", floor(s->io_bytes / 1024));
	raw(o, "bw_bytes", "int", s->bw_bytes);
	raw(o, "bw", "int", floor(s->bw_bytes / 1024));
	raw(o, "iops", "flt", s->iops);
	raw(o, "runtime", "int", s->runtime);
	raw(o, "total_ios", "int", s->total_ios);
	raw(o, "short_ios", "int", s->short_ios);
	raw(o, "drop_ios", "int", s->drop_ios);
	cJSON *c = cJSON_AddObjectToObject(o, "clat_ns");
	double mean = s->n ? s->sum / s->n : 0, var = s->n > 1 ? (s->sumsq - s->n * mean * mean) / (s->n - 1) : 0;
	raw(c, "min", "int", s->min);
	raw(c, "max", "int", s->max);
	raw(c, "mean", "flt", mean);
	raw(c, "stddev", "flt", var > 0 ? sqrt(var) : 0);
	raw(c, "N", "int", s->n);
	if (!s->any)
		return;
	uint64_t val[32];
	hist_percentiles(&s->bins, pct, npct, val);
	cJSON *p = cJSON_AddObjectToObject(c, "percentile");
	for (size_t i = 0; i < npct; i++) {
		char key[32];
		snprintf(key, sizeof(key), "%f", pct[i]);
		raw(p, key, "int", (double)val[i]);
	}
	cJSON *bins = cJSON_AddObjectToObject(c, "bins");
	for (unsigned i = 0; i < HIST_NR; i++)
		if (s->bins.bucket[i]) {
			char key[32];
			snprintf(key, sizeof(key), "%" PRIu64, hist_bucket_value(i));
			raw(bins, key, "int", (double)s->bins.bucket[i]);
		}
}

/* The percentile list of the first job that has one (fio's default otherwise). */
static size_t percentile_list(const cJSON *job, double *pct)
{
	static const double def[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };
	static const char *const dirs[] = { "read", "write", "trim" };
	for (int d = 0; d < 3; d++) {
		const cJSON *p = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(job, dirs[d]), "clat_ns"),
						     "percentile");
		size_t n = 0;
		const cJSON *e;
		cJSON_ArrayForEach(e, p) if (n < 20) pct[n++] = strtod(e->string, NULL);
		if (n)
			return n;
	}
	memcpy(pct, def, sizeof(def));
	return sizeof(def) / sizeof(def[0]);
}

int report_merge(FILE *out, char *const *paths, int n)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	struct dir_sum *sum = calloc(3, sizeof(*sum));
	cJSON *root = cJSON_CreateObject(), *clients = NULL;
	double pct[20];
	size_t npct = 0;
	int ret = sum && root ? 0 : -ENOMEM;
	if (!ret) {
		cJSON_AddStringToObject(root, "fio version", "iobench-" IOBENCH_VERSION);
		struct timeval tv;
		gettimeofday(&tv, NULL);
		char when[64];
		fmt_time(when, sizeof(when), tv.tv_sec);
		raw(root, "timestamp", "int", (double)tv.tv_sec);
		raw(root, "timestamp_ms", "int", (double)tv.tv_sec * 1000 + tv.tv_usec / 1000);
		cJSON_AddStringToObject(root, "time", when);
		clients = cJSON_AddArrayToObject(root, "client_stats");
	}
	for (int i = 0; i < n && !ret; i++) {
		cJSON *doc = json_load_result(paths[i], "--merge");
		if (!doc) {
			ret = -EINVAL;
			break;
		}
		char name[PATH_MAX];
		snprintf(name, sizeof(name), "%s", paths[i]);
		char *host = basename(name), *dot = strrchr(host, '.');
		if (dot && !strcmp(dot, ".json"))
			*dot = '\0';
		const cJSON *job;
		cJSON_ArrayForEach(job, cJSON_GetObjectItem(doc, "jobs"))
		{
			if (!npct)
				npct = percentile_list(job, pct);
			for (int d = 0; d < 3 && !ret; d++)
				ret = add_dir(&sum[d], cJSON_GetObjectItem(job, dirs[d]), paths[i]);
			cJSON *copy = cJSON_Duplicate(job, 1);
			if (copy && !cJSON_GetObjectItem(copy, "hostname"))
				cJSON_AddStringToObject(copy, "hostname", host);
			if (copy)
				cJSON_AddItemToArray(clients, copy);
		}
		cJSON_Delete(doc);
	}
	if (!ret) {
		cJSON *all = cJSON_CreateObject();
		cJSON_AddItemToArray(clients, all);
		cJSON_AddStringToObject(all, "jobname", "All clients");
		raw(all, "groupid", "int", 0);
		raw(all, "error", "int", 0);
		for (int d = 0; d < 3; d++)
			put_dir(all, dirs[d], &sum[d], pct, npct);
		json_print_fio(out, root, 0);
		fputc('\n', out);
	}
	cJSON_Delete(root);
	free(sum);
	return ret;
}
