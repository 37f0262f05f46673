/* Option value parsers: pure functions, unit-tested in tests/unit/test_parse.c. */
#include "core/parse.h"

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

int parse_size(const char *s, unsigned kb_base, uint64_t *out)
{
	char *end;
	uint64_t whole;
	int lead = leading_u64(s, 0, &whole, &end);
	if (lead)
		return lead;
	uint64_t frac_num = 0, frac_den = 1;
	if (*end == '.' && isdigit((unsigned char)end[1])) {
		end++;
		while (isdigit((unsigned char)*end)) {
			if (frac_den < 1000000000ULL) {
				frac_num = frac_num * 10 + (uint64_t)(*end - '0');
				frac_den *= 10;
			}
			end++;
		}
	}
	uint64_t mult;
	int ret = size_suffix(end, kb_base, &mult);
	if (ret)
		return ret;
	uint64_t v;
	if (mul_u64(whole, mult, &v))
		return -ERANGE;
	if (frac_num) {
		unsigned __int128 f = (unsigned __int128)frac_num * mult / frac_den;
		if (__builtin_add_overflow(v, (uint64_t)f, &v))
			return -ERANGE;
	}
	*out = v;
	return 0;
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
	uint64_t v;
	int lead = leading_u64(s, 10, &v, &end);
	if (lead)
		return lead;
	/* A fraction (1.5, 1.5m): fio 3.33 keeps the whole part of a bare number (runtime=1.5 runs
	 * 1 s), as here; with a unit it drops the unit too (1.5m is 1 s), where iobench takes the
	 * value as written (90 s). A bare fraction below 1 (0.5) is refused: fio makes it 0. */
	uint64_t frac_num = 0, frac_den = 1;
	if (*end == '.' && isdigit((unsigned char)end[1])) {
		for (end++; isdigit((unsigned char)*end); end++)
			if (frac_den < 1000000000ULL) {
				frac_num = frac_num * 10 + (uint64_t)(*end - '0');
				frac_den *= 10;
			}
		if (only_space(end) && !v && frac_num)
			return -EDOM;
	}
	uint64_t unit = default_unit_us;
	if (!only_space(end)) {
		size_t len = strlen(end);
		while (len && isspace((unsigned char)end[len - 1]))
			len--;
		bool found = false;
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			if (strlen(units[i].suffix) == len && strncasecmp(end, units[i].suffix, len) == 0) {
				unit = units[i].us;
				found = true;
				break;
			}
		}
		if (!found)
			return -EINVAL;
		uint64_t whole, part;
		if (mul_u64(v, unit, &whole) || mul_u64(frac_num, unit, &part) || whole + part / frac_den < whole)
			return -ERANGE;
		*out_us = whole + part / frac_den;
		return 0;
	}
	return mul_u64(v, unit, out_us);
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
