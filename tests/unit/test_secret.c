/* Secrets (core/job/secret.c, issue 24): which options are credentials, what is printed in their
 * place (a value, a name given with its value glued on, the HTML page's command line), and
 * the http engine's verbose log (engines/http_log.c), whose credential headers are redacted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/app/cli.h"
#include "engines/engine.h"
#include "core/job/options.h"
#include "engines/secret.h"

int http_log(void *curl, int type, char *data, size_t size, void *out);

static void test_which_are_secret(void **state)
{
	assert_true(option_is_secret("http_pass"));
	assert_true(option_is_secret("http_s3_key"));
	assert_true(option_is_secret("http_s3_sse_customer_key"));
	assert_true(option_is_secret("http_swift_auth_token"));
	/* Identifiers, not credentials: the user, the access key id (sent in the clear in every
	 * request's Authorization header), the host. */
	assert_false(option_is_secret("http_user"));
	assert_false(option_is_secret("http_s3_keyid"));
	assert_false(option_is_secret("http_host"));
	assert_false(option_is_secret("bs"));
	assert_false(option_is_secret("no_such_option"));
	assert_false(option_is_secret(NULL));
	/* The list for readers of many names: each name there is a secret; too small a list
	 * still counts them all. */
	const char *names[16];
	size_t n = option_secret_names(names, 16);
	assert_true(n >= 4 && n <= 16);
	for (size_t i = 0; i < n; i++)
		assert_true(option_is_secret(names[i]));
	assert_int_equal(option_secret_names(names, 1), n);
}

/* A secret row is text: the only refusal of OPT_STR ("value is too long") names no value,
 * where a number's or a word's would echo it. */
static void check_rows(const struct option_def *d, unsigned *n)
{
	for (; d && d->name; d++)
		if (d->secret) {
			assert_int_equal(d->type, OPT_STR);
			++*n;
		}
}

static void test_secret_rows_are_text(void **state)
{
	unsigned n = 0;
	for (const struct option_def *const *t = option_tables; *t; t++)
		check_rows(*t, &n);
	const struct engine_ops *e;
	for (size_t i = 0; (e = engine_by_index(i)); i++)
		check_rows(e->options, &n);
	assert_true(n >= 4);
	/* A value too long for http_pass's buffer: refused without it. */
	char err[256] = "", big[2000];
	memset(big, 'K', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	const struct engine_ops *http = engine_find("http");
	assert_non_null(http);
	const struct option_def *d = option_find_in(http->options, "http_pass");
	assert_non_null(d);
	struct job_opts *o = calloc(1, sizeof(*o));
	void *eng = calloc(1, http->options_size);
	assert_non_null(o);
	assert_non_null(eng);
	options_defaults(o);
	assert_int_not_equal(option_set_at(o, eng, d, big, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "too long"));
	assert_null(strstr(err, "KKKK"));
	free(eng);
	free(o);
}

static void test_values_shown(void **state)
{
	assert_string_equal(opt_value_shown("http_s3_key", "sk-123"), OPT_REDACTED);
	assert_string_equal(opt_value_shown("http_pass", ""), OPT_REDACTED);
	assert_string_equal(opt_value_shown("http_s3_keyid", "AKID"), "AKID");
	assert_string_equal(opt_value_shown("bs", "4k"), "4k");
	assert_null(opt_value_shown("http_pass", NULL));
}

static void test_names_shown(void **state)
{
	char buf[160];
	/* "http_pass KEY" in a job file, "--http_pass:KEY": the name, its separator, then redacted */
	assert_string_equal(opt_name_shown("http_pass sk-123", buf, sizeof(buf)), "http_pass " OPT_REDACTED);
	assert_string_equal(opt_name_shown("http_s3_key:sk-123", buf, sizeof(buf)), "http_s3_key:" OPT_REDACTED);
	assert_string_equal(opt_name_shown("http_swift_auth_token\tT", buf, sizeof(buf)),
			    "http_swift_auth_token\t" OPT_REDACTED);
	/* Other names stay: a longer name (http_s3_keyid), a name alone, another option. */
	assert_string_equal(opt_name_shown("http_s3_keyid", buf, sizeof(buf)), "http_s3_keyid");
	assert_string_equal(opt_name_shown("http_s3_key_x", buf, sizeof(buf)), "http_s3_key_x");
	assert_string_equal(opt_name_shown("http_pass", buf, sizeof(buf)), "http_pass");
	assert_string_equal(opt_name_shown("http_pas", buf, sizeof(buf)), "http_pas");
	assert_string_equal(opt_name_shown("bs x", buf, sizeof(buf)), "bs x");
	assert_string_equal(opt_name_shown("", buf, sizeof(buf)), "");
}

static void test_command_line(void **state)
{
	char *argv[] = { "iobench", "--name=j", "--http_pass=pw1", "--http_s3_key", "sk2", "-http_swift_auth_token=t3",
			 "--http_s3_sse_customer_key", "-sse4", "--http_s3_keyid=AKID", "--http_user", "alice",
			 "--output=x.html", "--http_pass" };
	char *s = secret_command_line(sizeof(argv) / sizeof(argv[0]), argv);
	assert_non_null(s);
	assert_string_equal(s, "iobench --name=j --http_pass=" OPT_REDACTED " --http_s3_key " OPT_REDACTED
			       " -http_swift_auth_token=" OPT_REDACTED " --http_s3_sse_customer_key " OPT_REDACTED
			       " --http_s3_keyid=AKID --http_user alice --output=x.html --http_pass");
	free(s);
	char *one[] = { "iobench" };
	s = secret_command_line(1, one);
	assert_string_equal(s, "iobench");
	free(s);
}

/* What http_log prints for one call of libcurl's debug callback. */
static char *logged(int type, const char *data)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	char *copy = strdup(data);
	assert_int_equal(http_log(NULL, type, copy, strlen(copy), f), 0);
	free(copy);
	fclose(f);
	return buf;
}

static void test_http_log(void **state)
{
	char *s = logged(2, "PUT /b/o HTTP/1.1\r\nHost: h:1\r\nAuthorization: Basic YWxpY2U6cHc=\r\n"
			    "X-Auth-Token: tok123\r\nx-amz-server-side-encryption-customer-key: c2VjcmV0\r\n"
			    "x-amz-server-side-encryption-customer-key-MD5: bWQ1\r\n"
			    "authorization: AWS4-HMAC-SHA256 Credential=AKID/x, Signature=ab\r\n\r\n");
	assert_string_equal(s, "> PUT /b/o HTTP/1.1\n> Host: h:1\n> Authorization: Basic " OPT_REDACTED "\n"
			       "> X-Auth-Token: " OPT_REDACTED "\n"
			       "> x-amz-server-side-encryption-customer-key: " OPT_REDACTED "\n"
			       "> x-amz-server-side-encryption-customer-key-MD5: bWQ1\n"
			       "> authorization: AWS4-HMAC-SHA256 " OPT_REDACTED "\n");
	free(s);
	s = logged(1, "HTTP/1.1 204 No Content\r\n");
	assert_string_equal(s, "< HTTP/1.1 204 No Content\n");
	free(s);
	s = logged(0, "Connected to h\n");
	assert_string_equal(s, "* Connected to h\n");
	free(s);
	s = logged(4, "the body: X-Auth-Token: tok123\n"); /* data is not shown */
	assert_string_equal(s, "");
	free(s);
	s = logged(2, "X-Auth-Token:tok123"); /* no space, no newline */
	assert_string_equal(s, "> X-Auth-Token: " OPT_REDACTED "\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_which_are_secret), cmocka_unit_test(test_secret_rows_are_text),
		cmocka_unit_test(test_values_shown),	 cmocka_unit_test(test_names_shown),
		cmocka_unit_test(test_command_line),	 cmocka_unit_test(test_http_log),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
