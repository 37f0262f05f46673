/* mmap: the file mapped into memory; a read copies out of the map, a write into it, a trim
 * punches a hole in the file under the map (trim_range), whose pages then read as zeros.
 * Each file is mapped whole when it is opened. A file that shrinks under the map (another
 * process truncates it) makes the copy fault with SIGBUS: that I/O fails with EIO instead
 * of the process dying. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engines/engine.h"

struct mapping {
	int fd;
	void *addr;
	size_t len;
};

/* A copy in progress: the mapping it touches, and where to go when that faults. */
struct copy_guard {
	uintptr_t lo, hi;
	sigjmp_buf env;
};

struct mmap_data {
	struct mapping *maps;
	unsigned n;
	struct copy_guard guard;
};

/* The copy this thread is doing, NULL outside one. Thread-local because the SIGBUS handler
 * has no other way to find the state of the thread it interrupted (a fault's signal goes to
 * the faulting thread), and each clone's thread copies for its own maps. */
static __thread struct copy_guard *cur_guard;

/* The process's one SIGBUS handler, and the one it took the place of (for faults that are not
 * ours). Process-wide because a signal's disposition is: this is the architecture's listed
 * exception to "no mutable globals" (docs/architecture.md). Written once, by the first mmap
 * clone's init under pthread_once, before that clone's first copy; read-only after, by the
 * handler. Never put back: other clones may be copying. */
static struct {
	pthread_once_t once;
	struct sigaction prev;
} sigbus = { .once = PTHREAD_ONCE_INIT };

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	struct copy_guard *g = cur_guard;
	uintptr_t a = (uintptr_t)si->si_addr;
	if (g && si->si_code > 0 && a >= g->lo && a < g->hi) { /* a fault, not kill(2) */
		cur_guard = NULL;
		siglongjmp(g->env, 1); /* SA_NODEFER: SIGBUS was not blocked, no mask to restore */
	}
	if (sigbus.prev.sa_flags & SA_SIGINFO) {
		sigbus.prev.sa_sigaction(sig, si, uc);
		return;
	}
	if (sigbus.prev.sa_handler != SIG_DFL && sigbus.prev.sa_handler != SIG_IGN) {
		sigbus.prev.sa_handler(sig);
		return;
	}
	/* Not ours and nobody else's: die of it as without this handler (a real bug). */
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigaction(SIGBUS, &dfl, NULL);
	raise(SIGBUS);
}

static void install_sigbus(void)
{
	struct sigaction sa = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO | SA_NODEFER };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &sigbus.prev); /* if this fails, a fault kills as before */
}

/* memcpy with the map side in m. 0, or -EIO when the map faults: EIO, as read(2) answers
 * for data that cannot be had (the file shrank under the map, or the page could not be
 * read in: a media error); not EFAULT, which would blame the caller's buffer. The cost is a
 * sigsetjmp that saves no signal mask (no system call) and two thread-local stores. */
static int guarded_copy(struct mmap_data *md, const struct mapping *m, void *dst, const void *src,
			size_t n)
{
	struct copy_guard *g = &md->guard;
	g->lo = (uintptr_t)m->addr;
	g->hi = g->lo + m->len;
	if (sigsetjmp(g->env, 0))
		return -EIO; /* the handler has cleared cur_guard */
	cur_guard = g;
	atomic_signal_fence(memory_order_seq_cst); /* set before the copy, as the handler sees it */
	memcpy(dst, src, n);
	atomic_signal_fence(memory_order_seq_cst);
	cur_guard = NULL;
	return 0;
}

static int mmap_init(struct engine_ctx *ctx)
{
	struct mmap_data *md = calloc(1, sizeof(*md));
	ctx->priv = md;
	if (!md)
		return -ENOMEM;
	pthread_once(&sigbus.once, install_sigbus);
	return 0;
}

static int mmap_open(struct engine_ctx *ctx, const char *path, int flags, int *fd)
{
	struct mmap_data *md = ctx->priv;
	/* A shared writable map needs the file open for reading too. */
	int f = open(path, (flags & ~(O_WRONLY | O_DIRECT)) | O_CLOEXEC, 0644);
	if (f < 0)
		return -errno;
	struct stat st;
	off_t len = fstat(f, &st) < 0 ? -1 : S_ISBLK(st.st_mode) ? lseek(f, 0, SEEK_END) : st.st_size;
	if (len <= 0) { /* a block device's st_size is 0: its size is where its end is */
		int err = len == 0 ? -EINVAL : -errno;
		close(f);
		return err;
	}
	st.st_size = len;
	int prot = PROT_READ | ((flags & O_ACCMODE) != O_RDONLY ? PROT_WRITE : 0);
	void *addr = mmap(NULL, (size_t)st.st_size, prot, MAP_SHARED, f, 0);
	struct mapping *maps = addr == MAP_FAILED ? NULL : realloc(md->maps, (md->n + 1) * sizeof(*maps));
	if (!maps) {
		int err = addr == MAP_FAILED ? -errno : -ENOMEM;
		if (addr != MAP_FAILED)
			munmap(addr, (size_t)st.st_size);
		close(f);
		return err;
	}
	md->maps = maps;
	md->maps[md->n++] = (struct mapping){ f, addr, (size_t)st.st_size };
	*fd = f;
	return 0;
}

static int mmap_close(struct engine_ctx *ctx, int fd)
{
	struct mmap_data *md = ctx->priv;
	for (unsigned i = 0; md && i < md->n; i++)
		if (md->maps[i].fd == fd && md->maps[i].addr) {
			munmap(md->maps[i].addr, md->maps[i].len);
			md->maps[i].addr = NULL;
		}
	return close(fd) < 0 ? -errno : 0;
}

static void mmap_cleanup(struct engine_ctx *ctx)
{
	struct mmap_data *md = ctx->priv;
	for (unsigned i = 0; md && i < md->n; i++)
		if (md->maps[i].addr)
			munmap(md->maps[i].addr, md->maps[i].len);
	if (md)
		free(md->maps);
	free(md);
}

static int mmap_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct mmap_data *md = ctx->priv;
	for (unsigned i = 0; md && i < md->n; i++) {
		struct mapping *m = &md->maps[i];
		if (m->fd != u->fd)
			continue;
		if (u->offset + u->len > m->len) {
			u->result = -EINVAL;
			return Q_COMPLETED;
		}
		if (u->ddir == DDIR_TRIM) {
			u->result = engine_trim(ctx, u, u->len);
			return Q_COMPLETED;
		}
		char *at = (char *)m->addr + u->offset;
		int err = u->ddir == DDIR_READ ? guarded_copy(md, m, u->buf, at, u->len)
					       : guarded_copy(md, m, at, u->buf, u->len);
		u->result = err ? err : (int64_t)u->len;
		return Q_COMPLETED;
	}
	u->result = -EBADF;
	return Q_COMPLETED;
}

const struct engine_ops mmap_engine_ops = {
	.name = "mmap",
	.flags = ENGINE_SYNC | ENGINE_TRIM,
	.init = mmap_init,
	.cleanup = mmap_cleanup,
	.open_file = mmap_open,
	.close_file = mmap_close,
	.queue = mmap_queue,
};
