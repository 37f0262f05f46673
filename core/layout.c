/* File layout: a job that reads needs real data in its file; a writer needs it sized. */
#include "core/layout.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <limits.h>
#include <unistd.h>

#include "core/engine.h"
#include "core/run.h"

#define LAYOUT_CHUNK (1u << 20)

int layout_target_size(const char *path, uint64_t *bytes)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return -errno;
	if (S_ISBLK(st.st_mode)) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		int ret = ioctl(fd, BLKGETSIZE64, bytes) < 0 ? -errno : 0;
		close(fd);
		return ret;
	}
	*bytes = (uint64_t)st.st_size;
	return 0;
}

/* Write data from `from` up to `to` so that reads see real blocks. */
static int fill_file(int fd, uint64_t from, uint64_t to)
{
	char *buf = malloc(LAYOUT_CHUNK);
	if (!buf)
		return -ENOMEM;
	uint64_t x = 0x9e3779b97f4a7c15ULL ^ from;
	for (size_t i = 0; i < LAYOUT_CHUNK / sizeof(uint64_t); i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		memcpy(buf + i * sizeof(uint64_t), &x, sizeof(x));
	}
	int ret = 0;
	for (uint64_t off = from; off < to;) {
		size_t n = to - off < LAYOUT_CHUNK ? (size_t)(to - off) : LAYOUT_CHUNK;
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

/* Bytes any clone of group g needs in path, and whether any of them reads it. */
static uint64_t path_need(const struct run_ctx *rc, unsigned g, const char *path, bool *reads)
{
	uint64_t need = 0;
	*reads = false;
	for (size_t i = 0; i < rc->nclones; i++) {
		const struct clone_result *c = &rc->clones[i];
		const struct job *job = &rc->cfg->jobs[c->job];
		if (job->groupid != g)
			continue;
		for (unsigned k = 0; k < c->plan.nfiles; k++) {
			const struct clone_file *f = &c->plan.files[k];
			if (strcmp(f->path, path) != 0)
				continue;
			if (f->file_size > need)
				need = f->file_size;
			if (job_has_dir(&job->o, DDIR_READ))
				*reads = true;
		}
	}
	return need;
}

/* Has an earlier (clone, file) of group g named this path? */
static bool seen_before(const struct run_ctx *rc, unsigned g, size_t ci, unsigned fi, const char *path)
{
	for (size_t i = 0; i <= ci; i++) {
		const struct clone_result *c = &rc->clones[i];
		if (rc->cfg->jobs[c->job].groupid != g)
			continue;
		for (unsigned k = 0; k < (i == ci ? fi : c->plan.nfiles); k++)
			if (!strcmp(c->plan.files[k].path, path))
				return true;
	}
	return false;
}

static int extend(const struct job_opts *o, int fd, uint64_t have, uint64_t need, bool reads)
{
	if (reads)
		return fill_file(fd, have, need);
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

/* dirstat, dirdelete: the "files" are directories, made with their parents. */
static int layout_dir(const struct job *job, const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	files_make_parents(path);
	if (mkdir(path, 0755) == 0 || errno == EEXIST)
		return 0;
	int err = -errno;
	fprintf(stderr, "iobench: job '%s': cannot create directory '%s': %s\n", job->o.name, path,
		strerror(-err));
	return err;
}

static int layout_one(const struct job *job, const char *path, uint64_t need, bool reads)
{
	const struct job_opts *o = &job->o;
	struct stat st;
	if (engine_find(o->ioengine)->flags & ENGINE_DIRS)
		return layout_dir(job, path);
	bool exists = stat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode))
		return 0; /* devices and the like are used as they are */
	if (exists && (uint64_t)st.st_size >= need)
		return 0;
	if (!exists && !o->allow_file_create) {
		fprintf(stderr, "iobench: job '%s': '%s' does not exist and allow_file_create=0\n", o->name, path);
		return -ENOENT;
	}
	if (!exists && o->create_on_open && !reads)
		return 0; /* created by the job when it opens it */
	files_make_parents(path);
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		int err = -errno;
		fprintf(stderr, "iobench: job '%s': cannot create '%s': %s\n", o->name, path, strerror(-err));
		return err;
	}
	int ret = extend(o, fd, exists ? (uint64_t)st.st_size : 0, need, reads);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (ret)
		fprintf(stderr, "iobench: job '%s': cannot lay out '%s' (%llu bytes): %s\n", o->name, path,
			(unsigned long long)need, strerror(-ret));
	return ret;
}

/* How many files of this clone are missing or short, and their bytes (for the notice). */
static unsigned short_files(const struct clone_result *c, bool dirs, uint64_t *bytes)
{
	unsigned n = 0;
	*bytes = 0;
	for (unsigned k = 0; k < c->plan.nfiles && !dirs; k++) {
		struct stat st;
		const struct clone_file *f = &c->plan.files[k];
		if (stat(f->path, &st) == 0 && (!S_ISREG(st.st_mode) || (uint64_t)st.st_size >= f->file_size))
			continue;
		n++;
		*bytes += f->file_size;
	}
	return n;
}

int layout_group(struct run_ctx *rc, unsigned g, FILE *notes)
{
	for (size_t i = 0; i < rc->nclones; i++) {
		const struct clone_result *c = &rc->clones[i];
		const struct job *job = &rc->cfg->jobs[c->job];
		unsigned eflags = engine_find(job->o.ioengine)->flags;
		if (job->groupid != g || (eflags & (ENGINE_NO_FILE | ENGINE_NO_LAYOUT)))
			continue;
		uint64_t bytes;
		unsigned n = short_files(c, eflags & ENGINE_DIRS, &bytes);
		if (n && notes)
			fprintf(notes, "%s: Laying out IO file%s (%u file%s / %s%lluMiB)\n", job->o.name,
				n > 1 ? "s" : "", n, n > 1 ? "s" : "", n > 1 ? "total " : "",
				(unsigned long long)(bytes >> 20));
		for (unsigned k = 0; k < c->plan.nfiles; k++) {
			const char *path = c->plan.files[k].path;
			if (seen_before(rc, g, i, k, path))
				continue;
			bool reads;
			uint64_t need = path_need(rc, g, path, &reads);
			int ret = layout_one(job, path, need, reads);
			if (ret)
				return ret;
		}
	}
	return 0;
}
