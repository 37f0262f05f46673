/* http (http_verbose): libcurl's verbose log, through its debug callback, with the
 * credentials left out. libcurl's own log shows the request's headers as sent, and with them
 * basic authentication's user:password (base64), Swift's X-Auth-Token, the SigV4
 * Authorization and the SSE-C key: a log pasted into a ticket must not carry them. Called
 * by engines/http.c only (the declaration is repeated there; engines see no header of each
 * other); tests/unit/test_secret.c feeds it headers. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "engines/engine.h"

int http_log(void *curl, int type, char *data, size_t size, void *out);

/* libcurl's curl_infotype: what data is. */
enum { INFO_TEXT = 0, INFO_HEADER_IN = 1, INFO_HEADER_OUT = 2 };

/* Does a request header line carry a credential? */
static bool secret_header(const char *line, size_t len)
{
	static const char *const names[] = { "authorization", "proxy-authorization", "x-auth-token",
					     "x-amz-server-side-encryption-customer-key" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t n = strlen(names[i]);
		if (len > n && line[n] == ':' && !strncasecmp(line, names[i], n))
			return true;
	}
	return false;
}

/* "Authorization: Basic KEY" as "> Authorization: Basic <redacted>" (the scheme word stays),
 * "X-Auth-Token: KEY" as "> X-Auth-Token: <redacted>". */
static void redacted_header(FILE *out, const char *line, size_t len)
{
	size_t name = (size_t)((const char *)memchr(line, ':', len) - line) + 1, v = name, w;
	while (v < len && line[v] == ' ')
		v++;
	for (w = v; w < len && line[w] != ' ';)
		w++;
	bool scheme = w < len;
	fprintf(out, "> %.*s %.*s%s" OPT_REDACTED "\n", (int)name, line, scheme ? (int)(w - v) : 0, line + v,
		scheme ? " " : "");
}

/* As libcurl's own log: "* " its notes, "> " the request's headers, "< " the response's, a
 * line each; bodies and TLS data are not shown. Always 0 (libcurl's contract). */
int http_log(void *curl, int type, char *data, size_t size, void *out)
{
	static const char mark[] = "*<>";
	if (type < INFO_TEXT || type > INFO_HEADER_OUT)
		return 0;
	for (size_t at = 0; at < size;) {
		const char *line = data + at, *nl = memchr(line, '\n', size - at);
		size_t len = nl ? (size_t)(nl - line) : size - at;
		at += len + (nl != NULL);
		if (len && line[len - 1] == '\r')
			len--;
		if (!len)
			continue;
		if (type == INFO_HEADER_OUT && secret_header(line, len))
			redacted_header(out, line, len);
		else
			fprintf(out, "%c %.*s\n", mark[type], (int)len, line);
	}
	return 0;
}
