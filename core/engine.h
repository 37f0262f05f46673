/* The engine vtable. An engine is one file exporting one `const struct engine_ops`;
 * the core calls the engine_*() wrappers below, never the vtable directly. */
#ifndef IOBENCH_ENGINE_H
#define IOBENCH_ENGINE_H
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "core/job.h"

/* One I/O in flight or waiting. The worker owns these; engines fill `result`. */
struct io_unit {
	void *buf;
	uint64_t offset;
	uint64_t len;
	int64_t result;     /* bytes transferred, or -errno */
	int fd;
	unsigned file_index; /* which of the clone's files (engine_ctx.fds[file_index] == fd) */
	enum ddir ddir;
	unsigned index;     /* position in the worker's array: engines key private state on it */
	uint64_t start_ns;  /* when prepared */
	uint64_t issue_ns;  /* when handed to the kernel */
	bool file_op;       /* ENGINE_FILE_OP engines: this I/O did the file's operation */
};

/* queue() answers, as fio's engines do. Negative values are -errno. */
enum engine_queue_result {
	Q_COMPLETED = 0, /* done already: result is set */
	Q_QUEUED = 1,    /* accepted; submitted by commit(), reaped by getevents() */
	Q_BUSY = 2,      /* no room now: commit and reap, then try again */
};

enum engine_flags {
	ENGINE_SYNC = 1 << 0,    /* completes every I/O inside queue(): depth is 1 */
	ENGINE_NO_FILE = 1 << 1, /* does not touch files (null) */
	/* File-operation engines (filecreate...): the first I/O to each file carries the
	 * operation (u->file_op set), timed as a read clat; I/Os are counted, never done. */
	ENGINE_FILE_OP = 1 << 2,
	ENGINE_NO_LAYOUT = 1 << 3, /* the files are not laid out first (the engine makes them) */
	ENGINE_DIRS = 1 << 4,      /* the "files" are directories: laying out makes them */
	ENGINE_CHANGES_FILES = 1 << 5, /* creates or removes the files themselves (filecreate...) */
};

struct engine_ctx {
	void *priv;          /* the engine's own state */
	unsigned depth;      /* most I/Os in flight */
	struct io_unit *units;
	unsigned nr_units;
	size_t buf_len;      /* bytes of each unit's buffer */
	const int *fds;      /* the clone's open files, known before init() */
	unsigned nr_fds;
	const struct job_opts *opts;
	/* An engine that fails may say why, for the one line the core prints about it
	 * ("io_uring is blocked here: ..."); empty when it has nothing to add. */
	char why[256];
};

struct engine_ops {
	const char *name;
	unsigned flags;
	int (*init)(struct engine_ctx *ctx);
	void (*cleanup)(struct engine_ctx *ctx);
	int (*open_file)(struct engine_ctx *ctx, const char *path, int flags, int *fd);
	int (*close_file)(struct engine_ctx *ctx, int fd);
	int (*queue)(struct engine_ctx *ctx, struct io_unit *u);
	int (*commit)(struct engine_ctx *ctx);
	/* Wait for at least min completions (or until timeout, if not NULL); return how
	 * many (<= max) are ready. */
	int (*getevents)(struct engine_ctx *ctx, unsigned min, unsigned max,
			 const struct timespec *timeout);
	struct io_unit *(*event)(struct engine_ctx *ctx, unsigned i);
};

/* engines/registry.c: the only list of engines. */
const struct engine_ops *engine_find(const char *name);
const char *engine_names(void);

/* Wrappers: fill defaults for hooks an engine leaves NULL. */
int engine_init(const struct engine_ops *ops, struct engine_ctx *ctx);
void engine_cleanup(const struct engine_ops *ops, struct engine_ctx *ctx);
int engine_open_file(const struct engine_ops *ops, struct engine_ctx *ctx, const char *path,
		     int flags, int *fd);
int engine_close_file(const struct engine_ops *ops, struct engine_ctx *ctx, int fd);

static inline int engine_queue(const struct engine_ops *ops, struct engine_ctx *ctx,
			       struct io_unit *u)
{
	return ops->queue(ctx, u);
}

static inline int engine_commit(const struct engine_ops *ops, struct engine_ctx *ctx)
{
	return ops->commit ? ops->commit(ctx) : 0;
}

static inline int engine_getevents(const struct engine_ops *ops, struct engine_ctx *ctx,
				   unsigned min, unsigned max, const struct timespec *timeout)
{
	return ops->getevents ? ops->getevents(ctx, min, max, timeout) : 0;
}

static inline struct io_unit *engine_event(const struct engine_ops *ops, struct engine_ctx *ctx,
					   unsigned i)
{
	return ops->event(ctx, i);
}

#endif
