/* Output files written safely: a regular file (or a new one) is written under a temporary
 * name beside it and renamed into place only when complete, so a failed or refused run
 * never clobbers an earlier result; other targets (/dev/stdout, a FIFO, a terminal) are
 * written directly. The stream remembers the errno of the first write that failed, and the
 * flush and the close are checked, so a report that did not reach its file is an error
 * naming why. */
#ifndef IOBENCH_OUTFILE_H
#define IOBENCH_OUTFILE_H
#include <stdbool.h>
#include <stdio.h>

struct outfile {
	FILE *f;
	const char *path;  /* as the user gave it (not owned); NULL for a descriptor */
	char *tmp;         /* the temporary name; NULL when written directly */
	char *dest;        /* what tmp is renamed to: path with its links followed */
	int fd;
	bool own_fd;       /* close fd at the end (not stdout's) */
	int err;           /* -errno of the first failed write */
	bool announced;    /* the failure has been reported to the user */
};

/* Open path for writing. 0 or -errno (nothing is created then). */
int outfile_open(struct outfile *o, const char *path);
/* Write to an open descriptor (stdout). 0 or -errno. */
int outfile_open_fd(struct outfile *o, int fd);
/* Is the target a pipe or socket whose reader has gone away? */
bool outfile_reader_gone(const struct outfile *o);
/* Flush: 0, or -errno of the first write that failed. */
int outfile_flush(struct outfile *o);
/* Flush and close; keep: rename into place, else remove the temporary file (a direct
 * target is kept as written). 0 or -errno of the first failure (the temporary is removed). */
int outfile_close(struct outfile *o, bool keep);

#endif
