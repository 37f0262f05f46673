/* A directory's entries read once (getdents64 through readdir), so that checking thousands
 * of planned files in one directory costs one walk instead of one lstat(2) each: a name not
 * among the entries is missing, a regular file's entry says so (d_type), and only the rest
 * (links, FIFOs, directories, a filesystem without d_type) need their own lstat. */
#ifndef IOBENCH_DIRSCAN_H
#define IOBENCH_DIRSCAN_H
#include <stddef.h>
#include <stdint.h>

enum dir_kind {
	DIR_MISSING = 0, /* no entry of that name */
	DIR_REGULAR = 1, /* d_type says a regular file */
	DIR_ASK = 2,     /* anything else, or not known: lstat it */
};

/* Below this many files a plan's lstat calls cost less than a walk of a full directory. */
#define DIR_SCAN_MIN 256

struct dir_scan {
	uint32_t *slot; /* open addressing: name hash's high bits | kind; 0 is empty */
	size_t mask;
	size_t dlen;    /* the directory's length in the paths it answers for ("a/b/" -> 4) */
	const char *dir;
};

/* Scan the directory of path (its part before the last '/'; "." when none), if it holds at
 * most max entries. 0 and *s ready; -E2BIG past max, or -errno (nothing held: answer ask). */
int dir_scan_open(struct dir_scan *s, const char *path, size_t max);
/* What the scan knows of path: DIR_ASK when path is not directly in the scanned directory. */
enum dir_kind dir_scan_kind(const struct dir_scan *s, const char *path);
void dir_scan_free(struct dir_scan *s);

#endif
