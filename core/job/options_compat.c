/* The rows of bs_is_seq_rand, atomic, profile= and the options of fio's profiles (act,
 * tiobench). The profiles' options are fio's: in a job they are checked and recorded in "job
 * options" and have no effect (fio 3.33 takes them so); --profile=NAME on the command line
 * reads them to make its jobs (core/app/profile.c). */
#include <stddef.h>

#include "core/job/options.h"
#include "core/job/options_rows.h"

void compat_resolve(struct job_opts *o)
{
	if (o->compat.atomic) /* as fio: atomic implies O_DIRECT */
		o->direct = true;
}

const struct option_def options_compat[] = {
	BOOL("bs_is_seq_rand", compat.bs_is_seq_rand, "0", C_PAT,
	     "bs=A,B: A is the size of sequential I/Os and B of random ones, whatever their direction"),
	BOOL("atomic", compat.atomic, "0", C_SYNC,
	     "Open with O_DIRECT and fio's O_ATOMIC bit (Linux ignores the bit: plain O_DIRECT, as in fio)"),
	STR("profile", compat.profile, NULL, C_PROF,
	    "Recorded and ignored in a job, as fio does; --profile=act|tiobench on the command line makes "
	    "the profile's jobs"),
	STR("device-names", compat.device_names, NULL, C_PROF, "act: the devices (or files) to test, joined with ':'"),
	UINT("load", compat.load, "1", 0, 1000000, C_PROF, "act: the load multiplier (2000 reads/s per device at 1x)"),
	TIME("test-duration", compat.test_duration_us, "24h", SEC, C_PROF,
	     "act: how long the whole test runs (seconds unless suffixed)"),
	UINT("threads-per-queue", compat.threads_per_queue, "8", 1, 65536, C_PROF, "act: reading threads per device"),
	UINT("read-req-num-512-blocks", compat.read_req_blocks, "3", 1, 4194304, C_PROF,
	     "act: 512-byte blocks per read"),
	UINT("large-block-op-kbytes", compat.large_block_kib, "128", 1, 2097152, C_PROF,
	     "act: size of the large-block writes, in KiB"),
	BOOL("prep", compat.prep, "0", C_PROF,
	     "act: run ACT's prep phase (zero the devices, then salt them with random writes)"),
	UINT("block", compat.block, "4096", 1, 1U << 31, C_PROF, "tiobench: block size in bytes"),
	UINT("numruns", compat.numruns, "1", 1, 1000000, C_PROF, "tiobench: number of runs (loops)"),
	{ NULL },
};
