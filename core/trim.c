/* Trims: the call engines make (BLKDISCARD on block devices, punched holes elsewhere), and
 * the worker's part for trim_percentage: written blocks chosen for trimming, trimmed in
 * batches every trim_backlog blocks written (or when the writes are done), and with
 * trim_verify_zero checked to read back as zeros after the verify phase. */
#include "core/trim.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/worker_int.h"

#define MAX_REPORTED 10

int64_t trim_range(int fd, unsigned char *kind, uint64_t off, uint64_t len)
{
	if (*kind == TRIM_UNKNOWN) {
		struct stat st;
		if (fstat(fd, &st) < 0)
			return -errno;
		*kind = S_ISBLK(st.st_mode) ? TRIM_DISCARD : TRIM_PUNCH;
	}
	int r;
	do {
		if (*kind == TRIM_DISCARD) {
			uint64_t range[2] = { off, len };
			r = ioctl(fd, BLKDISCARD, range);
		} else {
			r = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len);
		}
	} while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : (int64_t)len;
}

/* ---- the worker's part ---- */

static uint64_t job_max_bs(const struct job_opts *o)
{
	uint64_t m = 0;
	for (int d = 0; d < DDIR_NR; d++) {
		uint64_t b = o->bs_max[d] > o->bs[d] ? o->bs_max[d] : o->bs[d];
		for (unsigned i = 0; i < o->nbssplit[d]; i++)
			if (o->bssplit[d][i].bs > b)
				b = o->bssplit[d][i].bs;
		if (job_has_dir(o, d) && b > m)
			m = b;
	}
	return m;
}

static uint64_t *bitmap(uint64_t blocks)
{
	return calloc(blocks / 64 + 1, sizeof(uint64_t));
}

int trim_setup(struct wstate *s)
{
	const struct job_opts *o = s->o;
	struct trimming *t = &s->trim;
	memset(t, 0, sizeof(*t));
	t->counted = !job_has_dir(o, DDIR_WRITE);
	t->pairs = job_has_dir(o, DDIR_TRIM) && job_has_dir(o, DDIR_WRITE);
	t->max_bs = job_max_bs(o);
	t->chosen_on = o->trim.percentage > 0 && job_has_dir(o, DDIR_WRITE) && !o->verify_only;
	rng_seed(&t->rng, s->w->seed ^ 0x7219);
	if (t->pairs) {
		t->pass_trimmed = calloc(s->nfiles, sizeof(*t->pass_trimmed));
		t->passes = calloc(s->nfiles, sizeof(*t->passes));
		if (!t->pass_trimmed || !t->passes)
			return worker_nomem(s, "trimwrite passes", s->nfiles * 2 * sizeof(uint64_t));
	}
	if (!t->chosen_on)
		return 0;
	t->pending = calloc(s->nfiles, sizeof(*t->pending));
	t->trimmed = calloc(s->nfiles, sizeof(*t->trimmed));
	if (!t->pending || !t->trimmed)
		return worker_nomem(s, "trim_percentage maps", s->nfiles * 2 * sizeof(void *));
	for (unsigned i = 0; i < s->nfiles; i++) {
		t->pending[i] = bitmap(s->files[i].blocks);
		t->trimmed[i] = bitmap(s->files[i].blocks);
		if (!t->pending[i] || !t->trimmed[i])
			return worker_nomem(s, "trim_percentage maps (two bits per block)",
					    (s->files[i].blocks / 64 + 1) * 16);
	}
	return 0;
}

void trim_teardown(struct wstate *s)
{
	struct trimming *t = &s->trim;
	for (unsigned i = 0; i < s->nfiles; i++) {
		if (t->pending)
			free(t->pending[i]);
		if (t->trimmed)
			free(t->trimmed[i]);
	}
	free(t->pending);
	free(t->trimmed);
	free(t->pass_trimmed);
	free(t->passes);
	memset(t, 0, sizeof(*t));
}

static inline bool bit(const uint64_t *map, uint64_t b)
{
	return (map[b / 64] >> (b % 64)) & 1;
}

bool trim_written(struct wstate *s, struct wfile *f, uint64_t off, uint64_t len)
{
	struct trimming *t = &s->trim;
	if (!t->chosen_on)
		return false;
	unsigned fi = (unsigned)(f - s->files);
	uint64_t g = s->off.granule, first = (off - f->cf->offset) / g, n = len / g;
	bool choose = rng_below(&t->rng, 100) < s->o->trim.percentage;
	for (uint64_t b = first; b < first + n && b < f->blocks; b++) {
		uint64_t m = 1ULL << (b % 64);
		t->trimmed[fi][b / 64] &= ~m; /* written again */
		if (choose && !(t->pending[fi][b / 64] & m)) {
			t->pending[fi][b / 64] |= m;
			t->npending++;
		}
	}
	uint64_t every = s->o->trim.backlog;
	if (!every || ++t->written % every)
		return false;
	t->batch_left = s->o->trim.backlog_batch ? s->o->trim.backlog_batch : every;
	return t->npending > 0;
}

bool trim_leftover(struct wstate *s)
{
	struct trimming *t = &s->trim;
	if (!t->chosen_on || !t->npending)
		return false;
	t->batch_left = t->npending;
	return true;
}

/* The next chosen block from (cur_file, cur_block) on, going round the files. */
static void next_chosen(struct wstate *s)
{
	struct trimming *t = &s->trim;
	for (;;) {
		struct wfile *f = &s->files[t->cur_file];
		const uint64_t *map = t->pending[t->cur_file];
		for (uint64_t b = t->cur_block; b < f->blocks;) {
			if (!map[b / 64] && b % 64 == 0) {
				b += 64;
				continue;
			}
			if (bit(map, b)) {
				t->cur_block = b;
				return;
			}
			b++;
		}
		t->cur_file = (t->cur_file + 1) % s->nfiles;
		t->cur_block = 0;
	}
}

bool trim_take_chosen(struct wstate *s)
{
	struct trimming *t = &s->trim;
	if (t->backlog_io)
		return true;
	if (!t->batch_left || !t->npending)
		return false;
	next_chosen(s);
	unsigned fi = t->cur_file;
	uint64_t b = t->cur_block, m = 1ULL << (b % 64);
	struct wfile *f = &s->files[fi];
	t->pending[fi][b / 64] &= ~m;
	t->npending--;
	t->batch_left--;
	t->trimmed[fi][b / 64] |= m;
	if (f->verify_map) /* not the written data any more: the verify phase checks zeros */
		f->verify_map[b / 64] &= ~m;
	t->backlog_io = true;
	t->backlog_file = fi;
	t->backlog_off = b * s->off.granule;
	return true;
}

/* Read back one trimmed block and check it is zeros: 0, 1 (not zeros) or -errno. */
static int check_zero(struct wstate *s, struct wfile *f, uint64_t off, uint64_t *bad)
{
	char *buf = s->units[0].buf;
	uint64_t len = s->off.granule, done = 0;
	while (done < len) {
		ssize_t r = pread(f->fd, buf + done, len - done, (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		done += (uint64_t)r;
	}
	for (uint64_t i = 0; i < len; i++)
		if (buf[i]) {
			*bad = off + i;
			return 1;
		}
	return 0;
}

int trim_verify_zeros(struct wstate *s)
{
	const struct trimming *t = &s->trim;
	if (!t->chosen_on || !s->o->trim.verify_zero)
		return 0;
	uint64_t failures = 0;
	for (unsigned i = 0; i < s->nfiles; i++) {
		struct wfile *f = &s->files[i];
		for (uint64_t b = 0; b < f->blocks && f->fd >= 0; b++) {
			if (!bit(t->trimmed[i], b))
				continue;
			uint64_t off = f->cf->offset + b * s->off.granule, at = 0;
			int r = check_zero(s, f, off, &at);
			if (r && ++failures <= MAX_REPORTED)
				fprintf(stderr,
					"iobench: job '%s': verify failed: file %s, offset %llu, length %llu: %s\n",
					s->o->name, f->cf->path, (unsigned long long)off,
					(unsigned long long)s->off.granule,
					r < 0 ? strerror(-r)
					      : "trimmed, but does not read back as zeros (trim_verify_zero)");
			if (failures && s->o->verify_fatal)
				return -EILSEQ;
		}
	}
	if (failures > MAX_REPORTED)
		fprintf(stderr, "iobench: job '%s': ... %llu trimmed blocks failed verification in all\n", s->o->name,
			(unsigned long long)failures);
	return failures ? -EILSEQ : 0;
}
