/* Output files written safely (see outfile.h). */
#include "core/lib/outfile.h"

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

#include "core/lib/guard.h"

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

/* The process's umask, read without changing it (umask(2) cannot: a set-and-restore races
 * with the workers writing their logs at the same time). */
static mode_t process_umask(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[128];
	unsigned m = 022;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Umask: %o", &m) == 1)
			break;
	if (f)
		fclose(f);
	return (mode_t)m & 0777;
}

/* The new file's mode and owner: the old file's, or a new file's. */
static void take_mode(int fd, const struct stat *old)
{
	fchmod(fd, old ? old->st_mode & 07777 : 0666 & ~process_umask());
	if (old && fchown(fd, old->st_uid, old->st_gid) < 0) {
		/* not ours to give away: the new file keeps our owner */
	}
}

/* "DIR/.BASE.iobench-" into buf (BASE cut so that a suffix of 24 still makes a name the file
 * system takes). */
static void temp_prefix(char *buf, size_t len, const char *path)
{
	char dir[PATH_MAX], base[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	snprintf(base, sizeof(base), "%s", path);
	snprintf(buf, len, "%s/.%.200s.iobench-", dirname(dir), basename(base));
}

/* An unnamed file (O_TMPFILE) in path's directory: nothing to leave behind if we die. Read
 * and write: copied into place if it cannot be linked there. */
static int open_unnamed(struct outfile *o, const char *path, const struct stat *old)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	int fd = open(dirname(dir), O_TMPFILE | O_RDWR | O_CLOEXEC, 0666); /* the kernel applies the umask */
	if (fd < 0)
		return -errno;
	if (old)
		take_mode(fd, old);
	o->unnamed = true;
	return fd;
}

/* The fallback where the file system has no O_TMPFILE: a hidden file beside path. */
static int open_temp(struct outfile *o, const char *path, const struct stat *old)
{
	size_t need = strlen(path) + 256;
	o->tmp = malloc(need);
	if (!o->tmp)
		return -ENOMEM;
	temp_prefix(o->tmp, need, path);
	strcat(o->tmp, "XXXXXX");
	int fd = mkostemp(o->tmp, O_CLOEXEC);
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
	size_t need = strlen(o->dest) + 256;
	char *tmp = malloc(need), prefix[PATH_MAX + 64];
	if (!tmp)
		return -ENOMEM;
	temp_prefix(prefix, sizeof(prefix), o->dest);
	int ret = -EEXIST;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	for (unsigned i = 0; i < 100 && ret == -EEXIST; i++) {
		snprintf(tmp, need, "%s%x%lx", prefix, (unsigned)getpid() + i, (unsigned long)ts.tv_nsec);
		ret = linkat(fromdir, from, AT_FDCWD, tmp, fl) == 0 ? 0 : -errno;
	}
	if (!ret && rename(tmp, o->dest) < 0) {
		ret = -errno;
		unlink(tmp);
	}
	free(tmp);
	return ret;
}

/* Where the whole file cannot be put in place in one step (a file bind-mounted on its own,
 * a sticky directory's file of another owner's): written over the old one, as fio does,
 * from the finished copy. 0 or -errno. */
static int copy_into(const struct outfile *o)
{
	int out = open(o->dest, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY);
	if (out < 0)
		return -errno;
	int ret = lseek(o->fd, 0, SEEK_SET) < 0 ? -errno : 0;
	char buf[65536];
	while (!ret) {
		ssize_t n = read(o->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : 0;
			break;
		}
		for (ssize_t done = 0; done < n && !ret;) {
			ssize_t w = write(out, buf + done, (size_t)(n - done));
			if (w < 0 && errno != EINTR)
				ret = -errno;
			done += w > 0 ? w : 0;
		}
	}
	if (close(out) < 0 && !ret)
		ret = -errno;
	return ret;
}

/* Put the finished file in place: linked (unnamed) or renamed (a temporary name), else
 * copied over the old one. 0 or -errno. */
static int publish(const struct outfile *o)
{
	int ret = o->unnamed ? link_unnamed(o) : rename(o->tmp, o->dest) < 0 ? -errno : 0;
	if (ret && ret != -ENOSPC && ret != -EDQUOT && ret != -EROFS && access(o->dest, W_OK) == 0)
		ret = copy_into(o);
	return ret;
}

/* The fds iobench's report may name: /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N;
 * the descriptor number, or -1. */
static int fd_path(const char *path)
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
	return n;
}

/* Written as it is: a descriptor's name (/dev/stdout names whatever fd 1 is: renaming over
 * it would replace the link, and a `>>` file would lose what it held), a device, FIFO or
 * socket, a file with other hard links, or a file in a directory we cannot create in.
 * Otherwise (a regular file, also under /dev/shm) a new file put in place at the end. */
static bool written_directly(const char *path, const struct stat *st, bool exists)
{
	if (fd_path(path) >= 0)
		return true;
	return exists && (!S_ISREG(st->st_mode) || st->st_nlink > 1);
}

/* A descriptor's name: the descriptor itself, so a `>>` redirection is appended to and a
 * `>` one written from its start, as the shell set them up. Other names are opened as they
 * are, truncated (a device or FIFO ignores it). */
static int open_direct(const char *path)
{
	int n = fd_path(path);
	int fd = n >= 0 ? fcntl(n, F_DUPFD_CLOEXEC, 3) : open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY | O_TRUNC, 0666);
	return fd < 0 ? -errno : fd;
}

/* What a dangling symlink names (followed link by link, relative ones from the link's
 * directory): the file that is to be made, never the link itself. */
static void follow_dangling(const char *path, char *out, size_t len)
{
	char cur[PATH_MAX], target[PATH_MAX], dir[PATH_MAX];
	snprintf(cur, sizeof(cur), "%s", path);
	for (int hops = 0; hops < 40; hops++) {
		struct stat st;
		ssize_t n;
		if (lstat(cur, &st) < 0 || !S_ISLNK(st.st_mode) || (n = readlink(cur, target, sizeof(target) - 1)) < 0)
			break;
		target[n] = '\0';
		snprintf(dir, sizeof(dir), "%s", cur);
		if (target[0] == '/')
			snprintf(cur, sizeof(cur), "%s", target);
		else if ((size_t)snprintf(cur, sizeof(cur), "%s/%s", dirname(dir), target) >= sizeof(cur))
			break;
	}
	snprintf(out, len, "%s", cur);
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
	/* A file we may not write is not replaced behind its back (as fio: EACCES). */
	if (exists && S_ISREG(st.st_mode) && access(path, W_OK) < 0 && errno == EACCES)
		return -EACCES;
	int fd = outfile_guard(path, flags, o->why, sizeof(o->why));
	if (fd)
		return fd;
	/* A link is followed: the file it names is the one replaced, never the link. */
	if (!exists || !realpath(path, real))
		follow_dangling(path, real, sizeof(real));
	fd = -1;
	if (!written_directly(path, &st, exists)) {
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
	if ((o->unnamed || o->tmp) && keep && !ret)
		ret = publish(o);
	o->unnamed = false;
	if (o->own_fd && close(o->fd) < 0 && !ret)
		ret = -errno;
	if (o->tmp) {
		if (!keep || ret || access(o->tmp, F_OK) == 0) /* not renamed: gone, or copied */
			unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	free(o->dest);
	o->dest = NULL;
	return ret;
}
