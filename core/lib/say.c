/* A job's line on stderr, in one write (core/lib/say.h). */
#include "core/lib/say.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct where {
	const char *file; /* NULL: none */
	int line;
	const char *job;
};

/* The line with its newline into buf (cut at size, as snprintf); its whole length, or -1. */
static int __attribute__((format(printf, 4, 0)))
build(char *buf, size_t size, const struct where *w, const char *fmt, va_list ap)
{
	int h = w->file ? snprintf(buf, size, "iobench: %s:%d: job '%s': ", w->file, w->line, w->job)
			: snprintf(buf, size, "iobench: job '%s': ", w->job);
	if (h < 0)
		return -1;
	size_t used = (size_t)h < size ? (size_t)h : size;
	int m = vsnprintf(buf + used, size - used, fmt, ap);
	if (m < 0 || m >= INT_MAX - h)
		return -1;
	if ((size_t)h + (size_t)m + 1 < size) {
		buf[h + m] = '\n';
		buf[h + m + 1] = '\0';
	}
	return h + m + 1;
}

/* The line in one call: on the stack, or on the heap when longer; in pieces with the stream
 * held when there is no memory. */
static void __attribute__((format(printf, 2, 0))) say(const struct where *w, const char *fmt, va_list ap)
{
	int saved = errno;
	char line[1024];
	va_list again;
	va_copy(again, ap);
	int n = build(line, sizeof(line), w, fmt, ap);
	char *big = n >= (int)sizeof(line) ? malloc((size_t)n + 1) : NULL;
	if (n < 0) {
		/* as fprintf: nothing fit to print */
	} else if ((size_t)n < sizeof(line)) {
		fwrite(line, 1, (size_t)n, stderr);
	} else if (big && build(big, (size_t)n + 1, w, fmt, again) == n) {
		fwrite(big, 1, (size_t)n, stderr);
	} else {
		flockfile(stderr);
		if (w->file)
			fprintf(stderr, "iobench: %s:%d: job '%s': ", w->file, w->line, w->job);
		else
			fprintf(stderr, "iobench: job '%s': ", w->job);
		vfprintf(stderr, fmt, again);
		fputc('\n', stderr);
		funlockfile(stderr);
	}
	free(big);
	va_end(again);
	errno = saved;
}

void job_say(const char *job, const char *fmt, ...)
{
	const struct where w = { .job = job };
	va_list ap;
	va_start(ap, fmt);
	say(&w, fmt, ap);
	va_end(ap);
}

void job_say_at(const char *file, int line, const char *job, const char *fmt, ...)
{
	const struct where w = { .file = file, .line = line, .job = job };
	va_list ap;
	va_start(ap, fmt);
	say(&w, fmt, ap);
	va_end(ap);
}
