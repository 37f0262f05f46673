/* The JSON printer's helpers that --compare and --merge share (report/json.c; the readers
 * of documents: core/app/compare.h). */
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

#endif
