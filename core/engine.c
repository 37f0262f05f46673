/* Engine wrappers: defaults for the hooks an engine leaves NULL. */
#include "core/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "core/files.h"

void engine_make_parents(const char *path)
{
	files_make_parents(path);
}

int engine_resolve(const struct engine_ops *ops, struct job_opts *o, void *eng_opts, char *why, size_t len)
{
	return ops->resolve ? ops->resolve(o, eng_opts, why, len) : 0;
}

int engine_check(const struct engine_ops *ops, const struct job_opts *o, const void *eng_opts, char *why,
		 size_t len)
{
	return ops->check ? ops->check(o, eng_opts, why, len) : 0;
}

void engine_describe(const struct engine_ops *ops, const struct job_opts *o, const void *eng_opts, char *buf,
		     size_t len)
{
	buf[0] = '\0';
	if (ops->describe)
		ops->describe(o, eng_opts, buf, len);
}

int engine_init(const struct engine_ops *ops, struct engine_ctx *ctx)
{
	return ops->init ? ops->init(ctx) : 0;
}

void engine_cleanup(const struct engine_ops *ops, struct engine_ctx *ctx)
{
	if (ops->cleanup)
		ops->cleanup(ctx);
	ctx->priv = NULL;
}

int engine_open_file(const struct engine_ops *ops, struct engine_ctx *ctx, const char *path,
		     int flags, int *fd)
{
	if (ops->open_file)
		return ops->open_file(ctx, path, flags, fd);
	int f = open(path, flags | O_CLOEXEC, 0644);
	if (f < 0)
		return -errno;
	*fd = f;
	return 0;
}

int engine_post_open(const struct engine_ops *ops, struct engine_ctx *ctx)
{
	return ops->post_open ? ops->post_open(ctx) : 0;
}

int engine_close_file(const struct engine_ops *ops, struct engine_ctx *ctx, int fd)
{
	if (ops->close_file)
		return ops->close_file(ctx, fd);
	if (fd >= 0 && close(fd) < 0)
		return -errno;
	return 0;
}
