/* Every file iobench writes besides the jobs' data goes through this door: reports, logs,
 * charts, state files, the files of a command's output. The door applies the write guard
 * (core/lib/guard.h: a mounted or held block device, the backing file of a busy loop device)
 * unless OUTFILE_ALLOW_BUSY (allow_mounted_write=1) is given.
 *
 * A report (outfile_open) on a regular file, or a new one, is written to an unnamed file
 * (O_TMPFILE) in the target's directory and linked into place only when complete, so a
 * failed, refused or killed (kill -9) run never leaves a half-written report or a stray file;
 * where the file system has no O_TMPFILE, to a hidden temporary file beside the target
 * (".NAME.iobench-XXXXXX"), renamed over it at the end, which only a kill -9 leaves behind.
 * Other targets (/dev/stdout, a FIFO, a terminal, a file with other hard links) are written
 * directly. The stream remembers the errno of the first write that failed, and the flush
 * and the close are checked, so a report that did not reach its file is an error naming why. */
#ifndef IOBENCH_OUTFILE_H
#define IOBENCH_OUTFILE_H
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

enum {
	OUTFILE_ALLOW_BUSY = 1, /* allow_mounted_write=1: no guard */
};

struct outfile {
	FILE *f;
	const char *path;  /* as the user gave it (not owned); NULL for a descriptor */
	char *tmp;         /* the temporary name; NULL when written directly or unnamed */
	char *dest;        /* what the file is linked or renamed to: path with its links followed */
	int fd;
	bool own_fd;       /* close fd at the end (not stdout's) */
	bool unnamed;      /* fd is an O_TMPFILE: linked to dest at the end */
	int err;           /* -errno of the first failed write */
	bool announced;    /* the failure has been reported to the user */
	char why[512];     /* why the open failed, when the guard refused it */
};

/* Open path for writing. 0 or -errno (nothing is created then); -EBUSY when the guard
 * refuses the path (outfile_strerror says why). */
int outfile_open(struct outfile *o, const char *path, unsigned flags);
/* Write to an open descriptor (stdout). 0 or -errno. */
int outfile_open_fd(struct outfile *o, int fd);
/* Why outfile_open failed with err: the guard's reason, or strerror. */
const char *outfile_strerror(const struct outfile *o, int err);
/* Is the target a pipe or socket whose reader has gone away? */
bool outfile_reader_gone(const struct outfile *o);
/* Flush: 0, or -errno of the first write that failed. */
int outfile_flush(struct outfile *o);
/* Flush and close; keep: link or rename into place, else drop the temporary file (a direct
 * target is kept as written). 0 or -errno of the first failure (the temporary is removed). */
int outfile_close(struct outfile *o, bool keep);

/* The door for a file written in place (an appended log, a dump, a command's output): 0 if
 * path may be written, else -EBUSY with why. */
int outfile_guard(const char *path, unsigned flags, char *why, size_t len);
/* outfile_guard, then open(path, oflags | O_CLOEXEC, mode): a descriptor, or -errno. */
int outfile_open_raw(const char *path, int oflags, mode_t mode, unsigned flags, char *why, size_t len);
/* outfile_open_raw for a stdio stream ("w" or "a" modes: oflags O_TRUNC or O_APPEND);
 * NULL with errno set. */
FILE *outfile_fopen(const char *path, int oflags, unsigned flags, char *why, size_t len);

#endif
