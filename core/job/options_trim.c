/* The options of trimming written blocks: fio's trim_percentage, trim_backlog,
 * trim_backlog_batch and trim_verify_zero (the worker's part is core/worker/trim.c). */
#include <stddef.h>
#include <stdint.h>

#include "core/job/options.h"
#include "core/job/options_rows.h"

const struct option_def options_trim[] = {
	UINT("trim_percentage", trim.percentage, "0", 0, 100, C_TRIM,
	     "Percentage of the written blocks verify keeps to trim before they are read back (needs verify)",
	     .effects = OPT_EFFECT_CHANGES),
	U64("trim_backlog", trim.backlog, "0", 0, INT64_MAX, C_TRIM,
	    "Trim chosen blocks each time N written blocks wait to be verified (0: when the writes are done)"),
	U64("trim_backlog_batch", trim.backlog_batch, "0", 0, INT64_MAX, C_TRIM,
	    "How many chosen blocks each trim_backlog trims (0: trim_backlog)"),
	BOOL("trim_verify_zero", trim.verify_zero, "1", C_TRIM,
	     "The verify phase checks that trimmed blocks read back as zeros"),
	{ NULL },
};
