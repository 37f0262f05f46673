/* Shared by the report files that read or write JSON through cJSON (json.c, merge.c). */
#ifndef IOBENCH_JSON_INT_H
#define IOBENCH_JSON_INT_H
#include <cjson/cJSON.h>
#include <stdio.h>

/* Print a cJSON tree in fio's layout ("key" : value, two-space indents); numbers added as
 * raw text keep their exact form. */
void json_print_fio(FILE *out, const cJSON *v, int depth);

/* A JSON string literal, escaped. */
void json_print_string(FILE *out, const char *s);

/* Read a fio JSON result (text before the document, as fio prints notes, is skipped).
 * NULL after one line on stderr naming the file. */
cJSON *json_load_result(const char *path, const char *what);

#endif
