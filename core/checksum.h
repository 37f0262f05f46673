/* Checksums for verify, from libraries: ISA-L (crc16 t10dif, crc32c, crc64), libxxhash,
 * OpenSSL libcrypto (md5, sha1, sha256, sha512). */
#ifndef IOBENCH_CHECKSUM_H
#define IOBENCH_CHECKSUM_H
#include <stddef.h>
#include <stdint.h>

enum verify_type {
	VERIFY_NONE, VERIFY_MD5, VERIFY_CRC32C, VERIFY_CRC64, VERIFY_CRC16, VERIFY_XXHASH,
	VERIFY_SHA1, VERIFY_SHA256, VERIFY_SHA512, VERIFY_PATTERN, VERIFY_META, VERIFY_CRC32,
	VERIFY_SHA224, VERIFY_SHA384, VERIFY_SHA3_224, VERIFY_SHA3_256, VERIFY_SHA3_384, VERIFY_SHA3_512,
	VERIFY_NR
};

#define CSUM_MAX 64

const char *verify_type_name(unsigned type);
/* Bytes of the checksum (0 for none and pattern). */
size_t checksum_len(unsigned type);
/* out receives checksum_len(type) bytes. 0 or -EIO if the library failed. */
int checksum_compute(unsigned type, const void *data, size_t len, uint8_t *out);

#endif
