/* The rows of bs_is_seq_rand, atomic, profile= and the options of fio's profiles (act,
 * tiobench). The profiles' options are fio's: in a job they are checked and recorded in "job
 * options" and have no effect (fio 3.33 takes them so); --profile=NAME on the command line
 * reads them to make its jobs (core/app/profile.c). */
#include <stddef.h>

#include "core/job/options.h"

#define OFF(f) offsetof(struct job_opts, compat.f)
#define SZ(f) sizeof(((struct job_opts *)0)->compat.f)
#define C_PROF "Profiles (--profile=act, --profile=tiobench)"

void compat_resolve(struct job_opts *o)
{
	if (o->compat.atomic) /* as fio: atomic implies O_DIRECT */
		o->direct = true;
}

const struct option_def options_compat[] = {
	{ .name = "bs_is_seq_rand", .type = OPT_BOOL, .offset = OFF(bs_is_seq_rand), .def = "0",
	  .category = "I/O pattern",
	  .help = "bs=A,B: A is the size of sequential I/Os and B of random ones, whatever their direction" },
	{ .name = "atomic", .type = OPT_BOOL, .offset = OFF(atomic), .def = "0", .category = "Sync and cache",
	  .help = "Open with O_DIRECT and fio's O_ATOMIC bit (Linux ignores the bit: plain O_DIRECT, as in fio)" },
	{ .name = "profile", .type = OPT_STR, .offset = OFF(profile), .size = SZ(profile), .category = C_PROF,
	  .help = "Recorded and ignored in a job, as fio does; --profile=act|tiobench on the command line makes "
		  "the profile's jobs" },
	{ .name = "device-names", .type = OPT_STR, .offset = OFF(device_names), .size = SZ(device_names),
	  .category = C_PROF, .help = "act: the devices (or files) to test, joined with ':'" },
	{ .name = "load", .type = OPT_UINT, .offset = OFF(load), .def = "1", .min = 0, .max = 1000000,
	  .category = C_PROF, .help = "act: the load multiplier (2000 reads/s per device at 1x)" },
	{ .name = "test-duration", .type = OPT_TIME, .offset = OFF(test_duration_us), .def = "24h",
	  .unit = 1000000, .category = C_PROF, .help = "act: how long the whole test runs (seconds unless suffixed)" },
	{ .name = "threads-per-queue", .type = OPT_UINT, .offset = OFF(threads_per_queue), .def = "8", .min = 1,
	  .max = 65536, .category = C_PROF, .help = "act: reading threads per device" },
	{ .name = "read-req-num-512-blocks", .type = OPT_UINT, .offset = OFF(read_req_blocks), .def = "3",
	  .min = 1, .max = 4194304, .category = C_PROF, .help = "act: 512-byte blocks per read" },
	{ .name = "large-block-op-kbytes", .type = OPT_UINT, .offset = OFF(large_block_kib), .def = "128",
	  .min = 1, .max = 2097152, .category = C_PROF, .help = "act: size of the large-block writes, in KiB" },
	{ .name = "prep", .type = OPT_BOOL, .offset = OFF(prep), .def = "0", .category = C_PROF,
	  .help = "act: run ACT's prep phase (zero the devices, then salt them with random writes)" },
	{ .name = "block", .type = OPT_UINT, .offset = OFF(block), .def = "4096", .min = 1, .max = 1U << 31,
	  .category = C_PROF, .help = "tiobench: block size in bytes" },
	{ .name = "numruns", .type = OPT_UINT, .offset = OFF(numruns), .def = "1", .min = 1, .max = 1000000,
	  .category = C_PROF, .help = "tiobench: number of runs (loops)" },
	{ NULL },
};
