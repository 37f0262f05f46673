/* The verify options beyond the ones struct job_opts holds itself (the rows are
 * core/job/options_verify.c's; the format and the checks core/worker/verify.h's). */
#ifndef IOBENCH_VERIFY_OPTS_H
#define IOBENCH_VERIFY_OPTS_H
#include <stdbool.h>
#include <stdint.h>

struct verify_opts {
	uint64_t backlog_batch;     /* verify_backlog_batch: 0 = verify_backlog */
	bool dump;                  /* verify_dump */
	bool state_save;            /* verify_state_save */
	bool state_load;            /* verify_state_load */
	bool experimental;          /* experimental_verify */
};

#endif
