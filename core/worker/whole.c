/* opendir whole-file reads: each file opened when the job reaches it, read to its end (the
 * last block short), and closed before the next is opened; open and close are timed
 * together (files/s and open+close latency in the report). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "core/lib/clock.h"
#include "core/worker/worker_int.h"
#include "core/lib/say.h"

bool whole_switching(const struct wstate *s, const struct wfile *f)
{
	return s->whole.open && s->whole.open != f;
}

void whole_close(struct wstate *s)
{
	struct wfile *f = s->whole.open;
	if (!f)
		return;
	uint64_t t0 = clock_fast_ns(s->clk);
	engine_close_file(s->w->ops, &s->eng, wf_fd(s, f));
	s->now = clock_fast_ns(s->clk);
	wf_set_fd(s, f, -1);
	s->whole.open = NULL;
	if (!s->measuring)
		return;
	uint64_t oc = s->whole.open_ns + (s->now - t0);
	s->ts->files_done++;
	series_add(&s->ts->file_oc, oc);
	hist_record(&s->ts->file_oc_hist, oc);
}

int whole_open(struct wstate *s, struct wfile *f)
{
	whole_close(s);
	uint64_t t0 = clock_fast_ns(s->clk);
	int fd = -1, ret = engine_open_file(s->w->ops, &s->eng, wf_cf(s, f)->path, worker_open_flags(s->o), &fd);
	s->now = clock_fast_ns(s->clk);
	if (ret) {
		job_say(s->o->name, "cannot open '%s': %s", wf_cf(s, f)->path, strerror(-ret));
		return ret;
	}
	wf_set_fd(s, f, fd);
	s->whole.open = f;
	s->whole.open_ns = s->now - t0;
	if (s->o->invalidate && fd >= 0) /* read from the device, not the page cache */
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return 0;
}

uint64_t whole_len(const struct wstate *s, struct wfile *f, enum ddir d, uint64_t len)
{
	if (f->pos[d] >= wf_cf(s, f)->region)
		f->pos[d] = 0;
	uint64_t left = wf_cf(s, f)->region - f->pos[d];
	return len < left ? len : left;
}
