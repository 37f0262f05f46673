/* Checksums in fio 3.33's layouts. The standard ones come from libraries; where fio's
 * layout is not the plain digest it is rebuilt around the library's result:
 *   sha1     the digest's five 32-bit words in host order
 *   sha256   64 bytes: the last padded block of a SHA-256 whose length is appended little
 *            endian, its first 8 bytes the low bytes of the 8 state words
 *   sha512   128 bytes of the data itself (the tail, then the first block's rest): fio keeps
 *            no digest at all, so it sees a change only in those bytes (docs/differences.md)
 *   crc32    the 802.3 polynomial unreflected, from 0, not inverted; crc64 Jones reflected,
 *            from 0, not inverted; crc32c from ~0, not inverted; xxhash XXH32 with seed 1
 *   crc16    CRC-16/ARC; crc7 the MMC/SD crc7: both hand-written (nibble tables) */
#define OPENSSL_SUPPRESS_DEPRECATED /* SHA256_CTX: fio's sha256 layout needs the state words */
#include "core/lib/checksum.h"

#include <errno.h>
#include <isa-l/crc.h>
#include <isa-l/crc64.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <string.h>
#include <xxhash.h>

struct csum_type {
	const char *name;
	size_t len;
};

static const struct csum_type types[VERIFY_NR] = {
	[VERIFY_NONE] = { "none", 0 },       [VERIFY_META] = { "meta", 0 },
	[VERIFY_MD5] = { "md5", 16 },        [VERIFY_CRC64] = { "crc64", 8 },
	[VERIFY_CRC32] = { "crc32", 4 },     [VERIFY_CRC32C] = { "crc32c", 4 },
	[VERIFY_CRC16] = { "crc16", 2 },     [VERIFY_CRC7] = { "crc7", 1 },
	[VERIFY_SHA256] = { "sha256", 64 },  [VERIFY_SHA512] = { "sha512", 128 },
	[VERIFY_SHA3_224] = { "sha3-224", 28 }, [VERIFY_SHA3_256] = { "sha3-256", 32 },
	[VERIFY_SHA3_384] = { "sha3-384", 48 }, [VERIFY_SHA3_512] = { "sha3-512", 64 },
	[VERIFY_XXHASH] = { "xxhash", 4 },   [VERIFY_SHA1] = { "sha1", 20 },
	[VERIFY_PATTERN] = { "pattern", 0 }, [VERIFY_NULL] = { "null", 0 },
	[VERIFY_SHA224] = { "sha224", 28 },  [VERIFY_SHA384] = { "sha384", 48 },
};

bool checksum_known(unsigned type)
{
	return type < VERIFY_NR && types[type].name;
}

const char *verify_type_name(unsigned type)
{
	return checksum_known(type) ? types[type].name : "?";
}

size_t checksum_len(unsigned type)
{
	return checksum_known(type) ? types[type].len : 0;
}

bool checksum_has_header(unsigned type)
{
	return checksum_known(type) && type != VERIFY_NONE && type != VERIFY_PATTERN && type != VERIFY_NULL;
}

static int digest(const EVP_MD *md, const void *data, size_t len, uint8_t *out)
{
	unsigned n = 0;
	return EVP_Digest(data, len, out, &n, md, NULL) == 1 ? 0 : -EIO;
}

static int sha1_words(const void *data, size_t len, uint8_t *out)
{
	uint8_t d[20];
	if (digest(EVP_sha1(), data, len, d))
		return -EIO;
	for (int w = 0; w < 5; w++) { /* big-endian words as fio keeps them: in host (little-endian) order */
		uint32_t v = (uint32_t)d[4 * w] << 24 | (uint32_t)d[4 * w + 1] << 16 | (uint32_t)d[4 * w + 2] << 8 | d[4 * w + 3];
		memcpy(out + 4 * w, &v, 4);
	}
	return 0;
}

/* fio's sha256 area: see the top of the file. */
static int sha256_fio(const unsigned char *data, size_t len, uint8_t *out)
{
	SHA256_CTX c;
	uint64_t bits = (uint64_t)len << 3;
	size_t tail = len % 64, pad = tail < 56 ? 56 - tail : 120 - tail;
	uint8_t padding[128] = { 0x80 };
	if (!SHA256_Init(&c) || !SHA256_Update(&c, data, len) || !SHA256_Update(&c, padding, pad) ||
	    !SHA256_Update(&c, &bits, sizeof(bits)))
		return -EIO;
	/* The last 64-byte block it took in. */
	memset(out, 0, 64);
	if (tail < 56) {
		memcpy(out, data + len - tail, tail);
		out[tail] = 0x80;
	}
	memcpy(out + 56, &bits, sizeof(bits));
	for (int i = 0; i < 8; i++)
		out[i] = (uint8_t)c.h[i];
	return 0;
}

/* fio's sha512 area: the bytes its unfinished context buffer holds (see the top). */
static void sha512_fio(const unsigned char *data, size_t len, uint8_t *out)
{
	memset(out, 0, 128);
	if (len < 128) {
		memcpy(out, data, len);
		return;
	}
	size_t whole = len / 128 * 128;
	memcpy(out, data, 128);
	memcpy(out, data + whole, len - whole);
}

static const uint16_t crc16_nib[16] = { 0x0000, 0xcc01, 0xd801, 0x1400, 0xf001, 0x3c00, 0x2800, 0xe401,
					0xa001, 0x6c00, 0x7800, 0xb401, 0x5000, 0x9c01, 0x8801, 0x4400 };
static const uint8_t crc7_nib[16] = { 0x00, 0x12, 0x24, 0x36, 0x48, 0x5a, 0x6c, 0x7e,
				      0x90, 0x82, 0xb4, 0xa6, 0xd8, 0xca, 0xfc, 0xee };

/* CRC-16/ARC: polynomial 0x8005 reflected, from 0. */
static uint16_t crc16_arc(const unsigned char *p, size_t len)
{
	uint16_t c = 0;
	for (size_t i = 0; i < len; i++) {
		c ^= p[i];
		c = (uint16_t)((c >> 4) ^ crc16_nib[c & 15]);
		c = (uint16_t)((c >> 4) ^ crc16_nib[c & 15]);
	}
	return c;
}

/* crc7 (polynomial 0x09, MMC/SD), kept shifted left by one in an 8-bit register. */
static uint8_t crc7_mmc(const unsigned char *p, size_t len)
{
	uint8_t r = 0;
	for (size_t i = 0; i < len; i++) {
		r ^= p[i];
		r = (uint8_t)((r << 4) ^ crc7_nib[r >> 4]);
		r = (uint8_t)((r << 4) ^ crc7_nib[r >> 4]);
	}
	return r >> 1;
}

uint32_t checksum_crc32c(const void *data, size_t len)
{
	return crc32_iscsi((unsigned char *)data, (int)len, 0xffffffffu);
}

static int crc_compute(unsigned type, const unsigned char *data, size_t len, uint8_t *out)
{
	uint64_t v;
	switch (type) {
	case VERIFY_CRC32:
		v = ~crc32_ieee(~0u, data, len);
		break;
	case VERIFY_CRC32C:
		v = checksum_crc32c(data, len);
		break;
	case VERIFY_CRC64:
		v = ~crc64_jones_refl(~0ULL, data, len);
		break;
	case VERIFY_CRC16:
		v = crc16_arc(data, len);
		break;
	case VERIFY_CRC7:
		v = crc7_mmc(data, len);
		break;
	case VERIFY_XXHASH:
		v = XXH32(data, len, 1);
		break;
	default:
		return 0;
	}
	memcpy(out, &v, checksum_len(type)); /* little-endian: the low bytes */
	return 0;
}

int checksum_compute(unsigned type, const void *data, size_t len, uint8_t *out)
{
	switch (type) {
	case VERIFY_MD5:
		return digest(EVP_md5(), data, len, out);
	case VERIFY_SHA1:
		return sha1_words(data, len, out);
	case VERIFY_SHA256:
		return sha256_fio(data, len, out);
	case VERIFY_SHA512:
		sha512_fio(data, len, out);
		return 0;
	case VERIFY_SHA224:
		return digest(EVP_sha224(), data, len, out);
	case VERIFY_SHA384:
		return digest(EVP_sha384(), data, len, out);
	case VERIFY_SHA3_224:
		return digest(EVP_sha3_224(), data, len, out);
	case VERIFY_SHA3_256:
		return digest(EVP_sha3_256(), data, len, out);
	case VERIFY_SHA3_384:
		return digest(EVP_sha3_384(), data, len, out);
	case VERIFY_SHA3_512:
		return digest(EVP_sha3_512(), data, len, out);
	default:
		return crc_compute(type, data, len, out);
	}
}
