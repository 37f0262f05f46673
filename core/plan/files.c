/* File planning. */
#include "core/plan/files.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/lib/nomem.h"
#include "core/lib/rand.h"
#include "core/lib/say.h"

int files_target_size(const char *path, uint64_t *bytes)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return -errno;
	if (S_ISBLK(st.st_mode)) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		int ret = ioctl(fd, BLKGETSIZE64, bytes) < 0 ? -errno : 0;
		close(fd);
		return ret;
	}
	*bytes = (uint64_t)st.st_size;
	return 0;
}

int files_format_name(const char *fmt, const char *jobname, unsigned jobnum, unsigned filenum,
		      char *out, size_t len)
{
	size_t o = 0;
	for (const char *p = fmt; *p;) {
		char num[32];
		const char *sub = NULL;
		size_t skip = 0;
		if (!strncmp(p, "$jobname", 8)) {
			sub = jobname;
			skip = 8;
		} else if (!strncmp(p, "$jobnum", 7)) {
			snprintf(num, sizeof(num), "%u", jobnum);
			sub = num;
			skip = 7;
		} else if (!strncmp(p, "$filenum", 8)) {
			snprintf(num, sizeof(num), "%u", filenum);
			sub = num;
			skip = 8;
		}
		if (sub) {
			size_t n = strlen(sub);
			if (o + n >= len)
				return -ENAMETOOLONG;
			memcpy(out + o, sub, n);
			o += n;
			p += skip;
			continue;
		}
		if (o + 1 >= len)
			return -ENAMETOOLONG;
		out[o++] = *p++;
	}
	out[o] = '\0';
	return 0;
}

const char *files_next_name(const char *list, char name[PATH_MAX])
{
	size_t n = 0;
	for (; *list && *list != ':'; list++) {
		if (list[0] == '\\' && list[1] == ':')
			list++; /* "\:" is a colon of the name */
		if (n + 1 < PATH_MAX)
			name[n++] = *list;
	}
	name[n] = '\0';
	return *list ? list + 1 : list;
}

/* The plan's paths: chunks of packed strings, so a pointer to one stays valid. */
#define NAMES_CHUNK (64u << 10)
struct names_chunk {
	struct names_chunk *next;
	size_t used, size;
	char data[];
};

static const char *names_add(struct file_plan *plan, const char *a, const char *sep, const char *b)
{
	size_t la = strlen(a), ls = strlen(sep), lb = strlen(b), need = la + ls + lb + 1;
	struct names_chunk *c = plan->names;
	if (!c || c->size - c->used < need) {
		size_t size = need > NAMES_CHUNK ? need : NAMES_CHUNK;
		if (!(c = malloc(sizeof(*c) + size)))
			return NULL;
		*c = (struct names_chunk){ plan->names, 0, size };
		plan->names = c;
	}
	char *p = c->data + c->used;
	memcpy(p, a, la);
	memcpy(p + la, sep, ls);
	memcpy(p + la + ls, b, lb + 1);
	c->used += need;
	return p;
}

static int add_file(struct file_plan *plan, const char *dir, const char *name)
{
	if (plan->nfiles == plan->cap) { /* grown by half again: no copy per file */
		unsigned cap = plan->cap ? plan->cap + plan->cap / 2 + 1 : 4;
		struct clone_file *f = realloc(plan->files, cap * sizeof(*f));
		if (!f)
			return -ENOMEM;
		plan->files = f;
		plan->cap = cap;
	}
	bool join = dir && dir[0] && name[0] != '/';
	if ((join ? strlen(dir) + 1 : 0) + strlen(name) >= PATH_MAX)
		return -ENAMETOOLONG;
	struct clone_file *f = &plan->files[plan->nfiles];
	memset(f, 0, sizeof(*f));
	if (!(f->path = names_add(plan, join ? dir : "", join ? "/" : "", name)))
		return -ENOMEM;
	plan->nfiles++;
	return 0;
}

static int add_dir_files(struct file_plan *plan, const char *dir, int depth, bool skip_empty)
{
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	int ret = 0;
	struct dirent *e;
	while (!ret && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char path[PATH_MAX];
		struct stat st;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path))
			continue;
		if (lstat(path, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode) && depth < 32)
			ret = add_dir_files(plan, path, depth + 1, skip_empty);
		else if (S_ISREG(st.st_mode) && !(skip_empty && st.st_size == 0))
			ret = add_file(plan, NULL, path);
	}
	closedir(d);
	return ret;
}

static int plan_names(const struct job_opts *o, unsigned clone, struct file_plan *plan)
{
	int ret = 0;
	if (o->opendir[0]) {
		ret = add_dir_files(plan, o->opendir, 0, job_whole_files(o));
		if (ret)
			job_say(o->name, "opendir: cannot read '%s': %s", o->opendir, strerror(-ret));
		else if (!plan->nfiles)
			job_say(o->name, "opendir: no files in '%s'", o->opendir);
		return ret ? ret : plan->nfiles ? 0 : -ENOENT;
	}
	if (o->filename[0]) {
		char name[PATH_MAX];
		for (const char *p = o->filename; *p && !ret;) {
			p = files_next_name(p, name);
			if (name[0])
				ret = add_file(plan, o->directory, name);
		}
	} else {
		/* nrfiles names: the array made once at its size (growing it would keep up to half
		 * again as many entries, and hold the old and new arrays at once while copying) */
		if (o->nrfiles > plan->cap && !(plan->files = malloc((size_t)o->nrfiles * sizeof(*plan->files))))
			ret = -ENOMEM;
		else if (o->nrfiles > plan->cap)
			plan->cap = o->nrfiles;
		for (unsigned k = 0; k < o->nrfiles && !ret; k++) {
			char name[PATH_MAX];
			ret = files_format_name(o->filename_format, o->section, clone, k, name, sizeof(name));
			if (!ret)
				ret = add_file(plan, o->directory, name);
		}
	}
	if (ret == -ENOMEM)
		nomem(o->name, "names of its files", (uint64_t)plan->cap * sizeof(*plan->files) + NAMES_CHUNK);
	else if (ret)
		job_say(o->name, "filename: %s", ret == -ENAMETOOLONG ? "path is too long" : strerror(-ret));
	return ret;
}

static uint64_t align_down(uint64_t v, uint64_t a)
{
	return a ? v / a * a : v;
}

/* Past what any file can hold (off_t: 2^63 - 1 bytes). */
static int beyond_limit(const struct job_opts *o, const char *path, const char *what, unsigned clone)
{
	job_say(o->name, "'%s': %s of clone %u is beyond the largest possible file (8 EiB)", path, what, clone);
	return -EFBIG;
}

/* pct percent of bytes, without overflowing (bytes is at most 2^63 - 1). */
static uint64_t pct_of(uint64_t bytes, unsigned pct)
{
	return bytes / 100 * pct + bytes % 100 * pct / 100;
}

/* Where clone `clone`'s region lies in a file of `real` bytes: offset and length. */
static int region_in(const struct job_opts *o, uint64_t real, unsigned clone, unsigned nfiles, uint64_t g,
		     uint64_t *off, uint64_t *len)
{
	uint64_t inc = o->offset_increment_pct ? pct_of(real, o->offset_increment_pct) : o->offset_increment;
	*off = o->offset_pct ? pct_of(real, o->offset_pct) : o->offset;
	if (__builtin_mul_overflow(inc, (uint64_t)clone, &inc) || __builtin_add_overflow(*off, inc, off) ||
	    *off > (uint64_t)INT64_MAX)
		return -EFBIG;
	/* As fio: an offset with a percentage in it is rounded up to offset_align (default: the
	 * smallest block size). */
	uint64_t a = o->io.offset_align ? o->io.offset_align : g;
	if ((o->offset_pct || o->offset_increment_pct) && a && *off % a &&
	    __builtin_add_overflow(*off / a * a, a, off))
		return -EFBIG;
	if (o->size_pct)
		*len = align_down(pct_of(real, o->size_pct), g);
	else if (o->size)
		*len = o->size / nfiles;
	else
		*len = real > *off ? real - *off : 0;
	return 0;
}

/* fio sets the clones of a job up one after another, each laying out the file before the
 * next is planned, so the percentages of clone k (offset=N%, offset_increment=N%, size=N%)
 * are of the size clones 0..k-1 left a shared file at: a file that does not exist yet is
 * 0 bytes to clone 0 (offset=50% starts at 0) and what clone 0 laid out to clone 1. */
static uint64_t size_seen(const struct job_opts *o, uint64_t real, unsigned clone, unsigned nfiles, uint64_t g)
{
	bool pct = o->offset_pct || o->offset_increment_pct || o->size_pct;
	for (unsigned k = 0; pct && o->filename[0] && k < clone; k++) {
		uint64_t off, len;
		if (region_in(o, real, k, nfiles, g, &off, &len) || __builtin_add_overflow(off, len, &off))
			break;
		real = off > real ? off : real;
	}
	return real;
}

static bool regular(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* fill_device without a size, on a regular file (a device's size is known): a region as
 * large as a file can be, from offset= (or the end, file_append), which ENOSPC ends. A job
 * that reads has it filled when laid out (and cut to what fit, core/run/fill.c); a writer's file
 * is only created. */
static bool fill_plan(const struct job_opts *o, struct clone_file *f, bool exists, unsigned nfiles, uint64_t real,
		      uint64_t g)
{
	if (!o->io.fill_device || o->size || o->size_pct || o->filesize_lo || (exists && !regular(f->path)))
		return false;
	f->offset = o->io.file_append && exists ? real : o->offset;
	if (f->offset > (uint64_t)INT64_MAX / 2)
		f->offset = 0;
	f->region = align_down(((uint64_t)INT64_MAX - f->offset) / nfiles, g);
	f->file_size = job_has_dir(o, DDIR_READ) ? f->offset + f->region : real;
	return true;
}

/* Does the plan need a file's present size? Not when filesize gives it and nothing is a
 * share of it or starts at its end: then no stat (a million files: a million calls fewer;
 * whether the file is there is left to the layout, and a missing one's directory is still
 * checked, once per directory). */
static bool size_needed(const struct job_opts *o)
{
	return !o->filesize_lo || o->size_pct || o->offset_pct || o->offset_increment_pct || o->io.fill_device ||
	       o->io.file_append;
}

/* One file's region from the options and, where needed, its present size (*exists: the
 * file is there). */
static int plan_region(const struct job_opts *o, unsigned clone, unsigned nfiles, bool no_file, bool sized,
		       uint64_t target_bytes, struct rng *r, struct clone_file *f, bool *exists)
{
	uint64_t g = job_min_bs(o), real = no_file ? target_bytes : 0, region;
	bool there = *exists = no_file ? target_bytes > 0 : size_needed(o) && files_target_size(f->path, &real) == 0;
	if (o->filesize_lo) {
		uint64_t span = o->filesize_hi - o->filesize_lo;
		f->file_size = align_down(o->filesize_lo + (span ? rng_below(r, span + 1) : 0), g);
		if (!f->file_size)
			f->file_size = o->filesize_lo;
	}
	if (fill_plan(o, f, there, nfiles, real, g))
		return 0;
	if (!o->filesize_lo && (o->size_pct || !o->size) && (!there || !real)) {
		job_say(o->name, "size: not given, and '%s' %s%s%s", f->path,
			no_file ? "is not a file (ioengine=" : there ? "is empty" : "does not exist",
			no_file ? o->ioengine : "", no_file ? " needs a size)" : "");
		return -EINVAL;
	}
	bool objects = sized && o->size && !o->filesize_lo; /* fio 3.33's rados: size / nrfiles each */
	if (objects)
		f->file_size = o->size / nfiles;
	uint64_t base = f->file_size ? f->file_size : size_seen(o, real, clone, nfiles, g);
	if (region_in(o, base, clone, nfiles, g, &f->offset, &region))
		return beyond_limit(o, f->path, "offset", clone);
	if (o->io.file_append && there && regular(f->path)) /* as fio: offset= the file's size */
		f->offset = real;
	f->region = !o->filesize_lo && !objects ? region : f->file_size > f->offset ? f->file_size - f->offset : 0;
	if (!f->file_size && (__builtin_add_overflow(f->offset, f->region, &f->file_size) ||
			      f->file_size > (uint64_t)INT64_MAX))
		return beyond_limit(o, f->path, "offset + size", clone);
	if (no_file && target_bytes && f->offset + f->region > target_bytes) {
		job_say(o->name, "offset + size (%llu bytes) is beyond the end of the %s target (%llu bytes)",
			(unsigned long long)(f->offset + f->region), o->ioengine, (unsigned long long)target_bytes);
		return -EINVAL;
	}
	if (f->region < g && !(job_whole_files(o) && f->region)) {
		job_say(o->name, "'%s': the region (%llu bytes at offset %llu) is smaller than the block size", f->path,
			(unsigned long long)f->region, (unsigned long long)f->offset);
		return -EINVAL;
	}
	return 0;
}

/* A file that does not exist yet must be creatable: the nearest existing ancestor of
 * its path has to be a directory (missing ones are made when laying out, as fio does).
 * last_ok: the directory found fine for the file before (files of one directory: one stat). */
static int check_creatable(const struct job_opts *o, const char *path, char last_ok[PATH_MAX])
{
	char dir[PATH_MAX];
	struct stat st;
	snprintf(dir, sizeof(dir), "%s", path);
	char *end = strrchr(dir, '/');
	if (end && (*end = '\0', !strcmp(dir, last_ok)))
		return 0;
	if (end)
		*end = '/';
	for (char *slash = strrchr(dir, '/'); slash; slash = strrchr(dir, '/')) {
		*slash = '\0';
		if (!dir[0] || stat(dir, &st) == 0) {
			if (!dir[0] || S_ISDIR(st.st_mode)) {
				if (slash == end)
					snprintf(last_ok, PATH_MAX, "%s", dir);
				return 0;
			}
			job_say(o->name, "cannot create '%s': Not a directory", path);
			return -ENOTDIR;
		}
	}
	return 0;
}

int files_plan(const struct job_opts *o, unsigned clone, bool no_file, bool sized, uint64_t target_bytes,
	       struct file_plan *plan)
{
	struct rng r;
	memset(plan, 0, sizeof(*plan));
	int ret = plan_names(o, clone, plan);
	if (ret)
		return ret;
	rng_seed(&r, 0xf11e5 ^ clone);
	uint64_t total = 0, g = job_min_bs(o);
	char last_ok[PATH_MAX] = "";
	for (unsigned i = 0; i < plan->nfiles; i++) {
		bool exists;
		ret = plan_region(o, clone, plan->nfiles, no_file, sized, target_bytes, &r, &plan->files[i], &exists);
		if (!ret && !no_file && !exists)
			ret = check_creatable(o, plan->files[i].path, last_ok);
		if (ret)
			return ret;
		total += job_whole_files(o) ? plan->files[i].region : align_down(plan->files[i].region, g);
	}
	/* With filesize, size only sets the default amount of I/O. */
	if (o->filesize_lo && o->size && !o->io_size)
		total = o->size;
	uint64_t once = o->io_size ? o->io_size : total;
	if (__builtin_mul_overflow(once, o->loops, &plan->io_limit))
		plan->io_limit = UINT64_MAX;
	return 0;
}

void files_plan_free(struct file_plan *plan)
{
	free(plan->files);
	plan->files = NULL;
	plan->nfiles = plan->cap = 0;
	while (plan->names) {
		struct names_chunk *next = plan->names->next;
		free(plan->names);
		plan->names = next;
	}
}

void files_make_parents(const char *path)
{
	char dir[PATH_MAX];
	struct stat st;
	snprintf(dir, sizeof(dir), "%s", path);
	char *last = strrchr(dir, '/');
	if (!last || last == dir)
		return;
	*last = '\0';
	bool there = stat(dir, &st) == 0 && S_ISDIR(st.st_mode); /* the usual case: one call */
	*last = '/';
	if (there)
		return;
	for (char *p = dir + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(dir, 0755);
		*p = '/';
	}
}
