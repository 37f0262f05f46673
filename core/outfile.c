/* Output files written safely (see outfile.h). */
#include "core/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/guard.h"

static ssize_t cookie_write(void *cookie, const char *buf, size_t len)
{
	struct outfile *o = cookie;
	size_t done = 0;
	while (done < len) {
		ssize_t n = write(o->fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!o->err)
				o->err = n < 0 ? -errno : -EIO;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int wrap(struct outfile *o, int fd, bool own)
{
	static const cookie_io_functions_t io = { .write = cookie_write };
	o->fd = fd;
	o->own_fd = own;
	o->err = 0;
	o->announced = false;
	o->f = fopencookie(o, "w", io);
	return o->f ? 0 : -errno;
}

int outfile_open_fd(struct outfile *o, int fd)
{
	o->path = NULL;
	o->unnamed = false;
	o->why[0] = '\0';
	o->tmp = NULL;
	o->dest = NULL;
	return wrap(o, fd, false);
}

/* The new file's mode and owner: the old file's, or a new file's. */
static void take_mode(int fd, const struct stat *old)
{
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, old ? old->st_mode & 07777 : 0666 & ~mask);
	if (old && fchown(fd, old->st_uid, old->st_gid) < 0) {
		/* not ours to give away: the new file keeps our owner */
	}
}

/* An unnamed file (O_TMPFILE) in path's directory: nothing to leave behind if we die. */
static int open_unnamed(struct outfile *o, const char *path, const struct stat *old)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	int fd = open(dirname(dir), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	take_mode(fd, old);
	o->unnamed = true;
	return fd;
}

/* The fallback where the file system has no O_TMPFILE: a hidden file beside path. */
static int open_temp(struct outfile *o, const char *path, const struct stat *old)
{
	char dir[PATH_MAX], base[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	snprintf(base, sizeof(base), "%s", path);
	size_t need = strlen(path) + 32;
	o->tmp = malloc(need);
	if (!o->tmp)
		return -ENOMEM;
	snprintf(o->tmp, need, "%s/.%s.iobench-XXXXXX", dirname(dir), basename(base));
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		int err = -errno;
		free(o->tmp);
		o->tmp = NULL;
		return err;
	}
	take_mode(fd, old);
	return fd;
}

/* The unnamed file's name: dest itself when nothing is there, else a temporary name
 * renamed over dest (replaced in one step; only this instant can leave the name behind). */
static int link_unnamed(const struct outfile *o)
{
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
	bool by_proc = access("/proc/self/fd", F_OK) == 0;
	const char *from = by_proc ? proc : "";
	int fl = by_proc ? AT_SYMLINK_FOLLOW : AT_EMPTY_PATH;
	int fromdir = by_proc ? AT_FDCWD : o->fd;
	if (linkat(fromdir, from, AT_FDCWD, o->dest, fl) == 0)
		return 0;
	if (errno != EEXIST)
		return -errno;
	size_t need = strlen(o->dest) + 48;
	char *tmp = malloc(need), dir[PATH_MAX], base[PATH_MAX];
	if (!tmp)
		return -ENOMEM;
	snprintf(dir, sizeof(dir), "%s", o->dest);
	snprintf(base, sizeof(base), "%s", o->dest);
	const char *d = dirname(dir), *b = basename(base);
	int ret = -EEXIST;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	for (unsigned i = 0; i < 100 && ret == -EEXIST; i++) {
		snprintf(tmp, need, "%s/.%s.iobench-%x%lx", d, b, (unsigned)getpid() + i, (unsigned long)ts.tv_nsec);
		ret = linkat(fromdir, from, AT_FDCWD, tmp, fl) == 0 ? 0 : -errno;
	}
	if (!ret && rename(tmp, o->dest) < 0) {
		ret = -errno;
		unlink(tmp);
	}
	free(tmp);
	return ret;
}

/* Written as it is: a device, FIFO or socket, anything under /dev or /proc (/dev/stdout
 * names whatever fd 1 is: renaming over it would replace the link, and a `>>` file would
 * lose what it held), a file with other hard links, or a file in a directory we cannot
 * create in. Otherwise a temporary file beside the target, renamed over it at the end. */
static bool written_directly(const char *path, const char *real, const struct stat *st, bool exists)
{
	if (!strncmp(path, "/dev/", 5) || !strncmp(path, "/proc/", 6) || !strncmp(real, "/dev/", 5) ||
	    !strncmp(real, "/proc/", 6))
		return true;
	return exists && (!S_ISREG(st->st_mode) || st->st_nlink > 1);
}

/* /dev/stdout, /dev/fd/N, /proc/self/fd/N: the descriptor itself, so a `>>` redirection
 * is appended to and a `>` one written from its start, as the shell set them up. Other
 * special files are opened as they are; a plain file is truncated. */
static int open_direct(const char *path)
{
	static const char *const fd_dirs[] = { "/dev/fd/", "/proc/self/fd/" };
	int n = !strcmp(path, "/dev/stdout") ? 1 : !strcmp(path, "/dev/stderr") ? 2 : -1;
	for (size_t i = 0; n < 0 && i < 2; i++) {
		size_t l = strlen(fd_dirs[i]);
		char *end;
		if (!strncmp(path, fd_dirs[i], l) && path[l]) {
			long v = strtol(path + l, &end, 10);
			n = !*end && v >= 0 && v < INT_MAX ? (int)v : -1;
		}
	}
	int fd = n >= 0 ? fcntl(n, F_DUPFD_CLOEXEC, 3)
		 : open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY |
				      (strncmp(path, "/dev/", 5) && strncmp(path, "/proc/", 6) ? O_TRUNC : 0), 0666);
	return fd < 0 ? -errno : fd;
}

int outfile_guard(const char *path, unsigned flags, char *why, size_t len)
{
	char reason[PATH_MAX + 200];
	if (flags & OUTFILE_ALLOW_BUSY)
		return 0;
	int ret = guard_check_write(path, reason, sizeof(reason));
	if (ret == -EBUSY)
		snprintf(why, len, "refusing to write there: %s %.400s (allow_mounted_write=1 overrides)",
			 strncmp(reason, "the backing", 11) ? "the device is" : "it is", reason);
	else if (ret)
		snprintf(why, len, "%.400s", reason);
	return ret;
}

int outfile_open_raw(const char *path, int oflags, mode_t mode, unsigned flags, char *why, size_t len)
{
	int ret = outfile_guard(path, flags, why, len);
	if (ret)
		return ret;
	int fd = open(path, oflags | O_CLOEXEC, mode);
	if (fd < 0)
		snprintf(why, len, "%s", strerror(errno));
	return fd < 0 ? -errno : fd;
}

FILE *outfile_fopen(const char *path, int oflags, unsigned flags, char *why, size_t len)
{
	int fd = outfile_open_raw(path, O_WRONLY | O_CREAT | oflags, 0666, flags, why, len);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	FILE *f = fdopen(fd, oflags & O_APPEND ? "a" : "w");
	if (!f) {
		int err = errno;
		snprintf(why, len, "%s", strerror(err));
		close(fd);
		errno = err;
	}
	return f;
}

const char *outfile_strerror(const struct outfile *o, int err)
{
	return o->why[0] ? o->why : strerror(-err);
}

int outfile_open(struct outfile *o, const char *path, unsigned flags)
{
	struct stat st;
	bool exists = stat(path, &st) == 0;
	char real[PATH_MAX];
	o->path = path;
	o->tmp = NULL;
	o->dest = NULL;
	o->f = NULL;
	o->unnamed = false;
	o->why[0] = '\0';
	if (exists && S_ISDIR(st.st_mode))
		return -EISDIR;
	int fd = outfile_guard(path, flags, o->why, sizeof(o->why));
	if (fd)
		return fd;
	/* A link is followed: the file it names is the one replaced, never the link. */
	if (!exists || !realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	fd = -1;
	if (!written_directly(path, real, &st, exists)) {
		if (!(o->dest = strdup(real)))
			return -ENOMEM;
		fd = open_unnamed(o, real, exists ? &st : NULL);
		if (fd < 0 && fd != -ENOENT)
			fd = open_temp(o, real, exists ? &st : NULL);
		if (fd < 0 && fd != -EACCES && fd != -EPERM && fd != -EROFS) {
			free(o->dest);
			o->dest = NULL;
			return fd;
		}
	}
	if (fd < 0) {
		fd = open_direct(path);
		if (fd < 0)
			return fd;
	}
	int ret = wrap(o, fd, true);
	if (ret) {
		close(fd);
		if (o->tmp)
			unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		o->unnamed = false;
	}
	if (!o->tmp && !o->unnamed) { /* written directly after all */
		free(o->dest);
		o->dest = NULL;
	}
	return ret;
}

bool outfile_reader_gone(const struct outfile *o)
{
	struct pollfd p = { .fd = o->fd, .events = 0 };
	return !o->tmp && !o->unnamed && poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

int outfile_flush(struct outfile *o)
{
	if (fflush(o->f) == EOF && !o->err)
		o->err = -EIO;
	if (ferror(o->f) && !o->err)
		o->err = -EIO;
	return o->err;
}

int outfile_close(struct outfile *o, bool keep)
{
	if (!o->f)
		return 0;
	int ret = outfile_flush(o);
	fclose(o->f);
	o->f = NULL;
	if (o->unnamed && keep && !ret)
		ret = link_unnamed(o);
	o->unnamed = false;
	if (o->own_fd && close(o->fd) < 0 && !ret)
		ret = -errno;
	if (o->tmp) {
		if (keep && !ret && rename(o->tmp, o->dest) < 0)
			ret = -errno;
		if (!keep || ret)
			unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	free(o->dest);
	o->dest = NULL;
	return ret;
}
