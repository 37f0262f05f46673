/* Verify in fio 3.33's format: the checksums' values (standard check values of the
 * "123456789" string for fio's CRC variants, the header crc of a block fio wrote), the
 * header's fill and check (offsets, intervals, verify_offset, patterns, corruption), the
 * rebuild of an expected block, and the state file's round trip. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/lib/checksum.h"
#include "core/job/job.h"
#include "core/job/options.h"
#include "core/worker/verify.h"
#include "core/worker/verify_state.h"

static uint64_t le(const uint8_t *p, size_t n)
{
	uint64_t v = 0;
	for (size_t i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static void test_crc_check_values(void **state)
{
	const char *s = "123456789";
	uint8_t out[CSUM_MAX];
	struct { unsigned type; uint64_t want; } v[] = {
		{ VERIFY_CRC16, 0xbb3d },             /* CRC-16/ARC */
		{ VERIFY_CRC7, 0x75 },                /* the MMC crc7 */
		{ VERIFY_CRC32, 0x89a1897f },         /* 802.3, unreflected, from 0, not inverted */
		{ VERIFY_CRC32C, 0x1cf96d7c },        /* from ~0, not inverted */
		{ VERIFY_CRC64, 0xe9c6d914c4b8d9caULL }, /* Jones, reflected, from 0 */
		{ VERIFY_XXHASH, 0xf261918c },        /* XXH32, seed 1 */
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		assert_int_equal(checksum_compute(v[i].type, s, 9, out), 0);
		assert_int_equal(le(out, checksum_len(v[i].type)), v[i].want);
	}
	/* sha1: the standard digest's words in host order */
	assert_int_equal(checksum_compute(VERIFY_SHA1, s, 9, out), 0);
	assert_int_equal(le(out, 4), 0xf7c3bc1d);
	(void)state;
}

static void test_header_crc_of_fio_block(void **state)
{
	/* The first 36 bytes of a crc32c block fio 3.33 wrote; bytes 36..39 held 0x6aa45bd7. */
	static const uint8_t h[36] = { 0xca, 0xac, 0x05, 0x00, 0x00, 0x10, 0x00, 0x00, 0x3c, 0x54, 0x09, 0xc5,
				       0x01, 0xcc, 0xa4, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
				       0x84, 0x21, 0x00, 0x00, 0x7a, 0xa4, 0x75, 0x03, 0x01, 0x00, 0x00, 0x00 };
	assert_int_equal(checksum_crc32c(h, sizeof(h)), 0x6aa45bd7);
	(void)state;
}

static struct job_opts *opts(unsigned type, uint64_t voff)
{
	static struct job_opts o;
	memset(&o, 0, sizeof(o));
	options_defaults(&o);
	o.verify = type;
	o.verify_offset = voff;
	return &o;
}

static void test_fill_and_check(void **state)
{
	static unsigned char buf[8192], copy[8192];
	struct verify_stamp st = { 0x1234, 5000000000ULL, 1, 7 };
	struct verify_fail fl;
	unsigned types[] = { VERIFY_MD5, VERIFY_CRC32C, VERIFY_SHA256, VERIFY_SHA512, VERIFY_META, VERIFY_SHA3_512 };
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		for (uint64_t voff = 0; voff <= 512; voff += 512) {
			const struct job_opts *o = opts(types[i], voff);
			verify_fill(o, buf, sizeof(buf), 65536, 2048, &st);
			memcpy(copy, buf, sizeof(buf));
			assert_int_equal(verify_check(o, copy, sizeof(copy), 65536, 2048, &fl), 0);
			/* the header sits at voff of each interval: magic 0xacca */
			assert_int_equal(le(buf + 2048 + voff, 2), 0xacca);
			assert_int_equal(le(buf + 2048 + voff + 16, 8), 65536 + 2048);
			/* the wrong offset: a bad header, named */
			memcpy(copy, buf, sizeof(buf));
			assert_int_equal(verify_check(o, copy, sizeof(copy), 4096, 2048, &fl), -EILSEQ);
			assert_non_null(strstr(fl.why, "bad header offset 65536, wanted 4096"));
			/* a changed header byte (the offset field) of the third interval */
			memcpy(copy, buf, sizeof(buf));
			copy[2 * 2048 + voff + 17] ^= 1;
			assert_int_equal(verify_check(o, copy, sizeof(copy), 65536, 2048, &fl), -EILSEQ);
			assert_int_equal(fl.off, 65536 + 2 * 2048);
			assert_int_equal(fl.len, 2048);
		}
	}
	/* A changed data byte: found by a checksum, in its interval */
	const struct job_opts *o = opts(VERIFY_CRC32C, 0);
	verify_fill(o, buf, sizeof(buf), 0, 4096, &st);
	buf[4096 + 3000] ^= 0x80;
	assert_int_equal(verify_check(o, buf, sizeof(buf), 0, 4096, &fl), -EILSEQ);
	assert_int_equal(fl.off, 4096);
	assert_non_null(strstr(fl.why, "bad crc32c checksum"));
	(void)state;
}

static void test_pattern(void **state)
{
	static unsigned char buf[4096];
	struct verify_stamp st = { 0, 0, 1, 0 };
	struct verify_fail fl;
	struct job_opts *o = opts(VERIFY_PATTERN, 0);
	memcpy(o->verify_pattern, "\xde\xad\xbe\xef", 4);
	o->verify_pattern_len = 4;
	verify_fill(o, buf, sizeof(buf), 8192, 4096, &st);
	assert_int_equal(buf[0], 0xde); /* no header */
	assert_int_equal(buf[4095], 0xef);
	assert_int_equal(verify_check(o, buf, sizeof(buf), 8192, 4096, &fl), 0);
	buf[1001] = 0;
	assert_int_equal(verify_check(o, buf, sizeof(buf), 8192, 4096, &fl), -EILSEQ);
	assert_non_null(strstr(fl.why, "pattern mismatch at byte 9193: expected 0xad, received 0x00"));
	(void)state;
}

static void test_expected_rebuilt(void **state)
{
	static unsigned char buf[4096], rcv[4096], exp[4096];
	struct verify_stamp st = { 0xabcdef, 123, 2, 9 };
	const struct job_opts *o = opts(VERIFY_MD5, 0);
	verify_fill(o, buf, sizeof(buf), 40960, 4096, &st);
	memcpy(rcv, buf, sizeof(buf));
	rcv[777] ^= 0xff;
	assert_true(verify_expected(o, rcv, exp, sizeof(exp), 40960, 4096));
	assert_memory_equal(exp, buf, sizeof(buf));
	/* data its seed does not give (another tool's generator; here a pattern): not rebuilt */
	struct job_opts *other = opts(VERIFY_MD5, 0);
	memcpy(other->verify_pattern, "\x11\x22", 2);
	other->verify_pattern_len = 2;
	verify_fill(other, rcv, sizeof(rcv), 40960, 4096, &st);
	o = opts(VERIFY_MD5, 0);
	assert_false(verify_expected(o, rcv, exp, sizeof(exp), 40960, 4096));
	(void)state;
}

static void test_state_round_trip(void **state)
{
	char path[] = "/tmp/iobench-vstate-XXXXXX", why[128];
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	struct vstate_comp c[2] = { { 0, 61440 }, { 1, 4096 } };
	struct vstate st = { .numberio = 16, .depth = 1, .nofiles = 2, .index = 3, .ncomps = 2, .comps = c };
	strcpy(st.name, "job");
	assert_int_equal(vstate_write(path, &st, 0, why, sizeof(why)), 0);
	FILE *f = fopen(path, "rb");
	unsigned char b[256];
	size_t n = fread(b, 1, sizeof(b), f);
	fclose(f);
	assert_int_equal(n, 24 + 152 + 32); /* fio's sizes: header, job, 16 bytes per completion */
	assert_int_equal(le(b, 8), 3);
	assert_int_equal(le(b + 8, 8), 152 + 32);
	assert_string_equal((char *)b + 24 + 88, "job");
	struct vstate back;
	assert_int_equal(vstate_read(path, &back, why, sizeof(why)), 0);
	assert_int_equal(back.numberio, 16);
	assert_int_equal(back.ncomps, 2);
	assert_int_equal(back.comps[1].file, 1);
	assert_int_equal(back.comps[0].offset, 61440);
	assert_string_equal(back.name, "job");
	free(back.comps);
	/* a damaged byte: refused, saying why */
	b[24 + 16] ^= 1;
	f = fopen(path, "wb");
	fwrite(b, 1, n, f);
	fclose(f);
	assert_int_equal(vstate_read(path, &back, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "checksum"));
	unlink(path);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc_check_values), cmocka_unit_test(test_header_crc_of_fio_block),
		cmocka_unit_test(test_fill_and_check),   cmocka_unit_test(test_pattern),
		cmocka_unit_test(test_expected_rebuilt), cmocka_unit_test(test_state_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
