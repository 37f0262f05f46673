/* libFuzzer target: the job-file parser and option resolution (make fuzz). Input is a job
 * file; every job in it is resolved as a run would. Nothing may crash, leak or hang. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/app/cli.h"
#include "core/run/run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_cfg cfg = { 0 };
	struct run_ctx rc = { 0 };
	cfg.parse_only = true;
	if (jobfile_parse_buffer((const char *)data, size, "fuzz.fio", &cfg) == 0)
		run_prepare(&rc, &cfg);
	run_ctx_free(&rc);
	run_cfg_free(&cfg);
	return 0;
}
