/* Verify: written data carries a header per interval (magic, type, length, offset and a
 * checksum of the interval); the verify phase reads it back and checks it. The header
 * makes data self-describing, so verify_only works on what an earlier run wrote. */
#ifndef IOBENCH_VERIFY_H
#define IOBENCH_VERIFY_H
#include <stddef.h>
#include <stdint.h>

#include "core/checksum.h"
#include "core/job.h"

#define VERIFY_MAGIC 0x1b0b3c4du

struct verify_hdr {
	uint32_t magic;
	uint16_t type;
	uint16_t hdr_len;
	uint32_t len;       /* bytes of the interval */
	uint32_t rsvd;
	uint64_t offset;    /* where in the file the interval was written */
	uint8_t csum[CSUM_MAX];
};

/* Bytes each header covers for this job. */
uint64_t verify_interval_of(const struct job_opts *o, uint64_t granule);

/* Stamp a write buffer (len bytes for file offset off) with headers and checksums. */
void verify_fill(const struct job_opts *o, void *buf, uint64_t len, uint64_t off, uint64_t interval);

/* Check what was read back (buf is changed: checksum fields are zeroed). 0 if good; -EILSEQ with a one-line reason in why and the
 * failing interval's offset in bad_off otherwise. */
int verify_check(const struct job_opts *o, void *buf, uint64_t len, uint64_t off, uint64_t interval,
		 char *why, size_t why_len, uint64_t *bad_off);

#endif
