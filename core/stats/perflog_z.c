/* The per-job logs' compressed forms (log_compression, log_store_compressed) with zlib.
 * A chunk of entries becomes fio's samples (core/app/inflate.c reads them: time, value,
 * direction with the offset flag, priority, block size [, offset], in the machine's byte
 * order) deflated into one zlib stream; a .fz file is those streams one after another. */
#include "core/stats/perflog.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define SAMPLE_OFFSET_BIT 0x80000000u
#define SAMPLE_PRIO_BIT 0x40000000u /* log_prio: the priority as it is (printed in hex) */

struct logz_blob {
	struct logz_blob *next;
	size_t len;
	unsigned char data[];
};

/* One entry as fio's sample: 32 bytes, 40 with an offset; the priority as the text log's
 * last column (core/stats/perflog.h's PERFLOG_PRIO). */
static size_t to_sample(const struct log_entry *e, uint64_t epoch_ms, bool with_offset, bool log_prio, unsigned char *p)
{
	uint64_t t = e->t_ms + epoch_ms, bs = e->bs, off = e->offset;
	uint32_t ddir = e->ddir | (with_offset ? SAMPLE_OFFSET_BIT : 0) | (log_prio ? SAMPLE_PRIO_BIT : 0);
	uint16_t prio = (uint16_t)(log_prio ? e->prio & 0xffffu : e->prio >> 16);
	memset(p, 0, 40);
	memcpy(p, &t, 8);
	memcpy(p + 8, &e->value, 8);
	memcpy(p + 16, &ddir, 4);
	memcpy(p + 20, &prio, 2);
	memcpy(p + 24, &bs, 8);
	if (with_offset)
		memcpy(p + 32, &off, 8);
	return with_offset ? 40 : 32;
}

/* Deflate the n entries into a new blob: NULL when out of memory. */
static struct logz_blob *deflate_entries(const struct log_entry *e, unsigned n, uint64_t epoch_ms, bool with_offset,
					 bool log_prio)
{
	size_t raw_len = (size_t)n * 40;
	unsigned char *raw = malloc(raw_len ? raw_len : 1);
	if (!raw)
		return NULL;
	size_t used = 0;
	for (unsigned i = 0; i < n; i++)
		used += to_sample(&e[i], epoch_ms, with_offset, log_prio, raw + used);
	uLongf zlen = compressBound((uLong)used);
	struct logz_blob *b = malloc(sizeof(*b) + zlen);
	if (b && compress2(b->data, &zlen, raw, (uLong)used, Z_DEFAULT_COMPRESSION) != Z_OK) {
		free(b);
		b = NULL;
	}
	free(raw);
	if (b) {
		b->next = NULL;
		b->len = zlen;
	}
	return b;
}

int logz_pack(struct perflog *l, uint64_t epoch_ms, bool with_offset, bool log_prio)
{
	struct log_chunk *c = l->head;
	if (!c)
		return 0;
	struct logz_blob *b = deflate_entries(c->e, c->n, epoch_ms, with_offset, log_prio);
	if (!b)
		return -ENOMEM;
	if (l->ztail)
		l->ztail->next = b;
	else
		l->zhead = b;
	l->ztail = b;
	l->head = c->next;
	if (l->tail == c)
		l->tail = NULL;
	free(c);
	return 0;
}

/* Print the samples of one inflated stream as log lines. */
static void print_samples(FILE *f, const unsigned char *p, size_t len)
{
	while (len >= 32) {
		uint64_t t, v, bs, off = 0;
		uint32_t ddir;
		uint16_t prio;
		memcpy(&t, p, 8);
		memcpy(&v, p + 8, 8);
		memcpy(&ddir, p + 16, 4);
		memcpy(&prio, p + 20, 2);
		memcpy(&bs, p + 24, 8);
		size_t n = ddir & SAMPLE_OFFSET_BIT ? 40 : 32;
		char pr[16];
		snprintf(pr, sizeof(pr), ddir & SAMPLE_PRIO_BIT ? "0x%04x" : "%u", prio);
		ddir &= ~(SAMPLE_OFFSET_BIT | SAMPLE_PRIO_BIT);
		if (n == 40) {
			memcpy(&off, p + 32, 8);
			fprintf(f, "%llu, %llu, %u, %llu, %llu, %s\n", (unsigned long long)t, (unsigned long long)v, ddir,
				(unsigned long long)bs, (unsigned long long)off, pr);
		} else {
			fprintf(f, "%llu, %llu, %u, %llu, %s\n", (unsigned long long)t, (unsigned long long)v, ddir,
				(unsigned long long)bs, pr);
		}
		p += n;
		len -= n;
	}
}

int logz_write_text(const struct perflog *l, FILE *f)
{
	size_t cap = 4096 * 40;
	unsigned char *raw = malloc(cap);
	if (!raw)
		return -ENOMEM;
	int ret = 0;
	for (const struct logz_blob *b = l->zhead; b && !ret; b = b->next) {
		uLongf len = (uLongf)cap;
		if (uncompress(raw, &len, b->data, (uLong)b->len) != Z_OK)
			ret = -EIO;
		else
			print_samples(f, raw, len);
	}
	free(raw);
	return ret;
}

int logz_write_store(struct perflog *l, FILE *f, uint64_t epoch_ms, bool with_offset, bool log_prio)
{
	int ret = 0;
	while (l->head && !ret) /* what is not packed yet goes the same way */
		ret = logz_pack(l, epoch_ms, with_offset, log_prio);
	for (const struct logz_blob *b = l->zhead; b && !ret; b = b->next)
		if (fwrite(b->data, 1, b->len, f) != b->len)
			ret = -EIO;
	return ret;
}

void logz_free(struct perflog *l)
{
	for (struct logz_blob *b = l->zhead, *n; b; b = n) {
		n = b->next;
		free(b);
	}
	l->zhead = l->ztail = NULL;
}
