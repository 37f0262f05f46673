/* Write guards: never write where the user did not ask. A write job on a block device
 * that is mounted, holds a mounted partition (or a mounted device stacked on it), or is
 * active swap is refused unless allow_mounted_write=1; symlinks are followed first. */
#ifndef IOBENCH_GUARD_H
#define IOBENCH_GUARD_H
#include <stddef.h>

/* 0 if path may be written; -EBUSY with why (e.g. "mounted on /mnt") if not. Paths that
 * are not block devices are never refused here. */
int guard_check_write(const char *path, char *why, size_t len);

#endif
