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

#define IOLOG_MAX_LEN (1ULL << 31) /* the longest I/O a log may ask for (bs is capped there too) */
#define IOLOG_MAX_US (UINT64_MAX / 100000) /* a timestamp that scales to ns without overflow */

enum iolog_act {
	IOLOG_READ = DDIR_READ,
	IOLOG_WRITE = DDIR_WRITE,
	IOLOG_TRIM = DDIR_TRIM,
	IOLOG_SYNC,
	IOLOG_DATASYNC,
	IOLOG_NACT,
};

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

/* ---- core/run/iolog_plan.c: before the run ---- */
struct job;
struct run_cfg;
struct file_plan;
/* After job_resolve: read_iolog's logs read (merged first with merge_blktrace_file) into
 * job->iologs, the job's directions taken from them; write_iolog checked. 0, or -errno after
 * one line. */
int iolog_job_prepare(struct job *job, const struct run_cfg *cfg);
/* The files of the clone replaying a log, and its amount of I/O. 0 or -errno after a line. */
int iolog_plan(const struct job *job, unsigned clone, bool no_file, struct file_plan *plan);
/* When its group starts: the files the log writes are created if missing; a missing file it
 * does not write fails the clone. 0 or -errno after a line. */
int iolog_layout(const struct job *job, const struct file_plan *plan, bool readonly);

/* ---- core/worker/iolog_replay.c: the worker's part (struct wstate: replay, rec) ---- */
struct replaying {
	bool on;
	bool no_stall;
	unsigned time_scale;
	const struct iolog *log;
	size_t next;
};
struct iolog_rec {
	bool on;
	int fd;
	char *buf;
	size_t len;
	uint64_t t0_ns, last_off;
	int err;                    /* the first write(2) that failed */
};
enum replay_step { REPLAY_IO, REPLAY_SYNC, REPLAY_WAIT, REPLAY_DONE };
struct replay_io {
	unsigned file;
	enum iolog_act act;
	uint64_t off, len;
	uint64_t wait_ns;           /* REPLAY_WAIT: until the next entry is due */
};
struct wstate;
struct io_unit;
/* After the files are open: the replay, and write_iolog's file (its header, add and open
 * lines). 0 or -errno after a line. */
int iolog_setup(struct wstate *s);
/* write_iolog's close lines, flushed. 0 or -errno after a line. */
int iolog_teardown(struct wstate *s);
/* The next thing to replay (REPLAY_WAIT: not yet; its time is wait_ns away). */
enum replay_step replay_next(struct wstate *s, struct replay_io *io);
static inline bool replay_done(const struct replaying *r)
{
	return r->next >= r->log->n;
}
/* write_iolog: an I/O was handed to the engine; a file is synced. */
void iolog_rec_io(struct wstate *s, const struct io_unit *u);
void iolog_rec_sync(struct wstate *s, unsigned file, bool datasync);

#endif
