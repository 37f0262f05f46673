/* fio's profiles (--profile=act, --profile=tiobench): the jobs they make (core/app/profile.c). */
#ifndef IOBENCH_PROFILE_H
#define IOBENCH_PROFILE_H
#include <stddef.h>
#include <stdio.h>

#include "core/run/run.h"

/* The profile's jobs, from its options on cfg's command line, as "key=value" (or "key")
 * options to take after the command line's; *tokens is the caller's (profile_tokens_free).
 * 0, or -errno after one line on stderr. */
int profile_tokens(const struct run_cfg *cfg, char ***tokens, size_t *n);
void profile_tokens_free(char **tokens, size_t n);
/* --cmdhelp after --profile: the profile's options (name NULL or "all") or one of them.
 * -ENOENT when it has no such option. */
int profile_print_help(FILE *out, const char *profile, const char *name);

#endif
