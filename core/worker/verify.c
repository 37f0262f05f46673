/* Verify headers, fills and checks in fio 3.33's format (core/worker/verify.h). */
#include "core/worker/verify.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/job/job.h"
#include "core/lib/rand.h"

size_t verify_hdr_size(unsigned type)
{
	return checksum_has_header(type) ? VERIFY_HDR_LEN + checksum_len(type) : 0;
}

/* verify_pattern for the I/O at file offset io_off: with %o formats, a copy in tmp with
 * the offset pasted in each (8 bytes, host order, in every repetition, as fio). */
static const unsigned char *pattern_for(const struct job_opts *o, uint64_t io_off, unsigned char *tmp)
{
	if (!o->verify_fmt_n)
		return o->verify_pattern;
	memcpy(tmp, o->verify_pattern, o->verify_pattern_len);
	for (unsigned i = 0; i < o->verify_fmt_n; i++)
		memcpy(tmp + o->verify_fmt_at[i], &io_off, 8);
	return tmp;
}

/* Data bytes [pos, pos+n) of an I/O buffer at file offset io_off: verify_pattern in phase
 * with the buffer's start, or the next bytes of r. */
static void fill_data(const struct job_opts *o, unsigned char *p, uint64_t n, uint64_t pos, uint64_t io_off,
		      struct rng *r)
{
	if (o->verify_pattern_len) {
		unsigned char tmp[PATTERN_MAX];
		const unsigned char *pat = pattern_for(o, io_off, tmp);
		unsigned pl = o->verify_pattern_len;
		for (uint64_t i = 0; i < n; i++)
			p[i] = pat[(pos + i) % pl];
		return;
	}
	uint64_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t v = rng_next(r);
		memcpy(p + i, &v, 8);
	}
	if (i < n) {
		uint64_t v = rng_next(r);
		memcpy(p + i, &v, n - i);
	}
}

/* verify_offset: the header and checksum trade places with the bytes at voff. */
static void swap_hdr(unsigned char *chunk, size_t hs, uint64_t voff)
{
	unsigned char t[VERIFY_HDR_LEN + CSUM_MAX];
	if (!voff || !hs)
		return;
	memcpy(t, chunk, hs);
	memmove(chunk, chunk + voff, hs);
	memcpy(chunk + voff, t, hs);
}

static void put_header(const struct job_opts *o, unsigned char *chunk, uint64_t interval, uint64_t off,
		       const struct verify_stamp *st)
{
	struct verify_hdr h = {
		.magic = VERIFY_MAGIC,
		.type = (uint16_t)o->verify,
		.len = (uint32_t)interval,
		.rand_seed = st->rand_seed,
		.offset = off,
		.time_sec = (uint32_t)(st->time_ns / 1000000000u),
		.time_nsec = (uint32_t)(st->time_ns % 1000000000u),
		.thread = st->thread,
		.numberio = st->numberio,
	};
	h.crc32 = checksum_crc32c(&h, offsetof(struct verify_hdr, crc32));
	memcpy(chunk, &h, sizeof(h));
	size_t hs = verify_hdr_size(o->verify);
	checksum_compute(o->verify, chunk + hs, interval - hs, chunk + VERIFY_HDR_LEN);
	swap_hdr(chunk, hs, o->verify_offset);
}

void verify_fill(const struct job_opts *o, void *buf, uint64_t len, uint64_t off, uint64_t interval,
		 const struct verify_stamp *st)
{
	unsigned char *p = buf;
	struct rng r;
	rng_seed(&r, st->rand_seed);
	fill_data(o, p, len, 0, off, &r);
	if (!checksum_has_header(o->verify))
		return;
	for (uint64_t at = 0; at + interval <= len; at += interval)
		put_header(o, p + at, interval, off + at, st);
}

static void hex(char *out, size_t n, const uint8_t *b, size_t len)
{
	size_t o = 0;
	for (size_t i = 0; i < len && o + 3 < n; i++)
		o += (size_t)snprintf(out + o, n - o, "%02x", b[i]);
	out[o] = '\0';
}

static int check_pattern(const struct job_opts *o, const unsigned char *p, uint64_t from, uint64_t to,
			 uint64_t off, struct verify_fail *fl)
{
	unsigned char tmp[PATTERN_MAX];
	const unsigned char *pat = pattern_for(o, off, tmp);
	unsigned pl = o->verify_pattern_len;
	for (uint64_t i = from; i < to; i++) {
		unsigned char want = pat[i % pl];
		if (p[i] != want) {
			snprintf(fl->why, sizeof(fl->why), "pattern mismatch at byte %llu: expected 0x%02x, received 0x%02x",
				 (unsigned long long)(off + i), want, p[i]);
			return -EILSEQ;
		}
	}
	return 0;
}

/* The header of an interval at file offset off: fio's checks, in its order. */
static int check_header(const struct job_opts *o, const unsigned char *chunk, uint64_t interval, uint64_t off,
			struct verify_fail *fl)
{
	struct verify_hdr h;
	memcpy(&h, chunk, sizeof(h));
	char *w = fl->why;
	size_t n = sizeof(fl->why);
	if (h.magic != VERIFY_MAGIC)
		snprintf(w, n, "bad magic header %x, wanted %x", h.magic, VERIFY_MAGIC);
	else if (h.len != interval)
		snprintf(w, n, "bad header length %u, wanted %llu", h.len, (unsigned long long)interval);
	else if (h.offset != off)
		snprintf(w, n, "bad header offset %llu, wanted %llu", (unsigned long long)h.offset,
			 (unsigned long long)off);
	else if (h.crc32 != checksum_crc32c(&h, offsetof(struct verify_hdr, crc32)))
		snprintf(w, n, "bad header crc %x, calculated %x", h.crc32,
			 checksum_crc32c(&h, offsetof(struct verify_hdr, crc32)));
	else if (h.type != o->verify)
		snprintf(w, n, "verify type mismatch (%s on the media, %s given)", verify_type_name(h.type),
			 verify_type_name(o->verify));
	else
		return 0;
	return -EILSEQ;
}

static int check_interval(const struct job_opts *o, unsigned char *chunk, uint64_t at, uint64_t interval,
			  uint64_t off, struct verify_fail *fl)
{
	size_t hs = verify_hdr_size(o->verify), cl = checksum_len(o->verify);
	swap_hdr(chunk, hs, o->verify_offset);
	if (check_header(o, chunk, interval, off, fl))
		return -EILSEQ;
	if (o->verify_pattern_len && check_pattern(o, chunk - at, at + hs, at + interval, off - at, fl))
		return -EILSEQ;
	if (!cl)
		return 0;
	uint8_t got[CSUM_MAX];
	checksum_compute(o->verify, chunk + hs, interval - hs, got);
	if (!memcmp(got, chunk + VERIFY_HDR_LEN, cl))
		return 0;
	char e[2 * CSUM_MAX + 1], r[2 * CSUM_MAX + 1];
	hex(e, sizeof(e), chunk + VERIFY_HDR_LEN, cl);
	hex(r, sizeof(r), got, cl);
	snprintf(fl->why, sizeof(fl->why), "bad %s checksum: expected %s, received %s", verify_type_name(o->verify), e, r);
	return -EILSEQ;
}

int verify_check(const struct job_opts *o, void *buf, uint64_t len, uint64_t off, uint64_t interval,
		 struct verify_fail *fl)
{
	unsigned char *p = buf;
	fl->off = off;
	fl->len = len;
	if (o->verify == VERIFY_NULL)
		return 0;
	if (o->verify == VERIFY_PATTERN)
		return o->verify_pattern_len ? check_pattern(o, p, 0, len, off, fl) : 0;
	for (uint64_t at = 0; at + interval <= len; at += interval) {
		fl->off = off + at;
		fl->len = interval;
		if (check_interval(o, p + at, at, interval, off + at, fl))
			return -EILSEQ;
	}
	return 0;
}

bool verify_expected(const struct job_opts *o, const void *rcv, void *out, uint64_t len, uint64_t off,
		     uint64_t interval)
{
	unsigned char *p = out;
	const unsigned char *q = rcv;
	size_t hs = verify_hdr_size(o->verify), cl = checksum_len(o->verify);
	if (o->verify == VERIFY_PATTERN) {
		fill_data(o, p, len, 0, off, NULL);
		return o->verify_pattern_len > 0;
	}
	if (!hs)
		return false; /* null: nothing tells what was there */
	/* The seed and stamp from the first interval whose header is whole. */
	unsigned char got[VERIFY_HDR_LEN + CSUM_MAX];
	struct verify_fail fl;
	struct verify_hdr h;
	uint64_t at = 0;
	for (; at + interval <= len; at += interval) {
		memcpy(got, q + at, len - at < sizeof(got) ? len - at : sizeof(got));
		if (o->verify_offset)
			memcpy(got, q + at + o->verify_offset, hs);
		if (!check_header(o, got, interval, off + at, &fl))
			break;
	}
	if (at + interval > len)
		return false;
	memcpy(&h, got, sizeof(h));
	struct verify_stamp st = { h.rand_seed, (uint64_t)h.time_sec * 1000000000u + h.time_nsec, h.thread, h.numberio };
	verify_fill(o, p, len, off, interval, &st);
	/* Credible only if the rebuilt interval has the checksum that was stored with it. */
	unsigned char mine[VERIFY_HDR_LEN + CSUM_MAX];
	memcpy(mine, p + at + o->verify_offset, hs);
	if (cl)
		return !memcmp(mine + VERIFY_HDR_LEN, got + VERIFY_HDR_LEN, cl);
	/* meta: no checksum; the pattern, or the data around the header, must agree */
	return o->verify_pattern_len || !memcmp(p + at + hs + o->verify_offset, q + at + hs + o->verify_offset,
						 interval - hs - o->verify_offset);
}
