/* What core/job/options_io.c's options imply once a job's options are resolved. */
#include "core/run/resolve.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "engines/engine.h"
#include "core/job/job.h"
#include "core/lib/say.h"

static void note(const struct job *job, const char *what)
{
	job_say(job->o.name, "%s", what);
}

static int refuse(const struct job *job, const char *what)
{
	note(job, what);
	return -EINVAL;
}

/* What options turn on or off in others, as fio does. */
static void implied(struct job *job)
{
	struct job_opts *o = &job->o;
	static const unsigned cont[IOERR_TYPES] = { CONT_READ, CONT_WRITE, CONT_VERIFY };
	for (unsigned t = 0; t < IOERR_TYPES; t++)
		if (o->io.nignore[t]) /* "works by overriding continue_on_error" */
			o->continue_on_error |= cont[t];
	if (o->io.pre_read)
		o->invalidate = false; /* pointless to read the cache full and drop it */
	if (o->dedupe_pct)
		o->refill_buffers = true;
	if (o->io.allrandrepeat)
		o->randrepeat = true;
	if (o->io.ba_given && (o->rw & RW_RANDOM) && !o->norandommap) {
		o->norandommap = true;
		note(job, "note: any use of blockalign= turns off the random map (as fio)");
	}
	if (o->io.ba_given) /* a direction left out aligns to its block size */
		for (int d = 0; d < DDIR_NR; d++)
			if (!o->io.ba[d])
				o->io.ba[d] = o->bs[d];
}

static bool given(const struct opt_list *const *lists, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < lists[i]->n; k++)
			if (!strcmp(lists[i]->v[k].name, name))
				return true;
	return false;
}

/* verify keeps what was written by block of the smallest size (core/worker/verify_phase.c): an
 * offset or a length off that grid would be read back at the wrong place. fio verifies these
 * (docs/differences.md). */
static int verify_grid(struct job *job)
{
	const struct job_opts *o = &job->o;
	uint64_t g = job_min_bs(o);
	if (o->verify == VERIFY_NONE || !g)
		return 0;
	for (int d = 0; d < DDIR_NR; d++) {
		if (!job_has_dir(o, (enum ddir)d))
			continue;
		if (o->io.ba_given && o->io.ba[d] % g) {
			char what[200];
			snprintf(what, sizeof(what), "blockalign=%llu with verify: the alignment must be a multiple of the "
				 "smallest block size (%llu)", (unsigned long long)o->io.ba[d], (unsigned long long)g);
			return refuse(job, what);
		}
		if (o->io.bs_unaligned && o->bs_max[d] > o->bs_min[d])
			return refuse(job, "bs_unaligned with verify: verify needs block sizes in multiples of the "
					   "smallest one (give bsrange's sizes aligned, or no verify)");
	}
	return 0;
}

int opts_io_resolve(struct job *job, const struct opt_list *const *lists, size_t n)
{
	struct job_opts *o = &job->o;
	if (verify_grid(job)) /* before implied()'s note: one line */
		return -EINVAL;
	implied(job);
	/* thinktime_iotime alone: the pauses come by time, not after every block (fio) */
	if (o->io.thinktime_iotime_us && !given(lists, n, "thinktime_blocks"))
		o->thinktime_blocks = UINT64_MAX;
	if (o->io.fill_device && (o->rw & RW_RANDOM) && job_has_dir(o, DDIR_WRITE) && !o->size && !o->filesize_lo &&
	    !o->size_pct)
		return refuse(job, "fill_device: random writes have no end to fill up to; give size= or write "
				   "sequentially (fio's random map fails here and the job does nothing)");
	struct timespec ts;
	if ((o->io.log_unix_epoch || o->io.log_alt_epoch) && clock_gettime((clockid_t)o->io.log_alt_clock, &ts) < 0) {
		char what[160];
		snprintf(what, sizeof(what), "log_alternate_epoch_clock_id: clock %d: %s", o->io.log_alt_clock,
			 strerror(errno));
		return refuse(job, what);
	}
	if (o->io.log_compression && (o->io.log_compression < 1024 || o->io.log_compression > (512u << 20)))
		return refuse(job, "log_compression: the chunk size must be from 1k to 512m");
	if (o->io.dedupe_mode == DEDUPE_WORKING_SET && o->dedupe_pct && !o->size && !o->filesize_lo)
		return refuse(job, "dedupe_mode=working_set: needs size= (the working set is a share of it, as fio)");
	if (o->io.submit_mode == SUBMIT_OFFLOAD && job->ops && !(job->ops->flags & ENGINE_SYNC) &&
	    !(job->ops->flags & ENGINE_NO_FILE))
		return refuse(job, "io_submit_mode=offload: needs a synchronous engine (psync, sync, pvsync, pvsync2; "
				   "fio's manual: it cannot reliably be used with async engines)");
	/* The helpers are engines of their own: one without files that starts something once
	 * they are open (a connection, a program) or does no I/O has nothing to hand them. */
	if (o->io.submit_mode == SUBMIT_OFFLOAD && job->ops && (job->ops->flags & ENGINE_NO_FILE) &&
	    (engine_starts_after_open(job->ops) || (job->ops->flags & ENGINE_NO_IO))) {
		char what[200];
		snprintf(what, sizeof(what), "io_submit_mode=offload: ioengine=%s %s; use io_submit_mode=inline",
			 job->ops->name, job->ops->flags & ENGINE_NO_IO ? "does no I/O to hand over"
									 : "keeps a connection or program of its own");
		return refuse(job, what);
	}
	return 0;
}
