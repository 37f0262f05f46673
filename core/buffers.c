/* Write buffer contents: random (default), zeros, a pattern, partly compressible
 * (buffer_compress_percentage), repeated (dedupe_percentage), refilled or scrambled. */
#include <string.h>

#include "core/worker_int.h"

static void fill_random(struct rng *r, unsigned char *p, size_t len)
{
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		uint64_t v = rng_next(r);
		memcpy(p + i, &v, 8);
	}
	if (i < len) {
		uint64_t v = rng_next(r);
		memcpy(p + i, &v, len - i);
	}
}

static void fill_pattern(const struct job_opts *o, unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i += o->pattern_len)
		memcpy(p + i, o->pattern, len - i < o->pattern_len ? len - i : o->pattern_len);
}

/* Chunks of buffer_compress_chunk bytes: compress_pct% of each chunk zeros, the rest random. */
static void fill_compressible(struct wstate *s, unsigned char *p, size_t len)
{
	const struct job_opts *o = s->o;
	size_t chunk = o->compress_chunk ? o->compress_chunk : 512;
	for (size_t off = 0; off < len; off += chunk) {
		size_t n = len - off < chunk ? len - off : chunk;
		size_t zeros = n * o->compress_pct / 100;
		fill_random(&s->buf_rng, p + off, n - zeros);
		if (o->pattern_len)
			fill_pattern(o, p + off + n - zeros, zeros);
		else
			memset(p + off + n - zeros, 0, zeros);
	}
}

static void fill_one(struct wstate *s, unsigned char *p, size_t len)
{
	const struct job_opts *o = s->o;
	if (o->zero_buffers)
		memset(p, 0, len);
	else if (o->compress_pct)
		fill_compressible(s, p, len);
	else if (o->pattern_len)
		fill_pattern(o, p, len);
	else
		fill_random(&s->buf_rng, p, len);
}

void buffers_init(struct wstate *s)
{
	for (unsigned i = 0; i < s->depth; i++)
		fill_one(s, s->units[i].buf, s->buf_stride);
}

/* Before a write: refill or scramble as asked. Dedupe: a buffer left as it was is a
 * repeat of an earlier write. */
void buffers_fill(struct wstate *s, struct io_unit *u)
{
	const struct job_opts *o = s->o;
	if (o->zero_buffers)
		return;
	if (o->dedupe_pct && rng_below(&s->buf_rng, 100) < o->dedupe_pct) {
		/* Repeat: the same bytes as the first buffer's last write. */
		memcpy(u->buf, s->units[0].buf, u->len);
		return;
	}
	if (o->refill_buffers || o->compress_pct || o->dedupe_pct) {
		fill_one(s, u->buf, u->len);
	} else if (o->scramble_buffers && !o->pattern_len) {
		/* Change a few words so no two writes are identical (defeats dedupe). */
		uint64_t v = rng_next(&s->buf_rng);
		for (size_t off = 0; off + 8 <= u->len; off += 512)
			memcpy((char *)u->buf + off, &v, 8), v += 0x9e3779b97f4a7c15ULL;
	}
}
