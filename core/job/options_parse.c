/* Parsers for options whose values have a shape of their own. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/lib/checksum.h"
#include "core/job/options.h"
#include "core/job/parse.h"

#define FIELD(o, d, type) ((type *)((char *)(o) + (d)->offset))

static int bad(char *e, size_t n, const char *what, const char *v)
{
	snprintf(e, n, "cannot parse '%.*s%s' as %s", SHOWN(v), what);
	return -EINVAL;
}

/* Split "a,b,c" into up to three per-direction fields; an empty field keeps the old
 * value. One field sets all three; two set read and write (trim takes write's). */
typedef int (*field_fn)(struct job_opts *o, const struct option_def *d, int dir, const char *f);

static int per_direction(struct job_opts *o, const struct option_def *d, const char *v,
			 field_fn fn, char *e, size_t n, const char *what)
{
	char buf[1024];
	const char *fields[DDIR_NR] = { 0 };
	int nf = 0;
	if (strlen(v) >= sizeof(buf))
		return bad(e, n, what, v);
	strcpy(buf, v);
	for (char *p = buf, *c; nf < DDIR_NR; p = c + 1) {
		fields[nf++] = p;
		c = strchr(p, ',');
		if (!c)
			break;
		*c = '\0';
		if (nf == DDIR_NR)
			return bad(e, n, what, v);
	}
	const char *use[DDIR_NR] = { fields[0], nf > 1 ? fields[1] : fields[0],
				     nf > 2 ? fields[2] : nf > 1 ? fields[1] : fields[0] };
	for (int dir = 0; dir < DDIR_NR; dir++) {
		if (!use[dir] || !*use[dir])
			continue;
		if (fn(o, d, dir, use[dir]))
			return bad(e, n, what, v);
	}
	return 0;
}

static int bs_field(struct job_opts *o, const struct option_def *d, int dir, const char *f)
{
	uint64_t v;
	if (parse_size(f, o->kb_base, &v) || v == 0)
		return -EINVAL;
	o->bs[dir] = v;
	return 0;
}

int opt_parse_bs(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	return per_direction(o, d, v, bs_field, e, n, "a block size");
}

static int bsrange_field(struct job_opts *o, const struct option_def *d, int dir, const char *f)
{
	uint64_t lo, hi;
	if (parse_size_range(f, o->kb_base, &lo, &hi) || lo == 0)
		return -EINVAL;
	o->bs_min[dir] = lo;
	o->bs_max[dir] = hi;
	o->bs[dir] = lo;
	return 0;
}

int opt_parse_bsrange(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	return per_direction(o, d, v, bsrange_field, e, n, "block size ranges");
}

/* "4k/10:64k/50:32k/" — an empty percentage shares what is left equally. */
static int bssplit_field(struct job_opts *o, const struct option_def *d, int dir, const char *f)
{
	char buf[1024];
	unsigned n = 0, total = 0, blanks = 0;
	struct bs_split *sp = o->bssplit[dir];
	snprintf(buf, sizeof(buf), "%s", f);
	char *save = NULL;
	for (char *tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		if (n >= BSSPLIT_MAX)
			return -EINVAL;
		char *slash = strchr(tok, '/');
		if (slash)
			*slash = '\0';
		if (parse_size(tok, o->kb_base, &sp[n].bs) || sp[n].bs == 0)
			return -EINVAL;
		int64_t pct = -1;
		if (slash && slash[1] && parse_int(slash + 1, 0, 100, &pct))
			return -EINVAL;
		sp[n].pct = pct < 0 ? 0 : (unsigned)pct;
		if (pct < 0)
			blanks++;
		else
			total += (unsigned)pct;
		if (pct < 0)
			sp[n].pct = UINT32_MAX;
		n++;
	}
	if (!n || total > 100)
		return -EINVAL;
	for (unsigned i = 0; i < n; i++)
		if (sp[i].pct == UINT32_MAX)
			sp[i].pct = (100 - total) / blanks;
	o->nbssplit[dir] = n;
	o->bs[dir] = sp[0].bs;
	return 0;
}

int opt_parse_bssplit(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	return per_direction(o, d, v, bssplit_field, e, n, "a block size split (bs/pct:bs/pct...)");
}

static const struct {
	const char *text, *canonical;
	unsigned bits;
} rw_modes[] = {
	{ "read", "read", RW_READ },
	{ "write", "write", RW_WRITE },
	{ "randread", "randread", RW_READ | RW_RANDOM },
	{ "randwrite", "randwrite", RW_WRITE | RW_RANDOM },
	{ "rw", "rw", RW_READ | RW_WRITE },
	{ "readwrite", "rw", RW_READ | RW_WRITE },
	{ "randrw", "randrw", RW_READ | RW_WRITE | RW_RANDOM },
	{ "trim", "trim", RW_TRIM },
	{ "randtrim", "randtrim", RW_TRIM | RW_RANDOM },
	{ "trimwrite", "trimwrite", RW_TRIM | RW_WRITE },
	{ "randtrimwrite", "randtrimwrite", RW_TRIM | RW_WRITE | RW_RANDOM },
};

int opt_parse_rw(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	char mode[32];
	const char *colon = strchr(v, ':');
	size_t len = colon ? (size_t)(colon - v) : strlen(v);
	if (len >= sizeof(mode))
		len = sizeof(mode) - 1;
	memcpy(mode, v, len);
	mode[len] = '\0';
	for (size_t i = 0; i < sizeof(rw_modes) / sizeof(rw_modes[0]); i++) {
		if (strcmp(mode, rw_modes[i].text) != 0)
			continue;
		uint64_t mod = 0;
		bool neg = colon && colon[1] == '-';
		if (colon && (parse_size(colon + 1 + neg, o->kb_base, &mod) || mod > INT64_MAX))
			return bad(e, n, "an offset modifier (rw=mode:N)", v);
		o->rw = rw_modes[i].bits;
		o->rw_mod = neg ? -(int64_t)mod : (int64_t)mod;
		snprintf(o->rw_text, sizeof(o->rw_text), "%s", rw_modes[i].canonical);
		return 0;
	}
	snprintf(e, n, "unknown mode '%s' (read, write, trim, randread, randwrite, randtrim, rw, randrw, trimwrite, "
		 "randtrimwrite)", mode);
	return -EINVAL;
}

int opt_parse_rwmixwrite(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	int64_t i;
	int ret = parse_int(v, 0, 100, &i);
	if (ret == -ERANGE) {
		snprintf(e, n, "'%.*s%s' is out of range (0 to 100)", SHOWN(v));
		return ret;
	}
	if (ret)
		return bad(e, n, "an integer", v);
	o->rwmixread = (unsigned)(100 - i);
	return 0;
}

/* size=, offset=, offset_increment=: bytes, or N% (stored in the unsigned after it). */
int opt_parse_size_pct(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	size_t len = strlen(v), digits = len;
	uint64_t *bytes = FIELD(o, d, uint64_t);
	unsigned *pct = (unsigned *)(bytes + 1);
	while (digits && v[digits - 1] == '%')
		digits--; /* "100%%", as fio-plot writes it (a %% in a job file): fio reads 100% */
	if (digits < len) {
		char buf[32];
		int64_t p;
		snprintf(buf, sizeof(buf), "%.*s", (int)digits, v);
		if (digits >= sizeof(buf) || parse_int(buf, 1, 100, &p)) {
			snprintf(e, n, "'%.*s%s' is not a percentage from 1%% to 100%%", SHOWN(v));
			return -ERANGE;
		}
		*pct = (unsigned)p;
		*bytes = 0;
		return 0;
	}
	int ret = parse_file_size(v, o->kb_base, bytes);
	if (ret)
		parse_size_error(e, n, v, ret);
	else
		*pct = 0;
	return ret;
}

int opt_parse_filesize(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	uint64_t lo, hi;
	int ret = parse_size_range(v, o->kb_base, &lo, &hi);
	if (!ret && hi > (uint64_t)INT64_MAX)
		ret = -EFBIG;
	if (ret == -ERANGE || ret == -EFBIG) {
		parse_size_error(e, n, v, ret);
		return ret;
	}
	if (ret || !lo)
		return bad(e, n, "a size or size range", v);
	o->filesize_lo = lo;
	o->filesize_hi = hi;
	return 0;
}

/* Per-direction integers in [min, max] (percentage_random, rate_iops, rate_iops_min). */
static int dir_uint_field(struct job_opts *o, const struct option_def *d, int dir, const char *f)
{
	int64_t v;
	if (parse_int(f, d->min, d->max, &v))
		return -EINVAL;
	if (d->size == sizeof(unsigned) * DDIR_NR)
		FIELD(o, d, unsigned)[dir] = (unsigned)v;
	else
		FIELD(o, d, uint64_t)[dir] = (uint64_t)v;
	return 0;
}

int opt_parse_dir_uints(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	return per_direction(o, d, v, dir_uint_field, e, n, "integers (read,write,trim)");
}

static int dir_size_field(struct job_opts *o, const struct option_def *d, int dir, const char *f)
{
	return parse_size(f, o->kb_base, &FIELD(o, d, uint64_t)[dir]);
}

int opt_parse_dir_sizes(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	return per_direction(o, d, v, dir_size_field, e, n, "sizes per second (read,write,trim)");
}

int opt_parse_startdelay(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	char buf[64];
	const char *dash = strchr(v, '-');
	size_t len = dash ? (size_t)(dash - v) : strlen(v);
	snprintf(buf, sizeof(buf), "%.*s", (int)len, v);
	int ret = len >= sizeof(buf) ? -EINVAL : parse_time_us(buf, d->unit, &o->startdelay_us[0]);
	o->startdelay_us[1] = o->startdelay_us[0];
	if (!ret && dash)
		ret = parse_time_us(dash + 1, d->unit, &o->startdelay_us[1]);
	if (ret == -ERANGE) {
		snprintf(e, n, "'%.*s%s' is too long a time (" TIME_MAX_TEXT ")", SHOWN(v));
		return ret;
	}
	if (ret || o->startdelay_us[1] < o->startdelay_us[0])
		return bad(e, n, dash ? "a time range" : "a time or time range", v);
	return 0;
}

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

/* A pattern being parsed: its bytes, and where verify_pattern's %o formats go. */
struct pat {
	unsigned char *b;
	unsigned len, fmts;
	uint16_t fmt_at[PATTERN_FMT_MAX];
	bool fmt_ok;
	char msg[160]; /* a reason that names a file */
};

static bool pat_put(struct pat *pt, unsigned char c)
{
	if (pt->len >= PATTERN_MAX)
		return false;
	pt->b[pt->len++] = c;
	return true;
}

/* 0x hex digits (odd: a leading nibble). */
static const char *pat_hex(const char *p, struct pat *pt, const char **why)
{
	const char *start = p;
	while (isxdigit((unsigned char)*p))
		p++;
	size_t digits = (size_t)(p - start);
	if (!digits)
		return *why = "a pattern", NULL;
	for (size_t i = 0; i < digits;) {
		size_t take = i == 0 && digits % 2 ? 1 : 2;
		int byte = take == 1 ? hexval(start[i]) : hexval(start[i]) * 16 + hexval(start[i + 1]);
		i += take;
		if (!pat_put(pt, (unsigned char)byte))
			return *why = "a pattern (512 bytes at most)", NULL;
	}
	return p;
}

/* A decimal is a 32-bit integer, in as few bytes as its value takes, little end first; a
 * negative one in four (fio's). */
static const char *pat_decimal(const char *p, struct pat *pt, const char **why)
{
	char *end;
	errno = 0;
	long long x = strtoll(p, &end, 10);
	if (errno || x > INT32_MAX || x < INT32_MIN)
		return *why = "a pattern (a decimal fits in 32 bits: give wider values in hex)", NULL;
	uint32_t u = (uint32_t)(int32_t)x;
	unsigned bytes = x < 0 ? 4 : u > 0xffffff ? 4 : u > 0xffff ? 3 : u > 0xff ? 2 : 1;
	for (unsigned i = 0; i < bytes; i++)
		if (!pat_put(pt, (unsigned char)(u >> (8 * i))))
			return *why = "a pattern (512 bytes at most)", NULL;
	return end;
}

/* 'name': as fio, the contents of the file (a regular one, so a FIFO cannot hang the
 * parser), as much as the pattern has room for. */
static const char *pat_file(const char *p, struct pat *pt, const char **why)
{
	const char *end = strchr(p + 1, '\'');
	if (!end)
		return *why = "a pattern (unterminated 'file name')", NULL;
	char path[4096];
	size_t len = (size_t)(end - p - 1);
	if (len == 0 || len >= sizeof(path))
		return *why = "a pattern ('file name': empty or longer than 4095 bytes)", NULL;
	memcpy(path, p + 1, len);
	path[len] = '\0';
	*why = pt->msg;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(pt->msg, sizeof(pt->msg), "a pattern: file '%.60s%s': %s", path, len > 60 ? "..." : "",
			 fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	ssize_t got = pt->len < PATTERN_MAX ? read(fd, pt->b + pt->len, PATTERN_MAX - pt->len) : 0;
	int err = errno;
	close(fd);
	if (got <= 0) {
		snprintf(pt->msg, sizeof(pt->msg), "a pattern: file '%.60s%s': %s", path, len > 60 ? "..." : "",
			 got < 0 ? strerror(err) : pt->len < PATTERN_MAX ? "empty" : "no room left (512 bytes at most)");
		return NULL;
	}
	pt->len += (unsigned)got;
	return end + 1;
}

/* One piece at p: 0x hex, a "quoted" string, a 'file', a decimal, or %o; the text after it. */
static const char *pat_piece(const char *p, struct pat *pt, const char **why)
{
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return pat_hex(p + 2, pt, why);
	if (*p == '\'')
		return pat_file(p, pt, why);
	if (*p == '"') {
		const char *end = strchr(p + 1, *p);
		if (!end)
			return *why = "a pattern (unterminated string)", NULL;
		for (p++; p < end; p++)
			if (!pat_put(pt, (unsigned char)*p))
				return *why = "a pattern (512 bytes at most)", NULL;
		return end + 1;
	}
	if (isdigit((unsigned char)*p) || (*p == '-' && isdigit((unsigned char)p[1])))
		return pat_decimal(p, pt, why);
	if (p[0] == '%' && p[1] == 'o') { /* the I/O's offset, 8 bytes in host order (fio's) */
		if (!pt->fmt_ok)
			return *why = "a pattern (%o is verify_pattern's format only)", NULL;
		if (pt->fmts >= PATTERN_FMT_MAX)
			return *why = "a pattern (16 %o at most)", NULL;
		pt->fmt_at[pt->fmts++] = (uint16_t)pt->len;
		for (int i = 0; i < 8; i++)
			if (!pat_put(pt, 0))
				return *why = "a pattern (512 bytes at most)", NULL;
		return p + 2;
	}
	return *why = "a pattern (0x.., \"text\", 'file', a number or %o)", NULL;
}

/* buffer_pattern and verify_pattern: pieces (pat_piece) one after another, as fio (which
 * refuses a '|' or a space between them); blanks at either end are left out. */
int opt_parse_pattern(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	bool verify = d->offset == offsetof(struct job_opts, verify_pattern);
	unsigned char tmp[PATTERN_MAX]; /* the option keeps its old value if the new one is refused */
	struct pat pt = { .b = tmp, .fmt_ok = verify };
	const char *why = "a pattern";
	const char *p = v, *end = v + strlen(v);
	while (isspace((unsigned char)*p))
		p++;
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	while (p < end) {
		if (*p == '|' || isspace((unsigned char)*p))
			return bad(e, n, "a pattern (its pieces follow one another: no '|' or blank between them)", v);
		if (!(p = pat_piece(p, &pt, &why)))
			return bad(e, n, why, v);
	}
	if (!pt.len)
		return bad(e, n, "a pattern", v);
	if (verify) {
		memcpy(o->verify_pattern, tmp, pt.len);
		o->verify_pattern_len = pt.len;
		o->verify_fmt_n = pt.fmts;
		memcpy(o->verify_fmt_at, pt.fmt_at, pt.fmts * sizeof(pt.fmt_at[0]));
	} else {
		memcpy(o->pattern, tmp, pt.len);
		o->pattern_len = pt.len;
	}
	return 0;
}

/* "0-3,6,8-9" into mask (CPUS_MAX bits); the count of CPUs in it, or -EINVAL. */
int parse_cpu_list(const char *v, uint64_t *mask)
{
	char buf[1024];
	if (strlen(v) >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", v);
	memset(mask, 0, CPUS_MAX / 8);
	int count = 0;
	char *save = NULL;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int64_t lo, hi;
		char *dash = strchr(tok, '-');
		if (dash)
			*dash = '\0';
		if (parse_int(tok, 0, CPUS_MAX - 1, &lo))
			return -EINVAL;
		hi = lo;
		if (dash && (parse_int(dash + 1, lo, CPUS_MAX - 1, &hi)))
			return -EINVAL;
		for (int64_t c = lo; c <= hi; c++) {
			if (!(mask[c / 64] & (1ULL << (c % 64))))
				count++;
			mask[c / 64] |= 1ULL << (c % 64);
		}
	}
	return count ? count : -EINVAL;
}

int opt_parse_cpus(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	int count = parse_cpu_list(v, o->cpus_allowed);
	o->ncpus_allowed = count > 0 ? (unsigned)count : 0;
	return count > 0 ? 0 : bad(e, n, "a CPU list (0-3,6; 1023 characters at most)", v);
}

int opt_parse_randseed(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	int64_t s;
	if (parse_int(v, 0, INT64_MAX, &s))
		return bad(e, n, "a seed", v);
	o->randseed = (uint64_t)s;
	o->randseed_set = true;
	return 0;
}

int opt_parse_buffered(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	bool b;
	if (parse_bool(v, &b))
		return bad(e, n, "a boolean (0 or 1)", v);
	o->direct = !b;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* "50:90:99.9": up to 20 percentiles in (0, 100], kept in ascending order. */
int opt_parse_percentiles(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	char buf[512];
	unsigned cnt = 0, prec = 0;
	if (strlen(v) >= sizeof(buf))
		return bad(e, n, "a percentile list (511 characters at most)", v);
	snprintf(buf, sizeof(buf), "%s", v);
	char *save = NULL;
	for (char *t = strtok_r(buf, ":", &save); t; t = strtok_r(NULL, ":", &save)) {
		char *end;
		double p = strtod(t, &end);
		if (end == t || *end || !(p > 0.0 && p <= 100.0) || cnt >= 20) /* NaN too */
			return bad(e, n, "a percentile list (up to 20 values in (0, 100], joined with ':')", v);
		o->pct_list[cnt++] = p;
		const char *dot = strchr(t, '.'); /* the labels show as many decimals as the most typed */
		unsigned digits = dot ? (unsigned)strspn(dot + 1, "0123456789") : 0;
		prec = digits > prec ? digits : prec;
	}
	if (!cnt)
		return bad(e, n, "a percentile list", v);
	qsort(o->pct_list, cnt, sizeof(double), cmp_double);
	o->npct = cnt;
	o->pct_prec = prec < 10 ? prec : 10;
	return 0;
}

/* write_*_log=PREFIX; a bare flag means the job's name (stored as "1"). */
int opt_parse_logname(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	const char *name = v && *v ? v : "1";
	if (strlen(name) >= d->size) {
		snprintf(e, n, "file name is too long");
		return -ENAMETOOLONG;
	}
	memcpy(FIELD(o, d, char), name, strlen(name) + 1);
	return 0;
}
