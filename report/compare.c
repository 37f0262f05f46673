/* --compare BASE.json NEW.json: two fio-style JSON results (fio's or ours), jobs matched by
 * name (and occurrence) and direction; metric, base, new and delta in %. With a
 * threshold, a drop of IOPS or bandwidth, or a rise of p99, by more than it is a
 * regression (exit status 2). cJSON reads the inputs here, as in report/json.c. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/json_int.h"
#include "report/report.h"

cJSON *json_load_result(const char *path, const char *what)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "iobench: %s: cannot open '%s': %s\n", what, path, strerror(errno));
		return NULL;
	}
	char *buf = NULL;
	size_t cap = 0, len = 0;
	for (;;) {
		if (len + 65536 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 65536);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		size_t n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	buf[len] = '\0';
	/* fio may print notes before the document: start at the first '{' of a line. */
	char *start = buf[0] == '{' ? buf : strstr(buf, "\n{");
	cJSON *doc = start ? cJSON_Parse(start + (start != buf)) : NULL;
	free(buf);
	if (!doc || !cJSON_IsArray(cJSON_GetObjectItem(doc, "jobs"))) {
		fprintf(stderr, "iobench: %s: '%s' is not a fio JSON result\n", what, path);
		cJSON_Delete(doc);
		return NULL;
	}
	return doc;
}

static double num(const cJSON *o, const char *key, bool *ok)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);
	*ok = cJSON_IsNumber(v);
	return *ok ? v->valuedouble : 0.0;
}

static double pct(const cJSON *dir, const char *key, bool *ok)
{
	const cJSON *p = cJSON_GetObjectItem(cJSON_GetObjectItem(dir, "clat_ns"), "percentile");
	return num(p, key, ok) / 1000.0;
}

/* The n-th job of that name in doc. */
static const cJSON *find_job(const cJSON *doc, const char *name, int nth)
{
	const cJSON *j;
	cJSON_ArrayForEach(j, cJSON_GetObjectItem(doc, "jobs"))
	{
		const cJSON *n = cJSON_GetObjectItem(j, "jobname");
		if (cJSON_IsString(n) && !strcmp(n->valuestring, name) && nth-- == 0)
			return j;
	}
	return NULL;
}

struct metric {
	const char *name;
	bool higher_better;
	bool gated;
};

static double metric_value(const cJSON *dir, int m, bool *ok)
{
	switch (m) {
	case 0:
		return num(dir, "iops", ok);
	case 1:
		return num(dir, "bw", ok);
	case 2:
		return num(cJSON_GetObjectItem(dir, "clat_ns"), "mean", ok) / 1000.0;
	case 3:
		return pct(dir, "50.000000", ok);
	case 4:
		return pct(dir, "99.000000", ok);
	default:
		return pct(dir, "99.900000", ok);
	}
}

int report_compare(FILE *out, const char *base_path, const char *new_path, bool json, double threshold)
{
	static const struct metric metrics[] = {
		{ "iops", true, true }, { "bw_kib", true, true }, { "clat_mean_us", false, false },
		{ "clat_p50_us", false, false }, { "clat_p99_us", false, true }, { "clat_p99.9_us", false, false },
	};
	static const char *const dirs[] = { "read", "write", "trim", "mixed" };
	cJSON *a = json_load_result(base_path, "--compare"), *b = a ? json_load_result(new_path, "--compare") : NULL;
	if (!a || !b) {
		cJSON_Delete(a);
		return -EINVAL;
	}
	int regressions = 0, compared = 0;
	if (json)
		fprintf(out, "{\n  \"comparisons\" : [");
	else
		fprintf(out, "%-20s %-6s %-14s %14s %14s %9s\n", "job", "dir", "metric", "base", "new", "delta");
	const cJSON *ja;
	cJSON_ArrayForEach(ja, cJSON_GetObjectItem(a, "jobs"))
	{
		const char *name = cJSON_GetObjectItem(ja, "jobname")->valuestring;
		int nth = 0;
		for (const cJSON *p = cJSON_GetObjectItem(a, "jobs")->child; p != ja; p = p->next)
			nth += !strcmp(cJSON_GetObjectItem(p, "jobname")->valuestring, name);
		const cJSON *jb = find_job(b, name, nth);
		for (int d = 0; jb && d < 4; d++) {
			const cJSON *da = cJSON_GetObjectItem(ja, dirs[d]), *db = cJSON_GetObjectItem(jb, dirs[d]);
			bool ok;
			if (!da || !db || (num(da, "total_ios", &ok) == 0 && num(db, "total_ios", &ok) == 0))
				continue;
			for (size_t m = 0; m < sizeof(metrics) / sizeof(metrics[0]); m++) {
				bool ok1, ok2;
				double va = metric_value(da, (int)m, &ok1), vb = metric_value(db, (int)m, &ok2);
				if (!ok1 || !ok2)
					continue;
				double delta = va != 0.0 ? (vb - va) * 100.0 / va : 0.0;
				bool worse = metrics[m].higher_better ? delta < -threshold : delta > threshold;
				bool regress = threshold >= 0 && metrics[m].gated && worse;
				regressions += regress;
				if (json) {
					fprintf(out, "%s\n    { \"job\" : ", compared ? "," : "");
					json_print_string(out, name);
					fprintf(out, ", \"dir\" : \"%s\", \"metric\" : \"%s\", \"base\" : %f, \"new\" : %f, "
						     "\"delta_pct\" : %f, \"regression\" : %s }",
						dirs[d], metrics[m].name, va, vb, delta, regress ? "true" : "false");
				}
				else
					fprintf(out, "%-20s %-6s %-14s %14.2f %14.2f %+8.1f%%%s\n", name, dirs[d],
						metrics[m].name, va, vb, delta, regress ? "  REGRESSION" : "");
				compared++;
			}
		}
	}
	if (json)
		fprintf(out, "\n  ],\n  \"regressions\" : %d\n}\n", regressions);
	cJSON_Delete(a);
	cJSON_Delete(b);
	if (!compared) {
		fprintf(stderr, "iobench: --compare: no job and direction in common\n");
		return -EINVAL;
	}
	if (regressions)
		fprintf(stderr, "iobench: --compare: %d metric%s past the %.1f%% threshold\n", regressions,
			regressions > 1 ? "s" : "", threshold);
	return regressions ? 1 : 0;
}
