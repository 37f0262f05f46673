/* fill_device: the regions of a job that only reads, once laying out filled the files. */
#include "core/run/fill.h"

#include <sys/stat.h>

void fill_settle(struct file_plan *plan, const struct job_opts *o)
{
	if (job_writes(o) || o->size || o->size_pct || o->filesize_lo)
		return; /* a writer's end is ENOSPC; a size given is the size */
	uint64_t g = job_min_bs(o), total = 0;
	for (unsigned i = 0; i < plan->nfiles; i++) {
		struct clone_file *f = &plan->files[i];
		struct stat st;
		if (stat(f->path, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		uint64_t have = (uint64_t)st.st_size;
		f->file_size = have;
		f->region = have > f->offset ? (have - f->offset) / g * g : 0;
		total += f->region;
	}
	uint64_t once = o->io_size ? o->io_size : total;
	if (__builtin_mul_overflow(once, o->loops, &plan->io_limit))
		plan->io_limit = UINT64_MAX;
}
