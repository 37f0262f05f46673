/* lockfile=exclusive|readwrite: the threads doing I/O to one file take turns. A thread
 * holds a file's lock while it has I/Os in flight to it (exclusive: alone; readwrite:
 * readers together, a writer alone), and lets it go when they are done. Turns are first
 * come, first served: a thread that holds the lock while another waits issues no more to
 * that file, drains, and queues behind it. A thread never waits for a lock while it holds
 * any (the loop drains first), so threads cannot wait for each other in a circle. */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "core/worker/jobenv.h"
#include "core/worker/worker_int.h"

int lockfile_init(struct wstate *s)
{
	struct env_worker *e = &s->env;
	const struct env_clone *ec = s->w->env;
	e->lock_mode = s->o->env.lockfile;
	if (!e->lock_mode || !ec || !ec->locks)
		return e->lock_mode = LOCKFILE_NONE, 0;
	e->files = calloc(s->nfiles ? s->nfiles : 1, sizeof(*e->files));
	if (!e->files)
		return -ENOMEM;
	e->nfiles = s->nfiles;
	for (unsigned i = 0; i < s->nfiles && i < ec->nlocks; i++)
		e->files[i].lock = ec->locks[i];
	return 0;
}

static void lock_release(struct env_lockf *f)
{
	struct env_lock *l = f->lock;
	pthread_mutex_lock(&l->m);
	if (f->shared)
		l->readers--;
	else
		l->writer = false;
	pthread_cond_broadcast(&l->c);
	pthread_mutex_unlock(&l->m);
	f->held = false;
}

void lockfile_free(struct wstate *s)
{
	struct env_worker *e = &s->env;
	for (unsigned i = 0; e->files && i < e->nfiles; i++)
		if (e->files[i].held)
			lock_release(&e->files[i]);
	free(e->files);
	e->files = NULL;
}

static bool wants_shared(const struct env_worker *e, const struct io_unit *u)
{
	return e->lock_mode == LOCKFILE_READWRITE && u->ddir == DDIR_READ;
}

int lockfile_take_slow(struct env_worker *e, const struct io_unit *u)
{
	if (u->file_index >= e->nfiles || !e->files[u->file_index].lock)
		return 0;
	struct env_lockf *f = &e->files[u->file_index];
	if (!f->held)
		return -EAGAIN;
	/* Held: go on in the same mode while nobody waits for it. */
	bool waiting = atomic_load_explicit(&f->lock->next, memory_order_relaxed) !=
		       atomic_load_explicit(&f->lock->serving, memory_order_relaxed);
	if (f->shared != wants_shared(e, u) || waiting)
		return -EAGAIN;
	f->inflight++;
	return 0;
}

int lockfile_wait(struct env_worker *e, const struct io_unit *u, const atomic_bool *stop)
{
	struct env_lockf *f = &e->files[u->file_index];
	struct env_lock *l = f->lock;
	bool shared = wants_shared(e, u);
	if (f->held) /* drained: its turn is over */
		lock_release(f);
	pthread_mutex_lock(&l->m);
	uint64_t ticket = atomic_fetch_add(&l->next, 1);
	while (atomic_load(&l->serving) != ticket || l->writer || (!shared && l->readers)) {
		if (stop && atomic_load_explicit(stop, memory_order_relaxed)) {
			/* give the turn up: the ticket is served as if taken and let go */
			while (atomic_load(&l->serving) != ticket)
				pthread_cond_wait(&l->c, &l->m);
			atomic_fetch_add(&l->serving, 1);
			pthread_cond_broadcast(&l->c);
			pthread_mutex_unlock(&l->m);
			return -EINTR;
		}
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 50 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000L)
			ts.tv_sec++, ts.tv_nsec -= 1000000000L;
		pthread_cond_timedwait(&l->c, &l->m, &ts);
	}
	if (shared)
		l->readers++;
	else
		l->writer = true;
	atomic_fetch_add(&l->serving, 1);
	pthread_cond_broadcast(&l->c);
	pthread_mutex_unlock(&l->m);
	f->held = true;
	f->shared = shared;
	f->inflight = 1;
	return 0;
}

void lockfile_done_slow(struct env_worker *e, const struct io_unit *u)
{
	if (u->file_index >= e->nfiles)
		return;
	struct env_lockf *f = &e->files[u->file_index];
	if (!f->held || !f->inflight)
		return;
	if (--f->inflight == 0)
		lock_release(f);
}
