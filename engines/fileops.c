/* File-operation engines, as fio's: filecreate, filestat, filedelete (fio 3.33) and dircreate,
 * dirstat, dirdelete (later fio). No data moves. The first I/O to each file performs the
 * operation and is timed as one read clat; every I/O is counted (io_bytes, total_ios) so
 * that filesize/bs accounting matches fio's. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engines/engine.h"

enum fileop { OP_FILECREATE, OP_FILESTAT, OP_FILEDELETE, OP_DIRCREATE, OP_DIRSTAT, OP_DIRDELETE };

/* Per file 8 bytes and a bit: where its name starts in the path (which the plan keeps for
 * the whole run) and whether its operation was done. Its directory is opened once (files of
 * one directory come in a row and share it): each operation is an *at() call relative to
 * it, so the kernel walks one name, not the path. dir_first[k] is the index of the first
 * file of directory k (a million files of one directory: one entry). */
struct fileops_data {
	uint64_t *done;     /* a bit per file */
	unsigned n, cap;    /* files opened (in file index order), and how many the job has;
			     * a file's name is its path (engine_file_path) past skip[its dir] */
	int *dirfds;
	unsigned *dir_first;
	unsigned short *skip; /* by directory: the length of its paths' directory part, slash included */
	unsigned ndirs, dircap;
	unsigned cur_dir;   /* the directory of the file done last (files are mostly done in order) */
	const char *last_dir; /* the path whose directory is dirfds[ndirs - 1] */
	size_t last_len;
};

enum stat_type { STAT_STAT, STAT_LSTAT, STAT_STATX };

struct fileops_opts {
	unsigned stat_type; /* filestat, dirstat: which stat call */
};

static const struct choice stat_type_choices[] = {
	{ "stat", STAT_STAT, "stat(2)" },
	{ "lstat", STAT_LSTAT, "lstat(2)" },
	{ "statx", STAT_STATX, "statx(2)" },
	{ NULL, 0, NULL },
};

static const struct option_def stat_options[] = {
	{ .name = "stat_type", .type = OPT_CHOICE, .offset = offsetof(struct fileops_opts, stat_type),
	  .choices = stat_type_choices, .def = "stat", .help = "The call filestat and dirstat time" },
	{ NULL },
};

/* The directory of path, as an index in dirfds: the last one again (files of one
 * directory come in a row), or newly opened (made first for the create operations). */
static int file_dir(struct fileops_data *d, const char *path, size_t len, size_t skip, bool parents,
		    unsigned *dir)
{
	if (d->ndirs && d->last_len == len && d->skip[d->ndirs - 1] == skip && !memcmp(d->last_dir, path, len)) {
		*dir = d->ndirs - 1;
		return 0;
	}
	if (d->ndirs == d->dircap) {
		unsigned cap = d->dircap ? 2 * d->dircap : 4;
		int *p = realloc(d->dirfds, cap * sizeof(*p));
		if (p)
			d->dirfds = p;
		unsigned *first = p ? realloc(d->dir_first, cap * sizeof(*first)) : NULL;
		if (first)
			d->dir_first = first;
		unsigned short *sk = first ? realloc(d->skip, cap * sizeof(*sk)) : NULL;
		if (!sk)
			return -ENOMEM;
		d->skip = sk;
		d->dircap = cap;
	}
	if (parents)
		engine_make_parents(path);
	char dname[4096];
	if (len >= sizeof(dname))
		return -ENAMETOOLONG;
	memcpy(dname, len ? path : ".", len ? len : 1);
	dname[len ? len : 1] = '\0';
	int fd = open(dname, O_PATH | O_DIRECTORY | O_CLOEXEC);
	d->dir_first[d->ndirs] = d->n;
	d->skip[d->ndirs] = (unsigned short)skip;
	d->dirfds[d->ndirs++] = fd < 0 ? -errno : fd; /* -errno: each operation there fails so */
	d->last_dir = path;
	d->last_len = len;
	*dir = d->ndirs - 1;
	return 0;
}

/* Each file opened in turn (every one, in file index order, before the job runs): its
 * directory (made for the create operations); no descriptor handed back. */
static int remember(struct engine_ctx *ctx, const char *path, bool parents, int *fd)
{
	struct fileops_data *d = ctx->priv;
	if (d->n == d->cap || path != engine_file_path(ctx, d->n))
		return -EINVAL; /* more files than the job has, or not in the plan's order */
	const char *slash = strrchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) + (slash == path) : 0; /* "/x": the directory is "/" */
	size_t skip = slash ? (size_t)(slash - path) + 1 : 0;
	if (skip > USHRT_MAX)
		return -ENAMETOOLONG;
	unsigned dir;
	int ret = file_dir(d, path, len, skip, parents, &dir);
	if (ret)
		return ret;
	d->done[d->n / 64] &= ~(1ULL << (d->n % 64));
	d->n++;
	*fd = -1;
	return 0;
}

static int open_create(struct engine_ctx *ctx, const char *path, int flags, int *fd)
{
	return remember(ctx, path, true, fd);
}

static int open_other(struct engine_ctx *ctx, const char *path, int flags, int *fd)
{
	return remember(ctx, path, false, fd);
}

static int fileops_init(struct engine_ctx *ctx)
{
	struct fileops_data *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	ctx->priv = d;
	d->cap = ctx->nr_fds;
	d->done = calloc(d->cap / 64 + 1, sizeof(*d->done));
	return d->done ? 0 : -ENOMEM;
}

static void fileops_cleanup(struct engine_ctx *ctx)
{
	struct fileops_data *d = ctx->priv;
	if (!d)
		return;
	for (unsigned i = 0; i < d->ndirs; i++)
		if (d->dirfds[i] >= 0)
			close(d->dirfds[i]);
	free(d->dirfds);
	free(d->dir_first);
	free(d->skip);
	free(d->done);
	free(d);
}

static int close_none(struct engine_ctx *ctx, int fd)
{
	return 0;
}

static int do_stat(const struct fileops_opts *o, int dir, const char *name)
{
	struct stat st;
	if (o->stat_type == STAT_STATX) {
		struct statx stx;
		return statx(dir, name, 0, STATX_BASIC_STATS, &stx);
	}
	return fstatat(dir, name, &st, o->stat_type == STAT_LSTAT ? AT_SYMLINK_NOFOLLOW : 0);
}

static int do_op(enum fileop op, const struct fileops_opts *o, int dir, const char *name)
{
	int fd;
	switch (op) {
	case OP_FILECREATE:
		fd = openat(dir, name, O_CREAT | O_RDWR | O_CLOEXEC, 0644);
		return fd < 0 ? -1 : close(fd);
	case OP_FILESTAT:
	case OP_DIRSTAT:
		return do_stat(o, dir, name);
	case OP_FILEDELETE:
		return unlinkat(dir, name, 0);
	case OP_DIRCREATE:
		return mkdirat(dir, name, 0755);
	case OP_DIRDELETE:
		return unlinkat(dir, name, AT_REMOVEDIR);
	}
	return -1;
}

/* The directory (index in dirfds) of file i: the last one's again, or found by bisecting. */
static unsigned file_dir_of(struct fileops_data *d, unsigned i)
{
	unsigned k = d->cur_dir;
	if (!(d->dir_first[k] <= i && (k + 1 == d->ndirs || i < d->dir_first[k + 1]))) {
		unsigned lo = 0, hi = d->ndirs; /* the last directory whose first file is <= i */
		while (hi - lo > 1) {
			unsigned mid = (lo + hi) / 2;
			if (d->dir_first[mid] <= i)
				lo = mid;
			else
				hi = mid;
		}
		d->cur_dir = k = lo;
	}
	return k;
}

static int queue(struct engine_ctx *ctx, struct io_unit *u, enum fileop op)
{
	struct fileops_data *d = ctx->priv;
	u->result = (int64_t)u->len;
	u->file_op = false;
	unsigned i = u->file_index;
	if (i < d->n && !(d->done[i / 64] & (1ULL << (i % 64)))) {
		d->done[i / 64] |= 1ULL << (i % 64);
		u->file_op = true;
		unsigned k = file_dir_of(d, i);
		int dir = d->dirfds[k];
		if (dir < 0)
			u->result = dir;
		else if (do_op(op, ctx->eng_opts, dir, engine_file_path(ctx, i) + d->skip[k]) < 0)
			u->result = -errno;
	}
	return Q_COMPLETED;
}

#define FILEOP_ENGINE(nm, op, open_fn, extra, table)                                   \
	static int nm##_queue(struct engine_ctx *ctx, struct io_unit *u)               \
	{                                                                              \
		return queue(ctx, u, op);                                              \
	}                                                                              \
	const struct engine_ops nm##_engine_ops = {                                    \
		.name = #nm,                                                           \
		.flags = ENGINE_SYNC | ENGINE_FILE_OP | ENGINE_TRIM | (extra),        \
		.options = table,                                                      \
		.options_size = sizeof(struct fileops_opts),                           \
		.init = fileops_init,                                                  \
		.cleanup = fileops_cleanup,                                            \
		.open_file = open_fn,                                                  \
		.close_file = close_none,                                              \
		.queue = nm##_queue,                                                   \
	};

FILEOP_ENGINE(filecreate, OP_FILECREATE, open_create, ENGINE_NO_LAYOUT | ENGINE_CHANGES_FILES, NULL)
FILEOP_ENGINE(filestat, OP_FILESTAT, open_other, 0, stat_options)
FILEOP_ENGINE(filedelete, OP_FILEDELETE, open_other, ENGINE_CHANGES_FILES, NULL)
FILEOP_ENGINE(dircreate, OP_DIRCREATE, open_create, ENGINE_NO_LAYOUT | ENGINE_CHANGES_FILES, NULL)
FILEOP_ENGINE(dirstat, OP_DIRSTAT, open_other, ENGINE_DIRS, stat_options)
FILEOP_ENGINE(dirdelete, OP_DIRDELETE, open_other, ENGINE_DIRS | ENGINE_CHANGES_FILES, NULL)
