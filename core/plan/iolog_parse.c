/* Reading fio's text I/O logs (versions 2 and 3; core/plan/iolog.h shows the lines), or handing a
 * blktrace file to core/plan/iolog_blktrace.c. Strict: every line is a header, a file line or an
 * I/O line whose file was added and opened before, with decimal numbers in range; anything
 * else is one message naming the file and the line. */
#include "core/plan/iolog.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define LINE_MAX_LEN (PATH_MAX + 256)
#define FIELDS_MAX 6

struct text_state {
	FILE *f;
	const char *name;
	const struct iolog_parse_opts *po;
	struct iolog *log;
	unsigned long line;
	uint64_t wait_us;           /* v2: the waits so far */
	struct iolog *names;        /* the log's own files, added and open (log, unless redirected) */
	struct iolog_parse_opts name_po; /* po without the redirect */
	char *err;
	size_t errlen;
};

static int __attribute__((format(printf, 3, 4))) fail(struct text_state *t, int ret, const char *fmt, ...)
{
	char what[LINE_MAX_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (t->line)
		snprintf(t->err, t->errlen, "%s:%lu: %s", t->name, t->line, what);
	else
		snprintf(t->err, t->errlen, "%s: %s", t->name, what);
	return ret;
}

/* One line into buf (no newline, no carriage return): 1, 0 at the end, or -errno after the
 * message (binary data, a line longer than LINE_MAX_LEN). */
static int read_line(struct text_state *t, char *buf, size_t size)
{
	size_t n = 0;
	int c;
	t->line++;
	while ((c = getc_unlocked(t->f)) != EOF && c != '\n') {
		if (c == '\0')
			return fail(t, -EINVAL, "binary data (a NUL byte): not a text I/O log");
		if (n + 1 >= size)
			return fail(t, -E2BIG, "line longer than %d bytes", LINE_MAX_LEN - 1);
		buf[n++] = (char)c;
	}
	if (c == EOF && ferror(t->f))
		return fail(t, -EIO, "cannot read: %s", strerror(errno));
	if (c == EOF && n == 0)
		return 0;
	if (n && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	return 1;
}

static unsigned split(char *s, char *field[FIELDS_MAX + 1])
{
	unsigned n = 0;
	for (char *p = strtok(s, " \t"); p && n <= FIELDS_MAX; p = strtok(NULL, " \t"))
		field[n++] = p;
	return n;
}

/* A decimal number no larger than max: 0, -EINVAL (not a number), -ERANGE (too large). */
static int number(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		if (v > (max - (uint64_t)(*s - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

static int field_number(struct text_state *t, const char *what, const char *s, uint64_t max, uint64_t *out)
{
	int ret = number(s, max, out);
	if (ret == -EINVAL)
		return fail(t, ret, s[0] == '-' ? "negative %s '%.64s'" : "%s '%.64s' is not a decimal number", what, s);
	if (ret)
		return fail(t, ret, "%s '%.64s' is out of range (at most %llu)", what, s, (unsigned long long)max);
	return 0;
}

/* "fio version N iolog": N, or 0 when the line is not a header. */
static int header_version(char *line)
{
	char *f[FIELDS_MAX + 1];
	unsigned n = split(line, f);
	uint64_t v;
	if (n != 4 || strcmp(f[0], "fio") || strcmp(f[1], "version") || strcmp(f[3], "iolog") || number(f[2], 100, &v))
		return 0;
	return v ? (int)v : -1;
}

static int file_line(struct text_state *t, const char *path, const char *action)
{
	long i = iolog_file_index(t->names, &t->name_po, path);
	if (i < 0)
		return fail(t, (int)i, i == -ENAMETOOLONG ? "file name '%.200s...' is too long" : "out of memory%.0s", path);
	struct iolog_file *f = &t->names->files[i];
	if (!strcmp(action, "add")) {
		f->state |= IOLOG_ADDED;
	} else if (!strcmp(action, "open") || !strcmp(action, "close")) {
		if (!(f->state & IOLOG_ADDED))
			return fail(t, -EINVAL, "'%.1024s' %s before it was added (no 'add' line for it)", path,
				    action[0] == 'o' ? "is opened" : "is closed");
		f->state = action[0] == 'o' ? (IOLOG_ADDED | IOLOG_OPEN) : IOLOG_ADDED;
	} else if (!strcmp(action, "read") || !strcmp(action, "write") || !strcmp(action, "trim") ||
		   !strcmp(action, "sync") || !strcmp(action, "datasync") || !strcmp(action, "wait")) {
		return fail(t, -EINVAL, "'%s' needs an offset and a length ('FILE %s OFFSET LENGTH')", action, action);
	} else {
		return fail(t, -EINVAL, "unknown file action '%.64s' (add, open, close)", action);
	}
	return 0;
}

static int action_of(const char *s)
{
	static const char *const words[] = { "read", "write", "trim", "sync", "datasync" };
	for (int i = 0; i < IOLOG_NACT; i++)
		if (!strcmp(s, words[i]))
			return i;
	return -1;
}

static int io_line(struct text_state *t, const char *path, const char *action, const char *soff, const char *slen,
		   uint64_t t_us)
{
	uint64_t off, len;
	int act = action_of(action);
	bool wait = !strcmp(action, "wait");
	if (act < 0 && !wait)
		return fail(t, -EINVAL, "unknown action '%.64s' (read, write, trim, sync, datasync%s)", action,
			    t->log->format == IOLOG_V2 ? ", wait" : "");
	if (wait && t->log->format == IOLOG_V3)
		return fail(t, -EINVAL, "'wait' is not allowed in a version 3 log (its timestamps say when)");
	int ret = field_number(t, "offset", soff, wait ? IOLOG_MAX_US : (uint64_t)INT64_MAX, &off);
	if (!ret)
		ret = field_number(t, "length", slen, act >= IOLOG_SYNC || wait ? UINT64_MAX : IOLOG_MAX_LEN, &len);
	if (ret)
		return ret;
	if (wait) { /* fio's manual: microseconds; under 100 is discarded */
		if (off >= 100 && (t->wait_us += off) > IOLOG_MAX_US)
			return fail(t, -ERANGE, "the waits add up to more than %llu microseconds",
				    (unsigned long long)IOLOG_MAX_US);
		return 0;
	}
	if (act <= IOLOG_TRIM && !len)
		return fail(t, -EINVAL, "a %s of length 0", action);
	long k = iolog_file_index(t->names, &t->name_po, path), i = k < 0 ? k : iolog_file_index(t->log, t->po, path);
	if (i < 0)
		return fail(t, (int)i, i == -ENAMETOOLONG ? "file name '%.200s...' is too long" : "out of memory%.0s", path);
	unsigned char st = t->names->files[k].state;
	if (!(st & IOLOG_ADDED))
		return fail(t, -EINVAL, "'%.1024s' was not added (no '%.1024s add' line before it)", path, path);
	if (!(st & IOLOG_OPEN))
		return fail(t, -EINVAL, "'%.1024s' is not open (no '%.1024s open' line before it)", path, path);
	ret = iolog_push(t->log, t->po, (unsigned)i, (enum iolog_act)act, off, len, t->log->format == IOLOG_V3 ? t_us : t->wait_us,
			 false);
	if (ret == -ERANGE)
		return fail(t, ret, "offset %s plus length %s goes past 2^63 bytes", soff, slen);
	return ret ? fail(t, ret, "out of memory") : 0;
}

static int text_line(struct text_state *t, char *line)
{
	char copy[LINE_MAX_LEN], *f[FIELDS_MAX + 1];
	int v3 = t->log->format == IOLOG_V3;
	snprintf(copy, sizeof(copy), "%s", line);
	int hv = header_version(copy);
	if (hv) { /* logs appended to one another (write_iolog appends): one version only */
		if (hv == t->log->format)
			return 0;
		return fail(t, -EINVAL, "a header of another version in a version %d log", t->log->format);
	}
	unsigned n = split(line, f);
	uint64_t t_us = 0;
	if (!n)
		return 0; /* an empty line */
	if (v3 && n >= 3 && field_number(t, "timestamp", f[0], IOLOG_MAX_US, &t_us))
		return -EINVAL;
	if (n == 2u + v3)
		return file_line(t, f[v3], f[v3 + 1]);
	if (n == 4u + v3)
		return io_line(t, f[v3], f[v3 + 1], f[v3 + 2], f[v3 + 3], t_us);
	return fail(t, -EINVAL,
		    "expected '%sFILE ACTION' or '%sFILE ACTION OFFSET LENGTH' (%u fields)", v3 ? "TIME " : "",
		    v3 ? "TIME " : "", n);
}

/* The first line, the first 4 bytes of which were read already. */
static int text_header(struct text_state *t, const unsigned char head[4], size_t nhead, char *buf, size_t size)
{
	memcpy(buf, head, nhead);
	size_t n = nhead;
	int c = 0;
	t->line = 1;
	if (memchr(head, '\n', nhead)) /* a first line this short is no header: only its text matters */
		n = (size_t)((const unsigned char *)memchr(head, '\n', nhead) - head);
	else
		while (n + 1 < size && (c = getc_unlocked(t->f)) != EOF && c != '\n')
			buf[n++] = (char)c;
	if (n && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)buf[i] < 0x20 && buf[i] != '\t')
			return fail(t, -EINVAL, "not an I/O log: binary data that is not a blktrace file");
	char copy[LINE_MAX_LEN];
	snprintf(copy, sizeof(copy), "%s", buf);
	int v = header_version(copy);
	if (v == 2 || v == 3)
		return v;
	if (v == 1 || (v == 0 && strchr(buf, ',')))
		return fail(t, -EINVAL, "a version 1 log: fio and iobench read versions 2 and 3 only");
	if (v)
		return fail(t, -EINVAL, "'%.64s': iobench reads iolog versions 2 and 3", buf);
	return fail(t, -EINVAL, "not an I/O log: the first line is not 'fio version 2 iolog' or 'fio version 3 "
			       "iolog', and it is not a blktrace file");
}

int iolog_read(FILE *f, const char *name, const struct iolog_parse_opts *po, struct iolog *log, char *err,
	       size_t errlen)
{
	unsigned char head[4];
	size_t nhead = fread(head, 1, sizeof(head), f);
	char buf[LINE_MAX_LEN];
	struct iolog names = { 0 };
	struct text_state t = { f, name, po, log, 0, 0, log, *po, err, errlen };
	if (po->redirect && po->redirect[0]) { /* each file of the log is still added, opened and closed */
		t.names = &names;
		t.name_po.redirect = NULL;
	}
	if (nhead == sizeof(head) && blktrace_magic(head)) {
		log->format = IOLOG_BLKTRACE;
		return blktrace_parse(f, head, name, po, log, err, errlen);
	}
	if (!nhead)
		return fail(&t, -EINVAL, ferror(f) ? "cannot read it" : "empty: not an I/O log");
	int v = text_header(&t, head, nhead, buf, sizeof(buf));
	if (v < 0)
		return v;
	log->format = v;
	int ret;
	while ((ret = read_line(&t, buf, sizeof(buf))) > 0)
		if ((ret = text_line(&t, buf)))
			break;
	iolog_free(&names);
	return ret;
}
