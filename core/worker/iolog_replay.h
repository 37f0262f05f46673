/* I/O logs, the worker's part (core/worker/iolog_replay.c; struct wstate: replay, rec):
 * handing out what a log replays, and write_iolog's records. */
#ifndef IOBENCH_IOLOG_REPLAY_H
#define IOBENCH_IOLOG_REPLAY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/plan/iolog.h"

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
