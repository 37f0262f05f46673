/* Issue 24: values are exact or refused. Every time, size, rate and integer option of the
 * core's tables and of every engine's is given 2^63, 2^64 - 1 and values next to the limits
 * of 64 bits (and of 64-bit nanoseconds), with every suffix that applies, in both kb_base;
 * each must be refused with a one-line message, or stored as the exact value (fractions
 * rounded down to the unit: whole bytes, whole microseconds). A time that is taken must also
 * be one the run can carry out: its nanoseconds fit in 63 bits. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engines/engine.h"
#include "core/job/options.h"

typedef unsigned __int128 u128;

/* A decimal number of any length, exactly (up to 2^128). */
static u128 dec(const char *s)
{
	u128 v = 0;
	for (; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (unsigned)(*s - '0');
	return v;
}

enum kind { K_SIZE, K_TIME, K_INT };

/* The parsed options with a size, a time or a rate inside: the value as written ("%s" is
 * the number and suffix) and where the parser puts it. */
struct func_row {
	const char *name;
	enum kind kind;
	const char *fmt;
	uint64_t (*get)(const struct job_opts *o);
	uint64_t unit; /* a time's bare number (0: the row's .unit) */
};

static uint64_t get_size(const struct job_opts *o) { return o->size; }
static uint64_t get_io_size(const struct job_opts *o) { return o->io_size; }
static uint64_t get_offset(const struct job_opts *o) { return o->offset; }
static uint64_t get_offset_inc(const struct job_opts *o) { return o->offset_increment; }
static uint64_t get_filesize(const struct job_opts *o) { return o->filesize_lo; }
static uint64_t get_bs(const struct job_opts *o) { return o->bs[DDIR_WRITE]; }
static uint64_t get_bsrange(const struct job_opts *o) { return o->bs_max[DDIR_READ]; }
static uint64_t get_bssplit(const struct job_opts *o) { return o->bssplit[DDIR_READ][0].bs; }
static uint64_t get_ba(const struct job_opts *o) { return o->io.ba[DDIR_TRIM]; }
static uint64_t get_rate(const struct job_opts *o) { return o->rate[DDIR_READ]; }
static uint64_t get_rate_min(const struct job_opts *o) { return o->rate_min[DDIR_WRITE]; }
static uint64_t get_rate_iops(const struct job_opts *o) { return o->rate_iops[DDIR_READ]; }
static uint64_t get_rate_iops_min(const struct job_opts *o) { return o->rate_iops_min[DDIR_READ]; }
static uint64_t get_startdelay(const struct job_opts *o) { return o->startdelay_us[1]; }
static uint64_t get_max_latency(const struct job_opts *o) { return o->io.max_latency_us[DDIR_READ]; }
static uint64_t get_rw_mod(const struct job_opts *o) { return (uint64_t)o->rw_mod; }
static uint64_t get_zoned_abs(const struct job_opts *o) { return o->dist[DDIR_READ].zones[0].size; }
static uint64_t get_cmdprio_split(const struct job_opts *o) { return o->env.cmdprio_split[DDIR_READ][0].bs; }

static const struct func_row func_rows[] = {
	{ "size", K_SIZE, "%s", get_size, 0 },
	{ "io_size", K_SIZE, "%s", get_io_size, 0 },
	{ "offset", K_SIZE, "%s", get_offset, 0 },
	{ "offset_increment", K_SIZE, "%s", get_offset_inc, 0 },
	{ "filesize", K_SIZE, "%s", get_filesize, 0 },
	{ "bs", K_SIZE, "%s", get_bs, 0 },
	{ "bsrange", K_SIZE, "1-%s", get_bsrange, 0 },
	{ "bssplit", K_SIZE, "%s/100", get_bssplit, 0 },
	{ "ba", K_SIZE, "%s", get_ba, 0 },
	{ "rate", K_SIZE, "%s", get_rate, 0 },
	{ "rate_min", K_SIZE, "1,%s", get_rate_min, 0 },
	{ "rate_iops", K_INT, "%s", get_rate_iops, 0 },
	{ "rate_iops_min", K_INT, "%s", get_rate_iops_min, 0 },
	{ "startdelay", K_TIME, "0-%s", get_startdelay, 0 },
	{ "max_latency", K_TIME, "%s", get_max_latency, 1 },
	{ "rw", K_SIZE, "read:%s", get_rw_mod, 0 },
	{ "random_distribution", K_SIZE, "zoned_abs:100/%s", get_zoned_abs, 0 },
	{ "cmdprio_bssplit", K_SIZE, "%s/100", get_cmdprio_split, 0 },
};

struct suffix {
	const char *text;
	unsigned power; /* of the base: k 1, m 2 ... */
	int other_base; /* kib, mib...: 1000 <-> 1024 */
};
static const struct suffix size_suffixes[] = {
	{ "", 0, 0 },	  { "b", 0, 0 },    { "k", 1, 0 },    { "kb", 1, 0 },   { "ki", 1, 0 },  { "kib", 1, 1 },
	{ "m", 2, 0 },	  { "MB", 2, 0 },   { "mib", 2, 1 },  { "g", 3, 0 },    { "gi", 3, 0 },  { "GiB", 3, 1 },
	{ "t", 4, 0 },	  { "tb", 4, 0 },   { "tib", 4, 1 },  { "p", 5, 0 },    { "pb", 5, 0 },  { "PiB", 5, 1 },
	{ "e", 6, 0 },	  { "eb", 6, 0 },   { "eib", 6, 1 },
};
static const struct {
	const char *text;
	uint64_t us; /* 0: the option's unit */
} time_suffixes[] = {
	{ "", 0 },
	{ "us", 1 },
	{ "usec", 1 },
	{ "ms", 1000 },
	{ "msec", 1000 },
	{ "s", 1000000 },
	{ "sec", 1000000 },
	{ "m", 60000000ULL },
	{ "min", 60000000ULL },
	{ "h", 3600000000ULL },
	{ "hour", 3600000000ULL },
	{ "d", 86400000000ULL },
	{ "day", 86400000000ULL },
};

/* One option row and where its value is read back. */
struct subject {
	const char *engine; /* NULL: the core's */
	const struct option_def *def, *table; /* the row, and the engine's table it is in */
	enum kind kind;
	const char *fmt;
	uint64_t (*get)(const struct job_opts *o);
	uint64_t unit;
	size_t opts_size; /* an engine's options struct */
};

struct tally {
	unsigned tried, taken, refused, bad;
	unsigned bad_here; /* of the option being walked: the first two are shown */
};

static uint64_t read_field(const struct subject *s, const struct job_opts *o, const void *base)
{
	if (s->get)
		return s->get(o);
	const char *f = (const char *)base + s->def->offset;
	switch (s->def->type) {
	case OPT_UINT:
		return *(const unsigned *)f;
	case OPT_INT:
		return (uint64_t)(int64_t) * (const int *)f;
	default:
		return *(const uint64_t *)f;
	}
}

/* Give text to the option; exact is the mathematical value in the field's unit (> 2^64: none). */
static void try_one(const struct subject *s, unsigned kb_base, const char *number, const char *suffix, u128 exact,
		    struct tally *t)
{
	char num[128], text[160], err[512] = "";
	snprintf(num, sizeof(num), "%s%s", number, suffix);
	const char *at = strstr(s->fmt, "%s");
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - s->fmt), s->fmt, num, at + 2);
	struct job_opts o;
	options_defaults(&o);
	o.kb_base = kb_base;
	void *base = &o;
	if (s->engine) {
		base = calloc(1, s->opts_size ? s->opts_size : 1);
		assert_non_null(base);
		options_defaults_at(&o, base, s->table);
	}
	int ret = option_set_at(&o, base, s->def, text, err, sizeof(err));
	uint64_t got = ret ? 0 : read_field(s, &o, base);
	if (base != &o)
		free(base);
	t->tried++;
	const char *why = NULL;
	if (ret) {
		t->refused++;
		if (!err[0])
			why = "refused without a message";
		else if (strchr(err, '\n'))
			why = "refused with more than one line";
		else if (strlen(err) > 400)
			why = "refused with a message longer than 400 bytes";
	} else {
		t->taken++;
		bool in_range = true;
		if (s->def->type == OPT_UINT || s->def->type == OPT_INT || s->def->type == OPT_U64)
			in_range = exact <= (u128)s->def->max && (s->def->min <= 0 || exact >= (u128)s->def->min);
		if (exact > UINT64_MAX)
			why = "taken, but the value does not fit in 64 bits";
		else if ((uint64_t)exact != got)
			why = "taken, but not stored as the exact value";
		else if (!in_range)
			why = "taken outside the option's range";
		else if (s->kind == K_TIME && exact > (u128)INT64_MAX / 1000)
			why = "taken, but a time whose nanoseconds do not fit in 63 bits cannot be carried out";
	}
	if (why) {
		t->bad++;
		if (++t->bad_here <= 2)
			print_message("%s%s%s=%s (kb_base=%u): %s (stored %llu, exact %.0Lf; '%s')\n",
				      s->engine ? s->engine : "", s->engine ? ": " : "", s->def->name, text, kb_base,
				      why, (unsigned long long)got, (long double)exact, err);
	}
}

/* The numbers to try with one multiplier: the raw limits of 64 bits, and for each limit L of
 * 2^64 - 1, 2^63 - 1 and their nanosecond counterparts (divided by 1000), L / mult and its
 * neighbours, and a fraction just below it. exact = number * mult (fractions rounded down). */
static void try_numbers(const struct subject *s, unsigned kb_base, const char *suffix, uint64_t mult,
			struct tally *t)
{
	static const char *const raw[] = { "18446744073709551615", "18446744073709551616", "9223372036854775808",
					   "9223372036854775807", "9223372036854775", "9223372036854776" };
	for (size_t i = 0; i < sizeof(raw) / sizeof(raw[0]); i++)
		try_one(s, kb_base, raw[i], suffix, dec(raw[i]) * mult, t);
	static const uint64_t limits[] = { UINT64_MAX, INT64_MAX, UINT64_MAX / 1000, INT64_MAX / 1000 };
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		uint64_t q = limits[i] / mult;
		for (uint64_t n = q ? q - 1 : 0; n <= q + 1; n++) {
			char num[64];
			if (!n)
				continue;
			snprintf(num, sizeof(num), "%llu", (unsigned long long)n);
			try_one(s, kb_base, num, suffix, (u128)n * mult, t);
			if (!suffix[0] && s->kind == K_TIME)
				continue; /* a bare time's fraction is dropped, as fio: 1.5 runs 1 s */
			snprintf(num, sizeof(num), "%llu.5", (unsigned long long)n);
			try_one(s, kb_base, num, suffix, (u128)n * mult + mult / 2, t);
			snprintf(num, sizeof(num), "%llu.999999999999999999", (unsigned long long)n);
			try_one(s, kb_base, num, suffix,
				(u128)n * mult + (u128)mult * 999999999999999999ULL / 1000000000000000000ULL, t);
		}
	}
}

static uint64_t power_of(uint64_t base, unsigned n)
{
	uint64_t m = 1;
	while (n--)
		m *= base;
	return m;
}

static void walk(const struct subject *s, struct tally *t)
{
	t->bad_here = 0;
	for (unsigned kb = 0; kb < 2; kb++) {
		unsigned kb_base = kb ? 1000 : 1024;
		if (s->kind == K_TIME) {
			for (size_t i = 0; i < sizeof(time_suffixes) / sizeof(time_suffixes[0]); i++)
				try_numbers(s, kb_base, time_suffixes[i].text,
					    time_suffixes[i].us ? time_suffixes[i].us : s->unit, t);
			if (!strcmp(s->def->name, "max_latency")) /* "ns" as fio: whole microseconds, at least 1 */
				for (unsigned i = 0; i < 3; i++) {
					static const char *const ns[] = { "9223372036854775807", "9223372036854775808",
									  "18446744073709551615" };
					try_one(s, kb_base, ns[i], "ns", dec(ns[i]) / 1000, t);
				}
			continue;
		}
		for (size_t i = 0; i < sizeof(size_suffixes) / sizeof(size_suffixes[0]); i++) {
			const struct suffix *x = &size_suffixes[i];
			uint64_t base = x->other_base ? (kb_base == 1000 ? 1024 : 1000) : kb_base;
			try_numbers(s, kb_base, x->text, power_of(base, x->power), t);
		}
	}
}

static const struct func_row *func_row(const char *name)
{
	for (size_t i = 0; i < sizeof(func_rows) / sizeof(func_rows[0]); i++)
		if (!strcmp(func_rows[i].name, name))
			return &func_rows[i];
	return NULL;
}

/* Does a row carry a size, time or number we must try? Sets the subject's kind and reader. */
static bool subject_of(struct subject *s)
{
	const struct option_def *d = s->def;
	s->fmt = "%s";
	s->get = NULL;
	s->unit = d->unit;
	switch (d->type) {
	case OPT_SIZE:
		s->kind = K_SIZE;
		return true;
	case OPT_TIME:
		s->kind = K_TIME;
		return true;
	case OPT_UINT:
	case OPT_INT:
	case OPT_U64:
		s->kind = K_INT;
		return true;
	case OPT_FUNC: {
		const struct func_row *f = func_row(d->name);
		if (!f)
			return false;
		s->kind = f->kind;
		s->fmt = f->fmt;
		s->get = f->get;
		s->unit = f->unit ? f->unit : d->unit;
		return true;
	}
	default:
		return false;
	}
}

static void test_core_options(void **state)
{
	(void)state;
	struct tally t = { 0 };
	unsigned rows = 0;
	struct option_iter it;
	FOR_EACH_CORE_OPTION(it, d) {
		struct subject s = { .def = d };
		/* A parsed option whose syntax holds a size or a time is in func_rows. */
		if (d->type == OPT_FUNC && d->syntax && (strstr(d->syntax, "size") || strstr(d->syntax, "time")) &&
		    !func_row(d->name) && strcmp(d->name, "steadystate")) {
			print_message("%s (%s): a size or time option this test does not know\n", d->name, d->syntax);
			t.bad++;
		}
		if (!subject_of(&s))
			continue;
		rows++;
		walk(&s, &t);
	}
	for (size_t i = 0; i < sizeof(func_rows) / sizeof(func_rows[0]); i++)
		assert_non_null(option_find_core(func_rows[i].name));
	print_message("# core: %u options, %u values: %u taken exactly, %u refused in one line, %u wrong\n", rows,
		      t.tried, t.taken, t.refused, t.bad);
	assert_true(rows > 60);
	assert_int_equal(t.bad, 0);
}

static void test_engine_options(void **state)
{
	(void)state;
	struct tally t = { 0 };
	unsigned rows = 0;
	const struct engine_ops *e;
	for (size_t i = 0; (e = engine_by_index(i)); i++)
		for (const struct option_def *d = e->options; d && d->name; d++) {
			struct subject s = { .engine = e->name, .def = d, .table = e->options, .opts_size = e->options_size };
			if (d->type == OPT_FUNC || !subject_of(&s))
				continue;
			rows++;
			walk(&s, &t);
		}
	print_message("# engines: %u options, %u values: %u taken, %u refused in one line, %u wrong\n", rows,
		      t.tried, t.taken, t.refused, t.bad);
	assert_true(rows > 10);
	assert_int_equal(t.bad, 0);
}

/* The time a cpuio job pauses is thinktime's: refused where it cannot be carried out. */
static void test_cpuio_pause(void **state)
{
	(void)state;
	const struct engine_ops *e = engine_find("cpuio");
	assert_non_null(e);
	struct job_opts o;
	options_defaults(&o);
	void *eo = calloc(1, e->options_size);
	assert_non_null(eo);
	options_defaults_at(&o, eo, e->options);
	char err[256] = "";
	assert_int_equal(option_set_at(&o, eo, option_find_in(e->options, "cpuload"), "1", err, sizeof(err)), 0);
	assert_int_equal(option_set_at(&o, eo, option_find_in(e->options, "cpuchunks"), "9223372036854775", err,
				       sizeof(err)), 0);
	char why[256] = "";
	assert_int_equal(e->resolve(&o, eo, why, sizeof(why)), -ERANGE);
	assert_non_null(strstr(why, "cpuchunks"));
	assert_int_equal(option_set_at(&o, eo, option_find_in(e->options, "cpuchunks"), "93162353907624", err,
				       sizeof(err)), 0);
	assert_int_equal(e->resolve(&o, eo, why, sizeof(why)), 0);
	assert_int_equal(o.thinktime_us, 93162353907624ULL * 99);
	free(eo);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_core_options),
		cmocka_unit_test(test_engine_options),
		cmocka_unit_test(test_cpuio_pause),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
