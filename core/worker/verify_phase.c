/* The worker's verify: stamping writes, remembering where they went (and which of them were
 * trimmed since: trim_verify_zero), choosing what to read back next, and checking what comes
 * back. The reads themselves are the loop's (worker.c): it asks verify_next() before each
 * I/O, so verify reads go through the engine and count as reads, as fio's do. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/worker/verify.h"
#include "core/worker/verify_state.h"
#include "core/worker/worker_int.h"
#include "core/lib/outfile.h"
#include "core/lib/say.h"

#define MAX_REPORTED 10

static bool write_sizes_vary(const struct job_opts *o, uint64_t granule)
{
	const enum ddir w = DDIR_WRITE;
	return o->nbssplit[w] || (o->bs_max[w] && o->bs_max[w] != o->bs_min[w]) || o->bs[w] != granule;
}

static uint64_t longest_write(const struct job_opts *o)
{
	uint64_t m = o->bs_max[DDIR_WRITE] > o->bs[DDIR_WRITE] ? o->bs_max[DDIR_WRITE] : o->bs[DDIR_WRITE];
	for (unsigned i = 0; i < o->nbssplit[DDIR_WRITE]; i++)
		if (o->bssplit[DDIR_WRITE][i].bs > m)
			m = o->bssplit[DDIR_WRITE][i].bs;
	return m;
}

static uint64_t shortest_write(const struct job_opts *o)
{
	uint64_t m = o->bs_min[DDIR_WRITE] ? o->bs_min[DDIR_WRITE] : o->bs[DDIR_WRITE];
	for (unsigned i = 0; i < o->nbssplit[DDIR_WRITE]; i++)
		if (o->bssplit[DDIR_WRITE][i].bs < m)
			m = o->bssplit[DDIR_WRITE][i].bs;
	return m;
}

/* verify=pattern needs a pattern; a header and the offset must fit in an interval. */
static int check_options(struct wstate *s)
{
	const struct job_opts *o = s->o;
	uint64_t iv = s->ver.interval ? s->ver.interval : shortest_write(o);
	size_t hs = verify_hdr_size(o->verify);
	if (o->verify == VERIFY_PATTERN && !o->verify_pattern_len) {
		job_say(o->name, "verify=pattern needs verify_pattern");
		return -EINVAL;
	}
	if (hs && o->verify_offset && o->verify_offset < hs) { /* fio then fails its own blocks */
		job_say(o->name, "verify_offset=%llu overlaps the %zu-byte %s header it moves: use at least %zu",
			(unsigned long long)o->verify_offset, hs, verify_type_name(o->verify), hs);
		return -EINVAL;
	}
	if (hs && o->verify_offset + hs > iv) {
		job_say(o->name,
			"verify_offset=%llu: the %zu-byte %s header does not fit in a %llu-byte interval there",
			(unsigned long long)o->verify_offset, hs, verify_type_name(o->verify), (unsigned long long)iv);
		return -EINVAL;
	}
	return 0;
}

/* Trims in a job that reads back its writes, with trim_verify_zero: a trimmed write is read
 * back as zeros (else it is forgotten). */
static bool zeros_kept(const struct wstate *s)
{
	const struct job_opts *o = s->o;
	return s->ver.phase_wanted && o->trim.verify_zero && (o->trim.percentage || job_has_dir(o, DDIR_TRIM));
}

/* f's maps (kept beside the files, not in them: a job without verify has no such bytes). */
static struct vmaps *vm(const struct wstate *s, const struct wfile *f)
{
	return &s->ver.maps[f - s->files];
}

static int alloc_maps(struct wstate *s)
{
	struct verifying *v = &s->ver;
	if (!(v->maps = calloc(s->nfiles ? s->nfiles : 1, sizeof(*v->maps))))
		return worker_nomem(s, "verify maps", (uint64_t)s->nfiles * sizeof(*v->maps));
	for (unsigned i = 0; i < s->nfiles; i++) {
		struct wfile *f = &s->files[i];
		if (v->sizes_vary)
			vm(s, f)->len = calloc(f->blocks + 1, sizeof(uint16_t));
		else
			vm(s, f)->map = calloc(f->blocks / 64 + 1, sizeof(uint64_t));
		if (!vm(s, f)->map && !vm(s, f)->len)
			return worker_nomem(s, "verify map (what was written)",
					    v->sizes_vary ? f->blocks * 2 : (f->blocks / 64 + 1) * 8);
		if (zeros_kept(s) && !(vm(s, f)->zero = calloc(f->blocks / 64 + 1, sizeof(uint64_t))))
			return worker_nomem(s, "trim_verify_zero map (what was trimmed)", (f->blocks / 64 + 1) * 8);
	}
	return 0;
}

static int load_state(struct wstate *s);

static int alloc_buffers(struct wstate *s)
{
	struct verifying *v = &s->ver;
	const struct job_opts *o = s->o;
	v->unit_check = calloc(s->depth, 1);
	v->comps = calloc((size_t)s->depth * s->nfiles, sizeof(*v->comps));
	v->comps_n = calloc(s->nfiles, sizeof(*v->comps_n));
	if (!v->unit_check || !v->comps || !v->comps_n)
		return worker_nomem(s, "verify unit flags and last writes", s->depth * (1 + s->nfiles * sizeof(*v->comps)));
	if (v->phase_wanted && o->verify_backlog && !o->verify_only) {
		v->ring = calloc(o->verify_backlog, sizeof(*v->ring));
		if (!v->ring)
			return worker_nomem(s, "verify_backlog entries", o->verify_backlog * sizeof(*v->ring));
		v->batch = o->vopt.backlog_batch ? o->vopt.backlog_batch : o->verify_backlog;
	}
	if (o->vopt.dump) {
		v->dump_rcv = malloc(s->buf_stride);
		v->dump_exp = malloc(s->buf_stride);
		if (!v->dump_rcv || !v->dump_exp)
			return worker_nomem(s, "verify_dump buffers", 2 * s->buf_stride);
	}
	return 0;
}

int verify_setup(struct wstate *s)
{
	const struct job_opts *o = s->o;
	struct verifying *v = &s->ver;
	if (o->verify == VERIFY_NONE)
		return 0;
	v->on = true;
	v->phase_wanted = o->verify_only || (o->do_verify && job_has_dir(o, DDIR_WRITE));
	v->checks_reads = !job_has_dir(o, DDIR_WRITE); /* verify_only too: its reads are checked */
	v->sizes_vary = write_sizes_vary(o, s->off.granule);
	v->max_blocks = (unsigned)(longest_write(o) / s->off.granule);
	/* As fio: with writes of several sizes a header covers the smallest unless told. */
	v->interval = o->verify_interval ? o->verify_interval : v->sizes_vary ? shortest_write(o) : 0;
	v->seed = s->w->seed ^ 0x5eedc0deULL;
	if (v->phase_wanted && o->loops > 1 && !o->time_based) {
		v->pass_bytes = s->io_limit / o->loops;
		v->pass_end = v->pass_bytes;
	}
	int ret = check_options(s);
	if (!ret)
		ret = alloc_maps(s);
	if (!ret)
		ret = alloc_buffers(s);
	if (!ret && o->verify_only && o->vopt.state_load)
		ret = load_state(s);
	return ret;
}

void verify_teardown(struct wstate *s)
{
	struct verifying *v = &s->ver;
	for (unsigned i = 0; v->maps && i < s->nfiles; i++) {
		free(v->maps[i].map);
		free(v->maps[i].len);
		free(v->maps[i].zero);
	}
	free(v->maps);
	free(v->unit_check);
	free(v->ring);
	free(v->comps);
	free(v->comps_n);
	free(v->load_comps);
	free(v->dump_rcv);
	free(v->dump_exp);
}

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void verify_stamp(struct wstate *s, struct io_unit *u)
{
	const struct job_opts *o = s->o;
	struct verify_stamp st = {
		.rand_seed = o->verify_pattern_len ? 0 : mix64(s->ver.seed + s->ver.nwrites),
		.time_ns = s->now,
		.thread = (uint16_t)s->w->log_index,
		.numberio = (uint16_t)s->ver.nwrites,
	};
	verify_fill(o, u->buf, u->len, u->offset, verify_interval_for(s->ver.interval, u->len), &st);
}

/* ---- what was written: a bit per granule, or (sizes vary) each write's length ---- */

static bool is_marked(const struct wstate *s, const struct wfile *f, uint64_t b, uint64_t n)
{
	if (s->ver.sizes_vary)
		return vm(s, f)->len[b] == n;
	return (vm(s, f)->map[b / 64] >> (b % 64)) & 1;
}

/* The write starting at b: its length in granules (0: none). */
static uint64_t marked_len(const struct wstate *s, const struct wfile *f, uint64_t b)
{
	return s->ver.sizes_vary ? vm(s, f)->len[b] : (vm(s, f)->map[b / 64] >> (b % 64)) & 1;
}

/* Was the write starting at b trimmed since (trim_verify_zero)? */
static bool zeroed(const struct wstate *s, const struct wfile *f, uint64_t b)
{
	return vm(s, f)->zero && (vm(s, f)->zero[b / 64] >> (b % 64)) & 1;
}

static void set_zeroed(const struct wstate *s, struct wfile *f, uint64_t b, bool on)
{
	if (on)
		vm(s, f)->zero[b / 64] |= 1ULL << (b % 64);
	else if (vm(s, f)->zero)
		vm(s, f)->zero[b / 64] &= ~(1ULL << (b % 64));
}

static void unmark(const struct wstate *s, struct wfile *f, uint64_t b)
{
	if (s->ver.sizes_vary)
		vm(s, f)->len[b] = 0;
	else
		vm(s, f)->map[b / 64] &= ~(1ULL << (b % 64));
	set_zeroed(s, f, b, false);
}

/* A write of n granules from b: an older write it overlaps is forgotten, as fio does. */
static void mark(const struct wstate *s, struct wfile *f, uint64_t b, uint64_t n)
{
	set_zeroed(s, f, b, false); /* data again */
	if (!s->ver.sizes_vary) {
		vm(s, f)->map[b / 64] |= 1ULL << (b % 64);
		return;
	}
	uint64_t lo = b + 1 > s->ver.max_blocks ? b + 1 - s->ver.max_blocks : 0;
	for (uint64_t i = lo; i < b + n && i < f->blocks; i++)
		if (vm(s, f)->len[i] && i + vm(s, f)->len[i] > b)
			unmark(s, f, i);
	vm(s, f)->len[b] = (uint16_t)n;
}

/* verify_state_load: was write number k done, by the state? */
static bool state_says_done(const struct verifying *v, uint64_t k, unsigned file, uint64_t off)
{
	if (!v->loaded)
		return true;
	if (k >= v->load_numberio)
		return false;
	if (k + v->load_depth < v->load_numberio)
		return true;
	for (uint64_t i = 0; i < v->load_ncomps; i++)
		if (v->load_comps[i].file == file && v->load_comps[i].off == off)
			return true;
	return false;
}

void verify_written(struct wstate *s, struct wfile *f, uint64_t off, uint64_t len)
{
	struct verifying *v = &s->ver;
	uint64_t k = v->nwrites++;
	uint64_t b = (off - wf_cf(s, f)->offset) / s->off.granule, n = len / s->off.granule;
	unsigned fi = (unsigned)(f - s->files);
	if (!v->phase_wanted || !n || b + n > f->blocks || n > UINT16_MAX || !state_says_done(v, k, fi, off))
		return;
	mark(s, f, b, n);
	if (v->ring) {
		uint64_t cap = s->o->verify_backlog;
		if (v->ring_count == cap) { /* never expected (a batch starts first); the map still has it */
			v->ring_head = (v->ring_head + 1) % cap;
			v->ring_count--;
		}
		v->ring[(v->ring_head + v->ring_count) % cap] = (struct verify_entry){ fi, off, len, false };
		v->ring_count++;
	}
}

void verify_trimmed(struct wstate *s, struct wfile *f, uint64_t off, uint64_t len)
{
	struct verifying *v = &s->ver;
	if (!v->phase_wanted || !len)
		return;
	uint64_t g = s->off.granule, r0 = off - wf_cf(s, f)->offset, r1 = r0 + len;
	uint64_t b = r0 / g, end = (r1 + g - 1) / g;
	uint64_t lo = b; /* writes of several sizes: one that starts before b may reach into it */
	if (v->sizes_vary)
		lo = b + 1 > v->max_blocks ? b + 1 - v->max_blocks : 0;
	for (uint64_t i = lo; i < end && i < f->blocks; i++) {
		uint64_t n = marked_len(s, f, i);
		if (!n || i + n <= b)
			continue;
		if (vm(s, f)->zero && i * g >= r0 && (i + n) * g <= r1)
			set_zeroed(s, f, i, true); /* all of it trimmed: zeros when read back */
		else
			unmark(s, f, i); /* neither its data nor zeros (or trim_verify_zero=0): not read back */
	}
}

void verify_dry(struct wstate *s, struct wfile *f, enum ddir d, uint64_t len, uint64_t off)
{
	s->issued_bytes += len;
	s->issued_ios++;
	s->ts->issued[d]++;
	if (s->measuring) {
		s->ts->dir[d].io_bytes += len;
		s->ts->dir[d].total_ios++;
	}
	if (d == DDIR_WRITE)
		verify_written(s, f, off, len);
}

/* ---- what to read back next ---- */

/* The oldest write of the backlog still not read back. */
static bool ring_next(struct wstate *s, struct verify_entry *e)
{
	struct verifying *v = &s->ver;
	while (v->batch_left && v->ring_count) {
		*e = v->ring[v->ring_head];
		v->ring_head = (v->ring_head + 1) % s->o->verify_backlog;
		v->ring_count--;
		v->batch_left--;
		struct wfile *f = &s->files[e->file];
		uint64_t b = (e->off - wf_cf(s, f)->offset) / s->off.granule, n = e->len / s->off.granule;
		if (is_marked(s, f, b, n)) {
			e->zeros = zeroed(s, f, b);
			unmark(s, f, b);
			return true;
		}
	}
	v->batch_left = 0;
	return false;
}

/* The next written block of the walk, in file and offset order. */
static bool phase_next(struct wstate *s, struct verify_entry *e)
{
	struct verifying *v = &s->ver;
	for (; v->ph_file < s->nfiles; v->ph_file++, v->ph_block = 0) {
		struct wfile *f = &s->files[v->ph_file];
		for (uint64_t b = v->ph_block; b < f->blocks; b++) {
			if (!v->sizes_vary && !(b % 64) && !vm(s, f)->map[b / 64]) {
				b += 63; /* a word of nothing written */
				continue;
			}
			uint64_t n = v->sizes_vary ? vm(s, f)->len[b] : 1;
			if (!n || !is_marked(s, f, b, n))
				continue;
			*e = (struct verify_entry){ v->ph_file, wf_cf(s, f)->offset + b * s->off.granule, n * s->off.granule,
						    zeroed(s, f, b) };
			unmark(s, f, b);
			v->ph_block = b + n;
			return true;
		}
	}
	return false;
}

/* A phase is over: the workload goes on with its next loop, or there is nothing more. */
static void phase_over(struct wstate *s)
{
	struct verifying *v = &s->ver;
	v->in_phase = false;
	v->ring_count = v->batch_left = 0;
	if (v->pass_bytes && v->pass_end + v->pass_bytes <= s->io_limit)
		v->pass_end += v->pass_bytes;
	else
		v->all_done = true, v->pass_end = 0;
}

static bool backlog_full(const struct wstate *s)
{
	return s->ver.ring && s->ver.ring_count >= s->o->verify_backlog;
}

enum verify_step verify_next(struct wstate *s, bool paused, struct verify_entry *e)
{
	struct verifying *v = &s->ver;
	for (int tries = 0; tries < 3; tries++) {
		if (v->batch_left && ring_next(s, e))
			return VSTEP_READ;
		if (v->in_phase) {
			if (phase_next(s, e))
				return VSTEP_READ;
			phase_over(s);
			return VSTEP_NONE;
		}
		if (backlog_full(s)) { /* the writes it reads back must be done first */
			if (s->inflight)
				return VSTEP_DRAIN;
			v->batch_left = v->batch;
			continue;
		}
		if (!paused || !v->phase_wanted || v->all_done)
			return VSTEP_NONE;
		if (s->inflight)
			return VSTEP_DRAIN;
		v->in_phase = true;
		v->ph_file = 0;
		v->ph_block = 0;
	}
	return VSTEP_NONE;
}

bool verify_busy(const struct wstate *s)
{
	const struct verifying *v = &s->ver;
	return v->on && (v->in_phase || (v->batch_left && v->ring_count) || backlog_full(s) ||
			 (v->phase_wanted && !v->all_done));
}

/* ---- checking what came back ---- */

static void dump(struct wstate *s, const struct wfile *f, const struct io_unit *u, uint64_t interval)
{
	const char *base = strrchr(wf_cf(s, f)->path, '/');
	base = base ? base + 1 : wf_cf(s, f)->path;
	char rcv[PATH_MAX + 48], exp[PATH_MAX + 48];
	snprintf(rcv, sizeof(rcv), "%s.%llu.received", base, (unsigned long long)u->offset);
	snprintf(exp, sizeof(exp), "%s.%llu.expected", base, (unsigned long long)u->offset);
	bool rebuilt = verify_expected(s->o, s->ver.dump_rcv, s->ver.dump_exp, u->len, u->offset, interval);
	const char *name[2] = { rcv, exp };
	const unsigned char *data[2] = { s->ver.dump_rcv, s->ver.dump_exp };
	bool written = true;
	for (int i = 0; i < 1 + rebuilt; i++) {
		char why[600] = "";
		FILE *out = outfile_fopen(name[i], O_TRUNC, s->o->allow_mounted_write ? OUTFILE_ALLOW_BUSY : 0, why,
					  sizeof(why));
		bool ok = out && fwrite(data[i], 1, u->len, out) == u->len;
		if ((out && fclose(out)) || !ok) {
			job_say(s->o->name, "verify_dump: cannot write %s: %s", name[i], out ? strerror(errno) : why);
			written = false;
		}
	}
	if (!written)
		return;
	job_say(s->o->name, "verify_dump: received data in %s, %s%s", rcv, rebuilt ? "expected data in " : "",
		rebuilt ? exp : "expected data cannot be rebuilt (not iobench's random data, or its header is broken)");
}

/* A trimmed block read back (trim_verify_zero): all zeros, or the failure in fl. */
static bool zeros_fail(const struct io_unit *u, struct verify_fail *fl)
{
	const unsigned char *p = u->buf;
	if (!u->len || (!p[0] && !memcmp(p, p + 1, u->len - 1)))
		return false;
	uint64_t i = 0;
	while (!p[i])
		i++;
	fl->off = u->offset;
	fl->len = u->len;
	snprintf(fl->why, sizeof(fl->why), "trimmed, but does not read back as zeros (byte %llu is 0x%02x; trim_verify_zero)",
		 (unsigned long long)i, p[i]);
	return true;
}

int verify_completed(struct wstate *s, struct io_unit *u)
{
	struct verifying *v = &s->ver;
	const struct job_opts *o = s->o;
	if (u->ddir == DDIR_TRIM)
		return 0;
	if (u->ddir == DDIR_WRITE) { /* done: verify_state_save keeps the last ones */
		uint64_t i = (uint64_t)u->file_index * s->depth + v->comps_n[u->file_index]++ % s->depth;
		v->comps[i] = (struct verify_entry){ u->file_index, u->offset, u->len, false };
		return 0;
	}
	/* The null engine's reads are done, as fio, but nothing was stored to check. */
	bool stored = (s->w->ops->flags & (ENGINE_NO_FILE | ENGINE_REMOTE)) != ENGINE_NO_FILE;
	if (!(v->checks_reads || verify_is_check(s, u)) || u->result != (int64_t)u->len || !stored)
		return 0;
	uint64_t interval = verify_interval_for(v->interval, u->len);
	bool zeros = v->unit_check && v->unit_check[u->index] == VCHECK_ZEROS;
	if (v->dump_rcv && !zeros)
		memcpy(v->dump_rcv, u->buf, u->len);
	struct verify_fail fl;
	if (zeros ? !zeros_fail(u, &fl) : !verify_check(o, u->buf, u->len, u->offset, interval, &fl))
		return 0;
	struct wfile *f = &s->files[u->file_index];
	if (++v->failures <= MAX_REPORTED) {
		job_say(o->name, "verify failed: file %s, offset %llu, length %llu: %s", wf_cf(s, f)->path,
			(unsigned long long)fl.off, (unsigned long long)fl.len, fl.why);
		if (v->dump_rcv && !zeros)
			dump(s, f, u, interval);
	}
	if (o->verify_fatal || !ioerr_tolerated(o, IOERR_VERIFY, EILSEQ)) /* ignore_error's verify list */
		return -EILSEQ;
	return 0;
}

/* ---- the state files ---- */

static int load_state(struct wstate *s)
{
	struct verifying *v = &s->ver;
	char path[PATH_MAX], why[256];
	struct vstate st;
	vstate_path(path, sizeof(path), s->o->name, s->w->log_index - 1);
	int ret = vstate_read(path, &st, why, sizeof(why));
	if (ret) {
		job_say(s->o->name, "verify_state_load: %s: %s", path, why);
		return ret;
	}
	v->loaded = true;
	v->load_numberio = st.numberio;
	v->load_depth = st.depth > st.ncomps ? st.ncomps : st.depth;
	v->load_ncomps = st.ncomps;
	v->load_comps = calloc(st.ncomps ? st.ncomps : 1, sizeof(*v->load_comps));
	for (uint64_t i = 0; v->load_comps && i < st.ncomps; i++)
		v->load_comps[i] = (struct verify_entry){ (unsigned)st.comps[i].file, st.comps[i].offset, 0, false };
	free(st.comps);
	return v->load_comps ? 0 : worker_nomem(s, "verify state entries", st.ncomps * sizeof(*v->load_comps));
}

/* fio's order: file by file, each file's last completions newest first. */
static uint64_t last_writes(const struct wstate *s, struct vstate_comp *c)
{
	const struct verifying *v = &s->ver;
	uint64_t n = 0;
	for (unsigned f = 0; f < s->nfiles; f++)
		for (uint64_t k = 0; k < v->comps_n[f] && k < s->depth; k++) {
			const struct verify_entry *e = &v->comps[(uint64_t)f * s->depth + (v->comps_n[f] - 1 - k) % s->depth];
			c[n++] = (struct vstate_comp){ e->file, e->off };
		}
	return n;
}

/* 0, or -errno after a line (the job then ends in error: a state asked for is missing). */
static int save_state(struct wstate *s)
{
	struct verifying *v = &s->ver;
	struct vstate_comp *c = calloc((size_t)s->depth * s->nfiles + 1, sizeof(*c));
	if (!c) {
		job_say(s->o->name, "verify_state_save: out of memory");
		return -ENOMEM;
	}
	struct vstate st = { .numberio = v->nwrites, .depth = s->depth, .nofiles = s->nfiles,
			     .index = s->w->log_index - 1, .ncomps = last_writes(s, c), .comps = c };
	snprintf(st.name, sizeof(st.name), "%.64s", s->o->name);
	char path[PATH_MAX], why[600];
	vstate_path(path, sizeof(path), s->o->name, s->w->log_index - 1);
	int ret = vstate_write(path, &st, s->o->allow_mounted_write ? OUTFILE_ALLOW_BUSY : 0, why, sizeof(why));
	if (ret)
		job_say(s->o->name, "verify_state_save: cannot write %s: %s", path, why);
	free(c);
	return ret;
}

int verify_finish(struct wstate *s)
{
	struct verifying *v = &s->ver;
	const struct job_opts *o = s->o;
	if (!v->on)
		return 0;
	int saved = o->vopt.state_save && job_writes(o) ? save_state(s) : 0;
	if (!v->failures)
		return saved;
	if (v->failures > 1)
		job_say(o->name, "%llu blocks failed verification in all", (unsigned long long)v->failures);
	return -EILSEQ;
}
