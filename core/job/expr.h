/* Job-file value substitution: fio's reserved keywords ($ncpus, $pagesize, $mb_memory)
 * and simple integer arithmetic, evaluated in C (fio runs bc for this). */
#ifndef IOBENCH_EXPR_H
#define IOBENCH_EXPR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Parentheses and unary minus nest this deep at most (-ELOOP beyond). */
#define EXPR_MAX_DEPTH 64
#define EXPR_MAX_DEPTH_TEXT "64"

struct sys_values {
	int64_t ncpus, pagesize, mb_memory;
};

void sys_values_read(struct sys_values *sv);

/* Evaluate + - * / % and parentheses over 64-bit integers. 0, -EINVAL (syntax), -ERANGE
 * (overflow, INT64_MIN / -1 too), -EDOM (division by zero), -ELOOP (nested too deep). */
int expr_eval(const char *s, int64_t *out);

/* What an expr_eval or expr_substitute error means, for messages ("overflow"...). */
const char *expr_why(int err);

/* Replace the keywords in `in`; then a value that is an arithmetic expression, or a
 * parenthesized expression followed by a unit suffix ("(2*$ncpus)g"), is evaluated:
 * always when keywords were replaced (an expression that does not parse is an error
 * then), and for a numeric option also without keywords ("(1+2)k"; "(text)" is left as
 * it is, but an overflow or a division by zero is an error). 0 with *out malloc'd (the
 * caller frees it), or -errno. */
int expr_substitute(const char *in, const struct sys_values *sv, bool numeric, char **out);

#endif
