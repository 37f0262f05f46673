/* A worker's setup: its files, buffers, CPU affinity and queue depth. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/lib/clock.h"
#include "core/lib/debug.h"
#include "core/worker/jobenv.h"
#include "core/lib/nomem.h"
#include "core/lib/say.h"
#include "core/worker/worker_int.h"


int worker_open_flags(const struct job_opts *o)
{
	bool writes = job_writes(o); /* verify_only opens read-only and never creates */
	return (writes ? O_RDWR : O_RDONLY) | (o->direct ? O_DIRECT : 0) | (o->compat.atomic ? COMPAT_O_ATOMIC : 0) |
	       (o->sync_mode == SYNC_SYNC ? O_SYNC : o->sync_mode == SYNC_DSYNC ? O_DSYNC : 0) |
	       ((o->create_on_open || o->io.unlink_each_loop) && writes ? O_CREAT : 0);
}

int open_files(struct wstate *s)
{
	const struct job_opts *o = s->o;
	int flags = worker_open_flags(o);
	if (s->whole.on) /* opened one by one as the job reaches them */
		return 0;
	for (unsigned i = 0; i < s->nfiles; i++) {
		struct wfile *f = &s->files[i];
		int fd = -1, ret = engine_open_file(s->w->ops, &s->eng, wf_cf(s, f)->path, flags, &fd);
		if (ret) {
			job_say(o->name, "cannot open '%s': %s", wf_cf(s, f)->path, strerror(-ret));
			return ret;
		}
		wf_set_fd(s, f, fd);
		if (debug_on(s->w->debug, DBG_FILE))
			debug_print(DBG_FILE, "fd open %s, flags 0x%x: fd %d\n", wf_cf(s, f)->path, flags, fd);
		if (fd < 0)
			continue;
		if (o->invalidate) {
			/* Dirty pages cannot be dropped: write them back first (what users do with
			 * sync; echo 3 > /proc/sys/vm/drop_caches between a write and a read). */
			fdatasync(fd);
			posix_fadvise(fd, (off_t)wf_cf(s, f)->offset, (off_t)wf_cf(s, f)->region, POSIX_FADV_DONTNEED);
		}
		if (o->fadvise != FADV_NONE) {
			bool rnd = o->fadvise == FADV_RANDOM || (o->fadvise == FADV_AUTO && (o->rw & RW_RANDOM));
			posix_fadvise(fd, 0, 0, rnd ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL);
		}
	}
	return env_files_opened(s); /* write_hint */
}

int worker_nomem(struct wstate *s, const char *what, uint64_t bytes)
{
	return nomem(s->o->name, what, bytes);
}

void close_files(struct wstate *s)
{
	for (unsigned i = 0; s->files && i < s->nfiles; i++)
		if (wf_fd(s, &s->files[i]) >= 0) {
			if (debug_on(s->w->debug, DBG_FILE))
				debug_print(DBG_FILE, "fd close %s: fd %d\n", s->cfs[i].path, wf_fd(s, &s->files[i]));
			engine_close_file(s->w->ops, &s->eng, wf_fd(s, &s->files[i]));
		}
}

static int alloc_units(struct wstate *s)
{
	const struct job_opts *o = s->o;
	uint64_t max_bs = 0;
	for (int d = 0; d < DDIR_NR; d++) {
		uint64_t b = o->bs_max[d] > o->bs[d] ? o->bs_max[d] : o->bs[d];
		for (unsigned i = 0; i < o->nbssplit[d]; i++)
			if (o->bssplit[d][i].bs > b)
				b = o->bssplit[d][i].bs;
		if (job_has_dir(o, d) && b > max_bs)
			max_bs = b;
	}
	if (s->w->plan->replay && s->w->plan->replay->max_len > max_bs) /* read_iolog: its longest I/O */
		max_bs = s->w->plan->replay->max_len;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	/* mem_align: as fio, the buffers follow each other by the block size */
	s->buf_stride = o->env.mem_align ? max_bs : (max_bs + page - 1) / page * page;
	s->units = calloc(s->depth, sizeof(*s->units));
	s->unit_state = calloc(s->depth, sizeof(*s->unit_state)); /* all UNIT_FREE */
	s->free_units = calloc(s->depth, sizeof(*s->free_units));
	s->pending = calloc(s->depth, sizeof(*s->pending));
	if (!s->units || !s->unit_state || !s->free_units || !s->pending)
		return worker_nomem(s, "I/O units", (uint64_t)s->depth * (sizeof(*s->units) + 2 * sizeof(void *)));
	uint64_t bytes;
	int ret = -ENOMEM;
	if (__builtin_mul_overflow((uint64_t)s->buf_stride, (uint64_t)s->depth, &bytes) || bytes > SIZE_MAX ||
	    bytes + env_mem_extra(o) < bytes || (ret = env_mem_alloc(s, (size_t)bytes, &s->bufmem))) {
		if (ret != -ENOMEM || o->env.mem != MEM_MALLOC) /* env_mem_alloc said why */
			return s->bufmem = NULL, ret;
		char what[160];
		snprintf(what, sizeof(what), "I/O buffers (iodepth %u x the largest block size %llu, for each of "
			 "numjobs=%u clones)", s->depth, (unsigned long long)s->buf_stride, o->numjobs);
		s->bufmem = NULL;
		return worker_nomem(s, what, bytes);
	}
	if (debug_on(s->w->debug, DBG_MEM))
		debug_print(DBG_MEM, "io_u alloc %u units at %p; Alloc %llu for buffers: %p (stride %zu)\n", s->depth,
			    (void *)s->units, (unsigned long long)bytes, s->bufmem, s->buf_stride);
	for (unsigned i = 0; i < s->depth; i++) {
		s->units[i].index = i;
		s->units[i].buf = (char *)s->bufmem + (size_t)i * s->buf_stride;
		s->free_units[s->nr_free++] = &s->units[i];
		if (debug_on(s->w->debug, DBG_MEM))
			debug_print(DBG_MEM, "io_u %p, mem %p\n", (void *)&s->units[i], s->units[i].buf);
	}
	buffers_init(s);
	return 0;
}

int alloc_state(struct wstate *s)
{
	/* The file-operation engines keep no descriptors and read no sizes (engine_ctx.fds and
	 * file_sizes are NULL for them): 12 bytes a file less, a million files in one job. */
	bool by_fd = !(s->w->ops->flags & ENGINE_FILE_OP);
	s->files = calloc(s->nfiles, sizeof(*s->files));
	s->fds = by_fd ? calloc(s->nfiles ? s->nfiles : 1, sizeof(*s->fds)) : NULL;
	s->file_sizes = by_fd ? calloc(s->nfiles ? s->nfiles : 1, sizeof(*s->file_sizes)) : NULL;
	s->written = calloc(s->nfiles / 64 + 1, sizeof(*s->written));
	s->events = calloc(s->depth, sizeof(*s->events));
	if (s->o->rw & RW_RANDOM) /* the random maps: not for sequential jobs (a million files) */
		s->perms = calloc(s->nfiles ? s->nfiles : 1, sizeof(*s->perms));
	if (!s->files || !s->written || (by_fd && (!s->fds || !s->file_sizes)) || !s->events || (!s->perms && (s->o->rw & RW_RANDOM)))
		return worker_nomem(s, "table of its files and completions",
				    (uint64_t)s->nfiles * (sizeof(*s->files) + sizeof(*s->fds) + sizeof(*s->file_sizes) +
							   sizeof(*s->perms)) + (uint64_t)s->depth * sizeof(*s->events));
	s->cfs = s->w->plan->files;
	for (unsigned i = 0; i < s->nfiles; i++) {
		if (by_fd) {
			s->fds[i] = -1;
			s->file_sizes[i] = s->cfs[i].file_size;
		}
	}
	s->eng.fds = s->fds;
	s->eng.file_sizes = s->file_sizes;
	s->eng.nr_fds = s->nfiles;
	s->eng.files = s->cfs;
	s->eng.events = s->events;
	int ret = alloc_units(s);
	s->eng.units = s->units;
	s->eng.buf_len = s->buf_stride;
	if (!ret) {
		cmdprio_init(s);
		ret = lockfile_init(s);
	}
	return ret;
}

void free_state(struct wstate *s)
{
	if (s->bufmem && debug_on(s->w->debug, DBG_MEM))
		debug_print(DBG_MEM, "io_u free %p\n", (void *)s->units);
	free(s->files);
	free(s->perms);
	free(s->fds);
	free(s->file_sizes);
	free(s->written);
	free(s->events);
	free(s->units);
	free(s->unit_state);
	free(s->free_units);
	free(s->pending);
	env_mem_free(s);
	lockfile_free(s);
}

int set_affinity(struct wstate *s)
{
	const struct job_opts *o = s->o;
	if (!o->ncpus_allowed)
		return 0;
	cpu_set_t set;
	CPU_ZERO(&set);
	unsigned want = s->w->clone % o->ncpus_allowed, seen = 0;
	for (unsigned c = 0; c < CPUS_MAX && c < CPU_SETSIZE; c++) {
		if (!(o->cpus_allowed[c / 64] & (1ULL << (c % 64))))
			continue;
		if (o->cpus_policy == CPUS_SHARED || seen == want)
			CPU_SET(c, &set);
		seen++;
	}
	int err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (!err)
		return 0;
	/* A pod's or container's cpuset may not hold the CPUs asked for: keep those it does
	 * hold, or else run where the cpuset lets us; one note per job, never a failure. */
	cpu_set_t allowed;
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return 0;
	CPU_AND(&set, &set, &allowed);
	bool some = CPU_COUNT(&set) > 0 && !pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (s->w->clone == 0)
		job_say(o->name, "cpus_allowed: %s; running on %s%s",
			err == EINVAL ? "outside this process's CPU set (cgroup cpuset)" : strerror(err),
			some ? "the CPUs in both" : "the CPU set",
			s->w->warnings_fatal ? " (fatal: --warnings-fatal)" : "");
	return 1;
}

void setup_depth(struct wstate *s)
{
	const struct job_opts *o = s->o;
	s->sync = (s->w->ops->flags & ENGINE_SYNC) != 0;
	s->file_ops = (s->w->ops->flags & ENGINE_FILE_OP) != 0;
	s->no_io = (s->w->ops->flags & ENGINE_NO_IO) != 0;
	s->whole.on = job_whole_files(s->o) && !s->file_ops; /* whole.c owns the rest */
	s->depth = s->sync ? 1 : o->iodepth;
	s->batch_submit = o->iodepth_batch_submit ? o->iodepth_batch_submit : s->depth;
	if (s->batch_submit > s->depth)
		s->batch_submit = s->depth;
	s->complete_min = o->iodepth_batch_complete_min;
	/* As fio: at most iodepth_batch_complete_min completions per reap unless a maximum is
	 * given, so a full queue is topped up after each completion (reaping whatever is there
	 * would leave the completed units idle while the rest are resubmitted one by one: fewer
	 * than iodepth in flight, and latencies under what Little's law gives for the depth). */
	s->complete_max = o->iodepth_batch_complete_max ? o->iodepth_batch_complete_max
			  : o->iodepth_batch_complete_min ? o->iodepth_batch_complete_min : s->depth;
	s->depth_low = o->iodepth_low && o->iodepth_low < s->depth ? o->iodepth_low : s->depth;
	s->eng.depth = s->depth;
	s->eng.nr_units = s->depth;
	s->eng.opts = o;
	s->eng.eng_opts = s->w->eng_opts;
	s->eng.clone = s->w->clone;
	s->eng.stop = s->w->stop;
	s->eng.io_jobs_left = s->w->io_jobs_left;
	s->eng.files_one_by_one = s->whole.on;
	s->rec_slat = !o->disable_slat;
	s->rec_clat = !o->disable_clat;
	s->rec_lat = !o->disable_lat;
	s->hist_slat = o->slat_percentiles;
	s->hist_lat = o->lat_percentiles;
	s->rec_bw = !o->disable_bw;
}


static bool lean_possible(const struct wstate *s);

/* Is every per-I/O extra off? Then the loop takes its short path (s->lean), with the block
 * size of each direction known when it is one size (lean_bs, else 0), and the direction
 * when the job has one (lean_ddir, else -1). */
void setup_lean(struct wstate *s)
{
	const struct job_opts *o = s->o;
	s->lean = lean_possible(s);
	bool r = job_has_dir(o, DDIR_READ), w = job_has_dir(o, DDIR_WRITE);
	s->lean_ddir = r && w ? -1 : w ? DDIR_WRITE : DDIR_READ;
	for (int d = 0; d < DDIR_NR; d++)
		s->lean_bs[d] = !o->compat.bs_is_seq_rand && !o->nbssplit[d] && o->bs_max[d] <= o->bs_min[d] ? o->bs[d] : 0;
}

static bool lean_possible(const struct wstate *s)
{
	const struct job_opts *o = s->o;
	for (int d = 0; d < DDIR_NR; d++)
		if (o->rate[d] || o->rate_iops[d] || o->io.max_latency_us[d])
			return false;
	if (job_has_dir(o, DDIR_TRIM) || o->verify_only || o->thinktime_us || o->fsync_blocks || o->fdatasync_blocks)
		return false;
	if (o->io.sfr_nr || o->io.serialize_overlap || o->io.fill_device || s->x.flow || s->x.loop_end)
		return false;
	return !s->replay.on && !s->ver.on && !s->ver.unit_check && !s->trim.chosen_on && !s->trim.pairs &&
	       !s->zone.mode && !s->whole.on && !s->env.lock_mode && !s->rec.on && !s->logs && !s->lat.on &&
	       !s->debug_io && !s->file_ops;
}
