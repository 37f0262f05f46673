/* The worker's verify: stamping writes, remembering where they went, reading them back.
 * Verify reads use pread(2) on the job's files after the writes they check completed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/verify.h"
#include "core/worker_int.h"

#define MAX_REPORTED 10

int verify_setup(struct wstate *s)
{
	const struct job_opts *o = s->o;
	if (o->verify == VERIFY_NONE)
		return 0;
	s->ver.interval = verify_interval_of(o, s->off.granule);
	for (unsigned i = 0; i < s->nfiles; i++) {
		struct wfile *f = &s->files[i];
		f->verify_map = calloc(f->blocks / 64 + 1, sizeof(uint64_t));
		if (!f->verify_map)
			return worker_nomem(s, "verify map (a bit per block written)", (f->blocks / 64 + 1) * 8);
	}
	if (o->verify_backlog) {
		s->ver.backlog = calloc(o->verify_backlog, sizeof(*s->ver.backlog));
		if (!s->ver.backlog)
			return worker_nomem(s, "verify_backlog entries", o->verify_backlog * sizeof(*s->ver.backlog));
	}
	return 0;
}

void verify_teardown(struct wstate *s)
{
	for (unsigned i = 0; s->files && i < s->nfiles; i++)
		free(s->files[i].verify_map);
	free(s->ver.backlog);
}

/* After a write was queued: mark its granules; with verify_backlog, queue it. */
void verify_written(struct wstate *s, struct wfile *f, uint64_t off, uint64_t len)
{
	uint64_t first = (off - f->cf->offset) / s->off.granule, n = len / s->off.granule;
	for (uint64_t b = first; b < first + n && b < f->blocks; b++)
		f->verify_map[b / 64] |= 1ULL << (b % 64);
	if (s->ver.backlog) {
		s->ver.backlog[s->ver.nbacklog].file = (unsigned)(f - s->files);
		s->ver.backlog[s->ver.nbacklog].off = off;
		s->ver.backlog[s->ver.nbacklog].len = len;
		s->ver.nbacklog++;
	}
}

static void report(struct wstate *s, struct wfile *f, uint64_t off, uint64_t len, const char *why)
{
	if (++s->ver.failures <= MAX_REPORTED)
		fprintf(stderr, "iobench: job '%s': verify failed: file %s, offset %llu, length %llu: %s\n",
			s->o->name, f->cf->path, (unsigned long long)off, (unsigned long long)len, why);
}

/* Read back [off, off+len) of f (len <= buffer) and check it. */
static void check_range(struct wstate *s, struct wfile *f, uint64_t off, uint64_t len)
{
	char *buf = s->units[0].buf;
	uint64_t done = 0;
	while (done < len) {
		ssize_t r = pread(f->fd, buf + done, len - done, (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			char why[128];
			snprintf(why, sizeof(why), "read failed: %s", r < 0 ? strerror(errno) : "short read");
			report(s, f, off, len, why);
			return;
		}
		done += (uint64_t)r;
	}
	char why[512];
	uint64_t bad;
	if (verify_check(s->o, buf, len, off, s->ver.interval, why, sizeof(why), &bad))
		report(s, f, bad, s->ver.interval, why);
}

static int finish(struct wstate *s)
{
	if (!s->ver.failures)
		return 0;
	if (s->ver.failures > MAX_REPORTED)
		fprintf(stderr, "iobench: job '%s': ... %llu blocks failed verification in all\n", s->o->name,
			(unsigned long long)s->ver.failures);
	return -EILSEQ;
}

static bool stop_now(struct wstate *s)
{
	return (s->o->verify_fatal && s->ver.failures) ||
	       atomic_load_explicit(s->w->stop, memory_order_relaxed);
}

/* The verify phase: every granule written (verify_only: every granule of the region). */
int verify_all(struct wstate *s)
{
	for (unsigned i = 0; i < s->nfiles && !stop_now(s); i++) {
		struct wfile *f = &s->files[i];
		if (f->fd < 0)
			continue;
		for (uint64_t b = 0; b < f->blocks && !stop_now(s); b++)
			if (s->o->verify_only || (f->verify_map[b / 64] & (1ULL << (b % 64))))
				check_range(s, f, f->cf->offset + b * s->off.granule, s->off.granule);
	}
	return finish(s);
}

/* verify_backlog=N: the last N writes, read back now (the queue has been drained). */
bool verify_backlog_due(const struct wstate *s)
{
	return s->o->verify_backlog && s->ver.nbacklog >= s->o->verify_backlog;
}

int verify_backlog_run(struct wstate *s)
{
	for (uint64_t i = 0; i < s->ver.nbacklog && !stop_now(s); i++) {
		struct wfile *f = &s->files[s->ver.backlog[i].file];
		for (uint64_t at = 0; at < s->ver.backlog[i].len; at += s->off.granule)
			check_range(s, f, s->ver.backlog[i].off + at, s->off.granule);
	}
	s->ver.nbacklog = 0;
	return s->o->verify_fatal ? finish(s) : 0;
}
