/* For the unit tests: a job's given options from "key=value" strings, as the command line's
 * --key=value would give them (a header of static functions: each test is its own binary). */
#ifndef IOBENCH_TEST_JOB_ARGS_H
#define IOBENCH_TEST_JOB_ARGS_H
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/job/job.h"

/* Add name=NAME, then each "key=value" of the va_list ended by NULL, to job->given. */
static inline void job_args_add(struct job *job, const char *name, const char *first, va_list ap)
{
	assert_int_equal(opt_list_add(&job->given, "name", name, NULL, 0), 0);
	for (const char *kv = first; kv; kv = va_arg(ap, const char *)) {
		char key[64];
		const char *eq = strchr(kv, '=');
		assert_non_null(eq);
		snprintf(key, sizeof(key), "%.*s", (int)(eq - kv), kv);
		assert_int_equal(opt_list_add(&job->given, key, eq + 1, NULL, 0), 0);
	}
}

#endif
