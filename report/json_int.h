/* Shared by the report files that read or write JSON through cJSON (json.c, compare.c,
 * merge.c). */
#ifndef IOBENCH_JSON_INT_H
#define IOBENCH_JSON_INT_H
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Print a cJSON tree in fio's layout ("key" : value, two-space indents); numbers added as
 * raw text keep their exact form. */
void json_print_fio(FILE *out, const cJSON *v, int depth);

/* A JSON string literal, escaped. */
void json_print_string(FILE *out, const char *s);

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
