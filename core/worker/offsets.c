/* Where the next I/O goes: which file, which direction, how long, which offset.
 * Random offsets follow the job's distribution; the uniform one uses a per-pass random
 * map (every block once), as fio does unless norandommap is set. */
#include <math.h>
#include <string.h>

#include "core/worker/worker_int.h"

/* A file's random map (rw=rand* only: the array is allocated for those jobs alone). */
static struct perm *perm_of(struct wstate *s, struct wfile *f)
{
	return &s->perms[f - s->files];
}

/* A new pass over the files (the first file's): fio closes and reopens them, and the sync
 * fsync=N owes may come again (worker_io.c: io_sync_if_due). */
static void pass_restart(struct wstate *s, const struct wfile *f)
{
	if (!s->o->time_based && f == s->files)
		s->syncs.last_sync = false;
}

static void file_new_pass(struct wstate *s, struct wfile *f)
{
	f->pass_bytes = 0;
	pass_restart(s, f);
	if (s->o->rw & RW_RANDOM)
		perm_init(perm_of(s, f), f->blocks ? f->blocks : 1, &s->rng);
}

/* fio's pareto: n * u^(log h / log(1 - h)); h = 0.5 is uniform, smaller h hotter. */
static uint64_t pareto_rank(struct rng *r, uint64_t n, double h)
{
	return (uint64_t)((double)(n - 1) * pow(rng_unit(r), log(h) / log(1.0 - h)));
}

/* fio's normal: the mean of 12 uniform draws over [0, n), plus a uniform spread of dev% of n
 * around it, wrapped into [0, n). */
static uint64_t gauss_rank(struct rng *r, uint64_t n, double dev)
{
	double sum = 0.0;
	for (int i = 0; i < 12; i++)
		sum += rng_unit(r);
	double x = sum / 12.0 + dev / 100.0 * (rng_unit(r) - 0.5);
	x -= floor(x);
	uint64_t v = (uint64_t)(x * (double)n);
	return v < n ? v : n - 1;
}

/* file_service_type=zipf|pareto|normal: as fio, over 1024 ranges per file, unscattered
 * (the files next to the hottest are the next hottest); the hot end is at the center, or
 * (zipf, pareto) at a place drawn once. */
#define FS_SHIFT 10
#define ZETA_TERMS 10000000 /* beyond this, the sum's tail is an integral */

/* Zipf ranks by Gray et al.'s approximation ("Quickly generating billion-record synthetic
 * databases", 1994), which fio's file service draws from: ranks 1 and 2 exactly, the rest
 * from a closed form. It is what makes fio's file shares what they are. */
static void gray_init(struct wstate *s, uint64_t n, double theta)
{
	double zetan = 0.0;
	uint64_t terms = n < ZETA_TERMS ? n : ZETA_TERMS;
	for (uint64_t i = 1; i <= terms; i++)
		zetan += pow((double)i, -theta);
	if (n > terms) /* the integral of x^-theta from terms + 0.5 to n + 0.5 */
		zetan += (pow((double)n + 0.5, 1.0 - theta) - pow((double)terms + 0.5, 1.0 - theta)) / (1.0 - theta);
	s->off.fs_zipf.n = n;
	s->off.fs_zipf.theta = theta;
	s->off.fs_zipf.zetan = zetan;
	s->off.fs_zipf.alpha = 1.0 / (1.0 - theta);
	s->off.fs_zipf.eta = (1.0 - pow(2.0 / (double)n, 1.0 - theta)) / (1.0 - (1.0 + pow(0.5, theta)) / zetan);
}

/* A rank in [0, n). */
static uint64_t gray_next(struct wstate *s)
{
	double u = rng_unit(&s->rng), z = u * s->off.fs_zipf.zetan, theta = s->off.fs_zipf.theta;
	if (z < 1.0)
		return 0;
	if (z < 1.0 + pow(0.5, theta))
		return 1;
	double eta = s->off.fs_zipf.eta;
	double v = (double)s->off.fs_zipf.n * pow(eta * u - eta + 1.0, s->off.fs_zipf.alpha);
	return v < (double)s->off.fs_zipf.n ? (uint64_t)v : s->off.fs_zipf.n - 1;
}

static void fservice_init(struct wstate *s)
{
	const struct job_opts *o = s->o;
	uint64_t n = (uint64_t)s->nfiles << FS_SHIFT;
	double c = o->io.fs_center;
	if (o->file_service < FS_ZIPF)
		return;
	if (o->file_service == FS_ZIPF)
		gray_init(s, n, o->io.fs_param);
	if (o->file_service == FS_GAUSS)
		s->off.fs_off = c >= 0 ? (uint64_t)((c + 0.5) * (double)n) % n : 0; /* the mean is n/2 */
	else
		s->off.fs_off = c >= 0 ? (uint64_t)(c * (double)n) % n : rng_below(&s->rng, n);
}

static unsigned fservice_pick(struct wstate *s)
{
	const struct job_opts *o = s->o;
	uint64_t n = (uint64_t)s->nfiles << FS_SHIFT, v;
	if (o->file_service == FS_ZIPF)
		v = gray_next(s);
	else if (o->file_service == FS_PARETO)
		v = pareto_rank(&s->rng, n, o->io.fs_param);
	else
		v = gauss_rank(&s->rng, n, o->io.fs_param);
	return (unsigned)(((v + s->off.fs_off) % n) >> FS_SHIFT);
}

/* norandommap: offsets drawn independently, so blocks repeat and others are missed. Not
 * with random_generator=lfsr: fio's LFSR is a full-period sequence, which visits every
 * block once per pass with or without the map, and so does the permutation here. */
static bool may_repeat(const struct job_opts *o)
{
	return o->norandommap && o->random_generator != GEN_LFSR;
}

void offsets_init(struct wstate *s)
{
	const struct job_opts *o = s->o;
	s->off.granule = job_min_bs(o);
	for (unsigned i = 0; i < s->nfiles; i++) {
		struct wfile *f = &s->files[i];
		f->blocks = s->whole.on ? (wf_cf(s, f)->region + s->off.granule - 1) / s->off.granule : wf_cf(s, f)->region / s->off.granule;
		file_new_pass(s, f);
		/* Backwards sequential I/O (rw=read:-8k) starts at the region's end. */
		if (o->rw_mod < 0)
			for (int d = 0; d < DDIR_NR; d++)
				f->pos[d] = f->blocks * s->off.granule - o->bs[d];
	}
	s->off.cur_file = 0;
	s->off.file_ios_left = o->file_service_nr ? o->file_service_nr : 1;
	for (int d = 0; d < DDIR_NR; d++)
		if (o->dist[d].type == DIST_ZIPF)
			zipf_init(&s->off.zipf[d], s->files[0].blocks, o->dist[d].param);
	fservice_init(s);
	bool plain = (o->rw & RW_RANDOM) && o->rw_mod <= 1 && !o->io.ba_given;
	for (int d = 0; d < DDIR_NR; d++)
		plain = plain && o->dist[d].type == DIST_RANDOM && o->pct_random[d] >= 100;
	s->off.uniform = !plain ? 0 : may_repeat(o) ? 1 : 2;
}

static bool pass_over(const struct wstate *s, const struct wfile *f)
{
	return f->pass_bytes >= (s->whole.on ? wf_cf(s, f)->region : f->blocks * s->off.granule);
}

struct wfile *offsets_next_file(struct wstate *s)
{
	const struct job_opts *o = s->o;
	if (s->trim.pairs && s->trim.owed) /* trimwrite: the writes go where the trim went */
		return &s->files[s->trim.file];
	if (s->nfiles == 1)
		return &s->files[0];
	struct wfile *f = &s->files[s->off.cur_file];
	if (s->whole.on) { /* each file to its end, then the next, in order */
		if (pass_over(s, f)) {
			s->off.cur_file = (s->off.cur_file + 1) % s->nfiles;
			f = &s->files[s->off.cur_file];
			f->pass_bytes = 0;
		}
		return f;
	}
	bool move = o->file_service == FS_SEQUENTIAL ? pass_over(s, f) : s->off.file_ios_left == 0;
	if (move) {
		if (o->file_service == FS_RANDOM)
			s->off.cur_file = (unsigned)rng_below(&s->rng, s->nfiles);
		else if (o->file_service >= FS_ZIPF)
			s->off.cur_file = fservice_pick(s);
		else
			s->off.cur_file = (s->off.cur_file + 1) % s->nfiles;
		s->off.file_ios_left = o->file_service_nr ? o->file_service_nr : 1;
		f = &s->files[s->off.cur_file];
	}
	if (o->file_service != FS_SEQUENTIAL)
		s->off.file_ios_left--;
	return f;
}

enum ddir offsets_next_ddir(struct wstate *s)
{
	const struct job_opts *o = s->o;
	bool r = job_has_dir(o, DDIR_READ), w = job_has_dir(o, DDIR_WRITE);
	if (job_has_dir(o, DDIR_TRIM)) /* trim, or trimwrite's trim and the writes it owes */
		return s->trim.pairs && s->trim.owed ? DDIR_WRITE : DDIR_TRIM;
	if (r && w)
		return rng_below(&s->rng, 100) < o->rwmixread ? DDIR_READ : DDIR_WRITE;
	return w ? DDIR_WRITE : DDIR_READ;
}

/* bs_is_seq_rand: will the next I/O of direction d take a random offset? A percentage_random
 * draw is made now and kept for offsets_next; rw=mode:N's follow-up I/Os are sequential. */
static bool next_is_random(struct wstate *s, enum ddir d)
{
	const struct job_opts *o = s->o;
	if (!(o->rw & RW_RANDOM) || s->off.mod_left)
		return false;
	if (o->pct_random[d] >= 100)
		return true;
	s->off.planned = rng_below(&s->rng, 100) < o->pct_random[d] ? 2 : 1;
	return s->off.planned == 2;
}

uint64_t offsets_next_len(struct wstate *s, enum ddir d)
{
	const struct job_opts *o = s->o;
	if (s->trim.pairs && d == DDIR_WRITE && (o->rw & RW_RANDOM))
		return s->trim.trim_len; /* randtrimwrite: the write covers what the trim did */
	if (o->compat.bs_is_seq_rand) /* as fio: the read sizes for sequential I/Os, the write sizes for random */
		d = next_is_random(s, d) ? DDIR_WRITE : DDIR_READ;
	if (o->nbssplit[d]) {
		unsigned pick = (unsigned)rng_below(&s->rng, 100), cum = 0;
		for (unsigned i = 0; i < o->nbssplit[d]; i++) {
			cum += o->bssplit[d][i].pct;
			if (pick < cum)
				return o->bssplit[d][i].bs;
		}
		return o->bssplit[d][o->nbssplit[d] - 1].bs;
	}
	if (o->bs_max[d] > o->bs_min[d] && o->io.bs_unaligned) /* any size in the range, as fio */
		return o->bs_min[d] + rng_below(&s->rng, o->bs_max[d] - o->bs_min[d] + 1);
	if (o->bs_max[d] > o->bs_min[d]) {
		uint64_t steps = (o->bs_max[d] - o->bs_min[d]) / o->bs_min[d];
		return o->bs_min[d] * (1 + rng_below(&s->rng, steps + 1));
	}
	return o->bs[d];
}

/* A block index from a skewed distribution, as fio draws it: rank 0 is the hottest block
 * (zipf, pareto); normal is the mean of 12 uniform draws, widened by a uniform spread of
 * param% of the region. The ranks are scattered over the region (fio hashes them); a center
 * puts the hottest (normal: the middle rank) there. */
static uint64_t skewed_block(struct wstate *s, struct wfile *f, enum ddir d)
{
	const struct distribution *dist = &s->o->dist[d];
	uint64_t n = f->blocks ? f->blocks : 1, rank, hot = 0;
	switch (dist->type) {
	case DIST_ZIPF:
		rank = (zipf_next(&s->off.zipf[d], &s->rng) - 1) % n;
		break;
	case DIST_PARETO:
		rank = pareto_rank(&s->rng, n, dist->param);
		break;
	case DIST_NORMAL:
		rank = gauss_rank(&s->rng, n, dist->param);
		hot = n / 2;
		break;
	default:
		return rng_below(&s->rng, n);
	}
	if (rank >= n)
		rank = n - 1;
	uint64_t b = perm_map(perm_of(s, f), rank);
	if (dist->center >= 0) {
		uint64_t at = (uint64_t)(dist->center * (double)n) % n;
		b = (b + n - perm_map(perm_of(s, f), hot) + at) % n;
	}
	return b;
}

static uint64_t zoned_block(struct wstate *s, struct wfile *f, enum ddir d)
{
	const struct distribution *dist = &s->o->dist[d];
	uint64_t n = f->blocks ? f->blocks : 1, start = 0;
	unsigned pick = (unsigned)rng_below(&s->rng, 100), cum = 0;
	for (unsigned i = 0; i < dist->nzones; i++) {
		const struct dist_zone *z = &dist->zones[i];
		uint64_t len = dist->type == DIST_ZONED ? n * z->size / 100 : z->size / s->off.granule;
		if (start + len > n || i + 1 == dist->nzones)
			len = n > start ? n - start : 0;
		cum += z->access_pct;
		if (pick < cum && len)
			return start + rng_below(&s->rng, len);
		start += len;
	}
	return rng_below(&s->rng, n);
}

static uint64_t random_block(struct wstate *s, struct wfile *f, enum ddir d, uint64_t len)
{
	const struct job_opts *o = s->o;
	const struct distribution *dist = &o->dist[d];
	uint64_t usable = f->blocks * s->off.granule;
	for (;;) {
		uint64_t b;
		if (dist->type == DIST_ZONED || dist->type == DIST_ZONED_ABS)
			b = zoned_block(s, f, d);
		else if (dist->type != DIST_RANDOM)
			b = skewed_block(s, f, d);
		else if (may_repeat(o))
			b = rng_below(&s->rng, f->blocks ? f->blocks : 1);
		else if ((b = perm_next(perm_of(s, f))) == UINT64_MAX) {
			file_new_pass(s, f);
			continue;
		}
		if (b * s->off.granule + len <= usable)
			return b * s->off.granule;
		if (dist->type != DIST_RANDOM || may_repeat(o))
			return usable - len; /* skewed picks near the end: clamp */
	}
}

/* blockalign: random offsets are multiples of ba (the random map is off, so they repeat, as
 * fio's); a skewed distribution's pick is rounded down to one. */
static uint64_t aligned_block(struct wstate *s, struct wfile *f, enum ddir d, uint64_t len)
{
	uint64_t ba = s->o->io.ba[d], usable = f->blocks * s->off.granule;
	uint64_t slots = usable / ba, off;
	if (s->o->dist[d].type != DIST_RANDOM)
		off = random_block(s, f, d, len) / ba * ba;
	else
		off = rng_below(&s->rng, slots ? slots : 1) * ba;
	if (off + len > usable) /* the last slots may not hold a whole block */
		off = usable >= len ? (usable - len) / ba * ba : 0;
	return off;
}

static uint64_t sequential_next(struct wstate *s, struct wfile *f, enum ddir d, uint64_t len)
{
	uint64_t usable = f->blocks * s->off.granule;
	if (f->pos[d] + len > usable || (int64_t)f->pos[d] < 0) {
		f->pos[d] = s->o->rw_mod < 0 ? usable - len : 0;
		pass_restart(s, f);
	}
	uint64_t off = f->pos[d];
	f->pos[d] = (uint64_t)((int64_t)(off + len) + s->o->rw_mod);
	if (s->o->rw_mod < 0 && (int64_t)off + (int64_t)len + s->o->rw_mod < 0)
		f->pos[d] = usable - len;
	return off;
}

/* trimwrite, randtrimwrite: the pair's state after an I/O at off (in the region). */
static void pair_issued(struct wstate *s, struct wfile *f, enum ddir d, uint64_t off, uint64_t len)
{
	struct trimming *t = &s->trim;
	t->tw_bytes += len;
	if (d == DDIR_TRIM) {
		t->owed = true;
		t->file = (unsigned)(f - s->files);
		t->trim_off = off;
		t->trim_len = len;
		t->pass_trimmed[t->file] += len;
		f->pass_bytes += len;
	} else if ((s->o->rw & RW_RANDOM) || off == t->trim_off) {
		t->owed = false; /* as fio: owed until a write starts where the trim did */
	}
}

uint64_t offsets_next(struct wstate *s, struct wfile *f, enum ddir d, uint64_t len)
{
	const struct job_opts *o = s->o;
	uint64_t off;
	if (s->trim.pairs) {
		off = d == DDIR_WRITE && (o->rw & RW_RANDOM) ? s->trim.trim_off
			: !(o->rw & RW_RANDOM)		     ? sequential_next(s, f, d, len)
							     : random_block(s, f, d, len);
		pair_issued(s, f, d, off, len);
		s->off.last_off = off;
		s->off.last_end[d] = off + len;
		return wf_cf(s, f)->offset + off;
	}
	if (s->off.uniform == 1) /* random_block's draw for norandommap, without its branches */
		return offsets_uniform(s, f, len);
	f->pass_bytes += len;
	if (s->off.uniform) /* nothing else to keep: no sequential part, no repeats */
		return wf_cf(s, f)->offset + random_block(s, f, d, len);
	if (!(o->rw & RW_RANDOM)) {
		off = sequential_next(s, f, d, len);
	} else if (s->off.mod_left) {
		/* rw=randread:N: N I/Os per random offset, sequential or identical. */
		s->off.mod_left--;
		off = o->rw_sequencer == SEQ_IDENTICAL ? s->off.last_off : s->off.last_end[d];
		if (off + len > f->blocks * s->off.granule)
			off = random_block(s, f, d, len);
	} else if (o->pct_random[d] < 100 &&
		   (s->off.planned ? s->off.planned == 1 : rng_below(&s->rng, 100) >= o->pct_random[d])) {
		off = s->off.last_end[d] + len <= f->blocks * s->off.granule ? s->off.last_end[d] : 0;
	} else {
		off = o->io.ba_given ? aligned_block(s, f, d, len) : random_block(s, f, d, len);
		if (o->rw_mod > 1)
			s->off.mod_left = (uint64_t)o->rw_mod - 1;
	}
	s->off.planned = 0;
	s->off.last_off = off;
	s->off.last_end[d] = off + len;
	return wf_cf(s, f)->offset + off;
}

/* fio's rule at the end of a trimwrite pass (keep_running): go on while loops are left, or
 * while what is left of io_size holds the largest block. */
static bool pass_continue(struct wstate *s, unsigned fi)
{
	const struct job_opts *o = s->o;
	if (o->time_based || ++s->trim.passes[fi] < o->loops)
		return true;
	uint64_t once = o->loops > 1 ? s->io_limit / o->loops : s->io_limit;
	return once > s->trim.tw_bytes && once - s->trim.tw_bytes >= s->trim.max_bs;
}

enum trim_pass offsets_pass_check(struct wstate *s, struct wfile *f, int ddir, uint64_t len)
{
	struct trimming *t = &s->trim;
	const struct job_opts *o = s->o;
	unsigned fi = (unsigned)(f - s->files);
	uint64_t usable = f->blocks * s->off.granule;
	bool crosses;
	if (o->rw & RW_RANDOM) /* the writes mirror the trims: a pass is the trims' */
		crosses = ddir == DDIR_TRIM && t->pass_trimmed[fi] + len > usable;
	else
		crosses = f->pos[ddir] + len > usable || (int64_t)f->pos[ddir] < 0;
	if (!crosses)
		return PASS_GO;
	if (!pass_continue(s, fi))
		return PASS_END;
	for (int d = DDIR_WRITE; d <= DDIR_TRIM; d++)
		f->pos[d] = o->rw_mod < 0 ? usable - o->bs[d] : 0;
	t->pass_trimmed[fi] = 0;
	file_new_pass(s, f);
	t->owed = false;
	return ddir == DDIR_WRITE ? PASS_AGAIN : PASS_GO; /* a pass starts with a trim */
}
