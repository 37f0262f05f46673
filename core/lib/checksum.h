/* Checksums for verify, laid out as fio 3.33 stores them after its block header. The values
 * of enum verify_type are fio's own type codes, the ones its header carries on disk.
 * From libraries: ISA-L (crc64, crc32, crc32c), libxxhash (xxhash), OpenSSL libcrypto (md5,
 * sha1, sha256, sha3-*); crc16 and crc7 are small tables here (no Debian C library has
 * fio's variants of them). */
#ifndef IOBENCH_CHECKSUM_H
#define IOBENCH_CHECKSUM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum verify_type {
	VERIFY_NONE = 0,
	VERIFY_META = 1,    /* fio's header only */
	VERIFY_MD5 = 2,
	VERIFY_CRC64 = 3,
	VERIFY_CRC32 = 4,
	VERIFY_CRC32C = 5,  /* crc32c-intel too: fio writes 5 for both */
	VERIFY_CRC16 = 7,
	VERIFY_CRC7 = 8,
	VERIFY_SHA256 = 9,
	VERIFY_SHA512 = 10,
	VERIFY_SHA3_224 = 11,
	VERIFY_SHA3_256 = 12,
	VERIFY_SHA3_384 = 13,
	VERIFY_SHA3_512 = 14,
	VERIFY_XXHASH = 15,
	VERIFY_SHA1 = 16,
	VERIFY_PATTERN = 18, /* no header: the block is verify_pattern (fio's "pattern") */
	VERIFY_NULL = 19,    /* read back, never checked */
	/* iobench's own, beyond fio's codes (fio 3.33 has no sha224 or sha384 verify) */
	VERIFY_SHA224 = 32,
	VERIFY_SHA384 = 33,
	VERIFY_NR
};

/* The longest checksum area (fio's sha512: 128 bytes). */
#define CSUM_MAX 128

const char *verify_type_name(unsigned type);
/* Is type one iobench knows? */
bool checksum_known(unsigned type);
/* Bytes of the checksum area after the header (0 for meta, pattern, null, none). */
size_t checksum_len(unsigned type);
/* Does the block carry fio's header (every type but none, pattern and null)? */
bool checksum_has_header(unsigned type);
/* out receives checksum_len(type) bytes, as fio lays them out. 0 or -EIO if the library failed. */
int checksum_compute(unsigned type, const void *data, size_t len, uint8_t *out);
/* fio's header checksum: crc32c (initial value ~0, no final inversion). */
uint32_t checksum_crc32c(const void *data, size_t len);

#endif
