/* Verify in fio 3.33's on-disk format, so that either tool checks what the other wrote.
 *
 * Each interval of a written block (verify_interval, by default the block) starts with a
 * 40-byte header, little endian:
 *
 *   0  u16 magic 0xacca        2  u16 verify type (fio's code)   4  u32 interval length
 *   8  u64 random seed         16 u64 offset in the file
 *   24 u32 seconds             28 u32 nanoseconds (when written; never checked)
 *   32 u16 thread (from 1)     34 u16 write number (low 16 bits)
 *   36 u32 crc32c of bytes 0..35
 *
 * then the type's checksum area (core/lib/checksum.h), then data to the interval's end: the
 * checksum covers that data. verify_offset=N swaps the header and checksum with the bytes at
 * N before writing (and back before checking). verify=pattern writes no header: the block is
 * verify_pattern over and over; with a header type, verify_pattern fills the data and is
 * checked too. The data is otherwise random from the header's seed, so a failed block's
 * expected contents can be rebuilt (verify_dump). */
#ifndef IOBENCH_VERIFY_H
#define IOBENCH_VERIFY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/lib/checksum.h"

#define VERIFY_MAGIC 0xaccau
#define VERIFY_HDR_LEN 40u

struct verify_hdr {
	uint16_t magic;
	uint16_t type;
	uint32_t len;
	uint64_t rand_seed;
	uint64_t offset;
	uint32_t time_sec;
	uint32_t time_nsec;
	uint16_t thread;
	uint16_t numberio;
	uint32_t crc32;
};
_Static_assert(sizeof(struct verify_hdr) == VERIFY_HDR_LEN, "fio's verify header is 40 bytes");

struct job_opts;

/* What a write's headers carry besides its place. */
struct verify_stamp {
	uint64_t rand_seed;
	uint64_t time_ns;
	uint16_t thread;
	uint16_t numberio;
};

/* Bytes each header covers in an I/O of len bytes: verify_interval if set and no longer than
 * the I/O, else the I/O. */
static inline uint64_t verify_interval_for(uint64_t verify_interval, uint64_t len)
{
	return verify_interval && verify_interval <= len ? verify_interval : len;
}

/* The bytes of header and checksum for the job's type (what verify_offset swaps). */
size_t verify_hdr_size(unsigned type);

/* Fill a write buffer (len bytes for file offset off): data, then headers and checksums. */
void verify_fill(const struct job_opts *o, void *buf, uint64_t len, uint64_t off, uint64_t interval,
		 const struct verify_stamp *st);

/* Why a block failed. */
struct verify_fail {
	uint64_t off;      /* file offset of the failing interval */
	uint64_t len;      /* its length */
	char why[640];
};

/* Check what was read back (buf is changed: headers swapped back, checksum areas cleared).
 * 0 if good; -EILSEQ with the failure in fail otherwise. */
int verify_check(const struct job_opts *o, void *buf, uint64_t len, uint64_t off, uint64_t interval,
		 struct verify_fail *fail);

/* Rebuild what a block of len bytes at off should hold, from the header found in the copy
 * read back (rcv, as read: before verify_check changed it): true if the rebuilt block's
 * checksum matches the one stored, i.e. the data came from iobench's generator or from
 * verify_pattern; false if it cannot be rebuilt (another tool's random data, a broken header). */
bool verify_expected(const struct job_opts *o, const void *rcv, void *out, uint64_t len, uint64_t off,
		     uint64_t interval);

#endif
