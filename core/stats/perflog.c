/* Per-job logs. */
#include "core/stats/perflog.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/lib/outfile.h"
#include "core/lib/say.h"

static int append(struct perflogs *pl, struct perflog *l, const struct log_entry *e)
{
	if (pl->pack_entries && l->tail && l->tail->n >= pl->pack_entries) {
		int ret = logz_pack(l, pl->epoch_ms, pl->with_offset, pl->log_prio);
		if (ret)
			return ret;
	}
	if (!l->tail || l->tail->n == sizeof(l->tail->e) / sizeof(l->tail->e[0])) {
		struct log_chunk *c = malloc(sizeof(*c));
		if (!c)
			return -ENOMEM;
		c->next = NULL;
		c->n = 0;
		if (l->tail)
			l->tail->next = c;
		else
			l->head = c;
		l->tail = c;
	}
	l->tail->e[l->tail->n++] = *e;
	return 0;
}

void perflogs_init(struct perflogs *pl, const struct job_opts *o)
{
	memset(pl, 0, sizeof(*pl));
	pl->log[LOG_BW].on = o->bw_log[0] != 0;
	pl->log[LOG_IOPS].on = o->iops_log[0] != 0;
	pl->log[LOG_SLAT].on = pl->log[LOG_CLAT].on = pl->log[LOG_LAT].on = o->lat_log[0] != 0;
	for (int k = 0; k < LOG_KINDS; k++)
		pl->any |= pl->log[k].on;
	pl->avg_ms = o->log_avg_msec;
	pl->hist_on = o->hist_log[0] != 0;
	pl->hist_ms = o->log_hist_msec ? o->log_hist_msec : 1000;
	uint64_t pack = o->io.log_compression / 32; /* fio's samples are 32 bytes */
	pl->pack_entries = !o->io.log_compression ? 0 : pack > 4096 ? 4096 : pack ? (unsigned)pack : 1;
	pl->store_z = o->io.log_store_compressed;
	pl->max_value = o->io.log_max_value;
	pl->with_offset = o->log_offset;
	pl->log_prio = o->env.log_prio;
	pl->coarseness = o->io.log_hist_coarseness;
}

void perflogs_start(struct perflogs *pl, const struct job_opts *o)
{
	struct timespec ts;
	if (!o->io.log_unix_epoch && !o->io.log_alt_epoch)
		return;
	/* checked when the job was resolved: the clock exists */
	if (clock_gettime((clockid_t)o->io.log_alt_clock, &ts) == 0)
		pl->epoch_ms = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int perflogs_io(struct perflogs *pl, uint64_t t_ms, enum ddir d, uint64_t bs, uint64_t offset,
		uint64_t slat_ns, uint64_t clat_ns, uint64_t lat_ns, bool has_slat, uint32_t prio)
{
	const uint64_t val[LOG_KINDS] = { lat_ns ? bs * 1000000000ULL / 1024 / lat_ns : 0, 1, slat_ns,
					  clat_ns, lat_ns };
	if (pl->avg_ms) {
		for (int k = LOG_SLAT; k < LOG_KINDS; k++) {
			if (k == LOG_SLAT && !has_slat)
				continue;
			pl->win.sum[k][d] += val[k];
			pl->win.count[k][d]++;
			if (val[k] > pl->win.max[k][d])
				pl->win.max[k][d] = val[k];
		}
		pl->win.bytes[d] += bs;
		pl->win.ios[d]++;
		return 0;
	}
	for (int k = 0; k < LOG_KINDS; k++) {
		if (!pl->log[k].on || (k == LOG_SLAT && !has_slat))
			continue;
		struct log_entry e = { t_ms, val[k], offset, (uint32_t)bs, (uint8_t)d, prio };
		int ret = append(pl, &pl->log[k], &e);
		if (ret)
			return ret;
	}
	return 0;
}

/* Close one averaging window ending at t_ms: one row per direction that saw I/O. */
static int close_window(struct perflogs *pl, uint64_t t_ms)
{
	uint64_t span = t_ms - pl->window_start_ms;
	for (int d = 0; d < DDIR_NR; d++) {
		if (!pl->win.ios[d])
			continue;
		uint64_t v[LOG_KINDS] = { span ? pl->win.bytes[d] * 1000 / 1024 / span : 0,
					  span ? pl->win.ios[d] * 1000 / span : 0 };
		for (int k = LOG_SLAT; k < LOG_KINDS; k++) /* the mean, or log_max_value's largest */
			v[k] = pl->max_value ? pl->win.max[k][d] : pl->win.count[k][d] ? pl->win.sum[k][d] / pl->win.count[k][d] : 0;
		for (int k = 0; k < LOG_KINDS; k++) {
			if (!pl->log[k].on || (k >= LOG_SLAT && !pl->win.count[k][d]))
				continue;
			struct log_entry e = { t_ms, v[k], 0, 0, (uint8_t)d, 0 };
			int ret = append(pl, &pl->log[k], &e);
			if (ret)
				return ret;
		}
	}
	memset(&pl->win, 0, sizeof(pl->win));
	pl->window_start_ms = t_ms;
	return 0;
}

static int hist_interval(struct perflogs *pl, uint64_t t_ms, const struct hist *const now[DDIR_NR],
			 const uint64_t *bs)
{
	for (int d = 0; d < DDIR_NR; d++) {
		uint64_t total = 0;
		for (unsigned i = 0; i < HIST_NR; i++)
			total += now[d]->bucket[i] - pl->last_hist[d].bucket[i];
		if (!total && !hist_count(now[d]))
			continue;
		struct hist_log_entry *e = calloc(1, sizeof(*e));
		uint64_t *counts = calloc(HIST_NR, sizeof(*counts));
		if (!e || !counts) {
			free(e);
			free(counts);
			return -ENOMEM;
		}
		for (unsigned i = 0; i < HIST_NR; i++)
			counts[i] = now[d]->bucket[i] - pl->last_hist[d].bucket[i];
		*e = (struct hist_log_entry){ t_ms, (uint8_t)d, (uint32_t)bs[d], counts, NULL };
		if (pl->hist_tail)
			pl->hist_tail->next = e;
		else
			pl->hist_head = e;
		pl->hist_tail = e;
		pl->last_hist[d] = *now[d];
	}
	pl->hist_last_ms = t_ms;
	return 0;
}

int perflogs_tick(struct perflogs *pl, uint64_t t_ms, const struct hist *const clat_now[DDIR_NR],
		  const uint64_t *bs)
{
	int ret = 0;
	if (pl->any && pl->avg_ms && t_ms - pl->window_start_ms >= pl->avg_ms)
		ret = close_window(pl, pl->window_start_ms + pl->avg_ms);
	if (!ret && pl->hist_on && t_ms - pl->hist_last_ms >= pl->hist_ms)
		ret = hist_interval(pl, t_ms, clat_now, bs);
	return ret;
}

static int write_log(struct perflogs *pl, struct perflog *l, const char *path, const struct job_opts *o, char *why,
		     size_t len)
{
	bool with_offset = o->log_offset, log_prio = o->env.log_prio;
	struct outfile of;
	int ret = outfile_open(&of, path, o->allow_mounted_write ? OUTFILE_ALLOW_BUSY : 0);
	if (ret) {
		snprintf(why, len, "%s", outfile_strerror(&of, ret));
		return ret;
	}
	FILE *f = of.f;
	uint64_t epoch = pl->epoch_ms;
	if (pl->store_z) { /* log_store_compressed: fio's .fz */
		ret = logz_write_store(l, f, epoch, with_offset, log_prio);
		int c = outfile_close(&of, !ret);
		return ret ? ret : c;
	}
	if ((ret = logz_write_text(l, f))) { /* log_compression: the packed chunks first */
		outfile_close(&of, false);
		return ret;
	}
	for (const struct log_chunk *c = l->head; c; c = c->next)
		for (unsigned i = 0; i < c->n; i++) {
			const struct log_entry *e = &c->e[i];
			char prio[16];
			if (log_prio)
				snprintf(prio, sizeof(prio), "0x%04x", e->prio & 0xffffu);
			else
				snprintf(prio, sizeof(prio), "%u", e->prio >> 16);
			if (with_offset)
				fprintf(f, "%llu, %llu, %u, %u, %llu, %s\n", (unsigned long long)(e->t_ms + epoch),
					(unsigned long long)e->value, e->ddir, e->bs, (unsigned long long)e->offset, prio);
			else
				fprintf(f, "%llu, %llu, %u, %u, %s\n", (unsigned long long)(e->t_ms + epoch),
					(unsigned long long)e->value, e->ddir, e->bs, prio);
		}
	return outfile_close(&of, true);
}

static int write_hist(const struct perflogs *pl, const char *path, const struct job_opts *o, char *why, size_t len)
{
	struct outfile of;
	int ret = outfile_open(&of, path, o->allow_mounted_write ? OUTFILE_ALLOW_BUSY : 0);
	if (ret) {
		snprintf(why, len, "%s", outfile_strerror(&of, ret));
		return ret;
	}
	FILE *f = of.f;
	unsigned group = 1u << pl->coarseness; /* log_hist_coarseness: bins summed in groups */
	for (const struct hist_log_entry *e = pl->hist_head; e; e = e->next) {
		fprintf(f, "%llu, %u, %u", (unsigned long long)(e->t_ms + pl->epoch_ms), e->ddir, e->bs);
		for (unsigned i = 0; i < HIST_NR; i += group) {
			uint64_t sum = 0;
			for (unsigned k = i; k < i + group && k < HIST_NR; k++)
				sum += e->counts[k];
			fprintf(f, ", %llu", (unsigned long long)sum);
		}
		fprintf(f, "\n");
	}
	return outfile_close(&of, true);
}

static void log_path(char *out, size_t len, const char *prefix, const char *jobname, const char *kind,
		     const struct job_opts *o, unsigned index)
{
	/* A bare flag (or "1") names the log after the job, as fio's default does. */
	const char *p = !strcmp(prefix, "1") || !strcmp(prefix, "true") ? jobname : prefix;
	if (o->per_job_logs)
		snprintf(out, len, "%s_%s.%u.log", p, kind, index);
	else
		snprintf(out, len, "%s_%s.log", p, kind);
}

int perflogs_guard(const struct job_opts *o, unsigned index)
{
	static const char *const kinds[] = { "bw", "iops", "slat", "clat", "lat", "clat_hist" };
	const char *prefixes[] = { o->bw_log, o->iops_log, o->lat_log, o->lat_log, o->lat_log, o->hist_log };
	unsigned flags = o->allow_mounted_write ? OUTFILE_ALLOW_BUSY : 0;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		char path[PATH_MAX + 64], why[600];
		if (!prefixes[k][0])
			continue;
		log_path(path, sizeof(path), prefixes[k], o->name, kinds[k], o, index);
		if (o->io.log_store_compressed && k < LOG_KINDS)
			strncat(path, ".fz", sizeof(path) - strlen(path) - 1);
		int ret = outfile_guard(path, flags, why, sizeof(why));
		if (ret) {
			job_say(o->name, "cannot write log '%s': %s", path, why);
			return ret;
		}
	}
	return 0;
}

int perflogs_write(struct perflogs *pl, const struct job_opts *o, unsigned index)
{
	static const char *const kinds[LOG_KINDS] = { "bw", "iops", "slat", "clat", "lat" };
	const char *prefixes[LOG_KINDS] = { o->bw_log, o->iops_log, o->lat_log, o->lat_log, o->lat_log };
	char path[PATH_MAX + 64], why[600] = "";
	int ret = 0;
	if (pl->any && pl->avg_ms && pl->win.ios[0] + pl->win.ios[1] + pl->win.ios[2])
		close_window(pl, pl->window_start_ms + pl->avg_ms);
	for (int k = 0; k < LOG_KINDS && !ret; k++) {
		if (!pl->log[k].on)
			continue;
		log_path(path, sizeof(path), prefixes[k], o->name, kinds[k], o, index);
		if (pl->store_z)
			strncat(path, ".fz", sizeof(path) - strlen(path) - 1);
		ret = write_log(pl, &pl->log[k], path, o, why, sizeof(why));
	}
	if (!ret && pl->hist_on) {
		log_path(path, sizeof(path), o->hist_log, o->name, "clat_hist", o, index);
		ret = write_hist(pl, path, o, why, sizeof(why));
	}
	if (ret)
		job_say(o->name, "cannot write log '%s': %s", path, why[0] ? why : strerror(-ret));
	return ret;
}

void perflogs_free(struct perflogs *pl)
{
	for (int k = 0; k < LOG_KINDS; k++) {
		for (struct log_chunk *c = pl->log[k].head, *n; c; c = n) {
			n = c->next;
			free(c);
		}
		logz_free(&pl->log[k]);
	}
	for (struct hist_log_entry *e = pl->hist_head, *n; e; e = n) {
		n = e->next;
		free(e->counts);
		free(e);
	}
	memset(pl->log, 0, sizeof(pl->log));
	pl->hist_head = pl->hist_tail = NULL;
}
