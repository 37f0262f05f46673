/* --inflate-log, with zlib. A sample is fio's: time (ms), value, direction (its top bit:
 * an offset follows), priority, block size [, offset]: 32 or 40 bytes, in the machine's
 * byte order. The file is one zlib stream per chunk fio compressed, one after another. */
#include "core/app/inflate.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define SAMPLE_BASE 32
#define SAMPLE_OFFSET_BIT 0x80000000u
#define SAMPLE_PRIO_BIT 0x40000000u /* log_prio=1: the priority as it is, in hex */

struct sample_buf {
	unsigned char *data;
	size_t len, cap;
};

/* Print the whole samples in b and keep the rest (a sample split between chunks). */
static void print_samples(FILE *out, struct sample_buf *b)
{
	size_t pos = 0;
	while (b->len - pos >= SAMPLE_BASE) {
		const unsigned char *p = b->data + pos;
		uint64_t t, val, bs, off;
		uint32_t ddir;
		uint16_t prio;
		memcpy(&t, p, 8);
		memcpy(&val, p + 8, 8);
		memcpy(&ddir, p + 16, 4);
		memcpy(&prio, p + 20, 2);
		memcpy(&bs, p + 24, 8);
		bool has_off = ddir & SAMPLE_OFFSET_BIT;
		if (has_off && b->len - pos < SAMPLE_BASE + 8)
			break;
		char pr[16];
		snprintf(pr, sizeof(pr), ddir & SAMPLE_PRIO_BIT ? "0x%04x" : "%u", prio);
		ddir &= ~(SAMPLE_OFFSET_BIT | SAMPLE_PRIO_BIT);
		if (has_off) {
			memcpy(&off, p + 32, 8);
			fprintf(out, "%" PRIu64 ", %" PRIu64 ", %u, %" PRIu64 ", %" PRIu64 ", %s\n", t, val, ddir, bs, off,
				pr);
		} else {
			fprintf(out, "%" PRIu64 ", %" PRIu64 ", %u, %" PRIu64 ", %s\n", t, val, ddir, bs, pr);
		}
		pos += SAMPLE_BASE + (has_off ? 8 : 0);
	}
	memmove(b->data, b->data + pos, b->len - pos);
	b->len -= pos;
}

/* Inflate everything in f into samples; 0, or a zlib error (Z_*) / -ENOMEM. */
static int inflate_all(FILE *out, FILE *f, z_stream *z, struct sample_buf *b)
{
	unsigned char in[65536];
	int zr = Z_OK;
	size_t n;
	while ((n = fread(in, 1, sizeof(in), f)) > 0) {
		z->next_in = in;
		z->avail_in = (uInt)n;
		while (z->avail_in) {
			if (zr == Z_STREAM_END && inflateReset(z) != Z_OK) /* the next chunk's stream */
				return Z_STREAM_ERROR;
			if (b->cap - b->len < 65536) {
				unsigned char *d = realloc(b->data, b->cap + 262144);
				if (!d)
					return -ENOMEM;
				b->data = d;
				b->cap += 262144;
			}
			z->next_out = b->data + b->len;
			z->avail_out = (uInt)(b->cap - b->len);
			zr = inflate(z, Z_NO_FLUSH);
			if (zr != Z_OK && zr != Z_STREAM_END)
				return zr == Z_BUF_ERROR ? Z_DATA_ERROR : zr;
			b->len = b->cap - z->avail_out;
			print_samples(out, b);
		}
	}
	if (ferror(f))
		return Z_ERRNO;
	return zr == Z_STREAM_END || z->total_in == 0 ? 0 : Z_DATA_ERROR; /* a last stream cut short */
}

int inflate_log(FILE *out, const char *path)
{
	FILE *f = fopen(path, "rbe");
	if (!f) {
		int err = errno;
		fprintf(stderr, "iobench: --inflate-log: cannot open '%s': %s\n", path, strerror(err));
		return -err;
	}
	z_stream z;
	memset(&z, 0, sizeof(z));
	struct sample_buf b = { 0 };
	int ret = inflateInit(&z) == Z_OK ? inflate_all(out, f, &z, &b) : -ENOMEM;
	inflateEnd(&z);
	fclose(f);
	if (!ret && b.len)
		ret = Z_DATA_ERROR; /* bytes left that are not a whole sample */
	free(b.data);
	if (ret == -ENOMEM)
		fprintf(stderr, "iobench: --inflate-log: out of memory\n");
	else if (ret)
		fprintf(stderr, "iobench: --inflate-log: '%s' is not a log fio compressed (%s)\n", path,
			ret == Z_ERRNO ? strerror(errno) : "zlib: bad or truncated data");
	fflush(out);
	return ret == -ENOMEM ? ret : ret ? -EINVAL : 0;
}
