/* The options that carry credentials, in the core's table and every engine's. */
#ifndef IOBENCH_SECRET_H
#define IOBENCH_SECRET_H
#include <stdbool.h>
#include <stddef.h>

#include "core/job/options.h"

/* Secrets (engines/secret.c): options that carry credentials (http_pass, http_s3_key...) are
 * marked in their tables; their values are never printed (reports, --debug, --showcmd,
 * errors, the HTML page's command line): OPT_REDACTED stands in their place. */
/* Is name (or an alias) a secret option of the core's or of any engine's table? */
bool option_is_secret(const char *name);
/* The secret options' names and aliases (at most max of them into names): how many there are.
 * For a reader that asks of many names (a document's option maps). */
size_t option_secret_names(const char **names, size_t max);
/* What to print for an option's value: OPT_REDACTED for a secret's (NULL stays NULL). */
const char *opt_value_shown(const char *name, const char *value);
/* The same where name may be no option at all (--debug=parse, --showcmd print options
 * before they are resolved): an unknown name's value is OPT_REDACTED too, since a
 * mistyped secret ("HTTP_PASS", "http_passwd") is still a secret. */
const char *opt_value_shown_any(const char *name, const char *value);
/* What to print for a name that was not recognized: when it starts with a secret option's
 * name and a character no name has ("http_pass:KEY", a job file's "http_pass KEY"), that name
 * and the character, then OPT_REDACTED, in buf; else name itself. */
const char *opt_name_shown(const char *name, char *buf, size_t len);

/* The command line as one string (the HTML page's), a secret option's value replaced by
 * OPT_REDACTED: "--http_pass=KEY" and "--http_pass KEY" alike. NULL without memory. */
char *secret_command_line(int argc, char **argv);

#endif
