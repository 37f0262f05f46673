/* fio 3.33's verify state files (verify_state_save / verify_state_load): how far a job's
 * writes got, so that a later verify_only checks only what was written. Little endian:
 *
 *   header   u64 version (3), u64 size of what follows, u64 its crc32c (initial ~0)
 *   job      u64 completions kept, u32 depth, u32 files, u64 writes issued (numberio),
 *            u64 job index, 56 bytes of fio's random state (iobench: zeros), 64 bytes name
 *   then     for each completion kept: u64 file number, u64 offset
 *
 * The file is <type>-<jobname>-<index>-verify.state in the current directory, type "local". */
#ifndef IOBENCH_VERIFY_STATE_H
#define IOBENCH_VERIFY_STATE_H
#include <stddef.h>
#include <stdint.h>

#define VSTATE_VERSION 3
#define VSTATE_MAX_COMPS 65536

struct vstate_comp {
	uint64_t file, offset;
};

struct vstate {
	uint64_t numberio;   /* writes issued */
	uint32_t depth, nofiles;
	uint64_t index;
	char name[65];
	uint64_t ncomps;     /* the last completions: writes in [numberio - depth, numberio) are done
				only if listed here */
	struct vstate_comp *comps;
};

void vstate_path(char *buf, size_t n, const char *job, unsigned index);
/* 0 or -errno (with why). */
int vstate_write(const char *path, const struct vstate *st, unsigned flags, char *why, size_t n);
/* Allocates st->comps (free() it). 0 or -errno with why. */
int vstate_read(const char *path, struct vstate *st, char *why, size_t n);

#endif
