/* File-operation engines, as fio's: filecreate, filestat, filedelete (fio 3.33) and dircreate,
 * dirstat, dirdelete (later fio). No data moves. The first I/O to each file performs the
 * operation and is timed as one read clat; every I/O is counted (io_bytes, total_ios) so
 * that filesize/bs accounting matches fio's. */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/engine.h"

enum fileop { OP_FILECREATE, OP_FILESTAT, OP_FILEDELETE, OP_DIRCREATE, OP_DIRSTAT, OP_DIRDELETE };

struct fileops_data {
	char **paths;  /* by file index: the order open_file was called in */
	bool *done;
	unsigned n, cap;
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

/* Each file opened in turn (every one, before the job runs): keep the path, create the
 * parent directories the create operations need, and hand back no descriptor. */
static int remember(struct engine_ctx *ctx, const char *path, bool parents, int *fd)
{
	struct fileops_data *d = ctx->priv;
	if (d->n == d->cap)
		return -EINVAL; /* more files than the job has */
	if (!(d->paths[d->n] = strdup(path)))
		return -ENOMEM;
	d->done[d->n++] = false;
	if (parents)
		engine_make_parents(path);
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
	d->paths = calloc(d->cap ? d->cap : 1, sizeof(*d->paths));
	d->done = calloc(d->cap ? d->cap : 1, sizeof(*d->done));
	return d->paths && d->done ? 0 : -ENOMEM;
}

static void fileops_cleanup(struct engine_ctx *ctx)
{
	struct fileops_data *d = ctx->priv;
	if (!d)
		return;
	for (unsigned i = 0; i < d->n; i++)
		free(d->paths[i]);
	free(d->paths);
	free(d->done);
	free(d);
}

static int close_none(struct engine_ctx *ctx, int fd)
{
	return 0;
}

static int do_stat(const struct fileops_opts *o, const char *path)
{
	struct stat st;
	if (o->stat_type == STAT_STATX) {
		struct statx stx;
		return statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &stx);
	}
	return o->stat_type == STAT_LSTAT ? lstat(path, &st) : stat(path, &st);
}

static int do_op(enum fileop op, const struct fileops_opts *o, const char *path)
{
	int fd;
	switch (op) {
	case OP_FILECREATE:
		fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0644);
		return fd < 0 ? -1 : close(fd);
	case OP_FILESTAT:
	case OP_DIRSTAT:
		return do_stat(o, path);
	case OP_FILEDELETE:
		return unlink(path);
	case OP_DIRCREATE:
		return mkdir(path, 0755);
	case OP_DIRDELETE:
		return rmdir(path);
	}
	return -1;
}

static int queue(struct engine_ctx *ctx, struct io_unit *u, enum fileop op)
{
	struct fileops_data *d = ctx->priv;
	u->result = (int64_t)u->len;
	u->file_op = false;
	if (u->file_index < d->n && !d->done[u->file_index]) {
		d->done[u->file_index] = true;
		u->file_op = true;
		if (do_op(op, ctx->eng_opts, d->paths[u->file_index]) < 0)
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
