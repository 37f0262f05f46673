/* Engine wrappers: defaults for the hooks an engine leaves NULL. */
#include "engines/engine.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/plan/files.h"
#include "core/lib/outfile.h"
#include "core/lib/signals.h"
#include "core/lib/say.h"

void engine_make_parents(const char *path)
{
	files_make_parents(path);
}

int engine_resolve(const struct engine_ops *ops, struct job_opts *o, void *eng_opts, char *why, size_t len)
{
	return ops->resolve ? ops->resolve(o, eng_opts, why, len) : 0;
}

int engine_check(const struct engine_ops *ops, const struct job_opts *o, const void *eng_opts, char *why,
		 size_t len)
{
	return ops->check ? ops->check(o, eng_opts, why, len) : 0;
}

void engine_describe(const struct engine_ops *ops, const struct job_opts *o, const void *eng_opts, char *buf,
		     size_t len)
{
	buf[0] = '\0';
	if (ops->describe)
		ops->describe(o, eng_opts, buf, len);
}

int engine_check_job(const struct engine_ops *ops, const struct job_opts *o)
{
	if (ops->flags & ENGINE_TRIM)
		return 0;
	if (job_has_dir(o, DDIR_TRIM)) {
		job_say(o->name, "ioengine=%s cannot trim (rw=%s)", ops->name, o->rw_text);
		return -EINVAL;
	}
	if (o->trim.percentage && o->verify != VERIFY_NONE && o->do_verify && job_has_dir(o, DDIR_WRITE)) {
		job_say(o->name, "ioengine=%s cannot trim (trim_percentage=%u)", ops->name, o->trim.percentage);
		return -EINVAL;
	}
	return 0;
}

/* Is soname one of IOBENCH_TEST_HIDE_LIBS's words? */
static bool hidden_for_tests(const char *soname)
{
	const char *list = getenv("IOBENCH_TEST_HIDE_LIBS");
	size_t n = strlen(soname);
	for (const char *p = list; p && (p = strstr(p, soname)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return true;
	return false;
}

int engine_load_library(const char *soname, const char *package, const struct engine_symbol *syms, size_t n,
			void *table, char *why, size_t len)
{
	bool hidden = hidden_for_tests(soname);
	void *h = hidden ? NULL : dlopen(soname, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!h) {
		const char *err = hidden ? "" : dlerror();
		if (hidden || (err && !strncmp(err, soname, strlen(soname)) && strstr(err, "cannot open shared object")))
			snprintf(why, len, "%s is not installed (install the Debian package %s: apt-get install %s)",
				 soname, package, package);
		else
			snprintf(why, len, "%s cannot be loaded: %s (it comes with the Debian package %s)", soname,
				 err ? err : "unknown error", package);
		return -ENOENT;
	}
	for (size_t i = 0; i < n; i++) {
		void *f = dlsym(h, syms[i].name);
		if (!f) {
			snprintf(why, len, "%s has no %s: too old (install the Debian package %s of Debian 12 or later)",
				 soname, syms[i].name, package);
			dlclose(h);
			return -ENOSYS;
		}
		memcpy((char *)table + syms[i].offset, &f, sizeof(f));
	}
	dlclose(h); /* RTLD_NODELETE: it stays loaded, the addresses stay good */
	return 0;
}

struct timespec engine_deadline(const struct timespec *timeout)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	now.tv_sec += timeout->tv_sec;
	now.tv_nsec += timeout->tv_nsec;
	if (now.tv_nsec >= 1000000000L)
		now.tv_sec++, now.tv_nsec -= 1000000000L;
	return now;
}

int engine_poll_fd(int fd, short events, const struct timespec *deadline)
{
	struct timespec left = { 0, 0 }, now;
	if (deadline) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		left.tv_sec = deadline->tv_sec - now.tv_sec;
		left.tv_nsec = deadline->tv_nsec - now.tv_nsec;
		if (left.tv_nsec < 0)
			left.tv_sec--, left.tv_nsec += 1000000000L;
		if (left.tv_sec < 0)
			return -ETIME;
	}
	if (fd < 0)
		return 0;
	struct pollfd p = { .fd = fd, .events = events };
	if (ppoll(&p, 1, deadline ? &left : NULL, NULL) < 0)
		return -errno;
	return p.revents;
}

bool engine_wait_fd(int fd, const struct timespec *deadline)
{
	return engine_poll_fd(fd, POLLIN, deadline) != -ETIME;
}

void engine_donelist_init(struct engine_donelist *l)
{
	atomic_init(&l->pushed, NULL);
	l->ready = NULL;
}

void engine_donelist_push(struct engine_donelist *l, struct engine_done *e)
{
	struct engine_done *head = atomic_load_explicit(&l->pushed, memory_order_relaxed);
	do
		e->next = head;
	while (!atomic_compare_exchange_weak_explicit(&l->pushed, &head, e, memory_order_release, memory_order_relaxed));
}

struct engine_done *engine_donelist_pop(struct engine_donelist *l)
{
	if (!l->ready) { /* newest first: turned around, the oldest is handed out first */
		struct engine_done *e = atomic_exchange_explicit(&l->pushed, NULL, memory_order_acquire), *next;
		for (; e; e = next) {
			next = e->next;
			e->next = l->ready;
			l->ready = e;
		}
	}
	struct engine_done *e = l->ready;
	if (e)
		l->ready = e->next;
	return e;
}

int engine_init(const struct engine_ops *ops, struct engine_ctx *ctx)
{
	if ((ops->flags & ENGINE_TRIM) && !(ctx->trim_kinds = calloc(ctx->nr_fds ? ctx->nr_fds : 1, 1)))
		return -ENOMEM;
	return ops->init ? ops->init(ctx) : 0;
}

void engine_cleanup(const struct engine_ops *ops, struct engine_ctx *ctx)
{
	if (ops->cleanup)
		ops->cleanup(ctx);
	ctx->priv = NULL;
	free(ctx->trim_kinds);
	ctx->trim_kinds = NULL;
}

int64_t trim_range(int fd, unsigned char *kind, uint64_t off, uint64_t len)
{
	if (*kind == TRIM_UNKNOWN) {
		struct stat st;
		if (fstat(fd, &st) < 0)
			return -errno;
		*kind = S_ISBLK(st.st_mode) ? TRIM_DISCARD : TRIM_PUNCH;
	}
	int r;
	do {
		if (*kind == TRIM_DISCARD) {
			uint64_t range[2] = { off, len };
			r = ioctl(fd, BLKDISCARD, range);
		} else {
			r = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len);
		}
	} while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : (int64_t)len;
}

int64_t engine_trim(struct engine_ctx *ctx, const struct io_unit *u, uint64_t len)
{
	return trim_range(u->fd, &ctx->trim_kinds[u->file_index], u->offset, len);
}

int engine_open_output(struct engine_ctx *ctx, const char *path, int oflags, mode_t mode)
{
	return outfile_open_raw(path, oflags, mode, ctx->opts->allow_mounted_write ? OUTFILE_ALLOW_BUSY : 0, ctx->why,
				sizeof(ctx->why));
}

void engine_child_sigdefault(sigset_t *set)
{
	signals_child_defaults(set);
}

const char *engine_file_path(const struct engine_ctx *ctx, unsigned i)
{
	return ctx->files[i].path;
}

int engine_open_file(const struct engine_ops *ops, struct engine_ctx *ctx, const char *path,
		     int flags, int *fd)
{
	if (ops->open_file)
		return ops->open_file(ctx, path, flags, fd);
	int f = open(path, flags | O_CLOEXEC, 0644);
	if (f < 0)
		return -errno;
	*fd = f;
	return 0;
}

int engine_probe(const struct engine_ops *ops, const struct job_opts *o, const void *eng_opts, uint64_t *bytes,
		 char *why, size_t len)
{
	return ops->probe ? ops->probe(o, eng_opts, bytes, why, len) : 0;
}

bool engine_syncs_files(const struct engine_ops *ops)
{
	return ops->sync_file != NULL;
}

bool engine_starts_after_open(const struct engine_ops *ops)
{
	return ops->post_open != NULL;
}

int engine_post_open(const struct engine_ops *ops, struct engine_ctx *ctx)
{
	return ops->post_open ? ops->post_open(ctx) : 0;
}

int engine_close_file(const struct engine_ops *ops, struct engine_ctx *ctx, int fd)
{
	if (ops->close_file)
		return ops->close_file(ctx, fd);
	if (fd >= 0 && close(fd) < 0)
		return -errno;
	return 0;
}
