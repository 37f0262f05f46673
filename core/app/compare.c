/* --compare BASE.json NEW.json: two fio-style JSON results (fio's or ours), jobs matched by
 * name (and occurrence) and direction; metric, base, new and delta in %. With a
 * threshold, a drop of IOPS or bandwidth, or a rise of p99, by more than it is a
 * regression (exit status 2). cJSON reads the inputs here, as in report/json.c; the
 * reading of fio JSON results that may be hostile (json_int.h) lives here too. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/app/compare.h"
#include "report/report.h"
#include "engines/secret.h"

struct msg {
	char s[512];
	size_t n;
};

static void msg_add(struct msg *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void msg_add(struct msg *m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vsnprintf(m->s + m->n, sizeof(m->s) - m->n, fmt, ap);
	va_end(ap);
	if (r > 0)
		m->n = m->n + (size_t)r < sizeof(m->s) ? m->n + (size_t)r : sizeof(m->s) - 1;
}

/* .key, or ["key"] for one that is not a plain name: at most 40 bytes, printable. */
static void msg_key(struct msg *m, const char *key)
{
	size_t len = strlen(key);
	bool plain = len > 0 && len <= 40 && !(key[0] >= '0' && key[0] <= '9');
	for (size_t i = 0; plain && i < len; i++)
		plain = key[i] == '_' || (key[i] >= 'a' && key[i] <= 'z') || (key[i] >= 'A' && key[i] <= 'Z') ||
			(key[i] >= '0' && key[i] <= '9');
	if (plain) {
		msg_add(m, "%s%s", m->n ? "." : "", key);
		return;
	}
	msg_add(m, "[\"");
	for (size_t i = 0; i < len && i < 40; i++) {
		unsigned char c = (unsigned char)key[i];
		if (c == '"' || c == '\\')
			msg_add(m, "\\%c", c);
		else
			msg_add(m, "%c", c >= 0x20 && c < 0x7f ? c : '?');
	}
	msg_add(m, "%s\"]", len > 40 ? "..." : "");
}

int json_refuse(const struct jwhere *w, const char *sub, const char *key, const char *fmt, ...)
{
	struct msg path = { .n = 0 }, m = { .n = 0 };
	if (w->job != JSON_ROOT)
		msg_add(&path, "jobs[%zu]", w->job);
	if (w->dir)
		msg_add(&path, ".%s", w->dir);
	if (sub)
		msg_add(&path, "%s%s", path.n ? "." : "", sub);
	if (key)
		msg_key(&path, key);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m.s, sizeof(m.s), fmt, ap);
	va_end(ap);
	fprintf(stderr, "iobench: %s: '%s': %s%s%s\n", w->what, w->path, path.s, path.n ? " " : "", m.s);
	return -EINVAL;
}

int json_check(const struct jwhere *w, const char *sub, const char *key, const cJSON *v, int type)
{
	static const char *const names[] = { [cJSON_Object] = "an object", [cJSON_Array] = "an array",
					     [cJSON_String] = "a string", [cJSON_Number] = "a number" };
	if ((v->type & 0xff) != type)
		return json_refuse(w, sub, key, "is not %s", names[type]);
	if (type == cJSON_Number && !(v->valuedouble >= 0 && v->valuedouble <= 0x1p63))
		return json_refuse(w, sub, key, "is out of range (%g; 0 to 2^63 allowed)", v->valuedouble);
	return 0;
}

static bool same_value(const cJSON *a, const cJSON *b)
{
	if (cJSON_IsNumber(a) && cJSON_IsNumber(b))
		return a->valuedouble == b->valuedouble;
	return cJSON_IsString(a) && cJSON_IsString(b) && !strcmp(a->valuestring, b->valuestring);
}

int json_member(const struct jwhere *w, const cJSON *o, const char *sub, const char *key, int type,
		const cJSON **v)
{
	*v = NULL;
	for (const cJSON *c = o->child; c; c = c->next) {
		if (!c->string || strcmp(c->string, key))
			continue;
		if (*v && !same_value(*v, c)) {
			*v = NULL;
			return json_refuse(w, sub, key, "appears twice");
		}
		if (!*v)
			*v = c;
	}
	if (*v && json_check(w, sub, key, *v, type)) {
		*v = NULL;
		return -EINVAL;
	}
	return 0;
}

int json_number(const struct jwhere *w, const cJSON *o, const char *sub, const char *key, double *v)
{
	const cJSON *n;
	int r = json_member(w, o, sub, key, cJSON_Number, &n);
	*v = n && !r ? n->valuedouble : 0.0;
	return r ? r : n != NULL;
}

int json_job(const struct jwhere *w, const cJSON *job, const char **name)
{
	const cJSON *n;
	int r = json_check(w, NULL, NULL, job, cJSON_Object);
	if (!r)
		r = json_member(w, job, NULL, "jobname", cJSON_String, &n);
	if (!r && !n)
		r = json_refuse(w, NULL, NULL, "has no jobname");
	*name = r ? NULL : n->valuestring;
	return r;
}

static const char *input_kind(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return "is a directory";
	if (!S_ISREG(st->st_mode) && !S_ISFIFO(st->st_mode))
		return "is not a regular file or a pipe";
	if (S_ISREG(st->st_mode) && (size_t)st->st_size > JSON_INPUT_MAX)
		return "is larger than 1 GiB";
	return NULL;
}

/* All of path (a regular file or a pipe, at most JSON_INPUT_MAX bytes, no NUL byte) into
 * *buf, NUL-terminated: 0, or -errno after one line on stderr. */
static int read_input(const char *what, const char *path, char **buf, size_t *len)
{
	static const char oom[] = "is too large to read (out of memory)";
	int fd = open(path, O_RDONLY | O_CLOEXEC), e = 0;
	struct stat st;
	if (fd < 0 || fstat(fd, &st)) {
		e = errno;
		fprintf(stderr, "iobench: %s: cannot open '%s': %s\n", what, path, strerror(e));
		if (fd >= 0)
			close(fd);
		return -e;
	}
	const char *bad = input_kind(&st);
	size_t cap = S_ISREG(st.st_mode) && !bad ? (size_t)st.st_size + 2 : 65536, n = 0;
	char *b = bad ? NULL : malloc(cap);
	if (!bad && !b)
		bad = oom;
	while (!bad) {
		if (n + 1 >= cap) {
			cap = cap > JSON_INPUT_MAX / 2 ? JSON_INPUT_MAX + 2 : cap * 2;
			char *nb = realloc(b, cap);
			if (!nb) {
				bad = oom;
				break;
			}
			b = nb;
		}
		ssize_t r = read(fd, b + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			e = r < 0 ? errno : 0;
			break;
		}
		if (memchr(b + n, '\0', (size_t)r))
			bad = "holds a NUL byte (it is not JSON text)";
		n += (size_t)r;
		if (n > JSON_INPUT_MAX)
			bad = "is larger than 1 GiB";
	}
	close(fd);
	if (e)
		fprintf(stderr, "iobench: %s: cannot read '%s': %s\n", what, path, strerror(e));
	else if (!bad && !n)
		bad = "is empty";
	if (bad)
		fprintf(stderr, "iobench: %s: '%s' %s\n", what, path, bad);
	if (e || bad) {
		free(b);
		return e ? -e : -EINVAL;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/* Why cJSON stopped at err in text (len bytes, from line `line` of the file): too deep,
 * cut short (open brackets or a string at the end, and nothing after the error that
 * could close them) or not JSON. */
static void parse_error(const char *what, const char *path, const char *text, size_t len, const char *err,
			size_t line)
{
	size_t pos = err && err >= text && err <= text + len ? (size_t)(err - text) : len, depth = 0, at = 0;
	bool str = false, esc = false, closing = false;
	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		if (i == pos)
			at = depth;
		line += i < pos && c == '\n';
		if (str) {
			str = esc || c != '"';
			esc = !esc && c == '\\';
			continue;
		}
		str = c == '"';
		closing = closing || (i >= pos && c && strchr("{}[],:", c));
		if (c == '{' || c == '[')
			depth++;
		else if ((c == '}' || c == ']') && depth)
			depth--;
	}
	if (pos >= len)
		at = depth;
	if (at >= CJSON_NESTING_LIMIT)
		fprintf(stderr, "iobench: %s: '%s' nests deeper than %d levels (line %zu)\n", what, path,
			CJSON_NESTING_LIMIT, line);
	else if (depth && (str || !closing))
		fprintf(stderr, "iobench: %s: '%s' ends in the middle of its JSON document (truncated?)\n", what,
			path);
	else
		fprintf(stderr, "iobench: %s: '%s' is not valid JSON (line %zu)\n", what, path, line);
}

/* The secret options' names (a list of them, not a lookup per key: a result may hold
 * 100,000 jobs' options). */
struct secrets {
	const char *names[64];
	size_t n; /* more than names holds: each key is looked up */
};

static bool is_secret(const struct secrets *s, const char *name)
{
	if (s->n > sizeof(s->names) / sizeof(s->names[0]))
		return option_is_secret(name);
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->names[i], name))
			return true;
	return false;
}

/* An option map of a result read (fio prints secrets in them): each secret option's value,
 * whatever its type, becomes OPT_REDACTED, so no document read is printed with one. */
static void redact_map(const struct secrets *s, cJSON *map)
{
	if (!cJSON_IsObject(map))
		return;
	for (cJSON *e = map->child, *next; e; e = next) {
		next = e->next;
		if (!e->string || !is_secret(s, e->string))
			continue;
		cJSON *r = cJSON_CreateString(OPT_REDACTED);
		if (!r) { /* no memory: the option goes */
			cJSON_Delete(cJSON_DetachItemViaPointer(map, e));
			continue;
		}
		r->string = e->string; /* the key moves to its new value (a duplicate key's too) */
		e->string = NULL;
		cJSON_ReplaceItemViaPointer(map, e, r);
	}
}

static void redact_options(cJSON *doc)
{
	struct secrets s;
	cJSON *job;
	s.n = option_secret_names(s.names, sizeof(s.names) / sizeof(s.names[0]));
	redact_map(&s, cJSON_GetObjectItemCaseSensitive(doc, "global options"));
	cJSON_ArrayForEach(job, cJSON_GetObjectItemCaseSensitive(doc, "jobs"))
		redact_map(&s, cJSON_GetObjectItemCaseSensitive(job, "job options"));
}

cJSON *json_load_result(const char *path, const char *what)
{
	char *buf = NULL;
	size_t len = 0;
	if (read_input(what, path, &buf, &len))
		return NULL;
	/* fio may print notes before the document: start at the first '{' of a line. */
	char *start = buf[0] == '{' ? buf : memmem(buf, len, "\n{", 2);
	start += start && start != buf;
	const char *end = NULL;
	size_t rest = start ? len - (size_t)(start - buf) : 0;
	cJSON *doc = start ? cJSON_ParseWithLengthOpts(start, rest + 1, &end, 0) : NULL;
	const cJSON *jobs = NULL;
	struct jwhere w = { what, path, JSON_ROOT, NULL };
	if (!start)
		fprintf(stderr, "iobench: %s: '%s' is not a fio JSON result (no line starts with '{')\n", what, path);
	else if (!doc) {
		size_t line = 1;
		for (const char *p = buf; (p = memchr(p, '\n', (size_t)(start - p))); p++)
			line++;
		parse_error(what, path, start, rest, end, line);
	} else if (!json_member(&w, doc, NULL, "jobs", cJSON_Array, &jobs) && !jobs)
		fprintf(stderr, "iobench: %s: '%s' is not a fio JSON result (no \"jobs\" array)\n", what, path);
	free(buf);
	if (!jobs) {
		cJSON_Delete(doc);
		return NULL;
	}
	redact_options(doc);
	return doc;
}

struct metric {
	const char *name;
	bool higher_better;
	bool gated;
};

static const struct metric metrics[] = {
	{ "iops", true, true },		   { "bw_kib", true, true },	   { "clat_mean_us", false, false },
	{ "clat_p50_us", false, false }, { "clat_p99_us", false, true }, { "clat_p99.9_us", false, false },
};
#define NMETRICS (sizeof(metrics) / sizeof(metrics[0]))
static const char *const dirs[] = { "read", "write", "trim", "mixed" };

/* A direction of a job and its clat_ns and clat_ns.percentile objects (NULL: none). */
struct dirv {
	struct jwhere w;
	const cJSON *o[3];
};

static int dir_objects(struct dirv *v, const cJSON *dir)
{
	v->o[0] = dir;
	int r = json_member(&v->w, dir, NULL, "clat_ns", cJSON_Object, &v->o[1]);
	v->o[2] = NULL;
	if (!r && v->o[1])
		r = json_member(&v->w, v->o[1], "clat_ns", "percentile", cJSON_Object, &v->o[2]);
	return r;
}

/* Metric m of a direction: 1 with *x, 0 when the input has none, -EINVAL when refused. */
static int metric_value(const struct dirv *v, size_t m, double *x)
{
	static const char *const keys[] = { "iops", "bw", "mean", "50.000000", "99.000000", "99.900000" };
	static const char *const subs[] = { NULL, "clat_ns", "clat_ns.percentile" };
	size_t k = m < 2 ? 0 : m == 2 ? 1 : 2;
	if (!v->o[k])
		return 0;
	int r = json_number(&v->w, v->o[k], subs[k], keys[m], x);
	if (r > 0 && m >= 2)
		*x /= 1000.0;
	return r;
}

/* One job of each input and where they sit. */
struct pair {
	struct jwhere w[2];
	const cJSON *job[2];
	const char *name;
};

struct cmp {
	FILE *out; /* NULL: only check the inputs and count */
	bool json;
	double threshold;
	size_t compared, regressions;
};

static void put_num(FILE *out, const char *key, double v)
{
	if (isfinite(v))
		fprintf(out, ", \"%s\" : %f", key, v);
	else
		fprintf(out, ", \"%s\" : null", key);
}

static void put_row(struct cmp *c, const char *name, int d, size_t m, double va, double vb, double delta,
		    bool regress)
{
	if (c->json) {
		fprintf(c->out, "%s\n    { \"job\" : ", c->compared ? "," : "");
		json_print_string(c->out, name);
		fprintf(c->out, ", \"dir\" : \"%s\", \"metric\" : \"%s\"", dirs[d], metrics[m].name);
		put_num(c->out, "base", va);
		put_num(c->out, "new", vb);
		put_num(c->out, "delta_pct", delta);
		fprintf(c->out, ", \"regression\" : %s }", regress ? "true" : "false");
	} else {
		fprintf(c->out, "%-20s %-6s %-14s %14.2f %14.2f %+8.1f%%%s\n", name, dirs[d], metrics[m].name, va, vb,
			delta, regress ? "  REGRESSION" : "");
	}
}

/* Direction d of a pair of jobs: every metric both have. */
static int compare_dir(struct cmp *c, const struct pair *p, int d)
{
	struct dirv v[2];
	double ios[2], va, vb;
	for (int k = 0; k < 2; k++) {
		const cJSON *dir;
		int r = json_member(&p->w[k], p->job[k], NULL, dirs[d], cJSON_Object, &dir);
		if (r || !dir)
			return r;
		v[k].w = p->w[k];
		v[k].w.dir = dirs[d];
		if (json_number(&v[k].w, dir, NULL, "total_ios", &ios[k]) < 0 || dir_objects(&v[k], dir))
			return -EINVAL;
	}
	if (ios[0] == 0 && ios[1] == 0)
		return 0;
	for (size_t m = 0; m < NMETRICS; m++) {
		int ra = metric_value(&v[0], m, &va), rb = metric_value(&v[1], m, &vb);
		if (ra < 0 || rb < 0)
			return -EINVAL;
		if (!ra || !rb)
			continue;
		double delta = va != 0.0 ? (vb - va) * 100.0 / va : 0.0;
		bool worse = metrics[m].higher_better ? delta < -c->threshold : delta > c->threshold;
		bool regress = c->threshold >= 0 && metrics[m].gated && worse;
		if (c->out)
			put_row(c, p->name, d, m, va, vb, delta, regress);
		c->regressions += regress;
		c->compared++;
	}
	return 0;
}

struct jref {
	const char *name;
	const cJSON *job;
	size_t idx;
};

static int jref_cmp(const void *x, const void *y)
{
	const struct jref *a = x, *b = y;
	int c = strcmp(a->name, b->name);
	return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

/* The jobs of doc, each checked (an object with a string jobname), sorted by name and
 * then position: *n of them in *refs. 0 or -errno after one line. */
static int job_refs(const char *path, const cJSON *doc, struct jref **refs, size_t *n)
{
	const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(doc, "jobs"), *j;
	size_t cnt = 0, i = 0;
	cJSON_ArrayForEach(j, jobs) cnt++;
	struct jref *r = malloc((cnt ? cnt : 1) * sizeof(*r));
	if (!r) {
		fprintf(stderr, "iobench: --compare: out of memory\n");
		return -ENOMEM;
	}
	cJSON_ArrayForEach(j, jobs)
	{
		struct jwhere w = { "--compare", path, i, NULL };
		if (json_job(&w, j, &r[i].name)) {
			free(r);
			return -EINVAL;
		}
		r[i].job = j;
		r[i].idx = i;
		i++;
	}
	qsort(r, cnt, sizeof(*r), jref_cmp);
	*refs = r;
	*n = cnt;
	return 0;
}

/* Each base job with the new job of the same name and occurrence (the n-th "x" of the
 * base with the n-th "x" of the new), in the base's order; *np of them. Sorted names make
 * it O(n log n), not a scan of the other input per job. */
static int match_jobs(const char *const path[2], const cJSON *const doc[2], struct pair **pairs, size_t *np)
{
	struct jref *r[2] = { NULL, NULL };
	size_t n[2] = { 0, 0 };
	struct pair *p = NULL;
	int ret = job_refs(path[0], doc[0], &r[0], &n[0]);
	if (!ret)
		ret = job_refs(path[1], doc[1], &r[1], &n[1]);
	if (!ret && !(p = calloc(n[0] ? n[0] : 1, sizeof(*p)))) {
		fprintf(stderr, "iobench: --compare: out of memory\n");
		ret = -ENOMEM;
	}
	/* Both walk the names in order: j runs through the new input's once. */
	for (size_t i = 0, j = 0, nth = 0; !ret && i < n[0]; i++) {
		nth = i && !strcmp(r[0][i].name, r[0][i - 1].name) ? nth + 1 : 0;
		while (j < n[1] && strcmp(r[1][j].name, r[0][i].name) < 0)
			j++;
		size_t k = j + nth;
		if (k >= n[1] || strcmp(r[1][k].name, r[0][i].name))
			continue;
		struct pair *q = &p[r[0][i].idx];
		q->w[0] = (struct jwhere){ "--compare", path[0], r[0][i].idx, NULL };
		q->w[1] = (struct jwhere){ "--compare", path[1], r[1][k].idx, NULL };
		q->job[0] = r[0][i].job;
		q->job[1] = r[1][k].job;
		q->name = r[0][i].name;
	}
	free(r[0]);
	free(r[1]);
	if (ret)
		free(p);
	*pairs = ret ? NULL : p;
	*np = n[0];
	return ret;
}

static int compare_all(struct cmp *c, const struct pair *p, size_t n)
{
	c->compared = c->regressions = 0;
	for (size_t i = 0; i < n; i++)
		for (int d = 0; p[i].name && d < 4; d++)
			if (compare_dir(c, &p[i], d))
				return -EINVAL;
	return 0;
}

int report_compare(FILE *out, const char *base_path, const char *new_path, bool json, double threshold)
{
	const char *path[2] = { base_path, new_path };
	cJSON *doc[2] = { json_load_result(base_path, "--compare"), NULL };
	doc[1] = doc[0] ? json_load_result(new_path, "--compare") : NULL;
	struct pair *pairs = NULL;
	size_t n = 0;
	struct cmp c = { NULL, json, threshold, 0, 0 };
	/* A first pass checks everything that will be read: a refused input prints nothing. */
	int ret = doc[1] ? match_jobs(path, (const cJSON *const *)doc, &pairs, &n) : -EINVAL;
	if (!ret)
		ret = compare_all(&c, pairs, n);
	if (!ret && !c.compared) {
		fprintf(stderr, "iobench: --compare: no job and direction in common\n");
		ret = -EINVAL;
	}
	if (!ret) {
		c.out = out;
		if (json)
			fprintf(out, "{\n  \"comparisons\" : [");
		else
			fprintf(out, "%-20s %-6s %-14s %14s %14s %9s\n", "job", "dir", "metric", "base", "new", "delta");
		compare_all(&c, pairs, n);
		if (json)
			fprintf(out, "\n  ],\n  \"regressions\" : %zu\n}\n", c.regressions);
		if (c.regressions)
			fprintf(stderr, "iobench: --compare: %zu metric%s past the %.1f%% threshold\n", c.regressions,
				c.regressions > 1 ? "s" : "", threshold);
	}
	free(pairs);
	cJSON_Delete(doc[0]);
	cJSON_Delete(doc[1]);
	return ret ? ret : c.regressions ? 1 : 0;
}
