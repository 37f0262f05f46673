/* Pure parsers for option values: sizes, times, booleans, integers, ranges.
 * Each returns 0 or -errno (-EINVAL: not parsable, -ERANGE: out of range). */
#ifndef IOBENCH_PARSE_H
#define IOBENCH_PARSE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/lib/shown.h"


/* "16m", "4k", "1g", "4096", "0x1000" (decimal unless 0x), "1KiB"... k/m/g/t/p (with
 * optional b or i) multiply by kb_base^n; the three-letter kib/mib/gib/tib/pib take the
 * other base (1000 <-> 1024), as fio 3.33 does. A fraction ("1.5k") is exact, rounded down
 * to whole bytes; -EINVAL for more than 18 digits after the point (trailing zeros aside).
 * -ERANGE beyond 64 bits. */
int parse_size(const char *s, unsigned kb_base, uint64_t *out);

/* The longest time any option takes, in microseconds: its nanoseconds fit in an int64_t, so
 * a clock reading plus a time never overflows (9223372036854775 us, about 292 years). */
#define TIME_MAX_US ((uint64_t)INT64_MAX / 1000)
#define TIME_MAX_TEXT "9223372036854775us, about 292 years, at most"

/* "30", "30s", "500ms", "10us", "2m", "1h", "1d"; a bare number is in default_unit_us
 * (1000000 for runtime-like options). Result in microseconds, exact (a fraction with a unit
 * is rounded down to whole microseconds); -ERANGE above TIME_MAX_US. */
int parse_time_us(const char *s, uint64_t default_unit_us, uint64_t *out_us);

/* "1", "0", "true", "false", "yes", "no", "on", "off"; NULL or "" means true. */
int parse_bool(const char *s, bool *out);

/* A decimal (or 0x hex; "010" is ten, as in fio) integer within [min, max]. */
int parse_int(const char *s, int64_t min, int64_t max, int64_t *out);

/* "4k-64k" or "4k:64k" into lo/hi sizes; a single size gives lo == hi; -EDOM when hi < lo. */
int parse_size_range(const char *s, unsigned kb_base, uint64_t *lo, uint64_t *hi);

/* A size a file can hold (size=, offset=, io_size=...): parse_size, and -EFBIG above
 * INT64_MAX, off_t's limit. */
int parse_file_size(const char *s, unsigned kb_base, uint64_t *out);

/* The message for a parse_size or parse_file_size error about v ("out of range"...). */
void parse_size_error(char *e, size_t n, const char *v, int err);

#endif
