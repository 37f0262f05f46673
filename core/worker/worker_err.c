/* Failed I/Os: which ones a job goes on after (continue_on_error, ignore_error), which end a
 * fill_device job, what is printed (error_dump), and what the job's status says at its end. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/worker/worker_int.h"
#include "core/lib/say.h"

static const char *const ddir_word[DDIR_NR] = { "read", "write", "trim" };

static void print_error(const struct wstate *s, const struct io_unit *u)
{
	int err = (int)-u->result;
	const char *why = s->eng.why; /* what the engine adds (http: the server's answer) */
	job_say(s->o->name, "io_u error on file %s: %s: %s offset=%llu, buflen=%llu%s%s%s%s",
		s->cfs[u->file_index].path, strerror(err), ddir_word[u->ddir], (unsigned long long)u->offset,
		(unsigned long long)u->len,
		err == EINVAL && s->o->direct && !why[0]
			? " (O_DIRECT needs sizes and offsets aligned to the device's logical block size)"
			: "",
		why[0] ? " (" : "", why, why[0] ? ")" : "");
}

/* fio's error types: reads and writes (a trim is a write here, as fio counts it). */
static unsigned err_type(const struct io_unit *u)
{
	return u->ddir == DDIR_READ ? IOERR_READ : IOERR_WRITE;
}

enum werr_action werr_complete(struct wstate *s, const struct io_unit *u)
{
	const struct job_opts *o = s->o;
	struct thread_stats *ts = s->ts;
	int err = (int)-u->result;
	unsigned t = err_type(u);
	static const unsigned cont[] = { CONT_READ, CONT_WRITE };
	if (o->io.fill_device && u->ddir == DDIR_WRITE && (err == ENOSPC || err == EDQUOT)) {
		if (!s->x.full)
			job_say(o->name, "fill_device: %s is full at offset %llu (%s): the job ends here",
				s->cfs[u->file_index].path, (unsigned long long)u->offset, strerror(err));
		s->x.full = true;
		return WERR_FULL;
	}
	bool covered = (o->continue_on_error & cont[t]) != 0, go_on = ioerr_tolerated(o, t, err);
	if (covered) { /* what fio counts in total_err and first_error */
		ts->nr_errors++;
		if (!ts->first_error)
			ts->first_error = err;
	}
	if (!ts->error)
		ts->error = err;
	if (!go_on) {
		print_error(s, u);
		return WERR_FAIL;
	}
	if (!ioerr_ignored(o, t, err))
		s->x.unnamed_errors++;
	if (o->io.error_dump || ts->nr_errors == 1)
		print_error(s, u);
	return WERR_GO_ON;
}

bool werr_fill_end(struct wstate *s, const struct io_unit *u, uint64_t bytes)
{
	/* a write the filesystem took only part of is full too (fio retries the rest: ENOSPC) */
	return s->o->io.fill_device && ((u->ddir == DDIR_READ && bytes == 0 && job_writes(s->o)) || u->ddir == DDIR_WRITE);
}

int werr_finish(struct wstate *s)
{
	const struct thread_stats *ts = s->ts;
	if (!ts->nr_errors || (ts->nr_errors == 1 && s->w->err))
		return 0;
	bool named = !s->x.unnamed_errors;
	job_say(s->o->name, "%llu I/O error%s in all%s", (unsigned long long)ts->nr_errors,
		ts->nr_errors > 1 ? "s" : "",
		s->w->err ? ""
		: named   ? " (ignore_error names them: the job went on, and its status is success)"
			  : " (continue_on_error went on after them)");
	return s->w->err || named ? 0 : -ts->error;
}

/* max_latency: -ETIMEDOUT (after a line) when an I/O took longer than its direction allows. */
int werr_latency(const struct wstate *s, const struct io_unit *u, uint64_t lat_ns)
{
	uint64_t max = s->o->io.max_latency_us[u->ddir];
	if (!max || lat_ns <= max * 1000)
		return 0;
	job_say(s->o->name, "max_latency exceeded: a %s took %llu us, more than %llu us",
		u->ddir == DDIR_READ ? "read" : u->ddir == DDIR_WRITE ? "write" : "trim",
		(unsigned long long)(lat_ns / 1000), (unsigned long long)max);
	return -ETIMEDOUT;
}
