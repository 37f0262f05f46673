/* gfapi and gfapi_async: files on a GlusterFS volume through libgfapi, from user space
 * without FUSE (what QEMU, Samba's vfs_glusterfs and NFS-Ganesha see of the volume). libgfapi
 * is loaded at run time (Debian's libgfapi0), only when a job asks for these engines. Each
 * clone connects on its own (glfs_new, the volfile from brick=, glfs_init). The job's files
 * are paths inside the volume (w.0.0, or filename=); they are created when opened, and a job
 * that reads has them written up to their size first (untimed), as fio's engine does; they are
 * left on the volume (unlink=1 removes them). gfapi does each I/O in its queue call
 * (glfs_pread/glfs_pwrite); gfapi_async hands them to glfs_pread_async/glfs_pwrite_async,
 * whose callback runs on a gluster thread: it puts the I/O on a lock-free list and signals an
 * eventfd the reaper waits on (no thread per I/O). */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engines/engine.h"

struct gfapi_opts {
	char volume[256];
	char brick[256];
	bool single_instance;
};

#define OFFS(f) offsetof(struct gfapi_opts, f)
#define SZ(f) sizeof(((struct gfapi_opts *)0)->f)
static const struct option_def gfapi_options[] = {
	{ .name = "volume", .type = OPT_STR, .offset = OFFS(volume), .size = SZ(volume),
	  .help = "Name of the GlusterFS volume" },
	{ .name = "brick", .type = OPT_STR, .offset = OFFS(brick), .size = SZ(brick),
	  .help = "Host of the GlusterFS server to fetch the volume's layout from (its glusterd, port 24007)" },
	{ .name = "single-instance", .type = OPT_BOOL, .offset = OFFS(single_instance), .def = "0",
	  .help = "One Gluster instance shared by the process's jobs (not carried out: 0 only)" },
	{ NULL },
};

#define GFAPI_LIBRARY "libgfapi.so.0"
#define GFAPI_FLAGS (ENGINE_NO_FILE | ENGINE_REMOTE | ENGINE_CHANGES_FILES)

#ifdef IOBENCH_STATIC
const struct engine_ops gfapi_engine_ops = {
	.name = "gfapi",
	.flags = GFAPI_FLAGS | ENGINE_SYNC | ENGINE_COMPILED_OUT,
	.library = GFAPI_LIBRARY,
	.options = gfapi_options,
	.options_size = sizeof(struct gfapi_opts),
};
const struct engine_ops gfapi_async_engine_ops = {
	.name = "gfapi_async",
	.flags = GFAPI_FLAGS | ENGINE_COMPILED_OUT,
	.library = GFAPI_LIBRARY,
	.options = gfapi_options,
	.options_size = sizeof(struct gfapi_opts),
};
#else

/* Debian ships no libgfapi headers (no -dev package): the declarations used here, as
 * GlusterFS 10's api/glfs.h has them (the GFAPI_6.0 versions, which dlsym finds by default;
 * only their types are used: the functions are looked up at run time). */
typedef struct glfs glfs_t;
typedef struct glfs_fd glfs_fd_t;
struct glfs_stat;
typedef void (*glfs_io_cbk)(glfs_fd_t *fd, ssize_t ret, struct glfs_stat *prestat, struct glfs_stat *poststat,
			    void *data);
glfs_t *glfs_new(const char *volname);
int glfs_set_volfile_server(glfs_t *fs, const char *transport, const char *host, int port);
int glfs_set_logging(glfs_t *fs, const char *logfile, int loglevel);
int glfs_init(glfs_t *fs);
int glfs_fini(glfs_t *fs);
int glfs_lstat(glfs_t *fs, const char *path, struct stat *buf);
int glfs_unlink(glfs_t *fs, const char *path);
glfs_fd_t *glfs_creat(glfs_t *fs, const char *path, int flags, mode_t mode);
int glfs_close(glfs_fd_t *fd);
ssize_t glfs_pread(glfs_fd_t *fd, void *buf, size_t count, off_t offset, int flags, struct glfs_stat *poststat);
ssize_t glfs_pwrite(glfs_fd_t *fd, const void *buf, size_t count, off_t offset, int flags, struct glfs_stat *prestat,
		    struct glfs_stat *poststat);
int glfs_fsync(glfs_fd_t *fd, struct glfs_stat *prestat, struct glfs_stat *poststat);
int glfs_pread_async(glfs_fd_t *fd, void *buf, size_t count, off_t offset, int flags, glfs_io_cbk fn, void *data);
int glfs_pwrite_async(glfs_fd_t *fd, const void *buf, int count, off_t offset, int flags, glfs_io_cbk fn, void *data);

#define GFAPI_FUNCS(X)                                                                                      \
	X(glfs_new) X(glfs_set_volfile_server) X(glfs_set_logging) X(glfs_init) X(glfs_fini) X(glfs_lstat) \
	X(glfs_unlink) X(glfs_creat) X(glfs_close) X(glfs_pread) X(glfs_pwrite) X(glfs_fsync)               \
	X(glfs_pread_async) X(glfs_pwrite_async)

struct gfapi_api {
#define MEMBER(f) __typeof__(f) *f;
	GFAPI_FUNCS(MEMBER)
#undef MEMBER
};

#define SYM(f) { #f, offsetof(struct gfapi_api, f) },
static const struct engine_symbol gfapi_syms[] = { GFAPI_FUNCS(SYM) };
#undef SYM

static int gfapi_load(struct gfapi_api *a, char *why, size_t len)
{
	return engine_load_library(GFAPI_LIBRARY, "libgfapi0", gfapi_syms, sizeof(gfapi_syms) / sizeof(gfapi_syms[0]),
				   a, why, len);
}

static int gfapi_errno(void)
{
	return errno > 0 ? -errno : -EIO;
}

/* A connected instance: the volume's layout fetched from brick's glusterd, the volume's
 * root reachable. libgfapi's own log goes nowhere (its errors come back as errno). */
static glfs_t *gfapi_connect(const struct gfapi_api *a, const struct gfapi_opts *go, int *err, char *why, size_t len)
{
	glfs_t *fs = a->glfs_new(go->volume);
	if (!fs) {
		*err = gfapi_errno();
		snprintf(why, len, "volume '%.100s': cannot make a Gluster instance: %s", go->volume, strerror(-*err));
		return NULL;
	}
	a->glfs_set_logging(fs, "/dev/null", 0);
	struct stat st;
	errno = 0;
	if (a->glfs_set_volfile_server(fs, "tcp", go->brick, 0) < 0) {
		*err = gfapi_errno();
		snprintf(why, len, "brick '%.100s': %s", go->brick, strerror(-*err));
	} else if (a->glfs_init(fs) < 0) {
		*err = gfapi_errno();
		snprintf(why, len, "volume '%.64s' on brick '%.64s': %s", go->volume, go->brick,
			 *err == -ENOENT ? "no such volume there, or it is not started"
					 : strerror(-*err));
	} else if (a->glfs_lstat(fs, "/", &st) < 0) {
		*err = gfapi_errno();
		snprintf(why, len, "volume '%.64s' on brick '%.64s': its root cannot be read: %s", go->volume, go->brick,
			 strerror(-*err));
	} else {
		return fs;
	}
	a->glfs_fini(fs);
	return NULL;
}

static int gfapi_resolve(struct job_opts *o, void *eng_opts, char *why, size_t len)
{
	if (((const struct gfapi_opts *)eng_opts)->single_instance) {
		snprintf(why, len, "single-instance=1: one Gluster instance shared by the jobs is not carried out "
				   "(each clone connects on its own; leave it at 0)");
		return -EINVAL;
	}
	return 0;
}

/* Is brick's glusterd there (its port 24007 takes a TCP connection, 5 s at most)? A full
 * connection here would cost a glfs_fini, which takes up to 10 s in GlusterFS 10 (each clone
 * pays it once when it ends, as in fio); a wrong volume name is found by the clones' glfs_init. */
static int gfapi_reach(const char *brick, char *why, size_t len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res = NULL;
	int ret = getaddrinfo(brick, "24007", &hints, &res);
	if (ret) {
		snprintf(why, len, "brick '%.100s': %s", brick, gai_strerror(ret));
		return -EHOSTUNREACH;
	}
	ret = -ECONNREFUSED;
	for (struct addrinfo *ai = res; ai && ret; ai = ai->ai_next) {
		int s = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
		if (s < 0)
			continue;
		struct pollfd p = { .fd = s, .events = POLLOUT };
		int err = 0;
		socklen_t el = sizeof(err);
		if (connect(s, ai->ai_addr, ai->ai_addrlen) == 0)
			ret = 0;
		else if (errno != EINPROGRESS)
			ret = -errno;
		else if (poll(&p, 1, 5000) != 1)
			ret = -ETIMEDOUT;
		else
			ret = getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &el) < 0 ? -errno : -err;
		close(s);
	}
	freeaddrinfo(res);
	if (ret)
		snprintf(why, len, "brick '%.100s': no glusterd answers on port 24007: %s", brick, strerror(-ret));
	return ret;
}

/* Before the run: the library loads, brick's glusterd answers. Files have no size here: size=. */
static int gfapi_probe(const struct job_opts *o, const void *eng_opts, uint64_t *bytes, char *why, size_t len)
{
	const struct gfapi_opts *go = eng_opts;
	struct gfapi_api a;
	*bytes = 0;
	if (!go->volume[0] || !go->brick[0]) {
		snprintf(why, len, "%s: not given (%s)", !go->volume[0] ? "volume" : "brick",
			 !go->volume[0] ? "the GlusterFS volume" : "the host of a server of the volume");
		return -EINVAL;
	}
	if (!o->size && !o->filesize_lo) {
		snprintf(why, len, "size: not given (the files on the volume are not sized beforehand: size= is the "
				   "job's, split over its nrfiles files)");
		return -EINVAL;
	}
	int ret = gfapi_load(&a, why, len);
	return ret ? ret : gfapi_reach(go->brick, why, len);
}

struct gfapi_data;
/* An I/O unit's side here (gfapi_async): what the callback needs. */
struct gfapi_io {
	struct engine_done done; /* on the done list */
	struct io_unit *u;
	struct gfapi_data *d;
	ssize_t ret;
};

struct gfapi_file {
	char *path;
	glfs_fd_t *fd;
};

struct gfapi_data {
	struct gfapi_api a;
	glfs_t *fs;
	struct gfapi_file *files;
	unsigned nr_files;
	int efd;                         /* gfapi_async: the callbacks signal it */
	struct gfapi_io *ios;            /* gfapi_async: by unit index */
	struct engine_donelist done;     /* pushed by gluster's threads, popped by the reaper */
	atomic_uint inflight;
};

/* A gluster thread: the I/O is done; push it (lock-free) and wake the reaper. */
static void gfapi_complete(glfs_fd_t *fd, ssize_t ret, struct glfs_stat *prestat, struct glfs_stat *poststat,
			   void *data)
{
	struct gfapi_io *io = data;
	struct gfapi_data *d = io->d;
	io->ret = ret < 0 ? gfapi_errno() : ret;
	engine_donelist_push(&d->done, &io->done);
	eventfd_write(d->efd, 1);
}

/* What gluster has finished, at most max, into out. */
static unsigned gfapi_reap(struct gfapi_data *d, struct io_unit **out, unsigned max)
{
	unsigned n = 0;
	struct engine_done *e;
	while (n < max && (e = engine_donelist_pop(&d->done))) {
		struct gfapi_io *io = engine_done_entry(e, struct gfapi_io, done);
		io->u->result = io->ret;
		out[n++] = io->u;
	}
	atomic_fetch_sub_explicit(&d->inflight, n, memory_order_relaxed);
	return n;
}

static void gfapi_cleanup(struct engine_ctx *ctx)
{
	struct gfapi_data *d = ctx->priv;
	if (!d)
		return;
	/* I/Os the job gave up on are still gluster's: wait for them (30 s at most). */
	for (unsigned naps = 0; d->ios && atomic_load(&d->inflight) && naps < 300;)
		if (gfapi_reap(d, ctx->events, ctx->depth) == 0 && atomic_load(&d->inflight))
			naps++, poll(&(struct pollfd){ .fd = d->efd, .events = POLLIN }, 1, 100);
	bool idle = !atomic_load(&d->inflight);
	for (unsigned i = 0; i < d->nr_files; i++) {
		struct gfapi_file *f = &d->files[i];
		if (f->fd && idle)
			d->a.glfs_close(f->fd);
		if (f->path && d->fs && idle && ctx->opts->unlink && d->a.glfs_unlink(d->fs, f->path) < 0 &&
		    errno != ENOENT)
			fprintf(stderr, "iobench: job '%s': cannot remove '%s' from the volume: %s\n", ctx->opts->name,
				f->path, strerror(errno));
		free(f->path);
	}
	if (d->fs && idle)
		d->a.glfs_fini(d->fs);
	if (d->efd >= 0)
		close(d->efd);
	free(d->files);
	free(d->ios);
	free(d);
}

static int gfapi_init_common(struct engine_ctx *ctx, bool async)
{
	struct gfapi_data *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	ctx->priv = d;
	d->efd = -1;
	engine_donelist_init(&d->done);
	atomic_init(&d->inflight, 0);
	d->files = calloc(ctx->nr_fds ? ctx->nr_fds : 1, sizeof(*d->files));
	if (!d->files)
		return -ENOMEM;
	if (async) {
		if (!(d->ios = calloc(ctx->nr_units, sizeof(*d->ios))))
			return -ENOMEM;
		for (unsigned i = 0; i < ctx->nr_units; i++)
			d->ios[i] = (struct gfapi_io){ .u = &ctx->units[i], .d = d };
		if ((d->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0)
			return -errno;
	}
	int ret = gfapi_load(&d->a, ctx->why, sizeof(ctx->why));
	if (ret)
		return ret;
	d->fs = gfapi_connect(&d->a, ctx->eng_opts, &ret, ctx->why, sizeof(ctx->why));
	return d->fs ? 0 : ret;
}

static int gfapi_init(struct engine_ctx *ctx)
{
	return gfapi_init_common(ctx, false);
}

static int gfapi_async_init(struct engine_ctx *ctx)
{
	return gfapi_init_common(ctx, true);
}

/* A file is a path in the volume, opened (created when missing, never truncated) for reading
 * and writing with the job's O_DIRECT and O_SYNC; kept by index (files open in order). */
static int gfapi_open(struct engine_ctx *ctx, const char *path, int flags, int *fd)
{
	struct gfapi_data *d = ctx->priv;
	*fd = -1;
	if (d->nr_files >= ctx->nr_fds)
		return -EINVAL;
	struct gfapi_file *f = &d->files[d->nr_files];
	if (!(f->path = strdup(path)))
		return -ENOMEM;
	f->fd = d->a.glfs_creat(d->fs, path, (flags & ~(O_ACCMODE | O_CREAT)) | O_RDWR, 0644);
	if (!f->fd) {
		int ret = gfapi_errno();
		snprintf(ctx->why, sizeof(ctx->why), "cannot create '%.200s' on the volume: %s", path, strerror(-ret));
		return ret;
	}
	d->nr_files++;
	return 0;
}

/* Write f from byte `from` up to `to`, in 1 MiB writes of pseudo-random bytes. */
static int gfapi_fill(struct gfapi_data *d, struct gfapi_file *f, uint64_t from, uint64_t to)
{
	enum { CHUNK = 1 << 20 };
	uint64_t *buf = malloc(CHUNK), x = 0x9e3779b97f4a7c15ULL;
	if (!buf)
		return -ENOMEM;
	for (size_t i = 0; i < CHUNK / sizeof(*buf); i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		buf[i] = x;
	}
	int ret = 0;
	for (uint64_t off = from; off < to && !ret; off += CHUNK) {
		size_t n = to - off < CHUNK ? (size_t)(to - off) : CHUNK;
		ssize_t w = d->a.glfs_pwrite(f->fd, buf, n, (off_t)off, 0, NULL, NULL);
		ret = w < 0 ? gfapi_errno() : (size_t)w < n ? -EIO : 0;
	}
	free(buf);
	return ret;
}

/* Before the job: a job that reads has its files written up to their size (as laying out). */
static int gfapi_post_open(struct engine_ctx *ctx)
{
	struct gfapi_data *d = ctx->priv;
	if (!(ctx->opts->rw & RW_READ) || ctx->opts->verify_only)
		return 0;
	for (unsigned i = 0; i < d->nr_files; i++) {
		struct gfapi_file *f = &d->files[i];
		struct stat st;
		if (d->a.glfs_lstat(d->fs, f->path, &st) < 0) {
			int ret = gfapi_errno();
			snprintf(ctx->why, sizeof(ctx->why), "'%.200s' on the volume: %s", f->path, strerror(-ret));
			return ret;
		}
		if ((uint64_t)st.st_size >= ctx->file_sizes[i])
			continue;
		int ret = gfapi_fill(d, f, (uint64_t)st.st_size, ctx->file_sizes[i]);
		if (ret) {
			snprintf(ctx->why, sizeof(ctx->why), "cannot write '%.200s' on the volume up to %llu bytes: %s",
				 f->path, (unsigned long long)ctx->file_sizes[i], strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/* fsync=N, end_fsync: the file's data made durable on the bricks. */
static int gfapi_sync(struct engine_ctx *ctx, unsigned file_index)
{
	struct gfapi_data *d = ctx->priv;
	return d->a.glfs_fsync(d->files[file_index].fd, NULL, NULL) < 0 ? gfapi_errno() : 0;
}

static int gfapi_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct gfapi_data *d = ctx->priv;
	glfs_fd_t *fd = d->files[u->file_index].fd;
	ssize_t r = u->ddir == DDIR_READ ? d->a.glfs_pread(fd, u->buf, u->len, (off_t)u->offset, 0, NULL)
					 : d->a.glfs_pwrite(fd, u->buf, u->len, (off_t)u->offset, 0, NULL, NULL);
	u->result = r < 0 ? gfapi_errno() : r;
	return Q_COMPLETED;
}

static int gfapi_async_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct gfapi_data *d = ctx->priv;
	struct gfapi_io *io = &d->ios[u->index];
	glfs_fd_t *fd = d->files[u->file_index].fd;
	atomic_fetch_add_explicit(&d->inflight, 1, memory_order_relaxed);
	int r = u->ddir == DDIR_READ
			? d->a.glfs_pread_async(fd, u->buf, u->len, (off_t)u->offset, 0, gfapi_complete, io)
			: d->a.glfs_pwrite_async(fd, u->buf, (int)u->len, (off_t)u->offset, 0, gfapi_complete, io);
	if (r < 0) { /* refused: this I/O fails with the reason, the others go on */
		atomic_fetch_sub_explicit(&d->inflight, 1, memory_order_relaxed);
		u->result = gfapi_errno();
		return Q_COMPLETED;
	}
	return Q_QUEUED;
}

static int gfapi_async_getevents(struct engine_ctx *ctx, unsigned min, unsigned max, const struct timespec *timeout)
{
	struct gfapi_data *d = ctx->priv;
	unsigned n = 0;
	struct timespec deadline = timeout ? engine_deadline(timeout) : (struct timespec){ 0 };
	for (;;) {
		eventfd_t count;
		if (eventfd_read(d->efd, &count) < 0 && errno != EAGAIN)
			return -errno;
		n += gfapi_reap(d, ctx->events + n, max - n);
		if (n >= min || n >= max || !engine_wait_fd(d->efd, timeout ? &deadline : NULL))
			return (int)n;
	}
}

const struct engine_ops gfapi_engine_ops = {
	.name = "gfapi",
	.flags = GFAPI_FLAGS | ENGINE_SYNC,
	.library = GFAPI_LIBRARY,
	.options = gfapi_options,
	.options_size = sizeof(struct gfapi_opts),
	.resolve = gfapi_resolve,
	.probe = gfapi_probe,
	.init = gfapi_init,
	.cleanup = gfapi_cleanup,
	.open_file = gfapi_open,
	.post_open = gfapi_post_open,
	.sync_file = gfapi_sync,
	.queue = gfapi_queue,
};

const struct engine_ops gfapi_async_engine_ops = {
	.name = "gfapi_async",
	.flags = GFAPI_FLAGS,
	.library = GFAPI_LIBRARY,
	.options = gfapi_options,
	.options_size = sizeof(struct gfapi_opts),
	.resolve = gfapi_resolve,
	.probe = gfapi_probe,
	.init = gfapi_async_init,
	.cleanup = gfapi_cleanup,
	.open_file = gfapi_open,
	.post_open = gfapi_post_open,
	.sync_file = gfapi_sync,
	.queue = gfapi_async_queue,
	.getevents = gfapi_async_getevents,
};
#endif
