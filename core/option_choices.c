/* The words of the options that take one of a list (fallocate=, sync=, verify=, ...). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/checksum.h"
#include "core/parse.h"
#include "core/options.h"

#define FIELD(o, d, type) ((type *)((char *)(o) + (d)->offset))

static const struct choice fallocate_choices[] = {
	{ "none", FALLOC_NONE, "Do not pre-allocate space" },
	{ "native", FALLOC_NATIVE, "fallocate(2), falling back to none" },
	{ "posix", FALLOC_POSIX, "posix_fallocate(3)" },
	{ "keep", FALLOC_KEEP, "fallocate(2) with FALLOC_FL_KEEP_SIZE" },
	{ "truncate", FALLOC_TRUNCATE, "Extend the file with ftruncate(2)" },
	{ "0", FALLOC_NONE, "Same as none" },
	{ "1", FALLOC_POSIX, "Same as posix" },
	{ NULL, 0, NULL },
};
static const struct choice fadvise_choices[] = {
	{ "0", FADV_NONE, "No hint" },
	{ "1", FADV_AUTO, "Sequential or random, by the job's pattern" },
	{ "sequential", FADV_SEQUENTIAL, "POSIX_FADV_SEQUENTIAL" },
	{ "random", FADV_RANDOM, "POSIX_FADV_RANDOM" },
	{ NULL, 0, NULL },
};
static const struct choice sync_choices[] = {
	{ "none", SYNC_NONE, "No O_SYNC or O_DSYNC" },
	{ "0", SYNC_NONE, "Same as none" },
	{ "sync", SYNC_SYNC, "O_SYNC" },
	{ "1", SYNC_SYNC, "Same as sync" },
	{ "dsync", SYNC_DSYNC, "O_DSYNC" },
	{ NULL, 0, NULL },
};
static const struct choice rate_process_choices[] = {
	{ "linear", RATE_LINEAR, "Even spacing" },
	{ "poisson", RATE_POISSON, "Exponentially distributed gaps (a Poisson process)" },
	{ NULL, 0, NULL },
};
static const struct choice cpus_policy_choices[] = {
	{ "shared", CPUS_SHARED, "Every clone may run on all the CPUs" },
	{ "split", CPUS_SPLIT, "Each clone gets one CPU of the set, in turn" },
	{ NULL, 0, NULL },
};
static const struct choice continue_choices[] = {
	{ "none", 0, "Stop on the first error" },
	{ "0", 0, "Same as none" },
	{ "read", CONT_READ, "Go on after read errors" },
	{ "write", CONT_WRITE, "Go on after write errors" },
	{ "io", CONT_READ | CONT_WRITE, "Go on after read and write errors" },
	{ "verify", CONT_VERIFY, "Go on after verify errors" },
	{ "all", CONT_ALL, "Go on after any error" },
	{ "1", CONT_ALL, "Same as all" },
	{ NULL, 0, NULL },
};
static const struct choice sequencer_choices[] = {
	{ "sequential", SEQ_SEQUENTIAL, "rw=mode:N: N sequential I/Os per new offset" },
	{ "identical", SEQ_IDENTICAL, "rw=mode:N: the same offset N times" },
	{ NULL, 0, NULL },
};
static const struct choice generator_choices[] = {
	{ "tausworthe", 0, "Accepted: iobench's generator never repeats a block in a pass" },
	{ "lfsr", 1, "Accepted: as above" },
	{ "tausworthe64", 2, "Accepted: as above" },
	{ NULL, 0, NULL },
};
static const struct choice verify_choices[] = {
	{ "0", VERIFY_NONE, "No verify" },
	{ "none", VERIFY_NONE, "No verify" },
	{ "md5", VERIFY_MD5, "MD5 (OpenSSL)" },
	{ "crc32c", VERIFY_CRC32C, "CRC32C (ISA-L)" },
	{ "crc32c-intel", VERIFY_CRC32C, "CRC32C (ISA-L picks the fastest instructions)" },
	{ "crc64", VERIFY_CRC64, "CRC64 ECMA (ISA-L)" },
	{ "crc16", VERIFY_CRC16, "CRC16 T10-DIF (ISA-L)" },
	{ "xxhash", VERIFY_XXHASH, "XXH64 (libxxhash)" },
	{ "sha1", VERIFY_SHA1, "SHA-1 (OpenSSL)" },
	{ "sha256", VERIFY_SHA256, "SHA-256 (OpenSSL)" },
	{ "sha512", VERIFY_SHA512, "SHA-512 (OpenSSL)" },
	{ "pattern", VERIFY_PATTERN, "Compare with verify_pattern" },
	{ "meta", VERIFY_META, "Only the header: magic, length and offset" },
	{ "null", VERIFY_NONE, "Accepted: no verify" },
	{ "crc32", VERIFY_CRC32, "CRC32 (ISA-L, the gzip polynomial)" },
	{ "sha224", VERIFY_SHA224, "SHA-224 (OpenSSL)" },
	{ "sha384", VERIFY_SHA384, "SHA-384 (OpenSSL)" },
	{ "sha3-224", VERIFY_SHA3_224, "SHA3-224 (OpenSSL)" },
	{ "sha3-256", VERIFY_SHA3_256, "SHA3-256 (OpenSSL)" },
	{ "sha3-384", VERIFY_SHA3_384, "SHA3-384 (OpenSSL)" },
	{ "sha3-512", VERIFY_SHA3_512, "SHA3-512 (OpenSSL)" },
	{ NULL, 0, NULL },
};
static const struct choice unified_choices[] = {
	{ "none", UNIFIED_NONE, "Reads, writes and trims apart" },
	{ "0", UNIFIED_NONE, "Same as none" },
	{ "mixed", UNIFIED_MIXED, "One 'mixed' block with everything summed" },
	{ "1", UNIFIED_MIXED, "Same as mixed" },
	{ "both", UNIFIED_BOTH, "Apart, then mixed" },
	{ "2", UNIFIED_BOTH, "Same as both" },
	{ NULL, 0, NULL },
};
static const struct choice stat_type_choices[] = {
	{ "stat", STAT_STAT, "stat(2)" },
	{ "lstat", STAT_LSTAT, "lstat(2)" },
	{ "statx", STAT_STATX, "statx(2)" },
	{ NULL, 0, NULL },
};
static const struct choice clocksource_choices[] = {
	{ "gettimeofday", CLK_GETTIMEOFDAY, "The kernel's clock (CLOCK_MONOTONIC here)" },
	{ "clock_gettime", CLK_CLOCK_GETTIME, "clock_gettime(CLOCK_MONOTONIC)" },
	{ "cpu", CLK_CPU, "The CPU's invariant time-stamp counter, calibrated" },
	{ NULL, 0, NULL },
};
static const struct choice unit_base_choices[] = {
	{ "0", 0, "Auto (bytes)" },
	{ "8", 0, "Bytes" },
	{ "1", 1, "Bits" },
	{ NULL, 0, NULL },
};

const struct choice *option_choices(const char *name)
{
	static const struct {
		const char *name;
		const struct choice *list;
	} all[] = {
		{ "fallocate", fallocate_choices }, { "fadvise_hint", fadvise_choices },
		{ "sync", sync_choices }, { "rate_process", rate_process_choices },
		{ "cpus_allowed_policy", cpus_policy_choices },
		{ "continue_on_error", continue_choices }, { "rw_sequencer", sequencer_choices },
		{ "random_generator", generator_choices }, { "unit_base", unit_base_choices },
		{ "unified_rw_reporting", unified_choices }, { "verify", verify_choices },
		{ "stat_type", stat_type_choices }, { "clocksource", clocksource_choices },
	};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(all[i].name, name))
			return all[i].list;
	return NULL;
}

int opt_parse_choice(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	const struct choice *c = option_choices(d->name);
	for (; c && c->word; c++)
		if (!strcasecmp(c->word, v)) {
			*FIELD(o, d, unsigned) = c->value;
			return 0;
		}
	char list[256] = "";
	for (c = option_choices(d->name); c && c->word; c++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", list[0] ? ", " : "", c->word);
	snprintf(e, n, "unknown value '%.*s%s' (%s)", SHOWN(v), list);
	return -EINVAL;
}

