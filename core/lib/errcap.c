/* Passing stderr through while keeping its last line (core/lib/errcap.h). */
#include "core/lib/errcap.h"

#include <string.h>
#include <sys/types.h>

static ssize_t tee_write(void *cookie, const char *buf, size_t size)
{
	struct errcap *c = cookie;
	size_t done = fwrite(buf, 1, size, c->saved);
	for (size_t i = 0; i < done; i++) {
		if (buf[i] != '\n') {
			if (c->cur_len + 1 < sizeof(c->cur))
				c->cur[c->cur_len++] = buf[i];
			continue;
		}
		if (c->cur_len) {
			memcpy(c->last, c->cur, c->cur_len);
			c->last[c->cur_len] = '\0';
		}
		c->cur_len = 0;
	}
	return done ? (ssize_t)done : -1;
}

void errcap_begin(struct errcap *c)
{
	cookie_io_functions_t io = { .write = tee_write };
	c->cur_len = 0;
	c->last[0] = '\0';
	c->saved = NULL;
	FILE *tee = fopencookie(c, "w", io);
	if (!tee)
		return; /* no quote then; stderr as it was */
	setvbuf(tee, NULL, _IONBF, 0);
	fflush(stderr);
	c->saved = stderr;
	stderr = tee;
}

void errcap_end(struct errcap *c, char *why, size_t len)
{
	why[0] = '\0';
	if (!c->saved)
		return;
	FILE *tee = stderr;
	stderr = c->saved;
	fclose(tee);
	c->saved = NULL;
	if (c->cur_len) /* a last line without its newline */
		snprintf(why, len, "%.*s", (int)c->cur_len, c->cur);
	else
		snprintf(why, len, "%s", c->last);
}
