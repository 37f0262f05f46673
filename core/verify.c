/* Verify headers and checks. */
#include "core/verify.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

uint64_t verify_interval_of(const struct job_opts *o, uint64_t granule)
{
	uint64_t iv = o->verify_interval ? o->verify_interval : granule;
	return iv < sizeof(struct verify_hdr) + o->verify_offset ? granule : iv;
}

static void hex(char *out, size_t n, const uint8_t *b, size_t len)
{
	size_t o = 0;
	for (size_t i = 0; i < len && o + 3 < n; i++)
		o += (size_t)snprintf(out + o, n - o, "%02x", b[i]);
	out[o] = '\0';
}

void verify_fill(const struct job_opts *o, void *buf, uint64_t len, uint64_t off, uint64_t interval)
{
	unsigned char *p = buf;
	if (o->verify_pattern_len)
		for (uint64_t i = 0; i < len; i += o->verify_pattern_len)
			memcpy(p + i, o->verify_pattern,
			       len - i < o->verify_pattern_len ? len - i : o->verify_pattern_len);
	if (o->verify == VERIFY_PATTERN)
		return;
	for (uint64_t at = 0; at + interval <= len; at += interval) {
		unsigned char *chunk = p + at;
		struct verify_hdr h = { VERIFY_MAGIC, (uint16_t)o->verify, sizeof(h), (uint32_t)interval, 0, off + at, { 0 } };
		memcpy(chunk + o->verify_offset, &h, sizeof(h));
		checksum_compute(o->verify, chunk, interval, h.csum);
		memcpy(chunk + o->verify_offset + offsetof(struct verify_hdr, csum), h.csum, sizeof(h.csum));
	}
}

static int check_pattern(const struct job_opts *o, const unsigned char *p, uint64_t len, uint64_t off,
			 char *why, size_t n, uint64_t *bad_off)
{
	for (uint64_t i = 0; i < len; i++) {
		unsigned char want = o->verify_pattern[i % o->verify_pattern_len];
		if (p[i] != want) {
			*bad_off = off + i;
			snprintf(why, n, "pattern mismatch at byte %llu: expected 0x%02x, received 0x%02x",
				 (unsigned long long)(off + i), want, p[i]);
			return -EILSEQ;
		}
	}
	return 0;
}

int verify_check(const struct job_opts *o, void *buf, uint64_t len, uint64_t off, uint64_t interval,
		 char *why, size_t n, uint64_t *bad_off)
{
	unsigned char *p = buf;
	if (o->verify == VERIFY_PATTERN)
		return check_pattern(o, p, len, off, why, n, bad_off);
	for (uint64_t at = 0; at + interval <= len; at += interval) {
		struct verify_hdr h;
		memcpy(&h, p + at + o->verify_offset, sizeof(h));
		*bad_off = off + at;
		if (h.magic != VERIFY_MAGIC || h.len != interval || h.offset != off + at) {
			snprintf(why, n, "bad header (magic %08x, length %u, offset %llu; expected offset %llu)",
				 h.magic, h.len, (unsigned long long)h.offset, (unsigned long long)(off + at));
			return -EILSEQ;
		}
		/* The checksum was taken with its own field zeroed: zero it in the read buffer. */
		uint8_t got[CSUM_MAX] = { 0 };
		memset(p + at + o->verify_offset + offsetof(struct verify_hdr, csum), 0, CSUM_MAX);
		checksum_compute(h.type, p + at, interval, got);
		size_t cl = checksum_len(h.type);
		if (memcmp(got, h.csum, cl) != 0) {
			char e[2 * CSUM_MAX + 1], r[2 * CSUM_MAX + 1];
			hex(e, sizeof(e), h.csum, cl);
			hex(r, sizeof(r), got, cl);
			snprintf(why, n, "bad %s checksum: expected %s, received %s", verify_type_name(h.type), e, r);
			return -EILSEQ;
		}
	}
	return 0;
}
