/* Distributions: random_distribution (per direction, as fio's manual describes it) and
 * file_service_type (which file next: round robin, sequential, random, or skewed). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/job/options.h"
#include "core/job/parse.h"

static int bad(char *e, size_t n, const char *what, const char *v)
{
	snprintf(e, n, "cannot parse '%.*s%s' as %s", SHOWN(v), what);
	return -EINVAL;
}

/* The skewed kinds and their parameters' ranges, as fio 3.33 checks them. */
static const struct {
	const char *name;
	enum dist_type type;
	double min, max;     /* the parameter: min < p < max, or min <= p when min_incl */
	bool min_incl;
	double def;          /* file_service_type's default parameter */
	const char *range;
} kinds[] = {
	{ "zipf", DIST_ZIPF, 0.0, 1e9, false, 1.1, "a zipf theta above 0 (not 1)" },
	{ "pareto", DIST_PARETO, 0.0, 1.0, false, 0.2, "a pareto power between 0 and 1" },
	{ "normal", DIST_NORMAL, 0.0, 100.0, true, 0.0, "a normal deviation from 0 to below 100" },
	{ "gauss", DIST_NORMAL, 0.0, 100.0, true, 0.0, "a normal deviation from 0 to below 100" },
};

/* "P[:CENTER]" after "kind:": 0, or -EINVAL with the message in e. */
static int skew_params(size_t k, const char *p, const char *v, double *param, double *center, char *e, size_t n)
{
	char *end;
	double x = strtod(p, &end), c = -1.0;
	bool ok = kinds[k].min_incl ? x >= kinds[k].min : x > kinds[k].min; /* NaN fails both */
	if (end == p || !ok || !(x < kinds[k].max) || (kinds[k].type == DIST_ZIPF && x == 1.0))
		return bad(e, n, kinds[k].range, v);
	if (*end == ':') {
		char *end2;
		c = strtod(end + 1, &end2);
		if (end2 == end + 1 || *end2 || !(c >= 0.0 && c <= 1.0))
			return bad(e, n, "a distribution center (0 to 1)", v);
	} else if (*end) {
		return bad(e, n, "a distribution (kind:param[:center])", v);
	}
	*param = x;
	*center = c;
	return 0;
}

static int parse_zones(struct distribution *dist, const char *list, bool abs, unsigned kb_base)
{
	char buf[4096];
	unsigned total = 0;
	uint64_t size_total = 0;
	if (strlen(list) >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", list);
	char *save = NULL;
	dist->nzones = 0;
	for (char *tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		if (dist->nzones >= DIST_ZONES_MAX)
			return -EINVAL;
		struct dist_zone *z = &dist->zones[dist->nzones++];
		char *slash = strchr(tok, '/');
		int64_t pct, sz;
		if (!slash)
			return -EINVAL;
		*slash = '\0';
		if (parse_int(tok, 0, 100, &pct))
			return -EINVAL;
		z->access_pct = (unsigned)pct;
		total += z->access_pct;
		if (!slash[1]) {
			if (abs) /* fio 3.33 refuses it too: a size is needed */
				return -EINVAL;
			z->size = UINT64_MAX; /* empty: what the other zones leave */
		} else if (abs) { /* a file's size at most: UINT64_MAX stands for an empty size */
			if (parse_file_size(slash + 1, kb_base, &z->size))
				return -EINVAL;
		} else {
			if (parse_int(slash + 1, 0, 100, &sz))
				return -EINVAL;
			z->size = (uint64_t)sz;
			size_total += (uint64_t)sz;
		}
	}
	for (unsigned i = 0; i < dist->nzones; i++)
		if (dist->zones[i].size == UINT64_MAX)
			dist->zones[i].size = size_total < 100 ? 100 - size_total : 0;
	return dist->nzones && total == 100 && (abs || size_total <= 100) ? 0 : -EINVAL;
}

/* One direction's distribution. A field that starts with a digit continues the zoned kind
 * of the field before it ("zoned:60/10:40/90,20/50:80/50", as bssplit writes sizes). */
static int one_dist(struct job_opts *o, struct distribution *dist, const char *v, enum dist_type prev, char *e,
		    size_t n)
{
	dist->center = -1.0;
	if (!strcmp(v, "random")) {
		dist->type = DIST_RANDOM;
		return 0;
	}
	bool cont = v[0] >= '0' && v[0] <= '9' && (prev == DIST_ZONED || prev == DIST_ZONED_ABS);
	if ((cont && prev == DIST_ZONED_ABS) || (!strncmp(v, "zoned_abs", 9) && (v[9] == ':' || v[9] == '='))) {
		dist->type = DIST_ZONED_ABS;
		return parse_zones(dist, cont ? v : v + 10, true, o->kb_base) ? bad(e, n, "zones (pct/size:...)", v) : 0;
	}
	if (cont || (!strncmp(v, "zoned", 5) && (v[5] == ':' || v[5] == '='))) {
		dist->type = DIST_ZONED;
		return parse_zones(dist, cont ? v : v + 6, false, o->kb_base) ? bad(e, n, "zones (pct/pct:...)", v) : 0;
	}
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t len = strlen(kinds[k].name);
		if (strncmp(v, kinds[k].name, len) != 0 || v[len] != ':')
			continue;
		dist->type = kinds[k].type;
		return skew_params(k, v + len + 1, v, &dist->param, &dist->center, e, n);
	}
	snprintf(e, n, "unknown distribution '%.*s%s' (random, zipf:t, pareto:h, normal:s, zoned:..., zoned_abs:...)",
		 SHOWN(v));
	return -EINVAL;
}

/* random_distribution=READ[,WRITE[,TRIM]]: one for all three, two for read and write (trim
 * takes write's), as bs= reads it; an empty field keeps the default. fio 3.33's parser refuses
 * any comma, although its manual describes this (docs/differences.md). */
int opt_parse_distribution(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	char buf[4096 * 3];
	char *f[DDIR_NR] = { NULL, NULL, NULL };
	int nf = 0;
	if (strlen(v) >= sizeof(buf))
		return bad(e, n, "a distribution", v);
	strcpy(buf, v);
	for (char *p = buf, *c;; p = c + 1) {
		if (nf == DDIR_NR) {
			snprintf(e, n, "'%.*s%s' has more than three distributions (read, write, trim)", SHOWN(v));
			return -EINVAL;
		}
		f[nf++] = p;
		if (!(c = strchr(p, ',')))
			break;
		*c = '\0';
	}
	struct distribution parsed[DDIR_NR];
	enum dist_type prev = DIST_RANDOM;
	for (int i = 0; i < nf; i++) {
		if (!*f[i]) {
			parsed[i] = o->dist[i];
			continue;
		}
		int ret = one_dist(o, &parsed[i], f[i], prev, e, n);
		if (ret)
			return ret;
		prev = parsed[i].type;
	}
	o->dist[DDIR_READ] = parsed[0];
	o->dist[DDIR_WRITE] = parsed[nf > 1 ? 1 : 0];
	o->dist[DDIR_TRIM] = parsed[nf > 2 ? 2 : nf > 1 ? 1 : 0];
	return 0;
}

/* file_service_type=roundrobin|sequential|random[:N] | zipf|pareto|normal|gauss[:P[:CENTER]] */
int opt_parse_file_service(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	static const char *const names[] = { "roundrobin", "sequential", "random" };
	const char *colon = strchr(v, ':');
	size_t len = colon ? (size_t)(colon - v) : strlen(v);
	for (unsigned i = 0; i < 3; i++) {
		if (strlen(names[i]) != len || strncmp(v, names[i], len) != 0)
			continue;
		int64_t nr = 1;
		if (colon && parse_int(colon + 1, 1, 1 << 30, &nr))
			return bad(e, n, "a number of I/Os per file", colon + 1);
		o->file_service = i;
		o->file_service_nr = (unsigned)nr;
		return 0;
	}
	static const unsigned fs_of[] = { FS_ZIPF, FS_PARETO, FS_GAUSS, FS_GAUSS };
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		if (strlen(kinds[k].name) != len || strncmp(v, kinds[k].name, len) != 0)
			continue;
		double p = kinds[k].def, c = -1.0;
		if (colon && skew_params(k, colon + 1, v, &p, &c, e, n))
			return -EINVAL;
		o->file_service = fs_of[k];
		o->file_service_nr = 1;
		o->io.fs_param = p;
		o->io.fs_center = c;
		return 0;
	}
	snprintf(e, n, "unknown type '%.*s%s' (roundrobin, sequential, random, zipf, pareto, normal, gauss)",
		 len > 200 ? 200 : (int)len, v, len > 200 ? "..." : "");
	return -EINVAL;
}
