/* File layout: a job that reads needs real data in its file; a writer needs it sized. */
#include "core/run/layout.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/falloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "engines/engine.h"
#include "core/run/fill.h"
#include "core/lib/guard.h"
#include "core/lib/say.h"
#include "core/run/iolog_plan.h"
#include "core/run/run.h"

#define LAYOUT_CHUNK (1u << 20)


/* Write data from `from` up to `to` so that reads see real blocks. Looks at the stop flag
 * between chunks: a signal ends a layout of any size at once (-EINTR). */
static int fill_file(int fd, uint64_t from, uint64_t to, const atomic_bool *stop)
{
	/* a small file's layout generates only its own bytes, not a whole chunk */
	size_t chunk = to - from < LAYOUT_CHUNK ? (size_t)(to - from + 7) / 8 * 8 : LAYOUT_CHUNK;
	char *buf = malloc(chunk ? chunk : 8);
	if (!buf)
		return -ENOMEM;
	uint64_t x = 0x9e3779b97f4a7c15ULL ^ from;
	for (size_t i = 0; i < chunk / sizeof(uint64_t); i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		memcpy(buf + i * sizeof(uint64_t), &x, sizeof(x));
	}
	int ret = 0;
	for (uint64_t off = from; off < to;) {
		if (atomic_load_explicit(stop, memory_order_relaxed)) {
			ret = -EINTR;
			break;
		}
		size_t n = to - off < chunk ? (size_t)(to - off) : chunk;
		ssize_t w = pwrite(fd, buf, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			ret = w < 0 ? -errno : -ENOSPC;
			break;
		}
		off += (uint64_t)w;
	}
	free(buf);
	return ret;
}

/* The paths of a group's files, each once: an open-addressing table of the first (clone,
 * file) that names each path, with the bytes the clones of the group need in it and
 * whether any of them reads it. Built once per group in one pass, so a million files cost
 * a million lookups, not a million squared comparisons. Files are numbered across the
 * group's clones (base[ci] + k). */
struct path_index {
	const struct run_ctx *rc;
	size_t *base;          /* by clone: the number of its first file (clones of the group) */
	uint32_t *slot;        /* number + 1 of the first file with the path hashed here; 0: empty */
	size_t mask;
	uint64_t *need;        /* by number of a first file: the most any clone needs */
	unsigned char *reads;  /* by number of a first file: some clone reads it */
	/* by number of a first file: its size when first looked at (one stat per path, shared by
	 * the space check, the notice and the layout), or one of the HAVE_ values */
	uint64_t *have;
};

#define HAVE_UNKNOWN UINT64_MAX       /* not looked at yet */
#define HAVE_MISSING (UINT64_MAX - 1) /* no such file */
#define HAVE_OTHER (UINT64_MAX - 2)   /* not a regular file: used as it is */

static uint64_t path_hash(const char *p)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
	while (*p)
		h = (h ^ (unsigned char)*p++) * 0x100000001b3ULL;
	h ^= h >> 33; /* the table takes the low bits: the high ones mixed in */
	h *= 0xff51afd7ed558ccdULL;
	return h ^ (h >> 33);
}

/* The path of file number n (the clone found by bisecting the bases). */
static const char *index_path(const struct path_index *ix, size_t n, size_t *ci_out)
{
	size_t lo = 0, hi = ix->rc->nclones; /* the last clone whose base is <= n */
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (ix->base[mid] <= n)
			lo = mid;
		else
			hi = mid;
	}
	/* lo holds files: the next base (or the total) is past n */
	if (ci_out)
		*ci_out = lo;
	return ix->rc->clones[lo].plan.files[n - ix->base[lo]].path;
}

/* The slot of path: the one holding it, or the empty one where it goes. */
static size_t index_find(const struct path_index *ix, const char *path)
{
	size_t i = (size_t)path_hash(path) & ix->mask;
	while (ix->slot[i] && strcmp(index_path(ix, ix->slot[i] - 1, NULL), path))
		i = (i + 1) & ix->mask;
	return i;
}

static bool in_group(const struct run_ctx *rc, size_t ci, unsigned g)
{
	return rc->cfg->jobs[rc->clones[ci].job].groupid == g;
}

static void index_free(struct path_index *ix)
{
	free(ix->base);
	free(ix->slot);
	free(ix->need);
	free(ix->reads);
	free(ix->have);
	memset(ix, 0, sizeof(*ix));
}

/* 0 or -ENOMEM (after a line). */
static int index_build(struct path_index *ix, const struct run_ctx *rc, unsigned g)
{
	size_t total = 0, cap = 16;
	*ix = (struct path_index){ .rc = rc, .base = malloc((rc->nclones + 1) * sizeof(size_t)) };
	for (size_t i = 0; ix->base && i < rc->nclones; i++) {
		ix->base[i] = total; /* bases never decrease: index_path bisects them */
		total += in_group(rc, i, g) ? rc->clones[i].plan.nfiles : 0;
	}
	while (cap < 2 * total)
		cap *= 2;
	ix->mask = cap - 1;
	if (ix->base) {
		ix->slot = calloc(cap, sizeof(*ix->slot));
		ix->need = malloc((total ? total : 1) * sizeof(*ix->need));
		ix->reads = malloc(total ? total : 1);
		ix->have = malloc((total ? total : 1) * sizeof(*ix->have));
	}
	if (!ix->slot || !ix->need || !ix->reads || !ix->have || total >= UINT32_MAX) {
		fprintf(stderr, "iobench: cannot index the files of group %u (%zu files): %s\n", g, total, strerror(ENOMEM));
		index_free(ix);
		return -ENOMEM;
	}
	for (size_t i = 0; i < rc->nclones; i++) {
		const struct clone_result *c = &rc->clones[i];
		const struct job *job = &rc->cfg->jobs[c->job];
		bool reads = job_has_dir(&job->o, DDIR_READ) || (job->o.overwrite && job_writes(&job->o));
		for (unsigned k = 0; in_group(rc, i, g) && k < c->plan.nfiles; k++) {
			const struct clone_file *f = &c->plan.files[k];
			size_t at = index_find(ix, f->path), n = ix->base[i] + k;
			if (!ix->slot[at]) {
				ix->slot[at] = (uint32_t)(n + 1);
				ix->need[n] = 0;
				ix->reads[n] = 0;
				ix->have[n] = HAVE_UNKNOWN;
			}
			size_t first = ix->slot[at] - 1;
			if (f->file_size > ix->need[first])
				ix->need[first] = f->file_size;
			ix->reads[first] |= reads; /* overwrite=1: data to overwrite, as for a reader */
		}
	}
	return 0;
}

/* Is file k of clone ci the first of the group to name its path? */
static bool index_first(const struct path_index *ix, size_t ci, unsigned k)
{
	const char *path = ix->rc->clones[ci].plan.files[k].path;
	return ix->slot[index_find(ix, path)] - 1 == ix->base[ci] + k;
}

/* Bytes any clone of the group needs in path, and whether any of them reads it. */
static uint64_t index_need(const struct path_index *ix, const char *path, bool *reads)
{
	size_t first = ix->slot[index_find(ix, path)] - 1;
	*reads = ix->reads[first];
	return ix->need[first];
}

/* What path holds (a size or HAVE_MISSING / HAVE_OTHER): stat'ed the first time only. */
static uint64_t index_have(const struct path_index *ix, const char *path)
{
	size_t first = ix->slot[index_find(ix, path)] - 1;
	if (ix->have[first] == HAVE_UNKNOWN) {
		struct stat st;
		ix->have[first] = stat(path, &st) < 0 ? HAVE_MISSING
				  : !S_ISREG(st.st_mode) ? HAVE_OTHER : (uint64_t)st.st_size;
	}
	return ix->have[first];
}

/* path now holds size bytes: laid out (the have array is the index's own, written through). */
static void index_laid_out(const struct path_index *ix, const char *path, uint64_t size)
{
	ix->have[ix->slot[index_find(ix, path)] - 1] = size;
}

/* What laying out one path needs to know. */
struct layout_req {
	const struct job *job;
	const char *path;
	uint64_t need;         /* bytes the file must have */
	bool reads;            /* a job of the group reads it: real data, not a hole */
	bool readonly;         /* --readonly or readonly=1: nothing may be created or grown */
	const atomic_bool *stop;
	uint64_t have;         /* its size when the group's layout began, or HAVE_MISSING / HAVE_OTHER */
};

static int extend(const struct layout_req *r, int fd, uint64_t have)
{
	const struct job_opts *o = &r->job->o;
	uint64_t need = r->need;
	if (need <= have)
		return 0; /* fill_device's writer: created, never grown */
	if (r->reads) {
		int ret = fill_file(fd, have, need, r->stop);
		if (o->io.fill_device && (ret == -ENOSPC || ret == -EDQUOT))
			ret = 0; /* full: what fit is the file (core/run/fill.c cuts the region to it) */
		if (!ret && o->io.create_fsync && fsync(fd) < 0)
			ret = -errno;
		return ret;
	}
	int ret = 0;
	switch (o->fallocate) {
	case FALLOC_NATIVE:
		if (fallocate(fd, 0, (off_t)have, (off_t)(need - have)) < 0 && errno != EOPNOTSUPP)
			ret = -errno;
		break;
	case FALLOC_POSIX:
		ret = -posix_fallocate(fd, (off_t)have, (off_t)(need - have));
		break;
	case FALLOC_KEEP:
		if (fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)have, (off_t)(need - have)) < 0 &&
		    errno != EOPNOTSUPP)
			ret = -errno;
		return ret;
	default:
		break;
	}
	if (!ret && ftruncate(fd, (off_t)need) < 0)
		ret = -errno;
	return ret;
}

/* Does laying out this file take disk space (data, or allocated blocks)? */
static bool takes_space(const struct layout_req *r)
{
	unsigned fa = r->job->o.fallocate;
	return r->reads || fa == FALLOC_NATIVE || fa == FALLOC_POSIX || fa == FALLOC_KEEP;
}

/* dirstat, dirdelete: the "files" are directories, made with their parents. */
static int layout_dir(const struct layout_req *r)
{
	struct stat st;
	if (stat(r->path, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	if (r->readonly) {
		job_say(r->job->o.name, "refusing to create directory '%s': --readonly", r->path);
		return -EROFS;
	}
	files_make_parents(r->path);
	if (mkdir(r->path, 0755) == 0 || errno == EEXIST)
		return 0;
	int err = -errno;
	job_say(r->job->o.name, "cannot create directory '%s': %s", r->path, strerror(-err));
	return err;
}

/* May this file be created or grown? 1 yes, 0 nothing to do, -errno no (after a line). */
static int may_lay_out(const struct layout_req *r)
{
	const struct job_opts *o = &r->job->o;
	bool exists = r->have != HAVE_MISSING;
	if (exists && (r->have == HAVE_OTHER || r->have >= r->need))
		return 0; /* devices and the like are used as they are */
	if (o->verify_only) {
		job_say(o->name, "verify_only: '%s' %s; nothing was written to verify", r->path,
			exists ? "is shorter than the region" : "does not exist");
		return exists ? -EINVAL : -ENOENT;
	}
	if (r->readonly) {
		if (exists)
			job_say(o->name, "refusing to extend '%s' from %llu to %llu bytes: --readonly", r->path,
				(unsigned long long)r->have, (unsigned long long)r->need);
		else
			job_say(o->name, "refusing to create '%s': --readonly", r->path);
		return -EROFS;
	}
	if (!o->allow_file_create) { /* as fio: neither made nor grown */
		if (exists)
			job_say(o->name,
				"'%s' is shorter than the job needs (%llu of %llu bytes) and allow_file_create=0",
				r->path, (unsigned long long)r->have, (unsigned long long)r->need);
		else
			job_say(o->name, "'%s' does not exist and allow_file_create=0", r->path);
		return exists ? -EINVAL : -ENOENT;
	}
	if (!exists && o->create_on_open && !r->reads)
		return 0; /* created by the job when it opens it */
	char why[PATH_MAX + 128];
	if (exists && !o->allow_mounted_write && guard_check_write(r->path, why, sizeof(why))) {
		/* a read job's short file grown: it may back a mounted loop device */
		job_say(o->name, "refusing to extend '%s': it is %s (allow_mounted_write=1 overrides)", r->path, why);
		return -EBUSY;
	}
	return 1;
}

static int layout_one(const struct layout_req *r)
{
	const struct job_opts *o = &r->job->o;
	if (r->job->ops->flags & ENGINE_DIRS)
		return layout_dir(r);
	bool exists = r->have != HAVE_MISSING;
	int ret = may_lay_out(r);
	if (ret <= 0)
		return ret;
	int fd = open(r->path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 && errno == ENOENT) { /* its directory is made only when it is missing */
		files_make_parents(r->path);
		fd = open(r->path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	}
	if (fd < 0) {
		int err = -errno;
		job_say(o->name, "cannot create '%s': %s", r->path, strerror(-err));
		return err;
	}
	uint64_t have = exists ? r->have : 0;
	ret = extend(r, fd, have);
	if (ret) { /* undo: a partial layout is removed, or the file cut back to its old size */
		if (!exists)
			unlink(r->path);
		else if (ftruncate(fd, (off_t)have) < 0)
			job_say(o->name, "cannot cut '%s' back to %llu bytes: %s", r->path, (unsigned long long)have,
				strerror(errno));
	}
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (ret == -EINTR)
		job_say(o->name, "laying out '%s' stopped; %s", r->path,
			exists ? "the file is back to its old size" : "the partial file is removed");
	else if (ret)
		job_say(o->name, "cannot lay out '%s' (%llu bytes): %s", r->path, (unsigned long long)r->need,
			strerror(-ret));
	return ret;
}

/* How many files of this clone are missing or short, and their bytes (for the notice). */
static unsigned short_files(const struct path_index *ix, const struct clone_result *c, bool dirs, uint64_t *bytes)
{
	unsigned n = 0;
	*bytes = 0;
	for (unsigned k = 0; k < c->plan.nfiles && !dirs; k++) {
		const struct clone_file *f = &c->plan.files[k];
		uint64_t have = index_have(ix, f->path);
		if (have != HAVE_MISSING && (have == HAVE_OTHER || have >= f->file_size))
			continue;
		n++;
		*bytes += f->file_size;
	}
	return n;
}

/* A file failed: every clone of group g that uses it fails with that errno. */
static void fail_users(struct run_ctx *rc, unsigned g, const char *path, int err)
{
	for (size_t i = 0; i < rc->nclones; i++) {
		struct clone_result *c = &rc->clones[i];
		if (rc->cfg->jobs[c->job].groupid != g || c->err)
			continue;
		for (unsigned k = 0; k < c->plan.nfiles; k++)
			if (!strcmp(c->plan.files[k].path, path)) {
				c->err = err;
				break;
			}
	}
}

/* Lay out one clone's files (those no earlier clone of the group named). */
static int layout_clone(struct run_ctx *rc, const struct path_index *ix, unsigned g, size_t ci)
{
	const struct clone_result *c = &rc->clones[ci];
	const struct job *job = &rc->cfg->jobs[c->job];
	for (unsigned k = 0; k < c->plan.nfiles; k++) {
		const char *path = c->plan.files[k].path;
		if (!index_first(ix, ci, k))
			continue;
		struct layout_req r = { job, path, 0, false, rc->cfg->readonly || job->o.readonly, &rc->stop, 0 };
		r.need = index_need(ix, path, &r.reads);
		r.have = index_have(ix, path);
		int ret = layout_one(&r);
		if (!ret && r.have != HAVE_OTHER && (r.have == HAVE_MISSING || r.have < r.need))
			index_laid_out(ix, path, r.need); /* a later clone's notice must not count it again */
		if (ret) { /* the clone has failed: one line is enough */
			if (ret != -EINTR)
				fail_users(rc, g, path, ret);
			return ret;
		}
	}
	return 0;
}

/* The room a group's layout takes, by filesystem. */
#define SPACE_FS_MAX 16
struct fs_need {
	unsigned long fsid;
	uint64_t avail, add;
	unsigned nfiles;
	const struct job *job; /* the first job laying out there, and one of its files */
	const char *path;
};

/* The filesystem a file is (or will be) on, and its free bytes: -errno if none is found. */
static int file_fs(const char *path, unsigned long *fsid, uint64_t *avail)
{
	struct statvfs vfs;
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	char *d = dirname(dir);
	while (statvfs(d, &vfs) < 0) { /* directories made on the way: their nearest ancestor's */
		if (!strcmp(d, "/") || !strcmp(d, "."))
			return -ENOENT;
		d = dirname(d);
	}
	*fsid = vfs.f_fsid;
	*avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	return 0;
}

/* Every clone of group g with a file on that filesystem fails: there is no room. */
static void fail_on_fs(struct run_ctx *rc, unsigned g, unsigned long fsid)
{
	for (size_t i = 0; i < rc->nclones; i++) {
		struct clone_result *c = &rc->clones[i];
		for (unsigned k = 0; k < c->plan.nfiles && rc->cfg->jobs[c->job].groupid == g && !c->err; k++) {
			unsigned long id;
			uint64_t avail;
			if (!file_fs(c->plan.files[k].path, &id, &avail) && id == fsid)
				c->err = -ENOSPC;
		}
	}
}

/* The last directory file_fs looked at (files of one directory come in a row: one statvfs). */
struct fs_last {
	const char *dir;
	size_t len;
	int ret;
	unsigned long fsid;
	uint64_t avail;
};

static int file_fs_cached(struct fs_last *l, const char *path, unsigned long *fsid, uint64_t *avail)
{
	const char *slash = strrchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) : 0;
	if (!l->dir || l->len != len || memcmp(l->dir, path, len)) {
		l->ret = file_fs(path, &l->fsid, &l->avail);
		l->dir = path;
		l->len = len;
	}
	*fsid = l->fsid;
	*avail = l->avail;
	return l->ret;
}

/* How much laying out this (clone, file) adds to its filesystem's use; 0 when nothing. */
static uint64_t space_added(const struct path_index *ix, const struct job *job, const char *path,
			    struct fs_last *last, unsigned long *fsid, uint64_t *avail)
{
	struct layout_req r = { job, path, 0, false, false, NULL, index_have(ix, path) };
	r.need = index_need(ix, path, &r.reads);
	uint64_t have = r.have == HAVE_MISSING ? 0 : r.have;
	if (!takes_space(&r) || r.have == HAVE_OTHER || r.need <= have || job->o.io.fill_device)
		return 0; /* fill_device fills what there is */
	return file_fs_cached(last, path, fsid, avail) ? 0 : r.need - have;
}

/* Refuse, before anything is written, a layout its filesystem has no room for: one line per
 * filesystem, and every clone of the group with a file there fails with ENOSPC. */
static int check_group_space(struct run_ctx *rc, const struct path_index *ix, unsigned g)
{
	struct fs_need fs[SPACE_FS_MAX];
	struct fs_last last = { 0 };
	unsigned nfs = 0;
	for (size_t i = 0; i < rc->nclones; i++) {
		const struct clone_result *c = &rc->clones[i];
		const struct job *job = &rc->cfg->jobs[c->job];
		unsigned eflags = job->ops->flags;
		if (job->groupid != g || c->err || job->o.verify_only || rc->cfg->readonly || job->o.readonly ||
		    (eflags & (ENGINE_NO_FILE | ENGINE_NO_LAYOUT | ENGINE_DIRS)))
			continue;
		for (unsigned k = 0; k < c->plan.nfiles; k++) {
			const char *path = c->plan.files[k].path;
			unsigned long id;
			uint64_t avail, add = !index_first(ix, i, k) ? 0 : space_added(ix, job, path, &last, &id, &avail);
			if (!add)
				continue;
			unsigned f = 0;
			while (f < nfs && fs[f].fsid != id)
				f++;
			if (f == nfs && nfs == SPACE_FS_MAX)
				continue;
			if (f == nfs)
				fs[nfs++] = (struct fs_need){ id, avail, 0, 0, job, path };
			fs[f].add += add;
			fs[f].nfiles++;
		}
	}
	int ret = 0;
	for (unsigned f = 0; f < nfs; f++) {
		if (fs[f].add <= fs[f].avail)
			continue;
		char what[PATH_MAX + 64];
		if (fs[f].nfiles > 1)
			snprintf(what, sizeof(what), "%u files of this group ('%.4000s'...): they need", fs[f].nfiles,
				 fs[f].path);
		else
			snprintf(what, sizeof(what), "'%.4000s': it needs", fs[f].path);
		job_say(fs[f].job->o.name,
			"cannot lay out %s %llu more bytes (%llu MiB) and its filesystem "
			"has %llu bytes (%llu MiB) free: %s",
			what, (unsigned long long)fs[f].add, (unsigned long long)(fs[f].add >> 20),
			(unsigned long long)fs[f].avail, (unsigned long long)(fs[f].avail >> 20), strerror(ENOSPC));
		fail_on_fs(rc, g, fs[f].fsid);
		ret = -ENOSPC;
	}
	return ret;
}

/* Does any clone of group g lay out files? */
static bool group_lays_out(const struct run_ctx *rc, unsigned g)
{
	for (size_t i = 0; i < rc->nclones; i++) {
		const struct job *job = &rc->cfg->jobs[rc->clones[i].job];
		if (job->groupid == g && !(job->ops->flags & (ENGINE_NO_FILE | ENGINE_NO_LAYOUT)))
			return true;
	}
	return false;
}

int layout_group(struct run_ctx *rc, unsigned g, FILE *notes)
{
	struct path_index ix;
	if (!group_lays_out(rc, g))
		return 0;
	int first = index_build(&ix, rc, g);
	if (first)
		return first;
	first = check_group_space(rc, &ix, g);
	for (size_t i = 0; i < rc->nclones; i++) {
		const struct clone_result *c = &rc->clones[i];
		const struct job *job = &rc->cfg->jobs[c->job];
		unsigned eflags = job->ops->flags;
		if (job->groupid != g || (eflags & (ENGINE_NO_FILE | ENGINE_NO_LAYOUT)) || c->err)
			continue;
		if (job->iologs) { /* a replay: its files are the log's, never laid out */
			int ret = rc->clones[i].err = iolog_layout(job, &c->plan, rc->cfg->readonly || job->o.readonly);
			first = first ? first : ret;
			continue;
		}
		uint64_t bytes;
		unsigned n = job->o.verify_only ? 0 : short_files(&ix, c, eflags & ENGINE_DIRS, &bytes);
		if (n && notes && !(rc->cfg->readonly || job->o.readonly))
			fprintf(notes, "%s: Laying out IO file%s (%u file%s / %s%lluMiB)\n", job->o.name,
				n > 1 ? "s" : "", n, n > 1 ? "s" : "", n > 1 ? "total " : "",
				(unsigned long long)(bytes >> 20));
		int ret = layout_clone(rc, &ix, g, i);
		if (ret == -EINTR) {
			first = ret;
			break;
		}
		if (!ret && job->o.io.fill_device)
			fill_settle(&rc->clones[i].plan, &job->o);
		first = first ? first : ret;
	}
	index_free(&ix);
	return first;
}
