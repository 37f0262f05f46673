/* e4defrag: every write is one EXT4_IOC_MOVE_EXT ioctl, as fio's engine: the blocks of the
 * write's range are swapped with those of a donor file (donorname, next to the job's
 * files), which is what e4defrag(8) does to defragment. The donor is allocated to the
 * files' size once (inplace=0), or allocated for each move and freed right after
 * (inplace=1). Only ext4 has the ioctl; only writes have a meaning. It measures the cost
 * of online defragmentation while other jobs do I/O to the same file. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "engines/engine.h"

/* The kernel's interface (fs/ext4/ext4.h; not among the exported headers). */
struct e4_move_extent {
	uint32_t reserved;
	uint32_t donor_fd;
	uint64_t orig_start;  /* in file system blocks */
	uint64_t donor_start;
	uint64_t len;
	uint64_t moved_len;   /* out */
};
#define E4_IOC_MOVE_EXT _IOWR('f', 15, struct e4_move_extent)

struct e4defrag_opts {
	char donorname[PATH_MAX];
	unsigned inplace;
};

struct e4defrag_data {
	int donor;
	uint64_t bsz; /* the file system's block size */
	char path[PATH_MAX];
};

#define OFFS(f) offsetof(struct e4defrag_opts, f)
static const struct option_def e4defrag_options[] = {
	{ .name = "donorname", .type = OPT_STR, .offset = OFFS(donorname),
	  .size = sizeof(((struct e4defrag_opts *)0)->donorname),
	  .help = "The donor file whose blocks are swapped in (needed; in the job's directory)", .effects = OPT_EFFECT_OUTPUT },
	{ .name = "inplace", .type = OPT_UINT, .offset = OFFS(inplace), .def = "0", .min = 0, .max = 1,
	  .help = "0: allocate the donor once; 1: allocate it for each move and free it after" },
	{ NULL },
};

static int e4defrag_resolve(struct job_opts *o, void *eng_opts, char *why, size_t len)
{
	const struct e4defrag_opts *eo = eng_opts;
	if (!eo->donorname[0]) {
		snprintf(why, len, "donorname: the e4defrag engine needs a donor file");
		return -EINVAL;
	}
	if (job_has_dir(o, DDIR_READ) || job_has_dir(o, DDIR_TRIM)) {
		snprintf(why, len, "rw=%s: the e4defrag engine only writes (rw=write or randwrite: each write moves "
			 "the range's blocks)", o->rw_text);
		return -EINVAL;
	}
	return 0;
}

static int e4defrag_init(struct engine_ctx *ctx)
{
	const struct e4defrag_opts *eo = ctx->eng_opts;
	const char *dir = ctx->opts->directory;
	struct e4defrag_data *ed = calloc(1, sizeof(*ed));
	if (!ed)
		return -ENOMEM;
	ed->donor = -1;
	ctx->priv = ed;
	size_t dirlen = strcspn(dir, ":"); /* the first of a directory list */
	int n = eo->donorname[0] == '/' || !dirlen
			? snprintf(ed->path, sizeof(ed->path), "%s", eo->donorname)
			: snprintf(ed->path, sizeof(ed->path), "%.*s/%s", (int)dirlen, dir, eo->donorname);
	return n < 0 || (size_t)n >= sizeof(ed->path) ? -ENAMETOOLONG : 0;
}

/* The files are open: they must be on ext4; the donor is opened (and, inplace=0,
 * allocated to the largest file's size). */
static int e4defrag_post_open(struct engine_ctx *ctx)
{
	const struct e4defrag_opts *eo = ctx->eng_opts;
	struct e4defrag_data *ed = ctx->priv;
	uint64_t size = 0;
	struct statfs sf;
	for (unsigned i = 0; i < ctx->nr_fds; i++) {
		struct stat st;
		if (ctx->fds[i] < 0 || fstat(ctx->fds[i], &st) < 0 || fstatfs(ctx->fds[i], &sf) < 0)
			continue;
		if (sf.f_type != EXT4_SUPER_MAGIC) {
			snprintf(ctx->why, sizeof(ctx->why), "the job's files are not on ext4 (EXT4_IOC_MOVE_EXT is ext4's)");
			return -EOPNOTSUPP;
		}
		ed->bsz = (uint64_t)sf.f_bsize;
		if ((uint64_t)st.st_size > size)
			size = (uint64_t)st.st_size;
	}
	if (!ed->bsz)
		ed->bsz = 4096;
	ed->donor = engine_open_output(ctx, ed->path, O_WRONLY | O_CREAT, 0644);
	if (ed->donor < 0) {
		char why[sizeof(ctx->why)];
		snprintf(why, sizeof(why), "%s", ctx->why);
		snprintf(ctx->why, sizeof(ctx->why), "donorname: cannot open '%.80s': %.140s", ed->path, why);
		int err = ed->donor;
		ed->donor = -1;
		return err;
	}
	if (!eo->inplace && size && fallocate(ed->donor, 0, 0, (off_t)size) < 0) {
		snprintf(ctx->why, sizeof(ctx->why), "donorname: cannot allocate %llu bytes to '%.150s'",
			 (unsigned long long)size, ed->path);
		return -errno;
	}
	return 0;
}

static void e4defrag_cleanup(struct engine_ctx *ctx)
{
	struct e4defrag_data *ed = ctx->priv;
	if (ed && ed->donor >= 0)
		close(ed->donor);
	free(ed);
}

static int64_t move_range(const struct e4defrag_opts *eo, struct e4defrag_data *ed, const struct io_unit *u)
{
	uint64_t first = u->offset / ed->bsz, end = (u->offset + u->len + ed->bsz - 1) / ed->bsz;
	struct e4_move_extent me = {
		.donor_fd = (uint32_t)ed->donor, .orig_start = first, .donor_start = first, .len = end - first,
	};
	if (eo->inplace && fallocate(ed->donor, 0, (off_t)(first * ed->bsz), (off_t)(me.len * ed->bsz)) < 0)
		return -errno;
	int r;
	do
		r = ioctl(u->fd, E4_IOC_MOVE_EXT, &me);
	while (r < 0 && errno == EINTR);
	int err = r < 0 ? errno : 0;
	if (eo->inplace && ftruncate(ed->donor, 0) < 0 && !err)
		err = errno;
	if (err)
		return -err;
	uint64_t moved = me.moved_len * ed->bsz;
	return (int64_t)(moved < u->len ? moved : u->len);
}

static int e4defrag_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	u->result = u->ddir == DDIR_WRITE ? move_range(ctx->eng_opts, ctx->priv, u) : -EINVAL;
	return Q_COMPLETED;
}

const struct engine_ops e4defrag_engine_ops = {
	.name = "e4defrag",
	.flags = ENGINE_SYNC,
	.options = e4defrag_options,
	.options_size = sizeof(struct e4defrag_opts),
	.resolve = e4defrag_resolve,
	.init = e4defrag_init,
	.cleanup = e4defrag_cleanup,
	.post_open = e4defrag_post_open,
	.queue = e4defrag_queue,
};
