/* mmap: the file mapped into memory; a read copies out of the map, a write into it.
 * Each file is mapped whole when it is opened. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/engine.h"

struct mapping {
	int fd;
	void *addr;
	size_t len;
};

struct mmap_data {
	struct mapping *maps;
	unsigned n;
};

static struct mmap_data *data(struct engine_ctx *ctx)
{
	if (!ctx->priv)
		ctx->priv = calloc(1, sizeof(struct mmap_data));
	return ctx->priv;
}

static int mmap_open(struct engine_ctx *ctx, const char *path, int flags, int *fd)
{
	struct mmap_data *md = data(ctx);
	if (!md)
		return -ENOMEM;
	/* A shared writable map needs the file open for reading too. */
	int f = open(path, (flags & ~(O_WRONLY | O_DIRECT)) | O_CLOEXEC, 0644);
	if (f < 0)
		return -errno;
	struct stat st;
	if (fstat(f, &st) < 0 || st.st_size == 0) {
		int err = st.st_size == 0 ? -EINVAL : -errno;
		close(f);
		return err;
	}
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
		if (u->ddir == DDIR_READ)
			memcpy(u->buf, (char *)m->addr + u->offset, u->len);
		else
			memcpy((char *)m->addr + u->offset, u->buf, u->len);
		u->result = (int64_t)u->len;
		return Q_COMPLETED;
	}
	u->result = -EBADF;
	return Q_COMPLETED;
}

const struct engine_ops mmap_engine_ops = {
	.name = "mmap",
	.flags = ENGINE_SYNC,
	.cleanup = mmap_cleanup,
	.open_file = mmap_open,
	.close_file = mmap_close,
	.queue = mmap_queue,
};
