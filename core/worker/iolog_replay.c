/* The worker's part of the I/O logs (struct wstate: replay, rec): handing out what a log
 * replays, when it is due, and recording write_iolog as fio 3.33 writes it: version 3, a
 * timestamp in microseconds since the job's setup on every line, each file's add and open
 * lines first and close lines last, an I/O's line when it is handed to the engine (verify
 * reads too), a sync's when the file is synced. Per I/O: a line formatted into a buffer,
 * written out when it is nearly full (no allocation, a write(2) per ~60 KiB of lines). */
#include "core/worker/iolog_replay.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/lib/clock.h"
#include "core/worker/worker_int.h"
#include "core/lib/outfile.h"
#include "core/lib/say.h"

#define REC_BUF (64u << 10)
#define REC_LINE_MAX (PATH_MAX + 96)

static void rec_flush(struct iolog_rec *r)
{
	for (size_t done = 0; done < r->len && !r->err;) {
		ssize_t n = write(r->fd, r->buf + done, r->len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			r->err = n < 0 ? errno : EIO;
		else
			done += (size_t)n;
	}
	r->len = 0;
}

static char *put_u64(char *p, uint64_t v)
{
	char tmp[20];
	unsigned n = 0;
	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_str(char *p, const char *s)
{
	size_t n = strlen(s);
	memcpy(p, s, n);
	return p + n;
}

/* "T PATH ACTION[ OFF LEN]\n" */
static void rec_line(struct iolog_rec *r, uint64_t t_ns, const char *path, const char *action, bool io, uint64_t off,
		     uint64_t len)
{
	if (r->len + REC_LINE_MAX > REC_BUF)
		rec_flush(r);
	char *p = r->buf + r->len;
	p = put_u64(p, t_ns > r->t0_ns ? (t_ns - r->t0_ns) / 1000 : 0);
	*p++ = ' ';
	p = put_str(p, path);
	*p++ = ' ';
	p = put_str(p, action);
	if (io) {
		*p++ = ' ';
		p = put_u64(p, off);
		*p++ = ' ';
		p = put_u64(p, len);
	}
	*p++ = '\n';
	r->len = (size_t)(p - r->buf);
}

static int rec_open(struct wstate *s)
{
	struct iolog_rec *r = &s->rec;
	const char *path = s->o->iolog.write;
	char why[600];
	r->fd = outfile_open_raw(path, O_WRONLY | O_CREAT | O_APPEND, 0644,
				 s->o->allow_mounted_write ? OUTFILE_ALLOW_BUSY : 0, why, sizeof(why));
	if (r->fd < 0) {
		int err = r->fd;
		job_say(s->o->name, "write_iolog: cannot open '%s': %s", path, why);
		return err;
	}
	if (!(r->buf = malloc(REC_BUF))) {
		close(r->fd);
		r->fd = -1;
		return worker_nomem(s, "write_iolog's buffer", REC_BUF);
	}
	r->on = true;
	r->t0_ns = clock_fast_ns(s->clk);
	memcpy(r->buf, "fio version 3 iolog\n", 20);
	r->len = 20;
	for (unsigned i = 0; i < s->nfiles; i++)
		rec_line(r, r->t0_ns, s->cfs[i].path, "add", false, 0, 0);
	uint64_t t = clock_fast_ns(s->clk);
	for (unsigned i = 0; i < s->nfiles; i++)
		rec_line(r, t, s->cfs[i].path, "open", false, 0, 0);
	return 0;
}

int iolog_setup(struct wstate *s)
{
	const struct file_plan *plan = s->w->plan;
	s->rec.fd = -1;
	if (plan->replay) {
		s->replay = (struct replaying){ .on = true, .no_stall = s->o->iolog.no_stall,
						.time_scale = s->o->iolog.time_scale ? s->o->iolog.time_scale : 100,
						.log = plan->replay };
	}
	return s->o->iolog.write[0] ? rec_open(s) : 0;
}

int iolog_teardown(struct wstate *s)
{
	struct iolog_rec *r = &s->rec;
	if (r->fd < 0)
		return 0;
	uint64_t t = clock_fast_ns(s->clk);
	for (unsigned i = 0; r->on && i < s->nfiles; i++)
		rec_line(r, t, s->cfs[i].path, "close", false, 0, 0);
	if (r->on)
		rec_flush(r);
	if (close(r->fd) < 0 && !r->err)
		r->err = errno;
	r->fd = -1;
	free(r->buf);
	r->buf = NULL;
	r->on = false;
	if (!r->err)
		return 0;
	job_say(s->o->name, "write_iolog: cannot write '%s': %s", s->o->iolog.write, strerror(r->err));
	return -r->err;
}

void iolog_rec_io(struct wstate *s, const struct io_unit *u)
{
	struct iolog_rec *r = &s->rec;
	rec_line(r, u->start_ns, s->cfs[u->file_index].path, iolog_act_name((enum iolog_act)u->ddir), true,
		 u->offset, u->len);
	r->last_off = u->offset;
}

void iolog_rec_sync(struct wstate *s, unsigned file, bool datasync)
{
	/* fio's sync lines carry the last I/O's offset and length 0 */
	rec_line(&s->rec, s->now, s->cfs[file].path, datasync ? "datasync" : "sync", true, s->rec.last_off, 0);
}

enum replay_step replay_next(struct wstate *s, struct replay_io *io)
{
	struct replaying *r = &s->replay;
	if (replay_done(r))
		return REPLAY_DONE;
	const struct iolog_entry *e = &r->log->ent[r->next];
	if (!r->no_stall && e->t_us) {
		uint64_t due = s->start_ns + e->t_us * 100000 / r->time_scale; /* t_us <= IOLOG_MAX_US */
		if (due > s->now) {
			io->wait_ns = due - s->now;
			return REPLAY_WAIT;
		}
	}
	r->next++;
	io->file = e->file;
	io->act = (enum iolog_act)e->act;
	io->off = e->off;
	io->len = e->len;
	return e->act >= IOLOG_SYNC ? REPLAY_SYNC : REPLAY_IO;
}
