/* The modes that read result documents instead of running jobs (see docmodes.h). */
#include "core/app/docmodes.h"

#include <stdio.h>
#include <string.h>

#include "core/lib/outfile.h"
#include "report/report.h"
#include "core/app/compare.h"

/* --merge and --compare: their document on stdout, or in --output (through the door,
 * kept only when made). The exit status. */
int docmodes_run(const struct run_cfg *cfg)
{
	struct outfile of;
	int ret = cfg->output_path ? outfile_open(&of, cfg->output_path, cfg->outfile_flags) : 0;
	if (ret) {
		fprintf(stderr, "iobench: --output: cannot open '%s': %s\n", cfg->output_path, outfile_strerror(&of, ret));
		return 1;
	}
	FILE *out = cfg->output_path ? of.f : stdout;
	int status;
	if (cfg->nmerge) {
		status = report_merge(out, cfg->merge, cfg->nmerge) ? 1 : 0;
	} else { /* exit 0: fine, 2: a regression past the threshold, 1: bad input */
		int r = report_compare(out, cfg->compare[0], cfg->compare[1],
				       (cfg->formats & (FMT_JSON | FMT_JSON_PLUS)) != 0, cfg->compare_threshold);
		status = r < 0 ? 1 : r ? 2 : 0;
	}
	if (cfg->output_path && (ret = outfile_close(&of, status != 1))) {
		fprintf(stderr, "iobench: --output: '%s': cannot write the report: %s\n", cfg->output_path, strerror(-ret));
		return 1;
	}
	return status;
}
