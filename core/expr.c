/* A small recursive-descent integer evaluator and keyword substitution. */
#include "core/expr.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void sys_values_read(struct sys_values *sv)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN), ps = sysconf(_SC_PAGESIZE);
	long pages = sysconf(_SC_PHYS_PAGES);
	sv->ncpus = n > 0 ? n : 1;
	sv->pagesize = ps > 0 ? ps : 4096;
	sv->mb_memory = pages > 0 ? (int64_t)pages * sv->pagesize / (1024 * 1024) : 0;
}

struct parser {
	const char *p;
	int err;
};

static void skip_ws(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static int64_t parse_sum(struct parser *ps);

static int64_t parse_atom(struct parser *ps)
{
	skip_ws(ps);
	if (*ps->p == '(') {
		ps->p++;
		int64_t v = parse_sum(ps);
		skip_ws(ps);
		if (*ps->p != ')') {
			ps->err = -EINVAL;
			return 0;
		}
		ps->p++;
		return v;
	}
	if (*ps->p == '-') {
		ps->p++;
		int64_t v = parse_atom(ps);
		return -v;
	}
	if (!isdigit((unsigned char)*ps->p)) {
		ps->err = -EINVAL;
		return 0;
	}
	int64_t v = 0;
	while (isdigit((unsigned char)*ps->p)) {
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *ps->p - '0', &v))
			ps->err = -ERANGE;
		ps->p++;
	}
	return v;
}

static int64_t parse_product(struct parser *ps)
{
	int64_t v = parse_atom(ps);
	for (;;) {
		skip_ws(ps);
		char op = *ps->p;
		if (op != '*' && op != '/' && op != '%')
			return v;
		ps->p++;
		int64_t r = parse_atom(ps);
		if (op == '*') {
			if (__builtin_mul_overflow(v, r, &v))
				ps->err = -ERANGE;
		} else if (r == 0) {
			ps->err = -EDOM;
			return 0;
		} else {
			v = op == '/' ? v / r : v % r;
		}
	}
}

static int64_t parse_sum(struct parser *ps)
{
	int64_t v = parse_product(ps);
	for (;;) {
		skip_ws(ps);
		char op = *ps->p;
		if (op != '+' && op != '-')
			return v;
		ps->p++;
		int64_t r = parse_product(ps);
		if (op == '+' ? __builtin_add_overflow(v, r, &v) : __builtin_sub_overflow(v, r, &v))
			ps->err = -ERANGE;
	}
}

int expr_eval(const char *s, int64_t *out)
{
	struct parser ps = { s, 0 };
	int64_t v = parse_sum(&ps);
	skip_ws(&ps);
	if (!ps.err && *ps.p)
		ps.err = -EINVAL;
	if (!ps.err)
		*out = v;
	return ps.err;
}

static bool is_arith(const char *s)
{
	bool op = false;
	for (; *s; s++) {
		if (strchr("+-*/%()", *s))
			op = true;
		else if (!isdigit((unsigned char)*s) && !isspace((unsigned char)*s))
			return false;
	}
	return op;
}

int expr_substitute(const char *in, const struct sys_values *sv, char *out, size_t len)
{
	static const char *const keys[] = { "$ncpus", "$pagesize", "$mb_memory" };
	const int64_t vals[] = { sv->ncpus, sv->pagesize, sv->mb_memory };
	size_t o = 0;
	bool replaced = false;
	for (const char *p = in; *p;) {
		bool hit = false;
		for (int k = 0; k < 3 && !hit; k++) {
			size_t kl = strlen(keys[k]);
			if (strncmp(p, keys[k], kl) != 0)
				continue;
			int n = snprintf(out + o, len - o, "%lld", (long long)vals[k]);
			if (n < 0 || (size_t)n >= len - o)
				return -E2BIG;
			o += (size_t)n;
			p += kl;
			hit = replaced = true;
		}
		if (hit)
			continue;
		if (o + 1 >= len)
			return -E2BIG;
		out[o++] = *p++;
	}
	out[o] = '\0';
	if (!replaced && out[0] != '(')
		return 0;
	/* "(expr)suffix" or a bare expression. */
	char expr[512], suffix[32] = "";
	if (out[0] == '(') {
		const char *close = strrchr(out, ')');
		if (!close || strlen(close + 1) >= sizeof(suffix) || (size_t)(close - out + 1) >= sizeof(expr))
			return replaced ? -EINVAL : 0;
		snprintf(expr, sizeof(expr), "%.*s", (int)(close - out + 1), out);
		snprintf(suffix, sizeof(suffix), "%s", close + 1);
		for (const char *s = suffix; *s; s++)
			if (!isalpha((unsigned char)*s) && *s != '%')
				return replaced ? -EINVAL : 0;
	} else if (is_arith(out)) {
		snprintf(expr, sizeof(expr), "%s", out);
	} else {
		return 0;
	}
	int64_t v;
	int ret = expr_eval(expr, &v);
	if (ret)
		return replaced ? ret : 0; /* "(text)" without keywords is left as it is */
	int n = snprintf(out, len, "%lld%s", (long long)v, suffix);
	return n < 0 || (size_t)n >= len ? -E2BIG : 0;
}
