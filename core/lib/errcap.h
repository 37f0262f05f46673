/* What the program says on stderr while a step runs, passed through at once and its last
 * line kept to be quoted (a --sweep point that could not be prepared names why in the
 * sweep's JSON document). For the step, stderr is a stream of ours that writes to the real
 * one as it goes (glibc's stderr is a variable a program may set: the GNU C Library manual,
 * "Standard Streams"); only the calling thread may run meanwhile. */
#ifndef IOBENCH_ERRCAP_H
#define IOBENCH_ERRCAP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct errcap {
	FILE *saved;     /* the real stderr while ours stands in; NULL: not holding */
	char cur[512];   /* the line being written */
	char last[512];  /* the last complete line */
	size_t cur_len;
};

void errcap_begin(struct errcap *c);
/* stderr back; the last line written meanwhile (without its newline) in why ("" if none). */
void errcap_end(struct errcap *c, char *why, size_t len);

#endif
