/* Write guards: never write where the user did not ask. A write to a block device that is
 * mounted, holds a mounted partition, has a device stacked on it (device-mapper, RAID), is
 * active swap, or that the kernel will not open exclusively (mounted in another mount
 * namespace), or to a regular file that backs such a loop device, is refused unless
 * allow_mounted_write=1; symlinks are followed first. Data files (core/run/plan.c) and every
 * file iobench writes besides them (core/lib/outfile.c) are checked here. */
#ifndef IOBENCH_GUARD_H
#define IOBENCH_GUARD_H
#include <stddef.h>
#include <sys/types.h>

/* The loop devices attached now and the files they are backed by, read once for many
 * checks (a job's thousands of files). */
struct guard_loops {
	size_t n;
	struct guard_loop {
		dev_t dev;
		ino_t ino;
		char name[32]; /* loopN */
	} *v;
};
/* 0, or -ENOMEM (gl is empty then). */
int guard_loops_read(struct guard_loops *gl);
void guard_loops_free(struct guard_loops *gl);

/* 0 if path may be written; -EBUSY with why (e.g. "mounted on /mnt") if not. A missing
 * path, a character device, FIFO or directory is never refused here. gl: NULL checks block
 * devices only. */
int guard_check_write_with(const struct guard_loops *gl, const char *path, char *why, size_t len);
/* The same, reading the loop devices itself; -ENOMEM with why if it cannot. */
int guard_check_write(const char *path, char *why, size_t len);

#endif
