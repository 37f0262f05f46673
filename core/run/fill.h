/* fill_device's regions after laying out: a job that only reads reads what fit. */
#ifndef IOBENCH_FILL_H
#define IOBENCH_FILL_H
#include "core/plan/files.h"

/* The files are laid out (filled until the filesystem was full): a reader's regions become
 * what is there, and its amount of I/O with them. */
void fill_settle(struct file_plan *plan, const struct job_opts *o);

#endif
