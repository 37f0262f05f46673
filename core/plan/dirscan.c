#include "core/plan/dirscan.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

static uint32_t tag_of(uint64_t h)
{
	return (uint32_t)(h >> 32) & ~3u;
}

static void put(struct dir_scan *s, const char *name, enum dir_kind kind)
{
	uint64_t h = XXH3_64bits(name, strlen(name));
	uint32_t tag = tag_of(h);
	size_t i = (size_t)h & s->mask;
	while (s->slot[i]) {
		if ((s->slot[i] & ~3u) == tag) { /* two names, one tag: ask for both */
			s->slot[i] = tag | DIR_ASK;
			return;
		}
		i = (i + 1) & s->mask;
	}
	s->slot[i] = tag | kind;
}

int dir_scan_open(struct dir_scan *s, const char *path, size_t max)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	*s = (struct dir_scan){ 0 };
	s->dlen = slash ? (size_t)(slash - path) + 1 : 0;
	if (s->dlen >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, s->dlen);
	strcpy(dir + s->dlen, s->dlen ? "" : ".");
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	/* Two walks: the count sizes the table (half full at most), then the names. */
	size_t n = 0;
	while (readdir(d) && ++n <= max)
		;
	int ret = n > max ? -E2BIG : 0;
	size_t slots = 64;
	while (!ret && slots < 2 * n)
		slots *= 2;
	if (!ret && !(s->slot = calloc(slots, sizeof(*s->slot))))
		ret = -ENOMEM;
	if (!ret) {
		s->mask = slots - 1;
		rewinddir(d);
		struct dirent *e;
		for (size_t k = 0; k < n && (e = readdir(d)); k++) /* at most the n counted */
			put(s, e->d_name, e->d_type == DT_REG ? DIR_REGULAR : DIR_ASK);
	}
	closedir(d);
	if (ret)
		dir_scan_free(s);
	else
		s->dir = path;
	return ret;
}

enum dir_kind dir_scan_kind(const struct dir_scan *s, const char *path)
{
	if (!s->slot || strncmp(path, s->dir, s->dlen) || strchr(path + s->dlen, '/'))
		return DIR_ASK;
	const char *name = path + s->dlen;
	uint64_t h = XXH3_64bits(name, strlen(name));
	uint32_t tag = tag_of(h);
	for (size_t i = (size_t)h & s->mask; s->slot[i]; i = (i + 1) & s->mask)
		if ((s->slot[i] & ~3u) == tag)
			return (enum dir_kind)(s->slot[i] & 3u);
	return DIR_MISSING;
}

void dir_scan_free(struct dir_scan *s)
{
	free(s->slot);
	*s = (struct dir_scan){ 0 };
}
