/* The engine vtable. An engine is one file exporting one `const struct engine_ops`;
 * the core calls the engine_*() wrappers below, never the vtable directly. */
#ifndef IOBENCH_ENGINE_H
#define IOBENCH_ENGINE_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "core/job/job.h"
#include "core/job/options.h"

struct clone_file;

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
	/* Its I/O priority (class << 13 | level): the job's (prio, prioclass; 0: none given),
	 * or cmdprio's. ENGINE_IOPRIO engines give it to the kernel when it is not 0. */
	uint16_t ioprio;
	uint8_t prio_index; /* which of the job's priorities (0: its own; core/worker/cmdprio.c) */
};

/* queue() answers, as fio's engines do. Negative values are -errno. */
enum engine_queue_result {
	Q_COMPLETED = 0, /* done already: result is set */
	Q_QUEUED = 1,    /* accepted; submitted by commit(), reaped by getevents() */
	Q_BUSY = 2,      /* no room now: commit and reap, then try again */
	/* Nothing done, and nothing more to do (the peer closed the stream, the program
	 * exited): the job ends; this I/O is neither issued nor counted. */
	Q_DONE = 3,
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
	/* Does trims (DDIR_TRIM: rw=trim..., trim_percentage): trim_range() or, for engines that
	 * touch no file (null) or only count I/Os (ENGINE_FILE_OP), counted as done. The core
	 * refuses trim jobs on an engine without it (engine_check_job). */
	ENGINE_TRIM = 1 << 6,
	ENGINE_IOPRIO = 1 << 7, /* gives each I/O its own priority (u->ioprio): cmdprio* work */
	/* With ENGINE_NO_FILE: the data lives outside the file system (an RBD image, RADOS
	 * objects) and is kept, so verify reads check it; probe() finds and sizes the target. */
	ENGINE_REMOTE = 1 << 8,
	/* Not in this binary (the static one: its library can be neither linked statically nor
	 * loaded by a static program). Its options still parse; a job using it is refused. */
	ENGINE_COMPILED_OUT = 1 << 9,
	/* The I/Os move no data (cpuio, exec): each is counted (total_ios) with no bytes, and
	 * only the runtime, number_ios or the engine (Q_DONE) ends the job, as in fio. */
	ENGINE_NO_IO = 1 << 10,
	/* One of fio's engines that iobench does not carry out (engines/fio_only.c): its options
	 * parse as fio's do and --parse-only passes; a job that would run on it is refused in
	 * one line naming the engine and what it needs (engine_ops.library). */
	ENGINE_ABSENT = 1 << 11,
	/* With ENGINE_NO_FILE: each file is size / nrfiles bytes whatever offset= says (fio's
	 * rados engine sizes its objects so): the region is what offset= leaves of it. */
	ENGINE_SIZED_FILES = 1 << 12,
	/* Changes the files even when it reads (falloc's read allocates blocks) or runs a
	 * program that may (exec): refused under --readonly. */
	ENGINE_ALTERS_ON_READ = 1 << 13,
};

struct engine_ctx {
	void *priv;          /* the engine's own state (init makes it, cleanup frees it) */
	/* getevents() puts the I/Os it reaped here, in [0, n): an array of depth entries the
	 * core owns. */
	struct io_unit **events;
	/* getevents() sets it when every I/O it returned had completed before the engine's
	 * last call into the kernel returned (io_uring under DEFER_TASKRUN: the kernel posts
	 * completions only inside the reaping thread's own calls, and none was waited for):
	 * the time the core read after that call is their completion time. */
	bool events_before_last_call;
	const void *eng_opts; /* the engine's own options (engine_ops.options), resolved */
	unsigned depth;      /* most I/Os in flight */
	struct io_unit *units;
	unsigned nr_units;
	size_t buf_len;      /* bytes of each unit's buffer */
	const int *fds;      /* the clone's files, by file index: set by open_file, -1 when closed;
			      * all open by post_open unless files_one_by_one */
	unsigned nr_fds;
	/* The clone's planned files, by file index (nr_fds of them), valid while the clone
	 * runs: engine_file_path() gives one's path. */
	const struct clone_file *files;
	const uint64_t *file_sizes; /* each file's size as planned (offset + region), by file index;
				     * fds and file_sizes are NULL for ENGINE_FILE_OP engines */
	bool files_one_by_one; /* opened and closed in turn while the job runs (opendir reads) */
	const struct job_opts *opts;
	unsigned clone;       /* which clone of its job (numjobs) this is, from 0 */
	const atomic_bool *stop; /* set when the run stops (signal, exitall): end a long wait */
	/* Clones of jobs whose engines do I/O (no ENGINE_NO_IO) not finished yet, this group's
	 * and later ones' (cpuio's exit_on_io_done). */
	const atomic_uint *io_jobs_left;
	/* How each file is trimmed, by file index (engine_trim; the wrappers own it, for
	 * ENGINE_TRIM engines). */
	unsigned char *trim_kinds;
	/* An engine that fails may say why, for the one line the core prints about it
	 * ("io_uring is blocked here: ..."); empty when it has nothing to add. */
	char why[256];
};

/* The hooks run in this order: init, open_file for each file, post_open, then queue /
 * commit / getevents while the job runs (open_file and close_file again for files opened one
 * by one), close_file for each open file, cleanup. Only init may fail before any I/O; cleanup
 * runs whenever init ran, also after a failure. */
struct engine_ops {
	const char *name;
	unsigned flags;
	/* The shared library it loads at run time, for messages ("librbd.so.1"); NULL for none.
	 * ENGINE_ABSENT engines: what the engine needs, for the line refusing its jobs. */
	const char *library;
	/* Its own options: a table ended by { NULL } whose offsets are into a struct of
	 * options_size bytes, filled from the defaults and the job's values (ctx->eng_opts). */
	const struct option_def *options;
	size_t options_size;
	/* ENGINE_REMOTE engines: once per job, in the main thread, before its clones are planned:
	 * check the target can be reached (library, cluster, pool, image) and give its size in
	 * *bytes (0: it has none, size= decides). -errno refuses the job, with why saying why. */
	int (*probe)(const struct job_opts *o, const void *eng_opts, uint64_t *bytes, char *why, size_t len);
	/* Once the job's options are all set (also for --parse-only): check the engine's
	 * against the job's and set the core options that follow from them (cpuio: the
	 * thinktime between bursts). 0, or -EINVAL with the reason in why (one line, naming
	 * the option). */
	int (*resolve)(struct job_opts *o, void *eng_opts, char *why, size_t len);
	/* Before the run starts (not for --parse-only): what the engine can know is wrong before
	 * any job runs (exec: the program is not there). 0, or -errno with the reason in why
	 * (one line, naming the option). */
	int (*check)(const struct job_opts *o, const void *eng_opts, char *why, size_t len);
	/* What fio's engine says of a job as each of its clones starts, for the normal format
	 * ("burn (noop): ioengine=cpuio, cpuload=50, cpucycle=50000"; lines split by '\n'). */
	void (*describe)(const struct job_opts *o, const void *eng_opts, char *buf, size_t len);
	int (*init)(struct engine_ctx *ctx);
	void (*cleanup)(struct engine_ctx *ctx);
	/* path stays valid (unchanged) until cleanup: an engine may keep the pointer. */
	int (*open_file)(struct engine_ctx *ctx, const char *path, int flags, int *fd);
	/* Every file is open (ctx->fds): register them, say (io_uring). */
	int (*post_open)(struct engine_ctx *ctx);
	int (*close_file)(struct engine_ctx *ctx, int fd);
	/* fsync=N, fdatasync=N, end_fsync for a target that is not a file descriptor (an RBD
	 * image): make what was written durable, synchronously. NULL: fsync(2) on the file. */
	int (*sync_file)(struct engine_ctx *ctx, unsigned file_index);
	int (*queue)(struct engine_ctx *ctx, struct io_unit *u);
	int (*commit)(struct engine_ctx *ctx);
	/* Wait for at least min completions (or until timeout, if not NULL); put those ready
	 * (at most max) in ctx->events and return how many. */
	int (*getevents)(struct engine_ctx *ctx, unsigned min, unsigned max,
			 const struct timespec *timeout);
};

/* engines/registry.c: the only list of engines. */
const struct engine_ops *engine_find(const char *name);
/* An option by name or alias: the core's, else the first engine's that has one. */
const struct option_def *option_find(const char *name);
/* The i-th engine, NULL past the last. */
const struct engine_ops *engine_by_index(size_t i);

/* For engines whose completions arrive on a descriptor (an eventfd a library's callback
 * writes, a socket): the CLOCK_MONOTONIC time timeout from now; a wait on fd until it is
 * ready for events (POLLIN, POLLOUT) or the deadline (NULL: none) passes, answering the
 * events it is ready for (0: none: the deadline came, or a signal), -ETIME when the deadline
 * had passed already (no wait), or -errno from ppoll (-EINTR); fd -1 (busy polling) does not
 * sleep and answers 0. engine_wait_fd: the same for reading, false once the deadline has
 * passed. */
struct timespec engine_deadline(const struct timespec *timeout);
int engine_poll_fd(int fd, short events, const struct timespec *deadline);
bool engine_wait_fd(int fd, const struct timespec *deadline);

/* Completed I/Os handed from a library's threads to the job's (gfapi_async, rados): the
 * library's callback pushes (any thread; lock-free, no allocation), the job's thread alone
 * pops them, oldest first. An engine keeps a struct engine_done in each I/O's state and finds
 * that state again with engine_done_entry(). A push is the callback's last touch of the list:
 * it may wake the reaper after it (an eventfd), and the engine's cleanup waits for the
 * library's threads (glfs_fini, rados_shutdown) before freeing what holds the list. */
struct engine_done {
	struct engine_done *next;
};
struct engine_donelist {
	_Atomic(struct engine_done *) pushed; /* by the callbacks, newest first */
	struct engine_done *ready;            /* taken whole from pushed, oldest first: the reaper's */
};
#define engine_done_entry(ptr, type, member) ((type *)(void *)((char *)(ptr) - offsetof(type, member)))
void engine_donelist_init(struct engine_donelist *l);
void engine_donelist_push(struct engine_donelist *l, struct engine_done *e);
/* The oldest completed I/O not handed out yet, or NULL. */
struct engine_done *engine_donelist_pop(struct engine_donelist *l);
/* "psync, sync, ...": every engine's name, into buf; returns buf. */
const char *engine_names(char *buf, size_t len);

/* An optional shared library, loaded at run time: each symbol's address goes to
 * (char *)table + offset. */
struct engine_symbol {
	const char *name;
	size_t offset;
};
/* Load soname (never unloaded: RTLD_NODELETE) and resolve syms[0..n). 0, or -ENOENT /
 * -ENOSYS with why saying what is missing and which Debian package to install. The
 * environment variable IOBENCH_TEST_HIDE_LIBS (sonames, space-separated) makes the named
 * libraries look absent, for tests on machines that have them. */
int engine_load_library(const char *soname, const char *package, const struct engine_symbol *syms, size_t n,
			void *table, char *why, size_t len);

/* For engines that make files (filecreate, dircreate): mkdir -p the directories above path. */
void engine_make_parents(const char *path);

/* How a file is trimmed, found on its first trim (one byte per file, kept by the engine). */
enum trim_kind { TRIM_UNKNOWN, TRIM_PUNCH, TRIM_DISCARD };

/* Trim [off, off + len) of fd: ioctl(BLKDISCARD) on a block device, as fio; anywhere else
 * fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE), so a regular file's blocks are
 * freed and read back as zeros (fio 3.33 fails those with ENOTTY). *kind caches which of the
 * two the file takes (TRIM_UNKNOWN the first time: one fstat). Returns len or -errno. */
int64_t trim_range(int fd, unsigned char *kind, uint64_t off, uint64_t len);
/* A trim of u's range (its first len bytes) in the engine's queue: trim_range with the
 * file's kind kept in ctx. */
int64_t engine_trim(struct engine_ctx *ctx, const struct io_unit *u, uint64_t len);

/* Can ops run the job o at all? Trims (rw=trim..., trim_percentage with verify) need
 * ENGINE_TRIM. 0, or -EINVAL after one line naming the engine and the option. */
int engine_check_job(const struct engine_ops *ops, const struct job_opts *o);

/* Wrappers: fill defaults for hooks an engine leaves NULL. */
int engine_resolve(const struct engine_ops *ops, struct job_opts *o, void *eng_opts, char *why, size_t len);
int engine_check(const struct engine_ops *ops, const struct job_opts *o, const void *eng_opts, char *why,
		 size_t len);
void engine_describe(const struct engine_ops *ops, const struct job_opts *o, const void *eng_opts, char *buf,
		     size_t len);
int engine_init(const struct engine_ops *ops, struct engine_ctx *ctx);
void engine_cleanup(const struct engine_ops *ops, struct engine_ctx *ctx);
/* A file an engine writes besides the job's data (exec's std_redirect files, e4defrag's
 * donor), opened through the core's door (core/lib/outfile.h: the write guard, unless
 * allow_mounted_write=1) with O_CLOEXEC added: a descriptor, or -errno with ctx->why. */
int engine_open_output(struct engine_ctx *ctx, const char *path, int oflags, mode_t mode);
/* The signals a program an engine starts gets back to their defaults (core/lib/signals.h's
 * signals_child_defaults: not those ignored when iobench started, as under nohup). */
void engine_child_sigdefault(sigset_t *set);
/* The path of the clone's file i (i < ctx->nr_fds), as planned: the string open_file was given. */
const char *engine_file_path(const struct engine_ctx *ctx, unsigned i);
int engine_open_file(const struct engine_ops *ops, struct engine_ctx *ctx, const char *path,
		     int flags, int *fd);
int engine_post_open(const struct engine_ops *ops, struct engine_ctx *ctx);
/* ENGINE_REMOTE: the target is there, and its size into *bytes (0: no probe, nothing known). */
int engine_probe(const struct engine_ops *ops, const struct job_opts *o, const void *eng_opts, uint64_t *bytes,
		 char *why, size_t len);
/* Does the engine flush a file itself (sync_file: an RBD image), rather than fsync(2) on its fd? */
bool engine_syncs_files(const struct engine_ops *ops);
/* Does the engine start something once its files are open (post_open: a connection, a program)? */
bool engine_starts_after_open(const struct engine_ops *ops);
int engine_close_file(const struct engine_ops *ops, struct engine_ctx *ctx, int fd);

static inline int engine_queue(const struct engine_ops *ops, struct engine_ctx *ctx,
			       struct io_unit *u)
{
	return ops->queue(ctx, u);
}

static inline int engine_sync_file(const struct engine_ops *ops, struct engine_ctx *ctx, unsigned file_index)
{
	return ops->sync_file(ctx, file_index);
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


#endif
