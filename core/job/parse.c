/* Option value parsers: pure functions, unit-tested in tests/unit/test_parse.c. */
#include "core/job/parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *skip_space(const char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

static bool only_space(const char *s)
{
	return *skip_space(s) == '\0';
}

/* fio's numbers are decimal unless they start with 0x: "010" is ten, not eight. */
static int number_base(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;
}

/* Multiply with overflow check. */
static int mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	if (__builtin_mul_overflow(a, b, out))
		return -ERANGE;
	return 0;
}

/* The power of the base a suffix stands for (0 for none), and which base it uses. */
static int size_suffix(const char *suf, unsigned kb_base, uint64_t *mult)
{
	static const char powers[] = "kmgtpe";
	char lower[8];
	size_t len = strlen(suf);

	while (len && isspace((unsigned char)suf[len - 1]))
		len--;
	if (len == 0) {
		*mult = 1;
		return 0;
	}
	if (len >= sizeof(lower))
		return -EINVAL;
	for (size_t i = 0; i < len; i++)
		lower[i] = (char)tolower((unsigned char)suf[i]);
	lower[len] = '\0';
	if (strcmp(lower, "b") == 0) {
		*mult = 1;
		return 0;
	}
	const char *p = strchr(powers, lower[0]);
	if (!p || lower[0] == '\0')
		return -EINVAL;
	unsigned power = (unsigned)(p - powers) + 1;
	uint64_t base = kb_base;
	if (len == 1 || (len == 2 && (lower[1] == 'b' || lower[1] == 'i'))) {
		/* k, kb, ki: kb_base */
	} else if (len == 3 && lower[1] == 'i' && lower[2] == 'b') {
		base = kb_base == 1000 ? 1024 : 1000; /* kib, mib...: the other base */
	} else {
		return -EINVAL;
	}
	uint64_t m = 1;
	for (unsigned i = 0; i < power; i++)
		if (mul_u64(m, base, &m))
			return -ERANGE;
	*mult = m;
	return 0;
}

/* The number a value starts with (after white space), and where it ends. */
static int leading_u64(const char *s, int base, uint64_t *v, char **end)
{
	if (!s)
		return -EINVAL;
	s = skip_space(s);
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, end, base ? base : number_base(s));
	return errno == ERANGE ? -ERANGE : 0;
}

/* The digits of a fraction after its '.', at most FRAC_DIGITS of them once the trailing zeros
 * are dropped (D / 10^n is exact in 64 bits, and D times any unit in 128); *end after them.
 * -EINVAL for more digits than that: they could not be carried out exactly. */
#define FRAC_DIGITS 18
static int fraction(char **end, uint64_t *num, uint64_t *den)
{
	char *p = *end;
	*num = 0;
	*den = 1;
	if (*p != '.' || !isdigit((unsigned char)p[1]))
		return 0;
	const char *first = ++p, *last = p; /* last: after the last digit that is not 0 */
	while (isdigit((unsigned char)*p))
		if (*p++ != '0')
			last = p;
	*end = p;
	if (last - first > FRAC_DIGITS)
		return -EINVAL;
	for (const char *d = first; d < last; d++) {
		*num = *num * 10 + (uint64_t)(*d - '0');
		*den *= 10;
	}
	return 0;
}

/* whole * mult + floor(num / den * mult), exactly; -ERANGE beyond 64 bits. */
static int scale_exact(uint64_t whole, uint64_t num, uint64_t den, uint64_t mult, uint64_t *out)
{
	unsigned __int128 v = (unsigned __int128)whole * mult + (unsigned __int128)num * mult / den;
	if (v > UINT64_MAX)
		return -ERANGE;
	*out = (uint64_t)v;
	return 0;
}

int parse_size(const char *s, unsigned kb_base, uint64_t *out)
{
	char *end;
	uint64_t whole, num, den, mult;
	int ret = leading_u64(s, 0, &whole, &end);
	if (!ret)
		ret = fraction(&end, &num, &den);
	if (!ret)
		ret = size_suffix(end, kb_base, &mult);
	return ret ? ret : scale_exact(whole, num, den, mult, out);
}

int parse_time_us(const char *s, uint64_t default_unit_us, uint64_t *out_us)
{
	static const struct {
		const char *suffix;
		uint64_t us;
	} units[] = {
		{ "us", 1 }, { "usec", 1 }, { "ms", 1000 }, { "msec", 1000 },
		{ "s", 1000000 }, { "sec", 1000000 }, { "m", 60000000ULL }, { "min", 60000000ULL },
		{ "h", 3600000000ULL }, { "hour", 3600000000ULL }, { "d", 86400000000ULL },
		{ "day", 86400000000ULL },
	};
	char *end;
	uint64_t v, num, den;
	int ret = leading_u64(s, 10, &v, &end);
	/* A fraction (1.5, 1.5m): fio 3.33 keeps the whole part of a bare number (runtime=1.5 runs
	 * 1 s), as here; with a unit it drops the unit too (1.5m is 1 s), where iobench takes the
	 * value as written (90 s). A bare fraction below 1 (0.5) is refused: fio makes it 0. */
	if (!ret)
		ret = fraction(&end, &num, &den);
	if (ret)
		return ret;
	if (only_space(end)) {
		if (!v && num)
			return -EDOM;
		num = 0;
	}
	uint64_t unit = default_unit_us;
	if (!only_space(end)) {
		size_t len = strlen(end);
		while (len && isspace((unsigned char)end[len - 1]))
			len--;
		bool found = false;
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]) && !found; i++)
			if (strlen(units[i].suffix) == len && strncasecmp(end, units[i].suffix, len) == 0) {
				unit = units[i].us;
				found = true;
			}
		if (!found)
			return -EINVAL;
	}
	uint64_t us;
	ret = scale_exact(v, num, den, unit, &us);
	if (!ret && us > TIME_MAX_US)
		ret = -ERANGE;
	if (!ret)
		*out_us = us;
	return ret;
}

int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	if (!s || only_space(s)) {
		*out = true;
		return 0;
	}
	s = skip_space(s);
	for (size_t i = 0; i < 4; i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

int parse_int(const char *s, int64_t min, int64_t max, int64_t *out)
{
	if (!s)
		return -EINVAL;
	s = skip_space(s);
	if (!*s)
		return -EINVAL;
	errno = 0;
	char *end;
	long long v = strtoll(s, &end, number_base(s));
	if (end == s || !only_space(end))
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_size_range(const char *s, unsigned kb_base, uint64_t *lo, uint64_t *hi)
{
	if (!s)
		return -EINVAL;
	const char *sep = strpbrk(s, "-:");
	if (!sep) {
		int ret = parse_size(s, kb_base, lo);
		if (!ret)
			*hi = *lo;
		return ret;
	}
	char first[64];
	size_t n = (size_t)(sep - s);
	if (n >= sizeof(first))
		return -EINVAL;
	memcpy(first, s, n);
	first[n] = '\0';
	int ret = parse_size(first, kb_base, lo);
	if (!ret)
		ret = parse_size(sep + 1, kb_base, hi);
	if (!ret && *hi < *lo)
		return -EDOM;
	return ret;
}

int parse_file_size(const char *s, unsigned kb_base, uint64_t *out)
{
	uint64_t v;
	int ret = parse_size(s, kb_base, &v);
	if (!ret && v > (uint64_t)INT64_MAX)
		return -EFBIG;
	if (!ret)
		*out = v;
	return ret;
}

void parse_size_error(char *e, size_t n, const char *v, int err)
{
	if (err == -ERANGE)
		snprintf(e, n, "'%.*s%s' does not fit in 64 bits (out of range)", SHOWN(v));
	else if (err == -EFBIG)
		snprintf(e, n, "'%.*s%s' is out of range (larger than a file can hold: %lld bytes at most)", SHOWN(v),
			 (long long)INT64_MAX);
	else
		snprintf(e, n, "cannot parse '%.*s%s' as a size", SHOWN(v));
}
