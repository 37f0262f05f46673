#include "core/run/plan.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/stats/diskstats.h"
#include "core/plan/dirscan.h"
#include "engines/engine.h"
#include "core/lib/guard.h"
#include "core/lib/say.h"
#include "core/run/iolog_plan.h"
#include "core/plan/zone.h"
#include "core/worker/flow.h"
#include "core/worker/worker.h"

/* Nothing is written where the user did not ask: mounted or held devices, swap, the
 * backing files of busy loop devices. */
static int guard_files(const struct job_opts *o, const struct file_plan *plan, bool no_file)
{
	if (no_file || o->allow_mounted_write || !job_writes(o))
		return 0;
	struct guard_loops gl;
	if (guard_loops_read(&gl)) {
		job_say(o->name, "cannot allocate the list of loop devices: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	int ret = 0;
	for (unsigned i = 0; i < plan->nfiles && !ret; i++) {
		char why[PATH_MAX + 128];
		if (guard_check_write_with(&gl, plan->files[i].path, why, sizeof(why))) {
			job_say(o->name, "refusing to write to '%s': %s%s (allow_mounted_write=1 overrides)",
				plan->files[i].path, strncmp(why, "the backing", 11) ? "the device is " : "it is ",
				why);
			ret = -EBUSY;
		}
	}
	guard_loops_free(&gl);
	return ret;
}

static const char *file_kind(mode_t m)
{
	return S_ISBLK(m) ? "a block device" : S_ISCHR(m) ? "a character device" : S_ISFIFO(m) ? "a FIFO"
	       : S_ISSOCK(m) ? "a socket" : S_ISLNK(m) ? "a symbolic link" : S_ISDIR(m) ? "a directory"
	       : "a regular file";
}

/* I/O goes to regular files and devices: a FIFO or socket has no offsets (its open would
 * wait for the other end, and every read or write at an offset fails). File-operation
 * engines work on regular files only (directories for the dir* ones): a device node is
 * never unlinked. Links are followed only to stat. */
static int check_targets(const struct job_opts *o, const struct engine_ops *ops, struct file_plan *plan)
{
	bool fileop = ops->flags & ENGINE_FILE_OP;
	bool dirs = ops->flags & ENGINE_DIRS, changes = ops->flags & ENGINE_CHANGES_FILES;
	plan->regular_only = !(ops->flags & ENGINE_NO_FILE);
	/* Thousands of files in one directory: one walk of it says which are missing or regular
	 * (nothing to check there), and only the others are lstat'ed. */
	struct dir_scan scan = { 0 };
	if (plan->nfiles >= DIR_SCAN_MIN && !(ops->flags & ENGINE_NO_FILE))
		dir_scan_open(&scan, plan->files[0].path, 4 * (size_t)plan->nfiles + 1024);
	int ret = 0;
	for (unsigned i = 0; i < plan->nfiles && !(ops->flags & ENGINE_NO_FILE) && !ret; i++) {
		struct stat st;
		const char *path = plan->files[i].path;
		enum dir_kind kind = dir_scan_kind(&scan, path);
		if (kind == DIR_MISSING || (kind == DIR_REGULAR && !dirs))
			continue; /* missing: made by the job or by laying out; regular: fine for all */
		int got = lstat(path, &st); /* links followed only to stat, when nothing is changed */
		if (!got && S_ISLNK(st.st_mode)) {
			plan->regular_only = false;
			if (!changes && !o->unlink)
				got = stat(path, &st);
		}
		if (got < 0)
			continue; /* made by the job, or by laying out */
		if (!S_ISREG(st.st_mode))
			plan->regular_only = false;
		if (o->unlink && !S_ISREG(st.st_mode) && !(dirs && S_ISDIR(st.st_mode))) {
			job_say(o->name, "unlink=1: '%s' is %s; only regular files are removed", path,
				file_kind(st.st_mode));
			ret = -EINVAL;
			break;
		}
		if (!fileop && !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode))
			continue;
		if (!fileop) {
			job_say(o->name,
				"'%s' is %s, which has no offsets to do I/O at; use a regular file or a device", path,
				file_kind(st.st_mode));
			ret = -EINVAL;
			break;
		}
		if (dirs ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode))
			continue;
		job_say(o->name, "ioengine=%s: '%s' is %s; only %s are supported", ops->name, path,
			file_kind(st.st_mode), dirs ? "directories" : "regular files");
		ret = -EINVAL;
	}
	dir_scan_free(&scan);
	return ret;
}

/* --output or --plot naming a file this clone does I/O on: the report would replace it. */
static int output_clash(const struct run_cfg *cfg, const struct clone_result *c, const char *path,
			const char *what)
{
	struct stat st, sf;
	if (!path || cfg->parse_only || stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	for (unsigned k = 0; k < c->plan.nfiles; k++) {
		const char *f = c->plan.files[k].path;
		const char *fb = strrchr(f, '/') ? strrchr(f, '/') + 1 : f;
		if (!strcmp(base, fb) && stat(f, &sf) == 0 && sf.st_dev == st.st_dev && sf.st_ino == st.st_ino) {
			fprintf(stderr, "iobench: %s: '%s' is a file job '%s' does I/O on: the report would replace it\n",
				what, path, cfg->jobs[c->job].o.name); /* names first: no stat per file */
			return -EINVAL;
		}
	}
	return 0;
}

/* zoned_abs zones that reach past a file's region: as fio (which warns), they are cut at its
 * end; said once per job, on stderr, naming the smallest region. */
static void zoned_abs_note(const struct job_opts *o, const struct file_plan *plan)
{
	uint64_t region = UINT64_MAX;
	for (unsigned i = 0; i < plan->nfiles; i++)
		if (plan->files[i].region < region)
			region = plan->files[i].region;
	for (int d = 0; d < DDIR_NR && plan->nfiles; d++) {
		const struct distribution *dist = &o->dist[d];
		uint64_t sum = 0;
		for (unsigned z = 0; dist->type == DIST_ZONED_ABS && z < dist->nzones; z++)
			sum += dist->zones[z].size;
		if (sum > region) {
			job_say(o->name,
				"note: random_distribution=zoned_abs: its zones add up to %llu "
				"bytes, more than the %llu of a file's region: they are cut at its end",
				(unsigned long long)sum, (unsigned long long)region);
			return;
		}
	}
}

int plan_clone(const struct run_cfg *cfg, struct clone_result *c)
{
	const struct job *job = &cfg->jobs[c->job];
	const struct engine_ops *ops = job->ops;
	bool no_file = ops->flags & ENGINE_NO_FILE;
	c->plan_later = false;
	int planned = job->iologs ? iolog_plan(job, c->gclone, no_file, &c->plan)
				  : files_plan(&job->o, c->gclone, no_file, ops->flags & ENGINE_SIZED_FILES,
					       job->target_bytes, &c->plan);
	if (!planned && c->gclone == 0)
		zoned_abs_note(&job->o, &c->plan);
	return planned || guard_files(&job->o, &c->plan, no_file) ||
			       check_targets(&job->o, ops, &c->plan) || zone_plan(&job->o, &c->plan, no_file) ||
			       output_clash(cfg, c, cfg->output_path, "--output") ||
			       output_clash(cfg, c, cfg->plot_path, "--plot")
		       ? -EINVAL : 0;
}

/* The disks behind every file a run uses (not the null engine's, nor, as fio, those of
 * filecreate and dircreate: their files do not exist yet). */
int plan_clone_disks(struct run_ctx *rc, const struct clone_result *c)
{
	const struct job *job = &rc->cfg->jobs[c->job];
	const struct job_opts *o = &job->o;
	if (!o->disk_util || (job->ops->flags & (ENGINE_NO_FILE | ENGINE_NO_LAYOUT)))
		return 0;
	const char *dir = NULL; /* of the file looked at last */
	size_t len = 0;
	for (unsigned k = 0; k < c->plan.nfiles; k++) {
		const char *path = c->plan.files[k].path, *slash = strrchr(path, '/');
		size_t n = slash ? (size_t)(slash - path) : 0;
		if (c->plan.regular_only && dir && n == len && !memcmp(dir, path, n))
			continue; /* regular files: on the disk of the directory's first */
		dir = path;
		len = n;
		if (disks_add_for_path(&rc->disks, path))
			return -ENOMEM;
	}
	return 0;
}

/* How many buffers one clone's part of the set holds. */
static uint64_t set_len(const struct job_opts *o, const struct file_plan *plan)
{
	uint64_t size = o->size, bs = job_min_bs(o);
	for (unsigned i = 0; !size && i < plan->nfiles; i++)
		size += plan->files[i].region;
	uint64_t n = size / 100 * o->io.dedupe_ws_pct / (bs ? bs : 1);
	return n ? n : 1;
}

static bool in_set(const struct job_opts *o)
{
	return o->dedupe_pct && o->io.dedupe_mode == DEDUPE_WORKING_SET;
}

void io_place(struct run_ctx *rc, size_t ci, struct worker *w)
{
	const struct job_opts *o = &rc->cfg->jobs[rc->clones[ci].job].o;
	w->flows = &rc->flows;
	/* flow=: the clones of a group join before any starts, so that the first to start does
	 * not run alone; one that waits first (startdelay, wait_for) joins when it starts. */
	w->flow = NULL;
	w->flow_ios = 0;
	if (o->io.flow && !o->startdelay_us[1] && !o->wait_for[0])
		w->flow = flow_join(&rc->flows, o->io.flow_id, o->io.flow, &w->flow_ios);
	w->dedupe_start = 0;
	w->dedupe_len = w->dedupe_total = in_set(o) ? set_len(o, &rc->clones[ci].plan) : 0;
	if (!in_set(o) || !o->io.dedupe_global)
		return;
	w->dedupe_total = 0;
	for (size_t i = 0; i < rc->nclones; i++) {
		const struct clone_result *c = &rc->clones[i];
		const struct job_opts *oi = &rc->cfg->jobs[c->job].o;
		if (!in_set(oi) || !oi->io.dedupe_global)
			continue;
		if (i < ci)
			w->dedupe_start += set_len(oi, &c->plan);
		w->dedupe_total += set_len(oi, &c->plan);
	}
}
