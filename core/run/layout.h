/* Files before a group starts: create missing ones and extend short ones, as fio does. */
#ifndef IOBENCH_LAYOUT_H
#define IOBENCH_LAYOUT_H
#include <stdint.h>
#include <stdio.h>

struct run_ctx;

/* Lay out every file group g needs. Prints fio's "Laying out IO file" notice to notes
 * (NULL: quiet). Returns 0 or -errno after one line on stderr. */
int layout_group(struct run_ctx *rc, unsigned g, FILE *notes);

#endif
