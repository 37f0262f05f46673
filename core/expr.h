/* Job-file value substitution: fio's reserved keywords ($ncpus, $pagesize, $mb_memory)
 * and simple integer arithmetic, evaluated in C (fio runs bc for this). */
#ifndef IOBENCH_EXPR_H
#define IOBENCH_EXPR_H
#include <stddef.h>
#include <stdint.h>

struct sys_values {
	int64_t ncpus, pagesize, mb_memory;
};

void sys_values_read(struct sys_values *sv);

/* Evaluate + - * / % and parentheses over integers. 0, -EINVAL (syntax), -ERANGE
 * (overflow), -EDOM (division by zero). */
int expr_eval(const char *s, int64_t *out);

/* Replace the keywords in `in`; then a value that is an arithmetic expression, or a
 * parenthesized expression followed by a unit suffix ("(2*$ncpus)g"), is evaluated.
 * 0 or -errno; out holds the result. */
int expr_substitute(const char *in, const struct sys_values *sv, char *out, size_t len);

#endif
