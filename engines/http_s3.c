/* http (S3 mode): AWS Signature Version 4 for the http engine's requests, and the encodings
 * of S3's SSE-C headers, with OpenSSL's libcrypto (HMAC-SHA256, SHA-256, MD5, base64), which
 * the program links already (core/lib/checksum.c). Called by engines/http.c only; the
 * declarations are repeated there (engines see no header of each other).
 *
 * The signature (AWS's "Authenticating Requests: Using the Authorization Header"):
 *   canonical request = METHOD \n URI \n (query: empty) \n each signed header "name:value\n"
 *                       \n their names joined by ';' \n hex SHA-256 of the payload
 *   string to sign    = "AWS4-HMAC-SHA256" \n amzdate \n DATE/REGION/s3/aws4_request
 *                       \n hex SHA-256 of the canonical request
 *   signing key       = HMAC(HMAC(HMAC(HMAC("AWS4" secret, DATE), REGION), "s3"), "aws4_request")
 * tests/unit/test_http_s3.c checks it against AWS's published example. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

enum { S3_CANON_MAX = 8192 };

int http_sha256_hex(const void *data, size_t len, char out[65]);
int http_s3_sign(const char *method, const char *uri, const char *const *names, const char *const *values,
		 unsigned n, const char *amzdate, const char *region, const char *keyid, const char *key, char *auth,
		 size_t len);
int http_s3_sse(const char *key, char *b64key, size_t keylen, char *b64md5, size_t md5len);

static void hex(const unsigned char *b, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[b[i] >> 4];
		out[2 * i + 1] = digits[b[i] & 15];
	}
	out[2 * n] = '\0';
}

int http_sha256_hex(const void *data, size_t len, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	if (EVP_Digest(data, len, md, &n, EVP_sha256(), NULL) != 1 || n != 32)
		return -EIO;
	hex(md, 32, out);
	return 0;
}

static int hmac(const void *key, size_t klen, const char *msg, unsigned char out[32])
{
	unsigned n = 0;
	return HMAC(EVP_sha256(), key, (int)klen, (const unsigned char *)msg, strlen(msg), out, &n) && n == 32 ? 0 : -EIO;
}

/* The canonical request's text (n headers, names lowercase and sorted); -ENAMETOOLONG past len. */
static int canonical(const char *method, const char *uri, const char *const *names, const char *const *values,
		     unsigned n, char *out, size_t len, char *signed_names, size_t slen)
{
	size_t at = (size_t)snprintf(out, len, "%s\n%s\n\n", method, uri);
	signed_names[0] = '\0';
	const char *hash = "";
	for (unsigned i = 0; i < n && at < len; i++) {
		at += (size_t)snprintf(out + at, len - at, "%s:%s\n", names[i], values[i]);
		size_t s = strlen(signed_names);
		snprintf(signed_names + s, slen - s, "%s%s", i ? ";" : "", names[i]);
		if (!strcmp(names[i], "x-amz-content-sha256"))
			hash = values[i];
	}
	if (at < len)
		at += (size_t)snprintf(out + at, len - at, "\n%s\n%s", signed_names, hash);
	return at < len && strlen(signed_names) + 1 < slen ? 0 : -ENAMETOOLONG;
}

int http_s3_sign(const char *method, const char *uri, const char *const *names, const char *const *values,
		 unsigned n, const char *amzdate, const char *region, const char *keyid, const char *key, char *auth,
		 size_t len)
{
	char canon[S3_CANON_MAX], signed_names[512], chash[65], date[9], scope[160], tosign[400], secret[300];
	int ret = canonical(method, uri, names, values, n, canon, sizeof(canon), signed_names, sizeof(signed_names));
	if (ret || (ret = http_sha256_hex(canon, strlen(canon), chash)))
		return ret;
	snprintf(date, sizeof(date), "%.8s", amzdate);
	snprintf(scope, sizeof(scope), "%s/%s/s3/aws4_request", date, region);
	snprintf(tosign, sizeof(tosign), "AWS4-HMAC-SHA256\n%s\n%s\n%s", amzdate, scope, chash);
	if ((size_t)snprintf(secret, sizeof(secret), "AWS4%s", key) >= sizeof(secret))
		return -ENAMETOOLONG;
	unsigned char k1[32], k2[32], k3[32], k4[32], sig[32];
	if (hmac(secret, strlen(secret), date, k1) || hmac(k1, 32, region, k2) || hmac(k2, 32, "s3", k3) ||
	    hmac(k3, 32, "aws4_request", k4) || hmac(k4, 32, tosign, sig))
		return -EIO;
	char sighex[65];
	hex(sig, 32, sighex);
	size_t w = (size_t)snprintf(auth, len, "AWS4-HMAC-SHA256 Credential=%s/%s, SignedHeaders=%s, Signature=%s",
				    keyid, scope, signed_names, sighex);
	return w < len ? 0 : -ENAMETOOLONG;
}

/* SSE-C: the customer key as given, base64; and the base64 of its MD5 (S3 checks the two agree). */
int http_s3_sse(const char *key, char *b64key, size_t keylen, char *b64md5, size_t md5len)
{
	size_t n = strlen(key);
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdn = 0;
	if (keylen < 4 * ((n + 2) / 3) + 1 || md5len < 25)
		return -ENAMETOOLONG;
	if (EVP_Digest(key, n, md, &mdn, EVP_md5(), NULL) != 1)
		return -EIO;
	EVP_EncodeBlock((unsigned char *)b64key, (const unsigned char *)key, (int)n);
	EVP_EncodeBlock((unsigned char *)b64md5, md, (int)mdn);
	return 0;
}
