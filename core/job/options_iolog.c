/* The I/O log options (fio's "I/O replay" section): write_iolog records, read_iolog replays
 * (core/plan/iolog.h). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/job/options.h"
#include "core/job/options_rows.h"
#include "core/job/parse.h"

/* replay_skip=read,write,trim,sync */
static int parse_skip(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	static const char *const words[] = { "read", "write", "trim", "sync" };
	char buf[256];
	unsigned bits = 0;
	if (strlen(v) >= sizeof(buf)) {
		snprintf(e, n, "too long");
		return -EINVAL;
	}
	strcpy(buf, v);
	for (char *save, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		unsigned i = 0;
		while (i < 4 && strcmp(w, words[i]))
			i++;
		if (i == 4) {
			snprintf(e, n, "'%.*s%s' is not read, write, trim or sync", SHOWN(w));
			return -EINVAL;
		}
		bits |= i == 3 ? (1u << IOLOG_SYNC | 1u << IOLOG_DATASYNC) : 1u << i;
	}
	o->iolog.skip = bits;
	return 0;
}

/* replay_align: a power of 2 (a size; 0 for none), no larger than the longest I/O. */
static int parse_align(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	uint64_t a;
	int ret = parse_size(v, o->kb_base, &a);
	if (ret) {
		parse_size_error(e, n, v, ret);
		return ret;
	}
	if (a & (a - 1) || a > IOLOG_MAX_LEN) {
		snprintf(e, n, "'%.*s%s' is not a power of 2 up to 2GiB", SHOWN(v));
		return -EINVAL;
	}
	o->iolog.align = a;
	return 0;
}

/* merge_blktrace_scalars=50:100, merge_blktrace_iters=2:1: positive numbers, by trace. */
static int parse_floats(const char *v, double *out, unsigned *nout, bool whole, char *e, size_t n)
{
	char buf[1024];
	unsigned k = 0;
	if (strlen(v) >= sizeof(buf)) {
		snprintf(e, n, "too long");
		return -EINVAL;
	}
	strcpy(buf, v);
	for (char *save, *w = strtok_r(buf, ":", &save); w; w = strtok_r(NULL, ":", &save)) {
		char *end;
		double x = strtod(w, &end);
		if (end == w || *end || !(x > 0) || x > 1e9 || (whole && x < 1)) {
			snprintf(e, n, "'%.*s%s' is not a %s", SHOWN(w), whole ? "number of times (1 or more)" : "percentage above 0");
			return -EINVAL;
		}
		if (k == IOLOG_MERGE_MAX) {
			snprintf(e, n, "more than %d values", IOLOG_MERGE_MAX);
			return -E2BIG;
		}
		out[k++] = x;
	}
	*nout = k;
	return 0;
}

static int parse_scalars(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	return parse_floats(v, o->iolog.scalars, &o->iolog.nscalars, false, e, n);
}

static int parse_iters(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	return parse_floats(v, o->iolog.iters, &o->iolog.niters, true, e, n);
}

const struct option_def options_iolog[] = {
	STR("write_iolog", iolog.write, NULL, C_REPLAY,
	    "Record the job's I/O in fio's iolog version 3 (appended to the file, as fio does)",
	    .effects = OPT_EFFECT_OUTPUT),
	STR("read_iolog", iolog.read, NULL, C_REPLAY,
	    "Replay an iolog (fio's version 2 or 3) or a blktrace file; several joined with ':' go to the "
	    "clones in turn; '-' is stdin", .effects = OPT_EFFECT_CHANGES),
	BOOL("read_iolog_chunked", iolog.chunked, "0", C_REPLAY,
	     "Accepted: iobench reads a log whole before the job starts, so a bad line stops it before any I/O"),
	STR("merge_blktrace_file", iolog.merge_file, NULL, C_REPLAY,
	    "Merge read_iolog's blktrace files into this one, in time order, and replay it",
	    .effects = OPT_EFFECT_OUTPUT),
	FUNC("merge_blktrace_scalars", iolog.scalars, parse_scalars, NULL, "percent:percent:...", C_REPLAY,
	     "merge_blktrace_file: each trace's times scaled by this percentage (50: twice as fast)",
	     .size = SZ(iolog.scalars)),
	FUNC("merge_blktrace_iters", iolog.iters, parse_iters, NULL, "count:count:...", C_REPLAY,
	     "merge_blktrace_file: each trace repeated this many times", .size = SZ(iolog.iters)),
	BOOL("replay_no_stall", iolog.no_stall, "0", C_REPLAY,
	     "Replay as fast as possible, in order, ignoring the log's times"),
	UINT("replay_time_scale", iolog.time_scale, "100", 1, 1000000, C_REPLAY,
	     "Replay at this percentage of the log's rate (50: half as fast, 200: twice)"),
	STR("replay_redirect", iolog.redirect, NULL, C_REPLAY,
	    "Replay every file of the log onto this one file or device", .effects = OPT_EFFECT_CHANGES),
	FUNC("replay_align", iolog.align, parse_align, NULL, "a power of 2", C_REPLAY,
	     "Align the log's offsets down to this (blktrace: lengths up, too)", .size = SZ(iolog.align)),
	U64("replay_scale", iolog.scale, "1", 0, INT64_MAX, C_REPLAY, "Divide the log's offsets by this"),
	FUNC("replay_skip", iolog.skip, parse_skip, NULL, "read,write,trim,sync", C_REPLAY,
	     "Do not replay these kinds of I/O", .size = SZ(iolog.skip)),
	{ NULL },
};
