/* Trims, the worker's part (the engines' call is engine_trim, engines/engine.c): for
 * trim_percentage, written blocks chosen for trimming, trimmed in
 * batches by fio's trim_backlog rule (or when the writes are done). A chosen block that a
 * verify read takes first is read back as written and not trimmed, as fio; one trimmed
 * first is read back as zeros (verify_phase.c, told by the loop). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/worker/worker_int.h"

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

/* Writes of several lengths (in granules): each chosen write's length is kept. */
static bool write_sizes_vary(const struct job_opts *o, uint64_t granule)
{
	const enum ddir w = DDIR_WRITE;
	return o->nbssplit[w] || (o->bs_max[w] && o->bs_max[w] != o->bs_min[w]) || o->bs[w] != granule;
}

static int alloc_pending(struct wstate *s)
{
	struct trimming *t = &s->trim;
	if (t->sizes_vary)
		t->pending_len = calloc(s->nfiles, sizeof(*t->pending_len));
	else
		t->pending = calloc(s->nfiles, sizeof(*t->pending));
	if (!t->pending && !t->pending_len)
		return worker_nomem(s, "trim_percentage maps", s->nfiles * sizeof(void *));
	for (unsigned i = 0; i < s->nfiles; i++) {
		uint64_t blocks = s->files[i].blocks;
		void *m = t->sizes_vary ? (void *)(t->pending_len[i] = calloc(blocks + 1, sizeof(uint16_t)))
					: (void *)(t->pending[i] = calloc(blocks / 64 + 1, sizeof(uint64_t)));
		if (!m)
			return worker_nomem(s, "trim_percentage map (the chosen blocks)",
					    t->sizes_vary ? (blocks + 1) * 2 : (blocks / 64 + 1) * 8);
	}
	return 0;
}

int trim_setup(struct wstate *s)
{
	const struct job_opts *o = s->o;
	struct trimming *t = &s->trim;
	memset(t, 0, sizeof(*t));
	t->counted = !job_has_dir(o, DDIR_WRITE);
	t->pairs = job_has_dir(o, DDIR_TRIM) && job_has_dir(o, DDIR_WRITE);
	t->max_bs = job_max_bs(o);
	/* trim_percentage picks among the writes verify keeps to read back (fio: "verify blocks
	 * to discard"): without verify, or with do_verify=0, it picks none, as fio */
	t->chosen_on = o->trim.percentage > 0 && s->ver.phase_wanted && !o->verify_only;
	rng_seed(&t->rng, s->w->seed ^ 0x7219);
	if (t->pairs) {
		t->pass_trimmed = calloc(s->nfiles, sizeof(*t->pass_trimmed));
		t->passes = calloc(s->nfiles, sizeof(*t->passes));
		if (!t->pass_trimmed || !t->passes)
			return worker_nomem(s, "trimwrite passes", s->nfiles * 2 * sizeof(uint64_t));
	}
	if (!t->chosen_on)
		return 0;
	t->sizes_vary = write_sizes_vary(o, s->off.granule);
	t->max_blocks = (unsigned)(job_max_bs(o) / s->off.granule);
	return alloc_pending(s);
}

void trim_teardown(struct wstate *s)
{
	struct trimming *t = &s->trim;
	for (unsigned i = 0; i < s->nfiles; i++) {
		if (t->pending)
			free(t->pending[i]);
		if (t->pending_len)
			free(t->pending_len[i]);
	}
	free(t->pending);
	free(t->pending_len);
	free(t->pass_trimmed);
	free(t->passes);
	memset(t, 0, sizeof(*t));
}

/* The chosen write starting at granule b of file fi: its length in granules (0: none). */
static uint64_t pending_at(const struct trimming *t, unsigned fi, uint64_t b)
{
	if (t->sizes_vary)
		return t->pending_len[fi][b];
	return (t->pending[fi][b / 64] >> (b % 64)) & 1;
}

static void pending_set(struct trimming *t, unsigned fi, uint64_t b, uint64_t n)
{
	if (t->sizes_vary)
		t->pending_len[fi][b] = (uint16_t)n;
	else if (n)
		t->pending[fi][b / 64] |= 1ULL << (b % 64);
	else
		t->pending[fi][b / 64] &= ~(1ULL << (b % 64));
}

static void drop(struct trimming *t, unsigned fi, uint64_t b)
{
	if (pending_at(t, fi, b)) {
		pending_set(t, fi, b, 0);
		t->npending--;
	}
}

void trim_written(struct wstate *s, struct wfile *f, uint64_t off, uint64_t len)
{
	struct trimming *t = &s->trim;
	if (!t->chosen_on)
		return;
	t->held++;
	unsigned fi = (unsigned)(f - s->files);
	uint64_t g = s->off.granule, b = (off - wf_cf(s, f)->offset) / g, n = len / g;
	bool choose = rng_below(&t->rng, 100) < s->o->trim.percentage; /* a draw for each write, as fio */
	if (!n || b + n > f->blocks || n > UINT16_MAX)
		return;
	/* chosen writes it overlaps: what a trim of them would hit is this write's now */
	uint64_t lo = b;
	if (t->sizes_vary)
		lo = b + 1 > t->max_blocks ? b + 1 - t->max_blocks : 0;
	for (uint64_t i = lo; i < b + n; i++) {
		uint64_t m = pending_at(t, fi, i);
		if (m && i + m > b)
			drop(t, fi, i);
	}
	if (choose) {
		pending_set(t, fi, b, n);
		t->npending++;
	}
}

void trim_verified(struct wstate *s, unsigned file, uint64_t off)
{
	struct trimming *t = &s->trim;
	if (!t->chosen_on)
		return;
	if (t->held)
		t->held--;
	struct wfile *f = &s->files[file];
	uint64_t b = (off - wf_cf(s, f)->offset) / s->off.granule;
	if (b < f->blocks)
		drop(t, file, b);
}

/* The next chosen write from (cur_file, cur_block) on, going round the files. */
static bool next_chosen(struct wstate *s, unsigned *fi, uint64_t *blk)
{
	struct trimming *t = &s->trim;
	for (unsigned round = 0; round <= s->nfiles; round++) {
		struct wfile *f = &s->files[t->cur_file];
		for (uint64_t b = t->cur_block; b < f->blocks; b++) {
			if (!t->sizes_vary && !(b % 64) && !t->pending[t->cur_file][b / 64]) {
				b += 63; /* a word of nothing chosen */
				continue;
			}
			if (pending_at(t, t->cur_file, b)) {
				*fi = t->cur_file;
				*blk = t->cur_block = b;
				return true;
			}
		}
		t->cur_file = (t->cur_file + 1) % s->nfiles;
		t->cur_block = 0;
	}
	return false;
}

/* fio's trim_backlog rule, asked before each I/O: a batch starts when the writes not read
 * back are a multiple of trim_backlog and the last I/O done was not a read; it goes on for
 * trim_backlog_batch (or trim_backlog) more trims, as long as chosen blocks are left. */
static bool batch_due(struct trimming *t, const struct trim_opts *to, bool last_read)
{
	if (t->batch_left) {
		t->batch_left--;
		return true;
	}
	if (!to->backlog || t->held % to->backlog || last_read)
		return false;
	t->batch_left = to->backlog_batch ? to->backlog_batch : to->backlog;
	return true;
}

enum trim_step trim_next(struct wstate *s, bool spent, bool last_read, struct trim_entry *e)
{
	struct trimming *t = &s->trim;
	if (!t->chosen_on || !t->npending)
		return TSTEP_NONE;
	if (!t->armed && !spent && !batch_due(t, &s->o->trim, last_read))
		return TSTEP_NONE;
	t->armed = true;
	if (s->inflight) /* the chosen block's write must be done before it is trimmed */
		return TSTEP_DRAIN;
	t->armed = false;
	unsigned fi;
	uint64_t b;
	if (!next_chosen(s, &fi, &b))
		return TSTEP_NONE;
	uint64_t n = pending_at(t, fi, b), g = s->off.granule;
	drop(t, fi, b);
	if (!s->o->trim.verify_zero && t->held) /* not read back now: fio forgets it */
		t->held--;
	*e = (struct trim_entry){ fi, s->cfs[fi].offset + b * g, n * g };
	return TSTEP_TRIM;
}
