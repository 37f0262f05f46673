/* Which files a clone works on, and where in them: names (filename lists,
 * filename_format, opendir), regions (size, filesize, offset, offset_increment) and the
 * amount of I/O (io_size, loops). Planned once before the run. */
#ifndef IOBENCH_FILES_H
#define IOBENCH_FILES_H
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/job/job.h"

struct iolog;

/* A planned file: 32 bytes and its name; its path is kept once, in the plan's name arena
 * (a million files of one job cost their names and these fields, not PATH_MAX each). */
struct clone_file {
	const char *path;   /* in file_plan.names (or a read_iolog log's), valid with the plan */
	uint64_t offset;    /* start of the region */
	uint64_t region;    /* bytes of the region */
	uint64_t file_size; /* the size layout makes sure the file has */
};

struct names_chunk; /* files.c: the paths, packed in chunks that never move */

struct file_plan {
	struct clone_file *files;
	unsigned nfiles, cap;
	struct names_chunk *names;
	uint64_t io_limit;  /* bytes to transfer, all files and loops together */
	const struct iolog *replay; /* read_iolog: the log this clone replays (its job's; core/plan/iolog.h) */
	/* run.c's check: no file was there but regular ones (no device, link, FIFO): a directory's
	 * files are all on its disk (disk_util looks once per directory) */
	bool regular_only;
};

/* Plan clone `clone` of a job. no_file: the engine touches no files (null); its target then
 * has target_bytes (an RBD image's size; 0: none, size= must say). sized: each file is
 * size / nrfiles bytes and offset= starts inside it (ENGINE_SIZED_FILES: RADOS objects, as
 * fio's rados engine). Prints one line and returns -errno on a problem (a missing file
 * without a size, ...). */
int files_plan(const struct job_opts *o, unsigned clone, bool no_file, bool sized, uint64_t target_bytes,
	       struct file_plan *plan);
void files_plan_free(struct file_plan *plan);
/* filename=a:b\\:c: the next name of the list into name ("\\:" is a colon of a name, as in
 * fio); returns where the one after it starts. */
const char *files_next_name(const char *list, char name[PATH_MAX]);
/* mkdir -p the directories above path (filename_format=a/b/$jobnum, as fio). */
void files_make_parents(const char *path);

/* Size of a regular file or block device; -errno if it cannot be read. */
int files_target_size(const char *path, uint64_t *bytes);


/* "$jobname.$jobnum.$filenum" -> "name.0.3". 0 or -ENAMETOOLONG. */
int files_format_name(const char *fmt, const char *jobname, unsigned jobnum, unsigned filenum,
		      char *out, size_t len);

#endif
