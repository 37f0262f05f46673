/* A small recursive-descent integer evaluator and keyword substitution. */
#include "core/job/expr.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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
	unsigned depth; /* open '(' and unary '-' */
};

static void skip_ws(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static int64_t fail(struct parser *ps, int err)
{
	if (!ps->err)
		ps->err = err;
	return 0;
}

static int64_t parse_sum(struct parser *ps);

/* A number, a (sum) or a negated atom; nesting deeper than EXPR_MAX_DEPTH is refused
 * (the recursion would otherwise follow the input). */
static int64_t parse_atom(struct parser *ps)
{
	skip_ws(ps);
	char c = *ps->p;
	if (c == '(' || c == '-') {
		if (ps->depth >= EXPR_MAX_DEPTH)
			return fail(ps, -ELOOP);
		ps->p++;
		ps->depth++;
		int64_t v = c == '(' ? parse_sum(ps) : parse_atom(ps);
		ps->depth--;
		if (ps->err)
			return 0;
		if (c == '-')
			return v == INT64_MIN ? fail(ps, -ERANGE) : -v;
		skip_ws(ps);
		if (*ps->p != ')')
			return fail(ps, -EINVAL);
		ps->p++;
		return v;
	}
	if (!isdigit((unsigned char)c))
		return fail(ps, -EINVAL);
	int64_t v = 0;
	for (; isdigit((unsigned char)*ps->p); ps->p++)
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *ps->p - '0', &v))
			return fail(ps, -ERANGE);
	return v;
}

/* v op r for * / %, or an error: INT64_MIN / -1 does not fit (and traps on x86). */
static int64_t product_step(struct parser *ps, int64_t v, char op, int64_t r)
{
	int64_t out;
	if (op == '*')
		return __builtin_mul_overflow(v, r, &out) ? fail(ps, -ERANGE) : out;
	if (r == 0)
		return fail(ps, -EDOM);
	if (r == -1) /* x % -1 is 0; x / -1 is -x */
		return op == '%' ? 0 : v == INT64_MIN ? fail(ps, -ERANGE) : -v;
	return op == '/' ? v / r : v % r;
}

static int64_t parse_product(struct parser *ps)
{
	int64_t v = parse_atom(ps);
	while (!ps->err) {
		skip_ws(ps);
		char op = *ps->p;
		if (op != '*' && op != '/' && op != '%')
			return v;
		ps->p++;
		int64_t r = parse_atom(ps);
		if (!ps->err)
			v = product_step(ps, v, op, r);
	}
	return 0;
}

static int64_t parse_sum(struct parser *ps)
{
	int64_t v = parse_product(ps);
	while (!ps->err) {
		skip_ws(ps);
		char op = *ps->p;
		if (op != '+' && op != '-')
			return v;
		ps->p++;
		int64_t r = parse_product(ps);
		if (!ps->err && (op == '+' ? __builtin_add_overflow(v, r, &v) : __builtin_sub_overflow(v, r, &v)))
			fail(ps, -ERANGE);
	}
	return 0;
}

int expr_eval(const char *s, int64_t *out)
{
	struct parser ps = { s, 0, 0 };
	int64_t v = parse_sum(&ps);
	skip_ws(&ps);
	if (!ps.err && *ps.p)
		ps.err = -EINVAL;
	if (!ps.err)
		*out = v;
	return ps.err;
}

const char *expr_why(int err)
{
	switch (err) {
	case -ERANGE:
		return "overflow";
	case -EDOM:
		return "division by zero";
	case -ELOOP:
		return "too deeply nested (" EXPR_MAX_DEPTH_TEXT " levels at most)";
	case -E2BIG:
		return "too long";
	case -ENOMEM:
		return "out of memory";
	default:
		return "not an integer expression";
	}
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

/* Copy in with the keywords replaced: each keyword (6 bytes at least) becomes 20 digits
 * at most, so 4 * strlen(in) + 32 bytes hold the result. NULL when out of memory. */
static char *replace_keywords(const char *in, const struct sys_values *sv, bool *replaced)
{
	static const char *const keys[] = { "$ncpus", "$pagesize", "$mb_memory" };
	const int64_t vals[] = { sv->ncpus, sv->pagesize, sv->mb_memory };
	size_t len = strlen(in), o = 0;
	char *out = malloc(len * 4 + 32);
	if (!out)
		return NULL;
	*replaced = false;
	for (const char *p = in; *p;) {
		bool hit = false;
		for (int k = 0; k < 3 && !hit; k++) {
			size_t kl = strlen(keys[k]);
			if (strncmp(p, keys[k], kl) != 0)
				continue;
			o += (size_t)sprintf(out + o, "%lld", (long long)vals[k]);
			p += kl;
			hit = *replaced = true;
		}
		if (!hit)
			out[o++] = *p++;
	}
	out[o] = '\0';
	return out;
}

/* Evaluate "(expr)suffix", or a bare expression when bare, in s, in place: 0, 1 when s
 * does not look like one, -EINVAL when it is not arithmetic after all (s as it was),
 * or another -errno (overflow...). */
static int evaluate(char *s, bool bare)
{
	char suffix[32] = "";
	if (s[0] == '(') {
		char *close = strrchr(s, ')');
		if (!close || strlen(close + 1) >= sizeof(suffix))
			return 1;
		for (const char *c = close + 1; *c; c++)
			if (!isalpha((unsigned char)*c) && *c != '%')
				return 1;
		memcpy(suffix, close + 1, strlen(close + 1) + 1);
		close[1] = '\0';
	} else if (!bare || !is_arith(s)) {
		return 1;
	}
	int64_t v;
	int ret = expr_eval(s, &v);
	if (ret)
		strcat(s, suffix);
	else /* 20 digits and the suffix: s held "(...)" and the suffix, or a longer expression */
		sprintf(s, "%lld%s", (long long)v, suffix);
	return ret;
}

int expr_substitute(const char *in, const struct sys_values *sv, bool numeric, char **out)
{
	bool replaced;
	char *s = replace_keywords(in, sv, &replaced);
	if (!s)
		return -ENOMEM;
	int ret = replaced || numeric ? evaluate(s, replaced) : 1;
	if (ret == 1) /* with keywords, "(...)" must be arithmetic */
		ret = replaced && s[0] == '(' ? -EINVAL : 0;
	else if (ret == -EINVAL && !replaced) /* "(text)" is left as it is */
		ret = 0;
	if (ret) {
		free(s);
		return ret;
	}
	*out = s;
	return 0;
}
