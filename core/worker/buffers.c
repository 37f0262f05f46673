/* Write buffer contents: random (default), zeros, a pattern, partly compressible
 * (buffer_compress_percentage), repeated (dedupe_percentage), refilled or scrambled. */
#include <string.h>

#include "core/worker/dedupe.h"
#include "core/worker/worker_int.h"

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

/* A buffer of the working set: its seed's random data (compressible as the job says). */
static void fill_from_set(struct wstate *s, unsigned char *p, size_t len, uint64_t index)
{
	struct rng saved = s->buf_rng;
	rng_seed(&s->buf_rng, dedupe_seed(s->x.dd_key, index));
	fill_one(s, p, len);
	s->buf_rng = saved;
}

void buffers_init(struct wstate *s)
{
	/* dedupe_global: one key for every clone of the run; else the clone's own */
	s->x.dd_key = s->o->io.dedupe_global ? 0xd3d0be5e7ULL : rng_next(&s->buf_rng);
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
	bool set = o->dedupe_pct && o->io.dedupe_mode == DEDUPE_WORKING_SET && s->w->dedupe_total;
	/* of the set, those made so far (a global set's other slices: made by the other clones) */
	uint64_t made = !o->io.dedupe_global ? s->x.dd_made : s->w->dedupe_total;
	if (o->dedupe_pct && (!set || made) && rng_below(&s->buf_rng, 100) < o->dedupe_pct) {
		if (set) /* one of the working set, at random */
			fill_from_set(s, u->buf, u->len, rng_below(&s->buf_rng, made));
		else /* repeat: the same bytes as the first buffer's last write */
			memcpy(u->buf, s->units[0].buf, u->len);
		return;
	}
	if (set && s->x.dd_made < s->w->dedupe_len) {
		/* the first unique writes make the clone's slice of the set */
		fill_from_set(s, u->buf, u->len, s->w->dedupe_start + s->x.dd_made++);
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
