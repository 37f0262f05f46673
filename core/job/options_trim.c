/* The options of trimming written blocks: fio's trim_percentage, trim_backlog,
 * trim_backlog_batch and trim_verify_zero (the worker's part is core/worker/trim.c). */
#include <stddef.h>
#include <stdint.h>

#include "core/job/options.h"

#define OFF(f) offsetof(struct job_opts, trim.f)
#define C_TRIM "Trim"

const struct option_def options_trim[] = {
	{ .name = "trim_percentage", .type = OPT_UINT, .offset = OFF(percentage), .def = "0", .min = 0, .max = 100,
	  .category = C_TRIM, .help = "Percentage of the written blocks verify keeps to trim before they are read back (needs verify)", .effects = OPT_EFFECT_CHANGES },
	{ .name = "trim_backlog", .type = OPT_U64, .offset = OFF(backlog), .def = "0", .min = 0, .max = INT64_MAX,
	  .category = C_TRIM,
	  .help = "Trim chosen blocks each time N written blocks wait to be verified (0: when the writes are done)" },
	{ .name = "trim_backlog_batch", .type = OPT_U64, .offset = OFF(backlog_batch), .def = "0", .min = 0,
	  .max = INT64_MAX, .category = C_TRIM, .help = "How many chosen blocks each trim_backlog trims (0: trim_backlog)" },
	{ .name = "trim_verify_zero", .type = OPT_BOOL, .offset = OFF(verify_zero), .def = "1", .category = C_TRIM,
	  .help = "The verify phase checks that trimmed blocks read back as zeros" },
	{ NULL },
};
