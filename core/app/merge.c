/* --merge A.json B.json ...: json+ results of several runs (fio's or ours, e.g. one per pod)
 * become one fio-style document with client_stats: every input job, with a hostname, and
 * an "All clients" entry whose amounts are sums and whose percentiles come from the summed
 * json+ bins, exactly (averaging percentiles would be wrong). Every value read from an
 * input is checked first (json_int.h): a bad one refuses the merge, naming it. */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "core/stats/stats.h"
#include "core/app/compare.h"
#include "report/report.h"

struct bin {
	uint64_t value, count;
};

struct merge {
	struct dir_totals sum[3];  /* All clients */
	uint64_t count[3];         /* of the summed bins: the sum must fit */
	struct dir_totals one;     /* one input's direction, as read */
	double pct[RESULTS_PCT_MAX];
	size_t npct;
	struct bin *bins; /* one input's bins, to look for a key given twice */
	size_t cap;
};

static const char *const dirs[] = { "read", "write", "trim" };

static void raw(cJSON *o, const char *k, const char *fmt, double v)
{
	char buf[400]; /* any finite double with %f */
	if (!isfinite(v))
		snprintf(buf, sizeof(buf), "null");
	else if (!strcmp(fmt, "int"))
		snprintf(buf, sizeof(buf), "%.0f", v);
	else
		snprintf(buf, sizeof(buf), "%f", v);
	cJSON_AddRawToObject(o, k, buf);
}

/* A bins key: a latency in ns, decimal digits that fit in 64 bits. */
static bool bin_key(const char *s, uint64_t *v)
{
	*v = 0;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || *v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return false;
		*v = *v * 10 + (uint64_t)(*s - '0');
	}
	return true;
}

static int bin_cmp(const void *x, const void *y)
{
	const struct bin *a = x, *b = y;
	return (a->value > b->value) - (a->value < b->value);
}

/* The bins of one direction, checked, into m->bins: *n of them, ascending. */
static int read_bins(struct merge *m, const struct jwhere *w, const cJSON *bins, size_t *n)
{
	const cJSON *b;
	bool sorted = true;
	*n = 0;
	cJSON_ArrayForEach(b, bins)
	{
		uint64_t v;
		if (!bin_key(b->string, &v))
			return json_refuse(w, "clat_ns.bins", b->string, "has a key that is not a latency in ns");
		if (json_check(w, "clat_ns.bins", b->string, b, cJSON_Number))
			return -EINVAL;
		if (b->valuedouble != floor(b->valuedouble))
			return json_refuse(w, "clat_ns.bins", b->string, "is not a whole number (%g)", b->valuedouble);
		if (*n == m->cap) {
			size_t cap = m->cap ? m->cap * 2 : 4096;
			struct bin *nb = realloc(m->bins, cap * sizeof(*nb));
			if (!nb)
				return fprintf(stderr, "iobench: --merge: out of memory\n"), -ENOMEM;
			m->bins = nb;
			m->cap = cap;
		}
		sorted = sorted && (!*n || v > m->bins[*n - 1].value);
		m->bins[(*n)++] = (struct bin){ v, (uint64_t)b->valuedouble };
	}
	if (!sorted) /* fio writes them ascending: only odd inputs pay for the sort */
		qsort(m->bins, *n, sizeof(*m->bins), bin_cmp);
	return 0;
}

/* One direction's bins into h; a key given twice counts once when its counts agree. All
 * clients' bins so far and these must add up to less than 2^64 (*count: their sum). */
static int hist_of_bins(struct merge *m, const struct jwhere *w, const cJSON *bins, struct hist *h,
			uint64_t *count)
{
	size_t n;
	int r = read_bins(m, w, bins, &n);
	for (size_t i = 0; !r && i < n; i++) {
		const struct bin *b = &m->bins[i];
		bool twice = i && b->value == b[-1].value;
		if (twice && b->count == b[-1].count)
			continue;
		if (twice || __builtin_add_overflow(*count, b->count, count)) {
			char key[24];
			snprintf(key, sizeof(key), "%" PRIu64, b->value);
			return json_refuse(w, "clat_ns.bins", key, "%s",
					   twice ? "appears twice" : "makes the bins of all clients add up past 2^64");
		}
		hist_add(h, b->value, b->count);
	}
	return r;
}

/* One direction of a job (w->dir) into m->one, added to s; none, or no I/O, adds nothing. */
static int add_dir(struct merge *m, const struct jwhere *w, const cJSON *dir, struct dir_totals *s, uint64_t *count)
{
	static const char *const amounts[] = { "io_bytes", "total_ios", "short_ios", "drop_ios",
					       "iops",	   "bw_bytes",	"runtime" };
	static const char *const clat_keys[] = { "N", "mean", "stddev", "min", "max" };
	double a[7], c[5];
	const cJSON *clat = NULL, *bins = NULL, *pct;
	for (int i = 0; i < 7; i++)
		if (json_number(w, dir, NULL, amounts[i], &a[i]) < 0)
			return -EINVAL;
	if (a[1] == 0)
		return 0;
	int r = json_member(w, dir, NULL, "clat_ns", cJSON_Object, &clat);
	if (!r && clat)
		r = json_member(w, clat, "clat_ns", "bins", cJSON_Object, &bins);
	if (!r && clat)
		r = json_member(w, clat, "clat_ns", "percentile", cJSON_Object, &pct);
	if (r)
		return r;
	if (!bins) {
		fprintf(stderr, "iobench: --merge: '%s' has no json+ bins (run with --output-format=json+)\n", w->path);
		return -EINVAL;
	}
	for (int i = 0; i < 5; i++)
		if (json_number(w, clat, "clat_ns", clat_keys[i], &c[i]) < 0)
			return -EINVAL;
	struct dir_totals *one = &m->one;
	memset(one, 0, sizeof(*one));
	if ((r = hist_of_bins(m, w, bins, &one->clat_hist, count)))
		return r;
	one->io_bytes = a[0];
	one->total_ios = a[1];
	one->short_ios = a[2];
	one->drop_ios = a[3];
	one->iops = a[4];
	one->bw_bytes = a[5];
	one->runtime_ms = a[6];
	one->clat = series_pool_of(c[0], c[1], c[2], c[3], c[4]);
	dir_totals_merge(s, one);
	return 0;
}

static void put_dir(cJSON *job, const char *name, const struct dir_totals *s, const double *pct, size_t npct)
{
	cJSON *o = cJSON_AddObjectToObject(job, name);
	raw(o, "io_bytes", "int", s->io_bytes);
	raw(o, "io_kbytes", "int", floor(s->io_bytes / 1024));
	raw(o, "bw_bytes", "int", s->bw_bytes);
	raw(o, "bw", "int", floor(s->bw_bytes / 1024));
	raw(o, "iops", "flt", s->iops);
	raw(o, "runtime", "int", s->runtime_ms);
	raw(o, "total_ios", "int", s->total_ios);
	raw(o, "short_ios", "int", s->short_ios);
	raw(o, "drop_ios", "int", s->drop_ios);
	cJSON *c = cJSON_AddObjectToObject(o, "clat_ns");
	raw(c, "min", "int", s->clat.min);
	raw(c, "max", "int", s->clat.max);
	raw(c, "mean", "flt", series_pool_mean(&s->clat));
	raw(c, "stddev", "flt", series_pool_stddev(&s->clat));
	raw(c, "N", "int", s->clat.n);
	if (!s->clat.any)
		return;
	uint64_t val[RESULTS_PCT_MAX];
	hist_percentiles(&s->clat_hist, pct, npct, val);
	cJSON *p = cJSON_AddObjectToObject(c, "percentile");
	for (size_t i = 0; i < npct; i++) {
		char key[32];
		snprintf(key, sizeof(key), "%f", pct[i]);
		raw(p, key, "int", (double)val[i]);
	}
	cJSON *bins = cJSON_AddObjectToObject(c, "bins");
	for (unsigned i = 0; i < HIST_NR; i++)
		if (s->clat_hist.bucket[i]) {
			char key[32];
			snprintf(key, sizeof(key), "%" PRIu64, hist_bucket_value(i));
			raw(bins, key, "int", (double)s->clat_hist.bucket[i]);
		}
}

/* The percentile list of a direction (its first 20 keys: percentages, ascending): *n of
 * them, 0 when it has none. */
static int percentile_list(struct merge *m, const struct jwhere *w, const cJSON *dir)
{
	const cJSON *clat, *p = NULL, *e;
	int r = json_member(w, dir, NULL, "clat_ns", cJSON_Object, &clat);
	if (!r && clat)
		r = json_member(w, clat, "clat_ns", "percentile", cJSON_Object, &p);
	size_t n = 0;
	cJSON_ArrayForEach(e, p)
	{
		if (r || n == RESULTS_PCT_MAX)
			break;
		char *end;
		double v = strtod(e->string, &end);
		if (end == e->string || *end || !(v > 0 && v <= 100) || (n && v < m->pct[n - 1]))
			return json_refuse(w, "clat_ns.percentile", e->string,
					   "has a key that is not a percentage (ascending, 0 to 100)");
		m->pct[n++] = v;
	}
	m->npct = r ? 0 : n;
	return r;
}

/* One job (w->job): its directions added up; the first percentile list is the one used. */
static int merge_job(struct merge *m, struct jwhere *w, const cJSON *job)
{
	const char *name;
	int r = json_job(w, job, &name);
	for (int d = 0; !r && d < 3; d++) {
		const cJSON *dir;
		w->dir = NULL;
		r = json_member(w, job, NULL, dirs[d], cJSON_Object, &dir);
		w->dir = dirs[d];
		if (!r && dir && !m->npct)
			r = percentile_list(m, w, dir);
		if (!r && dir)
			r = add_dir(m, w, dir, &m->sum[d], &m->count[d]);
	}
	w->dir = NULL;
	if (!r && !m->npct) { /* the first job has none: fio's default list */
		m->npct = JOB_DEFAULT_NPCT;
		memcpy(m->pct, job_default_pct, sizeof(job_default_pct));
	}
	return r;
}

/* One input: its jobs, checked, moved (not copied) into clients with a hostname. */
static int merge_file(struct merge *m, cJSON *clients, const char *path)
{
	cJSON *doc = json_load_result(path, "--merge");
	if (!doc)
		return -EINVAL;
	char name[PATH_MAX];
	snprintf(name, sizeof(name), "%s", path);
	char *host = basename(name), *dot = strrchr(host, '.');
	if (dot && !strcmp(dot, ".json"))
		*dot = '\0';
	cJSON *jobs = cJSON_GetObjectItemCaseSensitive(doc, "jobs"), *next;
	int r = 0;
	size_t i = 0;
	for (cJSON *job = jobs->child; job && !r; job = next, i++) {
		struct jwhere w = { "--merge", path, i, NULL };
		next = job->next;
		r = merge_job(m, &w, job);
		if (r)
			break;
		cJSON_DetachItemViaPointer(jobs, job);
		if (!cJSON_GetObjectItemCaseSensitive(job, "hostname"))
			cJSON_AddStringToObject(job, "hostname", host);
		cJSON_AddItemToArray(clients, job);
	}
	cJSON_Delete(doc);
	return r;
}

static void put_all(cJSON *clients, const struct merge *m)
{
	cJSON *all = cJSON_CreateObject();
	cJSON_AddItemToArray(clients, all);
	cJSON_AddStringToObject(all, "jobname", "All clients");
	raw(all, "groupid", "int", 0);
	raw(all, "error", "int", 0);
	for (int d = 0; d < 3; d++)
		put_dir(all, dirs[d], &m->sum[d], m->pct, m->npct);
}

int report_merge(FILE *out, char *const *paths, int n)
{
	struct merge *m = calloc(1, sizeof(*m));
	cJSON *root = cJSON_CreateObject(), *clients = NULL;
	int ret = m && root ? 0 : -ENOMEM;
	if (!ret) {
		cJSON_AddStringToObject(root, "fio version", IOBENCH_VERSION_STRING);
		struct timeval tv;
		gettimeofday(&tv, NULL);
		char when[64];
		fmt_time(when, sizeof(when), tv.tv_sec);
		raw(root, "timestamp", "int", (double)tv.tv_sec);
		raw(root, "timestamp_ms", "int", (double)tv.tv_sec * 1000 + tv.tv_usec / 1000);
		cJSON_AddStringToObject(root, "time", when);
		clients = cJSON_AddArrayToObject(root, "client_stats");
	}
	for (int i = 0; i < n && !ret; i++)
		ret = merge_file(m, clients, paths[i]);
	if (!ret) {
		put_all(clients, m);
		json_print_fio(out, root, 0);
		fputc('\n', out);
	}
	cJSON_Delete(root);
	if (m)
		free(m->bins);
	free(m);
	return ret;
}
