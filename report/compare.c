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

#include "report/json_int.h"
#include "report/report.h"

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
