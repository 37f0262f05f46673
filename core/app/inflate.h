/* --inflate-log: a log fio stored compressed (log_store_compressed=1, a .fz file: zlib
 * streams of fio's binary samples) printed as the text log fio would have written. */
#ifndef IOBENCH_INFLATE_H
#define IOBENCH_INFLATE_H
#include <stdio.h>

/* 0, or -errno after one line on stderr. */
int inflate_log(FILE *out, const char *path);

#endif
