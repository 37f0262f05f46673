/* File layout: a job that reads needs real data in its file; a writer needs it sized. */
#include "core/layout.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
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
		if (job->groupid != g || strcmp(c->path, path) != 0)
			continue;
		if (c->region_bytes > need)
			need = c->region_bytes;
		if (job_has_dir(&job->o, DDIR_READ))
			*reads = true;
	}
	return need;
}

static int layout_one(const struct job *job, const char *path, uint64_t need, bool reads,
		      FILE *notes)
{
	struct stat st;
	bool exists = stat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode))
		return 0; /* devices and the like are used as they are */
	if (exists && (uint64_t)st.st_size >= need)
		return 0;
	if (notes)
		fprintf(notes, "%s: Laying out IO file (1 file / %lluMiB)\n", job->o.name,
			(unsigned long long)(need >> 20));
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		int err = -errno;
		fprintf(stderr, "iobench: job '%s': cannot create '%s': %s\n", job->o.name, path,
			strerror(-err));
		return err;
	}
	uint64_t have = exists ? (uint64_t)st.st_size : 0;
	int ret = reads ? fill_file(fd, have, need) : (ftruncate(fd, (off_t)need) < 0 ? -errno : 0);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (ret)
		fprintf(stderr, "iobench: job '%s': cannot lay out '%s' (%llu bytes): %s\n", job->o.name,
			path, (unsigned long long)need, strerror(-ret));
	return ret;
}

int layout_group(struct run_ctx *rc, unsigned g, FILE *notes)
{
	for (size_t i = 0; i < rc->nclones; i++) {
		const struct clone_result *c = &rc->clones[i];
		const struct job *job = &rc->cfg->jobs[c->job];
		if (job->groupid != g || (engine_find(job->o.ioengine)->flags & ENGINE_NO_FILE))
			continue;
		bool seen = false;
		for (size_t k = 0; k < i && !seen; k++)
			seen = rc->cfg->jobs[rc->clones[k].job].groupid == g &&
			       strcmp(rc->clones[k].path, c->path) == 0;
		if (seen)
			continue;
		bool reads;
		uint64_t need = path_need(rc, g, c->path, &reads);
		int ret = layout_one(job, c->path, need, reads, notes);
		if (ret)
			return ret;
	}
	return 0;
}
