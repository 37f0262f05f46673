/* http: what a transfer said. libcurl's verbose log (http_verbose), through its debug
 * callback, with the credentials left out; and a failed transfer's curl code and HTTP
 * status as errnos and words. libcurl's own log shows the request's headers as sent, and with them
 * basic authentication's user:password (base64), Swift's X-Auth-Token, the SigV4
 * Authorization and the SSE-C key: a log pasted into a ticket must not carry them. Called
 * by engines/http.c only (the declaration is repeated there; engines see no header of each
 * other); tests/unit/test_secret.c feeds it headers. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "engines/engine.h"

int http_log(void *curl, int type, char *data, size_t size, void *out);
int http_curl_errno(int c);
int http_status_errno(long code);
const char *http_status_text(long code);

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

/* What a failed transfer means, as an errno (the line names curl's own words too). */
int http_curl_errno(int c)
{
	switch (c) {
	case 6: /* CURLE_COULDNT_RESOLVE_HOST */
		return -EHOSTUNREACH;
	case 7: /* CURLE_COULDNT_CONNECT */
		return -ECONNREFUSED;
	case 28: /* CURLE_OPERATION_TIMEDOUT */
		return -ETIMEDOUT;
	case 35: case 51: case 53: case 54: case 58: case 59: case 60: case 64: case 66: case 77: case 80:
	case 82: case 83: case 90: case 91: /* TLS */
		return -EPROTO;
	case 42: /* CURLE_ABORTED_BY_CALLBACK: the run was stopped */
		return -EINTR;
	case 52: case 55: case 56: /* nothing back, send or receive failed */
		return -ECONNRESET;
	default:
		return -EIO;
	}
}

/* What a status code means, as an errno. */
int http_status_errno(long code)
{
	switch (code) {
	case 400: case 416: return -EINVAL;
	case 401: case 403: return -EACCES;
	case 404: case 410: return -ENOENT;
	case 405: case 501: return -EOPNOTSUPP;
	case 408: case 504: return -ETIMEDOUT;
	case 409: case 423: return -EBUSY;
	case 411: case 413: return -EFBIG;
	case 429: case 503: return -EAGAIN;
	case 507: return -ENOSPC;
	default: return -EIO;
	}
}

/* A status code's reason phrase, "" for one not listed. */
const char *http_status_text(long code)
{
	static const struct { long code; const char *text; } t[] = {
		{ 400, "Bad Request" }, { 401, "Unauthorized" }, { 403, "Forbidden" }, { 404, "Not Found" },
		{ 405, "Method Not Allowed" }, { 408, "Request Timeout" }, { 409, "Conflict" }, { 411, "Length Required" },
		{ 413, "Payload Too Large" }, { 416, "Range Not Satisfiable" }, { 429, "Too Many Requests" },
		{ 500, "Internal Server Error" }, { 501, "Not Implemented" }, { 502, "Bad Gateway" },
		{ 503, "Service Unavailable" }, { 504, "Gateway Timeout" }, { 507, "Insufficient Storage" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].code == code)
			return t[i].text;
	return "";
}
