/* The verify options (fio's "Verification" section): the format is fio 3.33's, so data
 * either tool wrote can be checked by the other (core/worker/verify.h). */
#include <stddef.h>

#include "core/lib/checksum.h"
#include "core/job/options.h"
#include "core/job/options_rows.h"

static const struct choice verify_choices[] = {
	{ "0", VERIFY_NONE, "No verify" },
	{ "none", VERIFY_NONE, "No verify" },
	{ "md5", VERIFY_MD5, "MD5 (OpenSSL)" },
	{ "crc64", VERIFY_CRC64, "CRC64, fio's (Jones polynomial; ISA-L)" },
	{ "crc32", VERIFY_CRC32, "CRC32, fio's (802.3 polynomial, not reflected; ISA-L)" },
	{ "crc32c-intel", VERIFY_CRC32C, "Same as crc32c" },
	{ "crc32c", VERIFY_CRC32C, "CRC32C (ISA-L picks the fastest instructions)" },
	{ "crc16", VERIFY_CRC16, "CRC16, fio's (CRC-16/ARC)" },
	{ "crc7", VERIFY_CRC7, "CRC7, fio's (the MMC/SD polynomial)" },
	{ "sha1", VERIFY_SHA1, "SHA-1 (OpenSSL)" },
	{ "sha256", VERIFY_SHA256, "SHA-256 as fio 3.33 stores it (OpenSSL)" },
	{ "sha512", VERIFY_SHA512,
	  "As fio 3.33 stores it: data bytes, no digest, so it sees little (prefer sha3-512)" },
	{ "sha3-224", VERIFY_SHA3_224, "SHA3-224 (OpenSSL)" },
	{ "sha3-256", VERIFY_SHA3_256, "SHA3-256 (OpenSSL)" },
	{ "sha3-384", VERIFY_SHA3_384, "SHA3-384 (OpenSSL)" },
	{ "sha3-512", VERIFY_SHA3_512, "SHA3-512 (OpenSSL)" },
	{ "xxhash", VERIFY_XXHASH, "XXH32, seed 1 (libxxhash)" },
	{ "meta", VERIFY_META, "Only the header (offset, length, its own crc32c)" },
	{ "pattern", VERIFY_PATTERN, "No header: the blocks are verify_pattern, compared byte by byte" },
	{ "null", VERIFY_NULL, "Read back, check nothing" },
	{ "sha224", VERIFY_SHA224, "SHA-224 (OpenSSL; iobench's own, fio has none)" },
	{ "sha384", VERIFY_SHA384, "SHA-384 (OpenSSL; iobench's own, fio has none)" },
	{ NULL, 0, NULL },
};

const struct option_def options_verify[] = {
	CHOICE("verify", verify, verify_choices, "0", C_VER, "Write checksummed data and read it back to check it",
	       .effects = OPT_EFFECT_CHANGES),
	FUNC("verify_pattern", verify_pattern, opt_parse_pattern, NULL, "0xHEX | \"text\" | 'file' | number | %o",
	     C_VER, "Fill written data with this pattern (checked too; verify=pattern checks only it)",
	     .size = SZ(verify_pattern)),
	BOOL("do_verify", do_verify, "1", C_VER, "Run the verify phase after writing", .effects = OPT_EFFECT_CHANGES),
	BOOL("verify_only", verify_only, "0", C_VER,
	     "Do not write: only verify what an earlier run (iobench or fio) wrote", .effects = OPT_EFFECT_CHANGES),
	BOOL("verify_fatal", verify_fatal, "0", C_VER,
	     "Stop at the first block that fails, even with continue_on_error=verify"),
	BOOL("verify_dump", vopt.dump, "0", C_VER,
	     "Write a failed block as read and as expected: FILE.OFFSET.received/.expected",
	     .effects = OPT_EFFECT_OUTPUT),
	SIZE("verify_interval", verify_interval, NULL, C_VER,
	     "Bytes each header covers (default: the block; the smallest write size when sizes vary)"),
	SIZE("verify_offset", verify_offset, NULL, C_VER, "Put each header this many bytes into its interval"),
	U64("verify_backlog", verify_backlog, NULL, 0, INT64_MAX, C_VER,
	    "Verify after every N writes, not only at the end"),
	U64("verify_backlog_batch", vopt.backlog_batch, NULL, 0, INT64_MAX, C_VER,
	    "Blocks read back each time verify_backlog is reached (default: N)"),
	BOOL("verify_state_save", vopt.state_save, "1", C_VER,
	     "At the job's end, save how far its writes got: local-JOB-N-verify.state (fio's format)",
	     .effects = OPT_EFFECT_OUTPUT),
	BOOL("verify_state_load", vopt.state_load, "0", C_VER,
	     "verify_only: check only the writes a saved state (local-JOB-N-verify.state) says were done"),
	BOOL("experimental_verify", vopt.experimental, "0", C_VER,
	     "Accepted: fio replays the offsets instead of keeping a list; iobench's map of written blocks "
	     "is a bit per block either way, and the same blocks are checked"),
	NOOP("verify_async", C_VER, "Accepted: iobench checks each block in the job's own thread, as it completes"),
	NOOP("verify_async_cpus", C_VER,
	     "Accepted: there are no verify threads to place (verify_async is accepted, no threads)"),
	{ NULL },
};
