/* http: objects over HTTP(S) through libcurl, to a WebDAV server, OpenStack Swift or S3 (AWS,
 * RADOS Gateway, MinIO...). Each I/O is one request for one object: a write PUTs it, a read
 * GETs it, a trim DELETEs it. The object is named after the job's file and the I/O
 * ("FILE_OFFSET_LENGTH", e.g. /bucket/obj_8192_4096), so bs is the object size and a read or
 * trim finds what a write of the same offset and bs made; the URL is
 * http(s)://http_host/OBJECT (for S3: path style, the file's first component is the bucket).
 * S3 requests are signed with AWS SigV4 (engines/http_s3.c, OpenSSL); WebDAV uses HTTP basic
 * authentication with http_user/http_pass; Swift sends http_swift_auth_token. The credentials
 * (http_pass, http_s3_key, http_s3_sse_customer_key, http_swift_auth_token) are secret rows,
 * never printed; http_verbose's libcurl log goes through engines/http_log.c, which redacts the
 * headers that carry them.
 * One request at a time per job (as fio: scale with numjobs), over a kept-alive connection.
 * Every response's status is checked: anything but 2xx is an I/O error (403 is EACCES, 404
 * ENOENT...), its status and S3 error code named in the job's error line.
 * libcurl is loaded at run time (Debian's libcurl4), only when a job asks for this engine;
 * the static binary has no http engine. Its headers are not needed: the few declarations and
 * constants used are below, as libcurl 7.x's ABI has them. */
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/engine.h"

enum { HTTPS_OFF, HTTPS_ON, HTTPS_INSECURE };
enum { MODE_WEBDAV, MODE_SWIFT, MODE_S3 };

struct http_opts {
	char host[256];
	char user[256];
	char pass[256];
	unsigned https;
	unsigned mode;
	char s3_region[64];
	char s3_key[256];
	char s3_keyid[256];
	char sse_key[256];
	char sse_alg[32];
	char storage_class[64];
	char swift_token[1024];
	unsigned verbose;
};

static const struct choice https_choices[] = {
	{ "off", HTTPS_OFF, "Plain HTTP" },
	{ "on", HTTPS_ON, "HTTPS, the server's certificate verified" },
	{ "insecure", HTTPS_INSECURE, "HTTPS without verifying the server's certificate (use with caution)" },
	{ NULL, 0, NULL },
};

static const struct choice mode_choices[] = {
	{ "webdav", MODE_WEBDAV, "WebDAV: PUT, GET, DELETE (basic authentication: http_user, http_pass)" },
	{ "swift", MODE_SWIFT, "OpenStack Swift (X-Auth-Token: http_swift_auth_token)" },
	{ "s3", MODE_S3, "S3, signed with AWS SigV4 (http_s3_keyid, http_s3_key, http_s3_region)" },
	{ NULL, 0, NULL },
};

#define OFFS(f) offsetof(struct http_opts, f)
#define SZ(f) sizeof(((struct http_opts *)0)->f)
static const struct option_def http_options[] = {
	{ .name = "http_host", .type = OPT_STR, .offset = OFFS(host), .size = SZ(host), .def = "localhost",
	  .help = "Host (and :port) to connect to; for S3, the endpoint (path-style bucket in the file name)" },
	{ .name = "http_user", .type = OPT_STR, .offset = OFFS(user), .size = SZ(user),
	  .help = "Username for HTTP (basic) authentication" },
	{ .name = "http_pass", .type = OPT_STR, .offset = OFFS(pass), .size = SZ(pass),
	  .secret = true, .help = "Password for HTTP (basic) authentication" },
	{ .name = "https", .type = OPT_CHOICE, .offset = OFFS(https), .choices = https_choices, .def = "off",
	  .help = "Use HTTPS instead of HTTP" },
	{ .name = "http_mode", .type = OPT_CHOICE, .offset = OFFS(mode), .choices = mode_choices, .def = "webdav",
	  .help = "HTTP access mode" },
	{ .name = "http_s3_region", .type = OPT_STR, .offset = OFFS(s3_region), .size = SZ(s3_region),
	  .def = "us-east-1", .help = "The S3 region/zone string" },
	{ .name = "http_s3_key", .type = OPT_STR, .offset = OFFS(s3_key), .size = SZ(s3_key),
	  .secret = true, .help = "The S3 secret key" },
	{ .name = "http_s3_keyid", .type = OPT_STR, .offset = OFFS(s3_keyid), .size = SZ(s3_keyid),
	  .help = "The S3 key/access id" },
	{ .name = "http_s3_sse_customer_key", .type = OPT_STR, .offset = OFFS(sse_key), .size = SZ(sse_key),
	  .secret = true,
	  .help = "The encryption customer key of S3 server-side encryption (SSE-C; 32 bytes for AES256)" },
	{ .name = "http_s3_sse_customer_algorithm", .type = OPT_STR, .offset = OFFS(sse_alg), .size = SZ(sse_alg),
	  .def = "AES256", .help = "The encryption customer algorithm of SSE-C" },
	{ .name = "http_s3_storage_class", .type = OPT_STR, .offset = OFFS(storage_class), .size = SZ(storage_class),
	  .help = "The S3 storage class objects are written to (default: the bucket's, STANDARD)" },
	{ .name = "http_swift_auth_token", .type = OPT_STR, .offset = OFFS(swift_token), .size = SZ(swift_token),
	  .secret = true, .help = "The Swift auth token (openstack token issue)" },
	{ .name = "http_verbose", .type = OPT_UINT, .offset = OFFS(verbose), .def = "0", .min = 0, .max = 2,
	  .help = "1: libcurl's verbose log on stderr; 2: also one line per request" },
	{ NULL },
};

#define HTTP_LIBRARY "libcurl.so.4"

#ifdef IOBENCH_STATIC
const struct engine_ops http_engine_ops = {
	.name = "http",
	.flags = ENGINE_NO_FILE | ENGINE_REMOTE | ENGINE_TRIM | ENGINE_SYNC | ENGINE_COMPILED_OUT,
	.library = HTTP_LIBRARY,
	.options = http_options,
	.options_size = sizeof(struct http_opts),
};
#else

/* engines/http_s3.c */
int http_sha256_hex(const void *data, size_t len, char out[65]);
int http_s3_sign(const char *method, const char *uri, const char *const *names, const char *const *values,
		 unsigned n, const char *amzdate, const char *region, const char *keyid, const char *key, char *auth,
		 size_t len);
int http_s3_sse(const char *key, char *b64key, size_t keylen, char *b64md5, size_t md5len);
/* engines/http_log.c */
int http_log(void *curl, int type, char *data, size_t size, void *out);
int http_curl_errno(int c);
int http_status_errno(long code);
const char *http_status_text(long code);

/* libcurl's ABI (curl/curl.h of 7.x, Debian's libcurl4-openssl-dev is not needed). */
typedef void CURL;
typedef int CURLcode;
struct curl_slist {
	char *data;
	struct curl_slist *next;
};
enum {
	C_URL = 10002, C_WRITEDATA = 10001, C_READDATA = 10009, C_ERRORBUFFER = 10010, C_HTTPHEADER = 10023,
	C_CUSTOMREQUEST = 10036, C_XFERINFODATA = 10057, C_USERNAME = 10173, C_PASSWORD = 10174,
	C_WRITEFUNCTION = 20011, C_READFUNCTION = 20012, C_XFERINFOFUNCTION = 20219, C_DEBUGFUNCTION = 20094,
	C_DEBUGDATA = 10095,
	C_INFILESIZE_LARGE = 30115, C_LOW_SPEED_LIMIT = 19, C_LOW_SPEED_TIME = 20, C_VERBOSE = 41,
	C_NOPROGRESS = 43, C_UPLOAD = 46, C_SSL_VERIFYPEER = 64, C_CONNECTTIMEOUT = 78, C_HTTPGET = 80,
	C_SSL_VERIFYHOST = 81, C_NOSIGNAL = 99, C_HTTPAUTH = 107, C_TCP_NODELAY = 121, C_CONNECT_ONLY = 141,
};
enum { CURLINFO_RESPONSE_CODE = 0x200002, CURL_GLOBAL_ALL = 3, CURLAUTH_BASIC = 1, CURL_ERROR_SIZE = 256 };
CURLcode curl_global_init(long flags);
CURL *curl_easy_init(void);
CURLcode curl_easy_setopt(CURL *curl, int option, ...);
CURLcode curl_easy_perform(CURL *curl);
CURLcode curl_easy_getinfo(CURL *curl, int info, ...);
void curl_easy_reset(CURL *curl);
void curl_easy_cleanup(CURL *curl);
const char *curl_easy_strerror(CURLcode code);

#define CURL_FUNCS(X)                                                                                      \
	X(curl_global_init) X(curl_easy_init) X(curl_easy_setopt) X(curl_easy_perform) X(curl_easy_getinfo) \
	X(curl_easy_reset) X(curl_easy_cleanup) X(curl_easy_strerror)

struct curl_api {
#define MEMBER(f) __typeof__(f) *f;
	CURL_FUNCS(MEMBER)
#undef MEMBER
};

#define SYM(f) { #f, offsetof(struct curl_api, f) },
static const struct engine_symbol curl_syms[] = { CURL_FUNCS(SYM) };
#undef SYM

static int curl_load(struct curl_api *a, char *why, size_t len)
{
	return engine_load_library(HTTP_LIBRARY, "libcurl4", curl_syms, sizeof(curl_syms) / sizeof(curl_syms[0]), a,
				   why, len);
}

static const char *scheme(const struct http_opts *ho)
{
	return ho->https == HTTPS_OFF ? "http" : "https";
}

/* The options that must agree, before anything is loaded. */
static int http_check_opts(const struct job_opts *o, const struct http_opts *ho, char *why, size_t len)
{
	if (!o->size && !o->filesize_lo) {
		snprintf(why, len, "size: not given (objects have no size of their own: size= is the job's, "
			 "bs the size of each object)");
		return -EINVAL;
	}
	if (strpbrk(ho->host, "\t\r\n")) { /* CR/LF: no header smuggled into the requests */
		snprintf(why, len, "http_host: holds a tab, CR or LF: it is not a host name or host:port");
		return -EINVAL;
	}
	if (!ho->host[0] || strpbrk(ho->host, "/ ?#@")) {
		snprintf(why, len, "http_host: '%s' is not a host name or host:port", ho->host);
		return -EINVAL;
	}
	if (ho->mode == MODE_S3 && (!ho->s3_keyid[0] || !ho->s3_key[0])) {
		snprintf(why, len, "http_mode=s3: %s not given (the S3 access key id and secret key)",
			 !ho->s3_keyid[0] && !ho->s3_key[0] ? "http_s3_keyid and http_s3_key"
			 : !ho->s3_keyid[0]		   ? "http_s3_keyid" : "http_s3_key");
		return -EINVAL;
	}
	if (ho->mode == MODE_SWIFT && !ho->swift_token[0]) {
		snprintf(why, len, "http_mode=swift: http_swift_auth_token not given (openstack token issue)");
		return -EINVAL;
	}
	if (ho->mode == MODE_S3 && !ho->s3_region[0]) {
		snprintf(why, len, "http_s3_region: empty (the region S3 requests are signed for)");
		return -EINVAL;
	}
	return 0;
}

static void set_tls(const struct curl_api *a, CURL *h, const struct http_opts *ho)
{
	if (ho->https == HTTPS_INSECURE) {
		a->curl_easy_setopt(h, C_SSL_VERIFYPEER, 0L);
		a->curl_easy_setopt(h, C_SSL_VERIFYHOST, 0L);
	}
}

/* Before the run: the library loads, and the host takes a connection (TLS included), so a
 * wrong host or port is one line, not an I/O error per job. */
static int http_probe(const struct job_opts *o, const void *eng_opts, uint64_t *bytes, char *why, size_t len)
{
	const struct http_opts *ho = eng_opts;
	struct curl_api a;
	*bytes = 0;
	int ret = http_check_opts(o, ho, why, len);
	if (ret || (ret = curl_load(&a, why, len)))
		return ret;
	if (a.curl_global_init(CURL_GLOBAL_ALL) != 0) {
		snprintf(why, len, "libcurl cannot start (curl_global_init failed)");
		return -EIO;
	}
	CURL *h = a.curl_easy_init();
	if (!h)
		return -ENOMEM;
	char url[300], err[CURL_ERROR_SIZE] = "";
	snprintf(url, sizeof(url), "%s://%s/", scheme(ho), ho->host);
	a.curl_easy_setopt(h, C_URL, url);
	a.curl_easy_setopt(h, C_CONNECT_ONLY, 1L);
	a.curl_easy_setopt(h, C_CONNECTTIMEOUT, 10L);
	a.curl_easy_setopt(h, C_NOSIGNAL, 1L);
	a.curl_easy_setopt(h, C_ERRORBUFFER, err);
	set_tls(&a, h, ho);
	CURLcode c = a.curl_easy_perform(h);
	a.curl_easy_cleanup(h);
	if (c != 0) {
		snprintf(why, len, "http_host: cannot connect to %s: %s", url, err[0] ? err : a.curl_easy_strerror(c));
		return http_curl_errno(c);
	}
	return 0;
}

enum { MAX_HDRS = 10, URI_MAX = 4096 };

struct http_data {
	struct curl_api a;
	CURL *h;
	const struct http_opts *ho;
	const atomic_bool *stop;
	char **paths; /* the job's files, by file index */
	unsigned nr_paths;
	/* The request being made. */
	struct io_unit *u;
	uint64_t moved;        /* bytes sent (PUT) or received into the buffer (GET) */
	bool overflow;         /* a GET answered with more than the buffer holds */
	char body[512];        /* the start of an error response */
	size_t body_len;
	char err[CURL_ERROR_SIZE];
	char uri[URI_MAX];     /* the object's path, percent-encoded */
	char url[URI_MAX + 300];
	/* Headers: lines and the list curl reads (no allocation per request). */
	char lines[MAX_HDRS][1100];
	struct curl_slist list[MAX_HDRS];
	unsigned nr_lines;
	char sse_key64[400], sse_md5[32];
};

static void http_cleanup(struct engine_ctx *ctx)
{
	struct http_data *d = ctx->priv;
	if (!d)
		return;
	if (d->h)
		d->a.curl_easy_cleanup(d->h);
	for (unsigned i = 0; i < d->nr_paths; i++)
		free(d->paths[i]);
	free(d->paths);
	free(d);
}

static int http_init(struct engine_ctx *ctx)
{
	struct http_data *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	ctx->priv = d;
	d->ho = ctx->eng_opts;
	d->stop = ctx->stop;
	if (!(d->paths = calloc(ctx->nr_fds ? ctx->nr_fds : 1, sizeof(*d->paths))))
		return -ENOMEM;
	int ret = curl_load(&d->a, ctx->why, sizeof(ctx->why));
	if (ret)
		return ret;
	if (d->ho->mode == MODE_S3 && d->ho->sse_key[0] &&
	    (ret = http_s3_sse(d->ho->sse_key, d->sse_key64, sizeof(d->sse_key64), d->sse_md5, sizeof(d->sse_md5)))) {
		snprintf(ctx->why, sizeof(ctx->why), "http_s3_sse_customer_key: too long");
		return ret;
	}
	if (!(d->h = d->a.curl_easy_init()))
		return -ENOMEM;
	return 0;
}

/* A file is a name: objects are named after it (files open in order, 0 first). */
static int http_open(struct engine_ctx *ctx, const char *path, int flags, int *fd)
{
	struct http_data *d = ctx->priv;
	*fd = -1;
	if (d->nr_paths >= ctx->nr_fds)
		return -EINVAL;
	if (!(d->paths[d->nr_paths] = strdup(path)))
		return -ENOMEM;
	d->nr_paths++;
	return 0;
}

static int http_close(struct engine_ctx *ctx, int fd)
{
	return 0;
}

/* ---- one request ---- */

static size_t on_read(char *out, size_t size, size_t n, void *arg)
{
	struct http_data *d = arg;
	size_t want = size * n, left = (size_t)(d->u->len - d->moved);
	if (want > left)
		want = left;
	memcpy(out, (const char *)d->u->buf + d->moved, want);
	d->moved += want;
	return want;
}

static size_t on_write(char *in, size_t size, size_t n, void *arg)
{
	struct http_data *d = arg;
	size_t got = size * n, take = 0;
	if (d->u->ddir == DDIR_READ) {
		take = (size_t)(d->u->len - d->moved);
		take = take < got ? take : got;
		memcpy((char *)d->u->buf + d->moved, in, take);
		d->moved += take;
		d->overflow |= take < got;
	}
	size_t room = sizeof(d->body) - 1 - d->body_len, keep = got - take < room ? got - take : room;
	memcpy(d->body + d->body_len, in + take, keep);
	d->body_len += keep;
	d->body[d->body_len] = '\0';
	return got;
}

/* libcurl calls this about once a second and while data moves: a stopped run ends the request. */
static int on_progress(void *arg, int64_t dlt, int64_t dln, int64_t ult, int64_t uln)
{
	const struct http_data *d = arg;
	return d->stop && atomic_load_explicit(d->stop, memory_order_relaxed);
}

static void header(struct http_data *d, const char *fmt, ...)
{
	if (d->nr_lines >= MAX_HDRS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->lines[d->nr_lines], sizeof(d->lines[0]), fmt, ap);
	va_end(ap);
	d->list[d->nr_lines] = (struct curl_slist){ .data = d->lines[d->nr_lines] };
	if (d->nr_lines)
		d->list[d->nr_lines - 1].next = &d->list[d->nr_lines];
	d->nr_lines++;
}

/* The object's path: "/" FILE "_" OFFSET "_" LENGTH, percent-encoded but for '/' (as S3's
 * canonical URI wants it: the same text is sent and signed). */
static int object_uri(struct http_data *d, const char *path, const struct io_unit *u)
{
	char name[URI_MAX];
	int n = snprintf(name, sizeof(name), "%s%s_%llu_%llu", path[0] == '/' ? "" : "/", path,
			 (unsigned long long)u->offset, (unsigned long long)u->len);
	if (n < 0 || (size_t)n >= sizeof(name))
		return -ENAMETOOLONG;
	size_t at = 0;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		if (at + 4 > sizeof(d->uri))
			return -ENAMETOOLONG;
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    strchr("-_.~/", *p))
			d->uri[at++] = (char)*p;
		else
			at += (size_t)snprintf(d->uri + at, 4, "%%%02X", *p);
	}
	d->uri[at] = '\0';
	return 0;
}

/* The S3 headers, signed: host, x-amz-content-sha256, x-amz-date, then the SSE-C and storage
 * class ones when set (in that order, which is their sorted order). */
static int s3_headers(struct http_data *d, const char *method, const struct io_unit *u)
{
	const struct http_opts *ho = d->ho;
	static const char empty_sha[] = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
	char hash[65], amzdate[20], auth[700];
	const char *names[8], *values[8];
	unsigned n = 0;
	if (u->ddir == DDIR_WRITE) {
		int ret = http_sha256_hex(u->buf, u->len, hash);
		if (ret)
			return ret;
	} else {
		memcpy(hash, empty_sha, sizeof(empty_sha));
	}
	time_t now = time(NULL);
	struct tm tm;
	strftime(amzdate, sizeof(amzdate), "%Y%m%dT%H%M%SZ", gmtime_r(&now, &tm));
	names[n] = "host", values[n++] = ho->host;
	names[n] = "x-amz-content-sha256", values[n++] = hash;
	names[n] = "x-amz-date", values[n++] = amzdate;
	if (ho->sse_key[0] && u->ddir != DDIR_TRIM) {
		names[n] = "x-amz-server-side-encryption-customer-algorithm", values[n++] = ho->sse_alg;
		names[n] = "x-amz-server-side-encryption-customer-key", values[n++] = d->sse_key64;
		names[n] = "x-amz-server-side-encryption-customer-key-md5", values[n++] = d->sse_md5;
	}
	if (ho->storage_class[0] && u->ddir == DDIR_WRITE)
		names[n] = "x-amz-storage-class", values[n++] = ho->storage_class;
	int ret = http_s3_sign(method, d->uri, names, values, n, amzdate, ho->s3_region, ho->s3_keyid, ho->s3_key, auth,
			       sizeof(auth));
	if (ret)
		return ret;
	for (unsigned i = 0; i < n; i++)
		header(d, "%s: %s", names[i], values[i]);
	header(d, "Authorization: %s", auth);
	return 0;
}

/* The handle set for this I/O's request (reset first: the connection is kept). */
static int prepare(struct http_data *d, struct io_unit *u, const char *method)
{
	const struct http_opts *ho = d->ho;
	const struct curl_api *a = &d->a;
	CURL *h = d->h;
	int ret = object_uri(d, d->paths[u->file_index], u);
	if (ret)
		return ret;
	snprintf(d->url, sizeof(d->url), "%s://%s%s", scheme(ho), ho->host, d->uri);
	d->nr_lines = 0;
	header(d, "Expect:"); /* no 100-continue round trip before each PUT */
	if (ho->mode == MODE_S3 && (ret = s3_headers(d, method, u)))
		return ret;
	if (ho->mode == MODE_SWIFT)
		header(d, "X-Auth-Token: %s", ho->swift_token);
	a->curl_easy_reset(h);
	a->curl_easy_setopt(h, C_URL, d->url);
	a->curl_easy_setopt(h, C_HTTPHEADER, d->list);
	a->curl_easy_setopt(h, C_ERRORBUFFER, d->err);
	a->curl_easy_setopt(h, C_NOSIGNAL, 1L);
	a->curl_easy_setopt(h, C_TCP_NODELAY, 1L);
	a->curl_easy_setopt(h, C_CONNECTTIMEOUT, 10L);
	a->curl_easy_setopt(h, C_LOW_SPEED_LIMIT, 1L); /* a server that stops answering: 60 s, an error */
	a->curl_easy_setopt(h, C_LOW_SPEED_TIME, 60L);
	a->curl_easy_setopt(h, C_NOPROGRESS, 0L);
	a->curl_easy_setopt(h, C_XFERINFOFUNCTION, on_progress);
	a->curl_easy_setopt(h, C_XFERINFODATA, d);
	a->curl_easy_setopt(h, C_WRITEFUNCTION, on_write);
	a->curl_easy_setopt(h, C_WRITEDATA, d);
	a->curl_easy_setopt(h, C_VERBOSE, ho->verbose ? 1L : 0L);
	if (ho->verbose) { /* libcurl's log on stderr, credentials redacted */
		a->curl_easy_setopt(h, C_DEBUGFUNCTION, http_log);
		a->curl_easy_setopt(h, C_DEBUGDATA, stderr);
	}
	set_tls(a, h, ho);
	if (ho->mode == MODE_WEBDAV && (ho->user[0] || ho->pass[0])) {
		a->curl_easy_setopt(h, C_HTTPAUTH, (long)CURLAUTH_BASIC);
		a->curl_easy_setopt(h, C_USERNAME, ho->user);
		a->curl_easy_setopt(h, C_PASSWORD, ho->pass);
	}
	if (u->ddir == DDIR_WRITE) {
		a->curl_easy_setopt(h, C_UPLOAD, 1L);
		a->curl_easy_setopt(h, C_READFUNCTION, on_read);
		a->curl_easy_setopt(h, C_READDATA, d);
		a->curl_easy_setopt(h, C_INFILESIZE_LARGE, (int64_t)u->len);
	} else if (u->ddir == DDIR_TRIM) {
		a->curl_easy_setopt(h, C_CUSTOMREQUEST, "DELETE");
	} else {
		a->curl_easy_setopt(h, C_HTTPGET, 1L);
	}
	return 0;
}

/* The job's error line says what the server said: status, and S3's error code. */
static void explain(struct engine_ctx *ctx, struct http_data *d, const char *method, long code)
{
	char s3code[64] = "";
	if (d->u->ddir == DDIR_READ) { /* the error's body went to the buffer */
		d->body_len = d->moved < sizeof(d->body) - 1 ? (size_t)d->moved : sizeof(d->body) - 1;
		memcpy(d->body, d->u->buf, d->body_len);
		d->body[d->body_len] = '\0';
	}
	const char *c = strstr(d->body, "<Code>"), *e = c ? strstr(c, "</Code>") : NULL;
	if (c && e && e - c - 6 < (long)sizeof(s3code))
		snprintf(s3code, sizeof(s3code), " %.*s", (int)(e - c - 6), c + 6);
	const char *text = http_status_text(code);
	snprintf(ctx->why, sizeof(ctx->why), "%s %.120s: HTTP %ld%s%s%s", method, d->url, code, text[0] ? " " : "", text,
		 s3code);
}

static int http_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct http_data *d = ctx->priv;
	const char *method = u->ddir == DDIR_WRITE ? "PUT" : u->ddir == DDIR_TRIM ? "DELETE" : "GET";
	d->u = u;
	d->moved = 0;
	d->overflow = false;
	d->body_len = 0;
	d->body[0] = d->err[0] = '\0';
	int ret = prepare(d, u, method);
	if (ret) {
		snprintf(ctx->why, sizeof(ctx->why), "%s: the object's name or headers are too long", method);
		u->result = ret;
		return Q_COMPLETED;
	}
	CURLcode c = d->a.curl_easy_perform(d->h);
	long code = 0;
	d->a.curl_easy_getinfo(d->h, CURLINFO_RESPONSE_CODE, &code);
	if (d->ho->verbose > 1)
		fprintf(stderr, "iobench: http: %s %s: HTTP %ld, %llu bytes%s\n", method, d->url, code,
			(unsigned long long)d->moved, c ? " (transfer failed)" : "");
	if (c != 0) {
		snprintf(ctx->why, sizeof(ctx->why), "%s %.100s: %.120s", method, d->url,
			 d->err[0] ? d->err : d->a.curl_easy_strerror(c));
		u->result = http_curl_errno(c);
	} else if (code < 200 || code > 299) {
		explain(ctx, d, method, code);
		u->result = http_status_errno(code);
	} else if (d->overflow) {
		snprintf(ctx->why, sizeof(ctx->why), "GET %.120s: the object is larger than bs (%llu bytes)", d->url,
			 (unsigned long long)u->len);
		u->result = -EIO;
	} else {
		u->result = u->ddir == DDIR_READ ? (int64_t)d->moved : (int64_t)u->len;
	}
	return Q_COMPLETED;
}

const struct engine_ops http_engine_ops = {
	.name = "http",
	.flags = ENGINE_NO_FILE | ENGINE_REMOTE | ENGINE_TRIM | ENGINE_SYNC,
	.library = HTTP_LIBRARY,
	.options = http_options,
	.options_size = sizeof(struct http_opts),
	.probe = http_probe,
	.init = http_init,
	.cleanup = http_cleanup,
	.open_file = http_open,
	.close_file = http_close,
	.queue = http_queue,
};
#endif
