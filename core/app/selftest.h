/* fio's self tests: --crctest (the checksums' speed, from the libraries core/lib/checksum.c
 * uses) and --cpuclock-test (is the CPU's time-stamp counter steady on every CPU and
 * across them), printed as fio prints them. */
#ifndef IOBENCH_SELFTEST_H
#define IOBENCH_SELFTEST_H
#include <stdio.h>

/* list: "md5,crc32c" or NULL for all. 0, or -errno after one line on stderr. */
int selftest_crc(FILE *out, const char *list);
/* 0 when the test passes ("cs: Pass!"), -EIO when it fails, -ENOTSUP without a TSC. */
int selftest_cpuclock(FILE *out);

#endif
