/* How iobench names itself where fio prints its version (--version, the normal header,
 * JSON's "fio version", terse's second field): fio's version first, so that tools which
 * check for "fio-" or parse fio's number keep working, then iobench's own. */
#ifndef IOBENCH_VERSION_H
#define IOBENCH_VERSION_H

#define IOBENCH_FIO_COMPAT "fio-3.33"
#define IOBENCH_VERSION_STRING IOBENCH_FIO_COMPAT "+iobench-" IOBENCH_VERSION

#endif
