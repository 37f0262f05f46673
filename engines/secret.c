/* Secrets: the options that carry credentials (a row's .secret: http_pass, http_s3_key,
 * http_s3_sse_customer_key, http_swift_auth_token). Their values reach the engine and
 * nothing else: every place that prints an option's value or echoes what the user wrote
 * asks here first and prints OPT_REDACTED instead (the JSON option maps, --debug=parse,
 * --showcmd, the HTML page's command line, error messages, merged documents). */
#include "engines/secret.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "core/job/options.h"

static bool names_row(const struct option_def *d, const void *name)
{
	return !strcmp(d->name, name) || (d->alias && !strcmp(d->alias, name));
}

/* The first secret row, of the core's tables and then each engine's, that match() takes. */
static const struct option_def *secret_find(bool (*match)(const struct option_def *d, const void *arg),
					    const void *arg)
{
	struct option_iter it;
	FOR_EACH_CORE_OPTION(it, d)
		if (d->secret && match(d, arg))
			return d;
	const struct engine_ops *e;
	for (size_t i = 0; (e = engine_by_index(i)); i++)
		for (const struct option_def *d = e->options; d && d->name; d++)
			if (d->secret && match(d, arg))
				return d;
	return NULL;
}

bool option_is_secret(const char *name)
{
	return name && secret_find(names_row, name);
}

/* Adds d's name and alias to the list (arg), never matching: every secret row is seen. */
struct name_list {
	const char **names;
	size_t n, max;
};

static bool list_names(const struct option_def *d, const void *arg)
{
	struct name_list *l = (struct name_list *)arg;
	for (int k = 0; k < 2; k++) {
		const char *name = k ? d->alias : d->name;
		if (name && l->n < l->max)
			l->names[l->n] = name;
		l->n += name != NULL;
	}
	return false;
}

size_t option_secret_names(const char **names, size_t max)
{
	struct name_list l = { names, 0, max };
	secret_find(list_names, &l);
	return l.n;
}

const char *opt_value_shown(const char *name, const char *value)
{
	return value && option_is_secret(name) ? OPT_REDACTED : value;
}

const char *opt_value_shown_any(const char *name, const char *value)
{
	return value && (option_is_secret(name) || !option_find(name)) ? OPT_REDACTED : value;
}

/* Does text start with word and then a character that no option name holds? */
static bool starts_with_name(const char *text, const char *word)
{
	size_t n = word ? strlen(word) : 0;
	if (!n || strncmp(text, word, n))
		return false;
	unsigned char c = (unsigned char)text[n];
	return c && !isalnum(c) && c != '_' && c != '-';
}

static bool prefixes(const struct option_def *d, const void *text)
{
	return starts_with_name(text, d->name) || starts_with_name(text, d->alias);
}

const char *opt_name_shown(const char *name, char *buf, size_t len)
{
	const struct option_def *d = name ? secret_find(prefixes, name) : NULL;
	if (!d)
		return name;
	const char *w = starts_with_name(name, d->name) ? d->name : d->alias;
	snprintf(buf, len, "%.*s%s", (int)strlen(w) + 1, name, OPT_REDACTED);
	return buf;
}

/* Does an argument ("--http_pass=KEY", "-http_pass") name a secret option? *value: where
 * its value starts (NULL: the value is the next argument). */
static bool secret_arg(const char *arg, const char **value)
{
	if (arg[0] != '-')
		return false;
	const char *name = arg + (arg[1] == '-' ? 2 : 1), *eq = strchr(name, '=');
	char key[128];
	size_t klen = eq ? (size_t)(eq - name) : strlen(name);
	if (!klen || klen >= sizeof(key))
		return false;
	memcpy(key, name, klen);
	key[klen] = '\0';
	*value = eq ? eq + 1 : NULL;
	return option_is_secret(key);
}

char *secret_command_line(int argc, char **argv)
{
	size_t len = 1;
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + sizeof(OPT_REDACTED) + 1;
	char *s = calloc(1, len);
	size_t at = 0;
	for (int i = 0; s && i < argc; i++) {
		const char *value = NULL;
		bool secret = i > 0 && secret_arg(argv[i], &value);
		if (secret && value) /* --http_pass=KEY */
			at += (size_t)snprintf(s + at, len - at, "%.*s" OPT_REDACTED, (int)(value - argv[i]), argv[i]);
		else
			at += (size_t)snprintf(s + at, len - at, "%s", argv[i]);
		if (secret && !value && i + 1 < argc) /* --http_pass KEY */
			at += (size_t)snprintf(s + at, len - at, " " OPT_REDACTED), i++;
		if (i + 1 < argc)
			s[at++] = ' ';
	}
	return s;
}
