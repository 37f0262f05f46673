/* Reading result documents (fio's JSON or ours): --compare (core/app/compare.c) and --merge
 * (core/app/merge.c), tools that read results rather than printers of them. */
#ifndef IOBENCH_COMPARE_H
#define IOBENCH_COMPARE_H
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/json_int.h"

/* --compare: 0 no regression, 1 a regression past threshold (< 0: no gate), -errno on
 * unreadable input. */
int report_compare(FILE *out, const char *base_path, const char *new_path, bool json, double threshold);

/* --merge: json+ results into one document with client_stats and "All clients". */
int report_merge(FILE *out, char *const *paths, int n);

/* The largest input --compare and --merge read. */
#define JSON_INPUT_MAX ((size_t)1 << 30)

/* Read a fio JSON result (text before the document, as fio prints notes, is skipped):
 * a regular file or a pipe of at most JSON_INPUT_MAX bytes, whose "jobs" is an array.
 * Secret options' values in its "global options" and jobs' "job options" are replaced by
 * OPT_REDACTED. NULL after one line on stderr naming the file. */
cJSON *json_load_result(const char *path, const char *what);

/* Where a value read from an input sits, for the one line that refuses it. */
#define JSON_ROOT SIZE_MAX
struct jwhere {
	const char *what; /* "--compare", "--merge" */
	const char *path; /* the input file */
	size_t job;       /* its index in "jobs", or JSON_ROOT */
	const char *dir;  /* "read", ...; NULL: the job itself */
};

/* One line on stderr, "iobench: WHAT: 'PATH': jobs[N].DIR.SUB.KEY PROBLEM" (sub and key
 * may be NULL; an odd key is quoted, cut and made printable). Returns -EINVAL. */
int json_refuse(const struct jwhere *w, const char *sub, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Is v of type (cJSON_Object, cJSON_Array, cJSON_String, or cJSON_Number: then finite,
 * 0 to 2^63)? 0, or -EINVAL after json_refuse naming sub and key. */
int json_check(const struct jwhere *w, const char *sub, const char *key, const cJSON *v, int type);

/* Member key of object o (case-sensitive) into *v, NULL when absent, checked as
 * json_check does. A key that appears twice is refused unless both are the same number
 * or string (fio itself writes a percentile twice when percentile_list names it twice). */
int json_member(const struct jwhere *w, const cJSON *o, const char *sub, const char *key, int type,
		const cJSON **v);

/* A number member into *v: 1, 0 when absent (*v = 0), -EINVAL when refused. */
int json_number(const struct jwhere *w, const cJSON *o, const char *sub, const char *key, double *v);

/* jobs[w->job]: an object with a string "jobname", into *name. 0 or -EINVAL. */
int json_job(const struct jwhere *w, const cJSON *job, const char **name);

#endif
