/* fio 3.33's options for errors, files, syncs, flow control, alignment, dedupe, thinktime,
 * rate windows, statistics and log shapes (core/job/io_opts.h). Rows and their parsers. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/job/options.h"
#include "core/job/options_rows.h"
#include "core/job/parse.h"

#define FIELD(o, d, type) ((type *)((char *)(o) + (d)->offset))

static int bad(char *e, size_t n, const char *what, const char *v)
{
	snprintf(e, n, "cannot parse '%.*s%s' as %s", SHOWN(v), what);
	return -EINVAL;
}

/* "a,b,c": per direction, as bs= reads it: one value for all three, two for read and write
 * (trim takes write's); an empty field keeps what was there. */
typedef int (*dir_fn)(struct job_opts *o, const struct option_def *d, int dir, const char *field);

static int per_dir(struct job_opts *o, const struct option_def *d, const char *v, dir_fn fn)
{
	char buf[256];
	char *f[3] = { NULL, NULL, NULL };
	int nf = 0;
	if (strlen(v) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, v);
	for (char *p = buf, *c;; p = c + 1) {
		if (nf == 3)
			return -EINVAL;
		f[nf++] = p;
		if (!(c = strchr(p, ',')))
			break;
		*c = '\0';
	}
	const char *use[3] = { f[0], nf > 1 ? f[1] : f[0], nf > 2 ? f[2] : nf > 1 ? f[1] : f[0] };
	for (int dir = 0; dir < 3; dir++)
		if (*use[dir] && fn(o, d, dir, use[dir]))
			return -EINVAL;
	return 0;
}

static int ba_field(struct job_opts *o, const struct option_def *d, int dir, const char *f)
{
	uint64_t v;
	if (parse_size(f, o->kb_base, &v) || v == 0 || v > (1ULL << 31))
		return -EINVAL;
	o->io.ba[dir] = v;
	o->io.ba_given = true;
	return 0;
}

static int opt_io_ba(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	return per_dir(o, d, v, ba_field) ? bad(e, n, "alignments from 1 byte to 2g (read,write,trim)", v) : 0;
}

static int latency_field(struct job_opts *o, const struct option_def *d, int dir, const char *f)
{
	size_t len = strlen(f);
	if (len > 2 && !strcmp(f + len - 2, "ns")) { /* as fio: nanoseconds, in whole microseconds (at least 1) */
		char num[32];
		int64_t ns;
		if (len - 2 >= sizeof(num))
			return -EINVAL;
		snprintf(num, sizeof(num), "%.*s", (int)(len - 2), f);
		if (parse_int(num, 1, INT64_MAX, &ns))
			return -EINVAL;
		o->io.max_latency_us[dir] = ns < 1000 ? 1 : (uint64_t)ns / 1000;
		return 0;
	}
	uint64_t us;
	if (parse_time_us(f, 1, &us)) /* at most TIME_MAX_US: compared in ns */
		return -EINVAL;
	o->io.max_latency_us[dir] = us;
	return 0;
}

static int opt_io_max_latency(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	return per_dir(o, d, v, latency_field) ? bad(e, n, "times (read,write,trim; us unless suffixed)", v) : 0;
}

/* An errno by name (ENOSPC) or number (28). */
static int one_errno(const char *tok, int *out)
{
	if (tok[0] == 'E') {
		for (int i = 1; i < 4096; i++) {
			const char *name = strerrorname_np(i);
			if (name && !strcmp(name, tok)) {
				*out = i;
				return 0;
			}
		}
		return -ENOENT;
	}
	int64_t v;
	if (parse_int(tok, 1, 4095, &v))
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/* ignore_error=READ_LIST,WRITE_LIST,VERIFY_LIST, each list errnos joined with ':'. As fio,
 * the lists are positional: one list is read's only. */
static int opt_io_ignore_error(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	char buf[1024];
	if (strlen(v) >= sizeof(buf))
		return bad(e, n, "error lists (READ,WRITE,VERIFY)", v);
	strcpy(buf, v);
	struct io_opts *io = &o->io;
	char *save = NULL, *list = buf;
	for (unsigned t = 0; list; t++) {
		char *comma = strchr(list, ',');
		if (comma)
			*comma = '\0';
		if (t >= IOERR_TYPES) {
			snprintf(e, n, "'%.*s%s' has more than three lists (read, write, verify)", SHOWN(v));
			return -EINVAL;
		}
		if (*list)
			io->nignore[t] = 0;
		for (char *tok = strtok_r(list, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
			int err;
			int ret = one_errno(tok, &err);
			if (ret) {
				snprintf(e, n, ret == -ENOENT ? "unknown error name '%.*s%s' (an E... name of errno(3), or "
								 "its number)"
							      : "'%.*s%s' is not an error number (1 to 4095)",
					 SHOWN(tok));
				return -EINVAL;
			}
			if (io->nignore[t] == IOERR_LIST_MAX) {
				snprintf(e, n, "more than %d errors in one list", IOERR_LIST_MAX);
				return -E2BIG;
			}
			io->ignore_err[t][io->nignore[t]++] = err;
		}
		list = comma ? comma + 1 : NULL;
	}
	return 0;
}

/* sync_file_range=wait_before,write,wait_after[:N] */
static int opt_io_sfr(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	static const struct {
		const char *word;
		unsigned flag;
	} words[] = { { "wait_before", SYNC_FILE_RANGE_WAIT_BEFORE },
		      { "write", SYNC_FILE_RANGE_WRITE },
		      { "wait_after", SYNC_FILE_RANGE_WAIT_AFTER } };
	char buf[128];
	if (strlen(v) >= sizeof(buf))
		return bad(e, n, "flags[:N] (wait_before,write,wait_after)", v);
	strcpy(buf, v);
	char *colon = strchr(buf, ':');
	int64_t nr = 1;
	uint64_t sz;
	if (colon) {
		*colon = '\0';
		if (parse_int(colon + 1, 1, INT64_MAX, &nr) &&
		    (parse_size(colon + 1, o->kb_base, &sz) || !sz || sz > INT64_MAX || !(nr = (int64_t)sz)))
			return bad(e, n, "a number of writes (sync_file_range=flags:N, N from 1)", colon + 1);
	}
	unsigned flags = 0;
	char *save = NULL;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i = 0;
		while (i < 3 && strcmp(tok, words[i].word))
			i++;
		if (i == 3) {
			snprintf(e, n, "unknown flag '%.*s%s' (wait_before, write, wait_after)", SHOWN(tok));
			return -EINVAL;
		}
		flags |= words[i].flag;
	}
	if (!flags)
		return bad(e, n, "flags[:N] (wait_before,write,wait_after)", v);
	o->io.sfr_flags = flags;
	o->io.sfr_nr = (uint64_t)nr;
	return 0;
}

/* threads=N: an option of fio's tiobench profile; in a job fio takes an integer and ignores it. */
/* log_compression_cpus: a CPU list as cpus_allowed's, checked and kept; iobench compresses
 * in the job's own thread, a chunk at a time, so no background worker is placed on them. */
static int opt_io_log_cpus(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	_Static_assert(sizeof(o->io.log_z_cpus) * 8 == CPUS_MAX, "log_z_cpus holds CPUS_MAX bits");
	(void)d;
	int count = parse_cpu_list(v, o->io.log_z_cpus);
	o->io.log_z_ncpus = count > 0 ? (unsigned)count : 0;
	return count > 0 ? 0 : bad(e, n, "a CPU list (0-3,6)", v);
}

static int opt_io_threads(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	int64_t i;
	if (parse_int(v, INT32_MIN, INT32_MAX, &i))
		return bad(e, n, "an integer (threads= is fio's tiobench profile's; the option for threads is thread)", v);
	o->io.tiobench_threads = (int)i;
	return 0;
}

static const struct choice exit_what_choices[] = {
	{ "group", EXIT_GROUP, "exitall stops the jobs of its group (the default)" },
	{ "stonewall", EXIT_STONEWALL, "Stop the running jobs; the next stonewalled group still runs" },
	{ "all", EXIT_ALL, "Stop everything: no later group runs" },
	{ NULL, 0, NULL },
};
static const struct choice submit_choices[] = {
	{ "inline", SUBMIT_INLINE, "The job's thread submits and reaps its I/O" },
	{ "offload", SUBMIT_OFFLOAD, "iodepth submitter threads do the I/O; the job's thread hands it over" },
	{ NULL, 0, NULL },
};
static const struct choice dedupe_choices[] = {
	{ "repeat", DEDUPE_REPEAT, "A deduplicated write repeats an earlier unique one" },
	{ "working_set", DEDUPE_WORKING_SET, "A deduplicated write repeats one of a working set of buffers" },
	{ NULL, 0, NULL },
};
static const struct choice think_choices[] = {
	{ "complete", THINK_COMPLETE, "Count completed I/Os towards thinktime_blocks" },
	{ "issue", THINK_ISSUE, "Count issued I/Os towards thinktime_blocks" },
	{ NULL, 0, NULL },
};

const struct option_def options_io[] = {
	FUNC("ignore_error", io.ignore_err, opt_io_ignore_error, NULL,
	     "READ_LIST,WRITE_LIST,VERIFY_LIST (errnos joined with ':')", C_GRP,
	     "Errors to go on after, by type (names like ENOSPC or numbers); sets continue_on_error for them"),
	BOOL("error_dump", io.error_dump, "0", C_GRP, "Print every I/O error, also those the job goes on after"),
	CHOICE("exit_what", io.exit_what, exit_what_choices, "group", C_GRP, "What exitall stops"),
	BOOL("fill_device", io.fill_device, "0", C_FILE,
	     "Write until the filesystem is full (ENOSPC or EDQUOT ends the job, no error)", .alias = "fill_fs",
	     .effects = OPT_EFFECT_CHANGES),
	BOOL("pre_read", io.pre_read, "0", C_FILE,
	     "Read the files' regions into the page cache first (turns invalidate off)"),
	BOOL("create_fsync", io.create_fsync, "1", C_FILE, "fsync(2) each file after laying it out"),
	BOOL("create_only", io.create_only, "0", C_FILE, "Only lay out the files; do no I/O",
	     .effects = OPT_EFFECT_CHANGES),
	BOOL("file_append", io.file_append, "0", C_FILE, "Do the I/O after the end of each file (offset= its size)",
	     .effects = OPT_EFFECT_CHANGES),
	BOOL("unlink_each_loop", io.unlink_each_loop, "0", C_FILE, "Remove the job's files after each loop",
	     .effects = OPT_EFFECT_CHANGES),
	FUNC("sync_file_range", io.sfr_flags, opt_io_sfr, NULL, "wait_before,write,wait_after[:N]", C_SYNC,
	     "sync_file_range(2) the range of the last N writes before the next write"),
	U64("write_barrier", io.write_barrier, "0", 0, INT64_MAX, C_SYNC,
	    "Mark every N-th write a barrier (only fio's sg engine acts on it: no engine here does)",
	    .effects = OPT_EFFECT_CHANGES),
	UINT("flow", io.flow, "0", 0, 1000, C_TIME, "Weight of this job in token-based flow control with its flow_id"),
	UINT("flow_id", io.flow_id, "0", 0, INT32_MAX, C_TIME, "The flow this job shares with others (default: 0)"),
	UINT("flow_sleep", io.flow_sleep_us, "0", 0, INT32_MAX, C_TIME,
	     "Microseconds to sleep when held back by flow control (0: drain and retry)"),
	BOOL("serialize_overlap", io.serialize_overlap, "0", C_ENG,
	     "Wait for in-flight I/Os that overlap before issuing one"),
	CHOICE("io_submit_mode", io.submit_mode, submit_choices, "inline", C_ENG, "Who submits and reaps the I/O"),
	FUNC("ba", io.ba, opt_io_ba, NULL, "size[,size[,size]] (read,write,trim)", C_PAT,
	     "Random offsets are multiples of this (default: the block size); turns the random map off",
	     .alias = "blockalign"),
	SIZE("offset_align", io.offset_align, NULL, C_FILE,
	     "offset=N% is rounded up to a multiple of this (default: the smallest block size)"),
	BOOL("bs_unaligned", io.bs_unaligned, NULL, C_PAT,
	     "bsrange picks any size in the range, not only multiples of the smallest", .alias = "blocksize_unaligned"),
	CHOICE("dedupe_mode", io.dedupe_mode, dedupe_choices, "repeat", C_BUF,
	       "How dedupe_percentage's repeats are chosen"),
	UINT("dedupe_working_set_percentage", io.dedupe_ws_pct, "5", 0, 100, C_BUF,
	     "dedupe_mode=working_set: the working set, in percent of the job's size"),
	BOOL("dedupe_global", io.dedupe_global, "0", C_BUF, "Jobs with it share their dedupe buffers"),
	BOOL("allrandrepeat", io.allrandrepeat, "0", C_PAT, "Every random sequence repeats across runs (buffers too)"),
	CHOICE("thinktime_blocks_type", io.think_type, think_choices, "complete", C_TIME,
	       "What thinktime_blocks counts"),
	TIME("thinktime_iotime", io.thinktime_iotime_us, NULL, SEC, C_TIME,
	     "Think after this long of I/O (or thinktime_blocks, whichever first)"),
	BOOL("rate_ignore_thinktime", io.rate_ignore_thinktime, "0", C_TIME,
	     "After a thinktime pause the rate goes on from now (no catching up)"),
	U64("rate_cycle", io.rate_cycle_ms, "1000", 1, UINT32_MAX, C_TIME,
	    "rate_min and rate_iops_min are checked over windows of this many ms", .alias = "ratecycle"),
	NOOP("softrandommap", C_PAT,
	     "Accepted: iobench's random map takes no memory, so it never falls back to norandommap"),
	BOOL("stats", io.stats, "1", C_REP, "Report this job (0: it runs, but is left out of every output)"),
	FUNC("max_latency", io.max_latency_us, opt_io_max_latency, NULL, "time[,time[,time]] (us unless suffixed)",
	     C_REP, "Fail the job with ETIMEDOUT when an I/O takes longer than this"),
	U64("bwavgtime", io.bwavgtime_ms, "500", 1, UINT32_MAX, C_REP, "Bandwidth samples are over this many ms"),
	U64("iopsavgtime", io.iopsavgtime_ms, "500", 1, UINT32_MAX, C_REP, "IOPS samples are over this many ms"),
	UINT("log_entries", io.log_entries, "1024", 1024, 1048576, C_LOG,
	     "Checked and accepted: iobench allocates log entries 4096 at a time as the job goes (no first size to set)"),
	SIZE("log_compression", io.log_compression, NULL, C_LOG,
	     "Keep the logs zlib-compressed in memory, in chunks of this size (1k to 512m; up to 4096 entries)"),
	FUNC("log_compression_cpus", io.log_z_ncpus, opt_io_log_cpus, NULL, "CPU list: 0-3,6", C_LOG,
	     "Checked and accepted: iobench compresses logs in the job's own thread, a chunk at a time (no compression "
	     "workers to place)"),
	BOOL("log_store_compressed", io.log_store_compressed, "0", C_LOG,
	     "Write the bw, iops and latency logs compressed (FILE.log.fz, fio's; --inflate-log reads them)"),
	BOOL("log_unix_epoch", io.log_unix_epoch, "0", C_LOG, "Log times as ms since the Unix epoch"),
	BOOL("log_alternate_epoch", io.log_alt_epoch, "0", C_LOG,
	     "Log times as ms since log_alternate_epoch_clock_id's epoch"),
	INT("log_alternate_epoch_clock_id", io.log_alt_clock, "0", 0, INT32_MAX, C_LOG,
	    "The clock_gettime(2) clock of the log epochs (0: CLOCK_REALTIME)"),
	UINT("log_hist_coarseness", io.log_hist_coarseness, "0", 0, 6, C_LOG,
	     "Histogram log bins merged: 1216 >> N bins per entry"),
	BOOL("log_max_value", io.log_max_value, "0", C_LOG,
	     "log_avg_msec windows log their largest value, not the mean"),
	BOOL("block_error_percentiles", io.block_error_pct, "0", C_REP,
	     "Report trim block errors as percentiles (nothing to show without trims)"),
	FUNC("threads", io.tiobench_threads, opt_io_threads, NULL, "integer", C_JOB,
	     "Accepted and ignored, as fio does: fio's tiobench profile's thread count (threads of a job: thread)"),
	{ NULL },
};
