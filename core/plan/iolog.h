/* I/O logs in fio 3.33's formats: write_iolog records what a job issues, read_iolog replays
 * a log (fio's text versions 2 and 3, or a blktrace binary file) with replay_* applied.
 *
 *   fio version 2 iolog                    fio version 3 iolog
 *   FILE add|open|close                    USEC FILE add|open|close
 *   FILE read|write|trim OFFSET LENGTH     USEC FILE read|write|trim OFFSET LENGTH
 *   FILE sync|datasync OFFSET LENGTH       USEC FILE sync|datasync OFFSET LENGTH
 *   FILE wait USEC 0                       (USEC: since the job's start; no wait lines)
 *
 * A log is read whole before the job starts (core/plan/iolog_parse.c, core/plan/iolog_blktrace.c into
 * the builder of core/plan/iolog_log.c), so a bad line is one message naming the file and the line
 * and no I/O is done. What a clone replays is a list of entries (file index, action, offset,
 * length, when), shared by the clones replaying the same log (core/run/iolog_plan.c); the worker's
 * part (core/worker/iolog_replay.c) hands them out and records write_iolog. */
#ifndef IOBENCH_IOLOG_H
#define IOBENCH_IOLOG_H
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/job/iolog_opts.h"
#include "core/job/job.h"

_Static_assert((int)IOLOG_READ == (int)DDIR_READ && (int)IOLOG_WRITE == (int)DDIR_WRITE && (int)IOLOG_TRIM == (int)DDIR_TRIM,
	       "a log's read, write and trim are the job's directions");

/* One thing to replay. */
struct iolog_entry {
	uint64_t off;
	uint64_t t_us;              /* when, since the job's start (v3 timestamps, v2 waits summed, blktrace) */
	uint32_t len;
	uint32_t file;              /* index into iolog.files */
	uint8_t act;                /* enum iolog_act */
};

struct iolog_file {
	char *path;
	unsigned char state;        /* while parsing: IOLOG_ADDED, IOLOG_OPEN */
	bool reads, writes;         /* read; written or trimmed */
	uint64_t extent;            /* the end of its furthest I/O */
};
enum { IOLOG_ADDED = 1, IOLOG_OPEN = 2 };

enum iolog_format { IOLOG_V2 = 2, IOLOG_V3 = 3, IOLOG_BLKTRACE = 10 };

/* A log as it is replayed: replay_redirect, replay_scale, replay_align and replay_skip
 * applied. */
struct iolog {
	char *name;
	int format;                 /* enum iolog_format */
	struct iolog_file *files;
	unsigned nfiles, cap_files;
	unsigned *hash, hash_size;  /* file lookup by path: index + 1, 0 empty */
	struct iolog_entry *ent;
	size_t n, cap;
	uint64_t bytes[DDIR_NR], ios[DDIR_NR], syncs;
	uint64_t max_len;
};

/* The logs of one job (read_iolog's names, in order); clone k replays logs[k % n]. */
struct iolog_set {
	unsigned n;
	struct iolog *logs;
};

/* How a log's lines become entries. */
struct iolog_parse_opts {
	const char *redirect;       /* every file is this one; NULL or "" none */
	const char *directory;      /* a relative name in the log lies below it; NULL or "" none */
	uint64_t align, scale;
	unsigned skip;              /* 1 << enum iolog_act: not replayed */
};

/* ---- core/plan/iolog_log.c: building a log ---- */
/* The index of path in the log's files, added if new (redirected if asked): >= 0, or -errno
 * (-ENAMETOOLONG, -ENOMEM). */
long iolog_file_index(struct iolog *log, const struct iolog_parse_opts *po, const char *path);
/* One entry, scaled, aligned (align_len: the length rounded up too, as fio's blktrace), and
 * counted, unless replay_skip leaves it out: 0, -ENOMEM, or -ERANGE (offset + length past
 * 2^63). */
int iolog_push(struct iolog *log, const struct iolog_parse_opts *po, unsigned file, enum iolog_act act,
	       uint64_t off, uint64_t len, uint64_t t_us, bool align_len);
void iolog_free(struct iolog *log);
void iolog_set_free(struct iolog_set *set);
/* "read", "write", "trim", "sync", "datasync". */
const char *iolog_act_name(enum iolog_act act);

/* ---- core/plan/iolog_parse.c ---- */
/* Read a whole log from f (a text log of version 2 or 3, or a blktrace file), named name in
 * messages, into log (zeroed by the caller). 0, or -errno with one line in err: "NAME:LINE:
 * what" (blktrace: "NAME: event N at byte B: what"). */
int iolog_read(FILE *f, const char *name, const struct iolog_parse_opts *po, struct iolog *log, char *err,
	       size_t errlen);

/* ---- core/plan/iolog_blktrace.c ---- */
#define BLKTRACE_EVENT_LEN 48
/* Is this the start of a blktrace file (the first event's magic, either byte order)? */
bool blktrace_magic(const unsigned char head[4]);
/* The rest of a blktrace file whose first 4 bytes were head. As iolog_read. */
int blktrace_parse(FILE *f, const unsigned char head[4], const char *name, const struct iolog_parse_opts *po,
		   struct iolog *log, char *err, size_t errlen);
/* merge_blktrace_file: the traces names[0..n) into one at out, in time order; trace i's times
 * scaled by scalars[i] percent (100 when not given) and repeated iters[i] times (1). 0, or
 * -errno with one line in err. */
int blktrace_merge(const char *const *names, unsigned n, const double *scalars, unsigned nscalars,
		   const double *iters, unsigned niters, const char *out, unsigned flags, char *err, size_t errlen);

#endif
