/* The http engine's S3 signing (engines/http_s3.c) against AWS's published SigV4 example
 * ("Example: GET Object" of the S3 API reference, Signature Version 4 with the Authorization
 * header: examplebucket, /test.txt, Range bytes=0-9, 20130524T000000Z), the SHA-256 of known
 * payloads, and SSE-C's base64 key and key MD5. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

int http_sha256_hex(const void *data, size_t len, char out[65]);
int http_s3_sign(const char *method, const char *uri, const char *const *names, const char *const *values,
		 unsigned n, const char *amzdate, const char *region, const char *keyid, const char *key, char *auth,
		 size_t len);
int http_s3_sse(const char *key, char *b64key, size_t keylen, char *b64md5, size_t md5len);

#define EMPTY_SHA "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

static void test_aws_get_object_example(void **state)
{
	const char *names[] = { "host", "range", "x-amz-content-sha256", "x-amz-date" };
	const char *values[] = { "examplebucket.s3.amazonaws.com", "bytes=0-9", EMPTY_SHA, "20130524T000000Z" };
	char auth[512];
	assert_int_equal(http_s3_sign("GET", "/test.txt", names, values, 4, "20130524T000000Z", "us-east-1",
				      "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", auth,
				      sizeof(auth)),
			 0);
	assert_string_equal(auth, "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
				  "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
				  "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
	/* A wrong secret gives another signature; too small a buffer is refused. */
	char other[512];
	http_s3_sign("GET", "/test.txt", names, values, 4, "20130524T000000Z", "us-east-1", "AKIAIOSFODNN7EXAMPLE",
		     "wrong", other, sizeof(other));
	assert_string_not_equal(auth, other);
	assert_int_not_equal(http_s3_sign("GET", "/test.txt", names, values, 4, "20130524T000000Z", "us-east-1",
					  "AKIAIOSFODNN7EXAMPLE", "k", auth, 40),
			     0);
}

static void test_sha256(void **state)
{
	char h[65];
	assert_int_equal(http_sha256_hex("", 0, h), 0);
	assert_string_equal(h, EMPTY_SHA);
	assert_int_equal(http_sha256_hex("abc", 3, h), 0);
	assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

static void test_sse_c(void **state)
{
	char key[64], md5[32];
	assert_int_equal(http_s3_sse("abc", key, sizeof(key), md5, sizeof(md5)), 0);
	assert_string_equal(key, "YWJj");
	assert_string_equal(md5, "kAFQmDzST7DWlj99KOF/cg=="); /* base64 of MD5("abc") */
	assert_int_not_equal(http_s3_sse("abcdefgh", key, 4, md5, sizeof(md5)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aws_get_object_example),
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_sse_c),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
