/* Building a log to replay: its files (found by path through a small hash table) and its
 * entries, with replay_redirect, replay_scale, replay_align and replay_skip applied as they
 * are added. Both parsers (text and blktrace) build through here. */
#include "core/plan/iolog.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const act_names[IOLOG_NACT] = { "read", "write", "trim", "sync", "datasync" };

const char *iolog_act_name(enum iolog_act act)
{
	return (unsigned)act < IOLOG_NACT ? act_names[act] : "?";
}

static uint32_t path_hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void hash_put(unsigned *hash, unsigned size, const char *path, unsigned index)
{
	unsigned i = path_hash(path) & (size - 1);
	while (hash[i])
		i = (i + 1) & (size - 1);
	hash[i] = index + 1;
}

/* Keep the table at most half full. */
static int hash_grow(struct iolog *log)
{
	if (log->hash_size && (log->nfiles + 1) * 2 <= log->hash_size)
		return 0;
	unsigned size = log->hash_size ? log->hash_size * 2 : 64;
	unsigned *h = calloc(size, sizeof(*h));
	if (!h)
		return -ENOMEM;
	for (unsigned i = 0; i < log->nfiles; i++)
		hash_put(h, size, log->files[i].path, i);
	free(log->hash);
	log->hash = h;
	log->hash_size = size;
	return 0;
}

static long file_find(const struct iolog *log, const char *path)
{
	if (!log->hash_size)
		return -1;
	for (unsigned i = path_hash(path) & (log->hash_size - 1); log->hash[i]; i = (i + 1) & (log->hash_size - 1))
		if (!strcmp(log->files[log->hash[i] - 1].path, path))
			return (long)log->hash[i] - 1;
	return -1;
}

static int file_add(struct iolog *log, const char *path)
{
	if (hash_grow(log))
		return -ENOMEM;
	if (log->nfiles == log->cap_files) {
		unsigned cap = log->cap_files ? log->cap_files * 2 : 8;
		struct iolog_file *f = realloc(log->files, cap * sizeof(*f));
		if (!f)
			return -ENOMEM;
		log->files = f;
		log->cap_files = cap;
	}
	struct iolog_file *f = &log->files[log->nfiles];
	memset(f, 0, sizeof(*f));
	if (!(f->path = strdup(path)))
		return -ENOMEM;
	hash_put(log->hash, log->hash_size, path, log->nfiles);
	return (int)log->nfiles++;
}

long iolog_file_index(struct iolog *log, const struct iolog_parse_opts *po, const char *path)
{
	char full[PATH_MAX];
	if (po->redirect && po->redirect[0])
		path = po->redirect; /* every file of the log is this one */
	else if (po->directory && po->directory[0] && path[0] != '/') {
		int n = snprintf(full, sizeof(full), "%s/%s", po->directory, path);
		if (n < 0 || (size_t)n >= sizeof(full))
			return -ENAMETOOLONG;
		path = full;
	}
	if (strlen(path) >= PATH_MAX)
		return -ENAMETOOLONG;
	long i = file_find(log, path);
	return i >= 0 ? i : file_add(log, path);
}

int iolog_push(struct iolog *log, const struct iolog_parse_opts *po, unsigned file, enum iolog_act act,
	       uint64_t off, uint64_t len, uint64_t t_us, bool align_len)
{
	bool io = act <= IOLOG_TRIM;
	if (po->skip & (1u << act))
		return 0;
	if (io) {
		if (po->scale > 1)
			off /= po->scale;
		if (po->align) {
			off &= ~(po->align - 1);
			if (align_len)
				len = (len + po->align - 1) & ~(po->align - 1);
		}
		if (off > (uint64_t)INT64_MAX - len)
			return -ERANGE;
	} else {
		off = len = 0;
	}
	if (log->n == log->cap) {
		size_t cap = log->cap ? log->cap * 2 : 1024;
		struct iolog_entry *e = realloc(log->ent, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		log->ent = e;
		log->cap = cap;
	}
	log->ent[log->n++] = (struct iolog_entry){ off, t_us, (uint32_t)len, file, (uint8_t)act };
	struct iolog_file *f = &log->files[file];
	if (!io) {
		log->syncs++;
		return 0;
	}
	log->bytes[act] += len;
	log->ios[act]++;
	if (len > log->max_len)
		log->max_len = len;
	if (off + len > f->extent)
		f->extent = off + len;
	if (act == IOLOG_READ)
		f->reads = true;
	else
		f->writes = true;
	return 0;
}

void iolog_free(struct iolog *log)
{
	if (!log)
		return;
	for (unsigned i = 0; i < log->nfiles; i++)
		free(log->files[i].path);
	free(log->files);
	free(log->hash);
	free(log->ent);
	free(log->name);
	memset(log, 0, sizeof(*log));
}

void iolog_set_free(struct iolog_set *set)
{
	if (!set)
		return;
	for (unsigned i = 0; i < set->n; i++)
		iolog_free(&set->logs[i]);
	free(set->logs);
	free(set);
}
