/* fio's verify state files (core/worker/verify_state.h). */
#include "core/worker/verify_state.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lib/checksum.h"
#include "core/lib/outfile.h"

#define HDR_BYTES 24u
#define JOB_BYTES 152u /* 8 + 4 + 4 + 8 + 8 + 56 + 64 */

void vstate_path(char *buf, size_t n, const char *job, unsigned index)
{
	snprintf(buf, n, "local-%s-%u-verify.state", job, index);
}

static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

int vstate_write(const char *path, const struct vstate *st, unsigned flags, char *why, size_t n)
{
	size_t body = JOB_BYTES + st->ncomps * 16, total = HDR_BYTES + body;
	unsigned char *b = calloc(1, total);
	if (!b)
		return snprintf(why, n, "%s", strerror(ENOMEM)), -ENOMEM;
	unsigned char *j = b + HDR_BYTES;
	put64(j, st->ncomps);
	memcpy(j + 8, &st->depth, 4);
	memcpy(j + 12, &st->nofiles, 4);
	put64(j + 16, st->numberio);
	put64(j + 24, st->index);
	memcpy(j + 88, st->name, strnlen(st->name, 63));
	for (uint64_t i = 0; i < st->ncomps; i++) {
		put64(j + JOB_BYTES + 16 * i, st->comps[i].file);
		put64(j + JOB_BYTES + 16 * i + 8, st->comps[i].offset);
	}
	put64(b, VSTATE_VERSION);
	put64(b + 8, body);
	put64(b + 16, checksum_crc32c(j, body));
	why[0] = '\0';
	FILE *f = outfile_fopen(path, O_TRUNC, flags, why, n);
	int err = 0;
	if (!f || fwrite(b, 1, total, f) != total)
		err = -errno;
	if (f && fclose(f) && !err)
		err = -errno;
	free(b);
	if (err && (f || !why[0]))
		snprintf(why, n, "%s", strerror(-err));
	return err;
}

static int bad(char *why, size_t n, const char *what)
{
	snprintf(why, n, "%s", what);
	return -EINVAL;
}

static int parse(const unsigned char *b, size_t len, struct vstate *st, char *why, size_t n)
{
	if (len < HDR_BYTES + JOB_BYTES)
		return bad(why, n, "too short for a verify state file");
	if (get64(b) != VSTATE_VERSION)
		return bad(why, n, "not a verify state file of version 3 (fio 3.x)");
	uint64_t body = get64(b + 8);
	if (body != len - HDR_BYTES)
		return bad(why, n, "its size field does not match the file's size");
	const unsigned char *j = b + HDR_BYTES;
	if ((uint32_t)get64(b + 16) != checksum_crc32c(j, body))
		return bad(why, n, "its checksum does not match (a damaged file)");
	st->ncomps = get64(j);
	if (st->ncomps > VSTATE_MAX_COMPS || JOB_BYTES + st->ncomps * 16 != body)
		return bad(why, n, "it lists more completions than it holds");
	memcpy(&st->depth, j + 8, 4);
	memcpy(&st->nofiles, j + 12, 4);
	st->numberio = get64(j + 16);
	st->index = get64(j + 24);
	memcpy(st->name, j + 88, 64);
	st->name[64] = '\0';
	st->comps = calloc(st->ncomps ? st->ncomps : 1, sizeof(*st->comps));
	if (!st->comps)
		return bad(why, n, strerror(ENOMEM));
	for (uint64_t i = 0; i < st->ncomps; i++) {
		st->comps[i].file = get64(j + JOB_BYTES + 16 * i);
		st->comps[i].offset = get64(j + JOB_BYTES + 16 * i + 8);
	}
	return 0;
}

int vstate_read(const char *path, struct vstate *st, char *why, size_t n)
{
	memset(st, 0, sizeof(*st));
	FILE *f = fopen(path, "rb");
	if (!f)
		return snprintf(why, n, "%s", strerror(errno)), -errno;
	size_t cap = HDR_BYTES + JOB_BYTES + (size_t)VSTATE_MAX_COMPS * 16 + 1;
	unsigned char *b = malloc(cap);
	if (!b) {
		fclose(f);
		return bad(why, n, strerror(ENOMEM));
	}
	size_t len = fread(b, 1, cap, f);
	int err = ferror(f) ? -EIO : 0;
	fclose(f);
	if (err)
		snprintf(why, n, "%s", strerror(EIO));
	else if (len == cap)
		err = bad(why, n, "too large for a verify state file");
	else
		err = parse(b, len, st, why, n);
	free(b);
	return err;
}
