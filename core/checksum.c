/* Checksums: every one from a library, none hand-written. */
#include "core/checksum.h"

#include <errno.h>
#include <isa-l/crc.h>
#include <isa-l/crc64.h>
#include <openssl/evp.h>
#include <string.h>
#include <xxhash.h>

static const char *const names[VERIFY_NR] = {
	"none", "md5", "crc32c", "crc64", "crc16", "xxhash", "sha1", "sha256", "sha512", "pattern",
	"meta", "crc32", "sha224", "sha384", "sha3-224", "sha3-256", "sha3-384", "sha3-512",
};
static const size_t lens[VERIFY_NR] = { 0, 16, 4, 8, 2, 8, 20, 32, 64, 0, 0, 4, 28, 48, 28, 32, 48, 64 };

const char *verify_type_name(unsigned type)
{
	return type < VERIFY_NR ? names[type] : "?";
}

size_t checksum_len(unsigned type)
{
	return type < VERIFY_NR ? lens[type] : 0;
}

static int digest(const EVP_MD *md, const void *data, size_t len, uint8_t *out)
{
	unsigned n = 0;
	return EVP_Digest(data, len, out, &n, md, NULL) == 1 ? 0 : -EIO;
}

int checksum_compute(unsigned type, const void *data, size_t len, uint8_t *out)
{
	switch (type) {
	case VERIFY_MD5:
		return digest(EVP_md5(), data, len, out);
	case VERIFY_SHA1:
		return digest(EVP_sha1(), data, len, out);
	case VERIFY_SHA256:
		return digest(EVP_sha256(), data, len, out);
	case VERIFY_SHA512:
		return digest(EVP_sha512(), data, len, out);
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
	case VERIFY_CRC32: {
		uint32_t c = crc32_gzip_refl(0, data, len);
		memcpy(out, &c, sizeof(c));
		return 0;
	}
	case VERIFY_CRC32C: {
		uint32_t c = crc32_iscsi((unsigned char *)data, (int)len, 0xffffffffu);
		memcpy(out, &c, sizeof(c));
		return 0;
	}
	case VERIFY_CRC64: {
		uint64_t c = crc64_ecma_refl(0, data, len);
		memcpy(out, &c, sizeof(c));
		return 0;
	}
	case VERIFY_CRC16: {
		uint16_t c = crc16_t10dif(0, data, len);
		memcpy(out, &c, sizeof(c));
		return 0;
	}
	case VERIFY_XXHASH: {
		uint64_t c = XXH64(data, len, 0);
		memcpy(out, &c, sizeof(c));
		return 0;
	}
	default:
		return 0;
	}
}
