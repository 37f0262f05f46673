/* The option table. One row per option: fio's name, how the value is read, default,
 * range and help. Order is the order of --cmdhelp=all and docs/options.md. */
#include <stddef.h>

#include "core/job/options.h"

#define OFF(f) offsetof(struct job_opts, f)
#define SZ(f) sizeof(((struct job_opts *)0)->f)
#define C_JOB "Job description"
#define C_FILE "Files and sizes"
#define C_PAT "I/O pattern"
#define C_TIME "Time and pacing"
#define C_SYNC "Sync and cache"
#define C_BUF "Buffers"
#define C_GRP "Groups and errors"
#define C_ENG "Engines"
#define C_UNIT "Units and placement"
#define C_REP "Reporting"
#define C_LOG "Logs"
#define C_NOT "fio options iobench does not carry out yet"

#define STR(n, f, d, c, h, ...) { .name = n, .type = OPT_STR, .offset = OFF(f), .size = SZ(f), .def = d, .category = c, .help = h, __VA_ARGS__ }
#define BOOL(n, f, d, c, h, ...) { .name = n, .type = OPT_BOOL, .offset = OFF(f), .def = d, .category = c, .help = h, __VA_ARGS__ }
#define UINT(n, f, d, lo, hi, c, h) { .name = n, .type = OPT_UINT, .offset = OFF(f), .def = d, .min = lo, .max = hi, .category = c, .help = h }
#define U64(n, f, d, lo, hi, c, h) { .name = n, .type = OPT_U64, .offset = OFF(f), .def = d, .min = lo, .max = hi, .category = c, .help = h }
#define SIZE(n, f, d, c, h) { .name = n, .type = OPT_SIZE, .offset = OFF(f), .def = d, .category = c, .help = h }
#define TIME(n, f, d, u, c, h) { .name = n, .type = OPT_TIME, .offset = OFF(f), .def = d, .unit = u, .category = c, .help = h }
#define CHOICE(n, f, list, d, c, h, ...) { .name = n, .type = OPT_CHOICE, .offset = OFF(f), .choices = list, .def = d, .category = c, .help = h, __VA_ARGS__ }
#define FUNC(n, f, fn, d, syn, c, h, ...) { .name = n, .type = OPT_FUNC, .offset = OFF(f), .size = SZ(f), .parse = fn, .def = d, .syntax = syn, .category = c, .help = h, __VA_ARGS__ }
#define NOT(n, h) { .name = n, .type = OPT_UNSUPPORTED, .category = C_NOT, .help = h }
#define NOOP(n, c, h) { .name = n, .type = OPT_NOOP, .category = c, .help = h }
#define SEC 1000000ULL

static const struct choice fallocate_choices[] = {
	{ "none", FALLOC_NONE, "Do not pre-allocate space" },
	{ "native", FALLOC_NATIVE, "fallocate(2), falling back to none" },
	{ "posix", FALLOC_POSIX, "posix_fallocate(3)" },
	{ "keep", FALLOC_KEEP, "fallocate(2) with FALLOC_FL_KEEP_SIZE" },
	{ "truncate", FALLOC_TRUNCATE, "Extend the file with ftruncate(2)" },
	{ "0", FALLOC_NONE, "Same as none" },
	{ "1", FALLOC_POSIX, "Same as posix" },
	{ NULL, 0, NULL },
};
static const struct choice fadvise_choices[] = {
	{ "0", FADV_NONE, "No hint" },
	{ "1", FADV_AUTO, "Sequential or random, by the job's pattern" },
	{ "sequential", FADV_SEQUENTIAL, "POSIX_FADV_SEQUENTIAL" },
	{ "random", FADV_RANDOM, "POSIX_FADV_RANDOM" },
	{ NULL, 0, NULL },
};
static const struct choice sync_choices[] = {
	{ "none", SYNC_NONE, "No O_SYNC or O_DSYNC" },
	{ "0", SYNC_NONE, "Same as none" },
	{ "sync", SYNC_SYNC, "O_SYNC" },
	{ "1", SYNC_SYNC, "Same as sync" },
	{ "dsync", SYNC_DSYNC, "O_DSYNC" },
	{ NULL, 0, NULL },
};
static const struct choice rate_process_choices[] = {
	{ "linear", RATE_LINEAR, "Even spacing" },
	{ "poisson", RATE_POISSON, "Exponentially distributed gaps (a Poisson process)" },
	{ NULL, 0, NULL },
};
static const struct choice cpus_policy_choices[] = {
	{ "shared", CPUS_SHARED, "Every clone may run on all the CPUs" },
	{ "split", CPUS_SPLIT, "Each clone gets one CPU of the set, in turn" },
	{ NULL, 0, NULL },
};
static const struct choice continue_choices[] = {
	{ "none", 0, "Stop on the first error" },
	{ "0", 0, "Same as none" },
	{ "read", CONT_READ, "Go on after read errors" },
	{ "write", CONT_WRITE, "Go on after write errors" },
	{ "io", CONT_READ | CONT_WRITE, "Go on after read and write errors" },
	{ "verify", CONT_VERIFY, "Go on after verify errors" },
	{ "all", CONT_ALL, "Go on after any error" },
	{ "1", CONT_ALL, "Same as all" },
	{ NULL, 0, NULL },
};
static const struct choice sequencer_choices[] = {
	{ "sequential", SEQ_SEQUENTIAL, "rw=mode:N: N sequential I/Os per new offset" },
	{ "identical", SEQ_IDENTICAL, "rw=mode:N: the same offset N times" },
	{ NULL, 0, NULL },
};
static const struct choice generator_choices[] = {
	{ "tausworthe", 0, "Accepted: iobench's generator never repeats a block in a pass" },
	{ "lfsr", 1, "Accepted: as above" },
	{ "tausworthe64", 2, "Accepted: as above" },
	{ NULL, 0, NULL },
};
static const struct choice unified_choices[] = {
	{ "none", UNIFIED_NONE, "Reads, writes and trims apart" },
	{ "0", UNIFIED_NONE, "Same as none" },
	{ "mixed", UNIFIED_MIXED, "One 'mixed' block with everything summed" },
	{ "1", UNIFIED_MIXED, "Same as mixed" },
	{ "both", UNIFIED_BOTH, "Apart, then mixed" },
	{ "2", UNIFIED_BOTH, "Same as both" },
	{ NULL, 0, NULL },
};
static const struct choice clocksource_choices[] = {
	{ "gettimeofday", CLK_GETTIMEOFDAY, "The kernel's clock (CLOCK_MONOTONIC here)" },
	{ "clock_gettime", CLK_CLOCK_GETTIME, "clock_gettime(CLOCK_MONOTONIC)" },
	{ "cpu", CLK_CPU, "The CPU's invariant time-stamp counter, calibrated" },
	{ NULL, 0, NULL },
};
static const struct choice unit_base_choices[] = {
	{ "0", 0, "Auto (bytes)" },
	{ "8", 0, "Bytes" },
	{ "1", 1, "Bits" },
	{ NULL, 0, NULL },
};

const struct option_def option_table[] = {
	STR("name", name, NULL, C_JOB, "Name of this job"),
	STR("description", description, NULL, C_JOB, "Text description of the job"),
	{ .name = "thread", .type = OPT_BOOL, .offset = OFF(thread), .def = "0",
	  .category = C_JOB, .help = "Accepted: iobench always runs jobs as threads" },

	STR("filename", filename, NULL, C_FILE, "File(s) to do I/O on, several joined with ':'"),
	STR("directory", directory, NULL, C_FILE, "Directory for the job's files"),
	STR("filename_format", filename_format, "$jobname.$jobnum.$filenum", C_FILE,
	    "Name generated files from $jobname, $jobnum, $filenum"),
	STR("opendir", opendir, NULL, C_FILE, "Use every regular file below this directory"),
	{ .name = "size", .type = OPT_FUNC, .offset = OFF(size), .parse = zone_parse_size,
	  .syntax = "size, N% of the files' size, or Nz (zones)", .category = C_FILE,
	  .help = "Region of each clone's files, and the I/O it does (default: the files' size)", .effects = OPT_EFFECT_CHANGES },
	FUNC("filesize", filesize_lo, opt_parse_filesize, NULL, "size or size range (lo-hi)", C_FILE,
	     "Size of each file; a range picks a random size per file", .effects = OPT_EFFECT_CHANGES),
	{ .name = "io_size", .alias = "io_limit", .type = OPT_FUNC, .offset = OFF(io_size), .parse = zone_parse_size,
	  .syntax = "size, or Nz (zones)", .category = C_FILE,
	  .help = "Bytes of I/O to do, independent of the region size" },
	{ .name = "offset", .alias = "fileoffset", .type = OPT_FUNC, .offset = OFF(offset), .parse = zone_parse_size,
	  .syntax = "size, N%, or Nz (zones)", .category = C_FILE, .help = "Start of the region in each file" },
	{ .name = "offset_increment", .type = OPT_FUNC, .offset = OFF(offset_increment),
	  .parse = zone_parse_size, .syntax = "size, N%, or Nz (zones)", .category = C_FILE,
	  .help = "Added to offset once per clone number (disjoint regions per clone)" },
	U64("number_ios", number_ios, NULL, 0, INT64_MAX, C_FILE, "Stop after this many I/Os"),
	{ .name = "nrfiles", .alias = "nr_files", .type = OPT_UINT, .offset = OFF(nrfiles), .def = "1",
	  .min = 1, .max = 1 << 20, .category = C_FILE, .help = "Number of files per clone; size is divided among them", .effects = OPT_EFFECT_CHANGES },
	FUNC("file_service_type", file_service, opt_parse_file_service, "roundrobin",
	     "roundrobin|sequential|random[:N]", C_FILE, "How the next file is chosen (N I/Os per file)"),
	UINT("openfiles", openfiles, NULL, 0, 1 << 20, C_FILE,
	     "Accepted: iobench keeps every file of a clone open"),
	BOOL("unlink", unlink, "0", C_FILE, "Remove the job's files when the job is done", .effects = OPT_EFFECT_CHANGES),
	BOOL("create_on_open", create_on_open, "0", C_FILE, "Create files when first opened, not before", .effects = OPT_EFFECT_CHANGES),
	BOOL("allow_file_create", allow_file_create, "1", C_FILE, "May create files that do not exist", .effects = OPT_EFFECT_CHANGES),
	CHOICE("fallocate", fallocate, fallocate_choices, "native", C_FILE, "How new files are allocated", .effects = OPT_EFFECT_CHANGES),
	BOOL("overwrite", overwrite, "0", C_FILE,
	     "A writing job's files are first laid out with data, so that writes overwrite it", .effects = OPT_EFFECT_CHANGES),
	NOOP("dir", C_FILE, "Accepted and ignored, as fio does: an option of fio's tiobench profile, "
	     "not the job's directory (that is directory=)"),

	{ .name = "rw", .alias = "readwrite", .type = OPT_FUNC, .offset = OFF(rw), .parse = opt_parse_rw,
	  .def = "read", .syntax = "read|write|trim|randread|randwrite|randtrim|rw|randrw|trimwrite|randtrimwrite[:N]", .category = C_PAT,
	  .help = "I/O pattern, with an optional offset modifier :N", .effects = OPT_EFFECT_CHANGES },
	CHOICE("rw_sequencer", rw_sequencer, sequencer_choices, "sequential", C_PAT,
	       "What rw=mode:N does: N sequential I/Os, or the same offset N times"),
	UINT("rwmixread", rwmixread, "50", 0, 100, C_PAT, "Percentage of a mixed workload that is reads"),
	FUNC("rwmixwrite", rwmixread, opt_parse_rwmixwrite, NULL, "integer 0..100", C_PAT,
	     "Percentage of a mixed workload that is writes"),
	{ .name = "bs", .alias = "blocksize", .type = OPT_FUNC, .offset = OFF(bs), .parse = opt_parse_bs,
	  .def = "4k", .syntax = "size[,size[,size]] (read,write,trim)", .category = C_PAT,
	  .help = "Block size, or read,write,trim block sizes" },
	{ .name = "bsrange", .alias = "blocksize_range", .type = OPT_FUNC, .offset = OFF(bs_min),
	  .parse = opt_parse_bsrange, .syntax = "lo-hi[,lo-hi[,lo-hi]]", .category = C_PAT,
	  .help = "Random block sizes in a range (multiples of lo)" },
	FUNC("bssplit", bssplit, opt_parse_bssplit, NULL, "bs/pct:bs/pct...[,...]", C_PAT,
	     "Block sizes in given shares"),
	{ .name = "percentage_random", .type = OPT_FUNC, .offset = OFF(pct_random), .size = SZ(pct_random),
	  .parse = opt_parse_dir_uints, .def = "100", .min = 0, .max = 100, .syntax = "int[,int[,int]]",
	  .category = C_PAT, .help = "Share of a random workload that is random (the rest sequential)" },
	BOOL("randrepeat", randrepeat, "1", C_PAT, "The same random sequence on every run"),
	FUNC("randseed", randseed, opt_parse_randseed, NULL, "integer", C_PAT, "Seed of the random sequence"),
	CHOICE("random_generator", random_generator, generator_choices, "tausworthe", C_PAT,
	       "Accepted; iobench uses one generator for all"),
	FUNC("random_distribution", dist, opt_parse_distribution, "random",
	     "random|zipf:t|pareto:h|normal:s[:center]|zoned:pct/pct:...|zoned_abs:pct/size:...", C_PAT,
	     "Distribution of random offsets"),
	BOOL("norandommap", norandommap, "0", C_PAT, "Random offsets may repeat; blocks may be missed"),

	{ .name = "runtime", .alias = "timeout", .type = OPT_TIME, .offset = OFF(runtime_us), .unit = SEC,
	  .category = C_TIME, .help = "Stop the job after this long" },
	BOOL("time_based", time_based, "0", C_TIME, "Run for the whole runtime, looping over the region"),
	TIME("ramp_time", ramp_time_us, NULL, SEC, C_TIME, "Run this long before counting statistics"),
	{ .name = "startdelay", .type = OPT_FUNC, .offset = OFF(startdelay_us), .parse = opt_parse_startdelay,
	  .unit = SEC, .syntax = "time or time range (lo-hi), seconds unless suffixed", .category = C_TIME,
	  .help = "Wait this long before starting the job" },
	U64("loops", loops, "1", 1, INT64_MAX, C_TIME, "Run the job's I/O this many times"),
	TIME("thinktime", thinktime_us, NULL, 1, C_TIME, "Pause this long after thinktime_blocks I/Os"),
	TIME("thinktime_spin", thinktime_spin_us, NULL, 1, C_TIME, "Spin (busy) for this part of thinktime"),
	U64("thinktime_blocks", thinktime_blocks, "1", 1, INT64_MAX, C_TIME, "I/Os between pauses"),
	{ .name = "rate", .type = OPT_FUNC, .offset = OFF(rate), .parse = opt_parse_dir_sizes,
	  .syntax = "size[,size[,size]] per second", .category = C_TIME, .help = "Bandwidth cap per direction" },
	{ .name = "rate_min", .alias = "ratemin", .type = OPT_FUNC, .offset = OFF(rate_min),
	  .parse = opt_parse_dir_sizes, .syntax = "size[,size[,size]] per second", .category = C_TIME,
	  .help = "Fail the job if bandwidth falls below this" },
	{ .name = "rate_iops", .type = OPT_FUNC, .offset = OFF(rate_iops), .size = SZ(rate_iops),
	  .parse = opt_parse_dir_uints, .min = 0, .max = INT64_MAX, .syntax = "int[,int[,int]]",
	  .category = C_TIME, .help = "IOPS cap per direction" },
	{ .name = "rate_iops_min", .type = OPT_FUNC, .offset = OFF(rate_iops_min), .size = SZ(rate_iops_min),
	  .parse = opt_parse_dir_uints, .min = 0, .max = INT64_MAX, .syntax = "int[,int[,int]]",
	  .category = C_TIME, .help = "Fail the job if IOPS fall below this" },
	CHOICE("rate_process", rate_process, rate_process_choices, "linear", C_TIME,
	       "How rated I/Os are spaced"),

	U64("fsync", fsync_blocks, NULL, 0, INT64_MAX, C_SYNC, "fsync(2) after this many writes"),
	U64("fdatasync", fdatasync_blocks, NULL, 0, INT64_MAX, C_SYNC, "fdatasync(2) after this many writes"),
	BOOL("end_fsync", end_fsync, "0", C_SYNC, "fsync(2) the files when the job ends"),
	BOOL("fsync_on_close", fsync_on_close, "0", C_SYNC, "fsync(2) each file before closing it"),
	CHOICE("sync", sync_mode, sync_choices, "none", C_SYNC,
	       "Open files with O_SYNC or O_DSYNC"),
	BOOL("direct", direct, "0", C_SYNC, "O_DIRECT: bypass the page cache"),
	FUNC("buffered", direct, opt_parse_buffered, "1", "boolean", C_SYNC, "The opposite of direct"),
	CHOICE("fadvise_hint", fadvise, fadvise_choices, "1", C_SYNC,
	       "posix_fadvise(2) hint for the files"),
	BOOL("invalidate", invalidate, "1", C_SYNC, "Drop the files' page cache before the job"),

	BOOL("zero_buffers", zero_buffers, "0", C_BUF, "Write zeros"),
	BOOL("refill_buffers", refill_buffers, "0", C_BUF, "New random data for every write"),
	BOOL("scramble_buffers", scramble_buffers, "1", C_BUF, "Change a little of each buffer per write"),
	UINT("buffer_compress_percentage", compress_pct, NULL, 0, 100, C_BUF,
	     "Make write data compress by about this much"),
	UINT("buffer_compress_chunk", compress_chunk, "512", 1, 1 << 30, C_BUF,
	     "Size of the compressible and random runs"),
	FUNC("buffer_pattern", pattern, opt_parse_pattern, NULL, "0xHEX | \"text\" | 'file' | number, joined with |",
	     C_BUF, "Fill write buffers with this pattern"),
	UINT("dedupe_percentage", dedupe_pct, NULL, 0, 100, C_BUF, "Share of writes that repeat an earlier buffer"),

	{ .name = "stonewall", .alias = "wait_for_previous", .type = OPT_BOOL, .offset = OFF(stonewall),
	  .def = "0", .category = C_GRP, .help = "Wait for the jobs before this one; start a new group" },
	BOOL("new_group", new_group, "0", C_GRP, "Start a new reporting group"),
	STR("wait_for", wait_for, NULL, C_GRP, "Start when the named job has finished"),
	UINT("numjobs", numjobs, "1", 1, 65536, C_GRP, "Number of clones of this job"),
	BOOL("group_reporting", group_reporting, "0", C_GRP, "Report the clones of a job as one"),
	BOOL("exitall", exitall, "0", C_GRP, "When this job ends, stop all jobs"),
	BOOL("exitall_on_error", exitall_on_error, "0", C_GRP, "When this job fails, stop all jobs"),
	CHOICE("continue_on_error", continue_on_error, continue_choices, "none", C_GRP,
	       "Errors to count and go on after"),

	STR("ioengine", ioengine, "psync", C_ENG, "I/O engine (iobench --enghelp lists them, and their options)", .effects = OPT_EFFECT_CHANGES),
	UINT("iodepth", iodepth, "1", 1, 65536, C_ENG, "Number of I/Os to keep in flight"),
	{ .name = "iodepth_batch", .alias = "iodepth_batch_submit", .type = OPT_UINT,
	  .offset = OFF(iodepth_batch_submit), .def = "1", .min = 0, .max = 65536, .category = C_ENG,
	  .help = "I/Os to queue before submitting them together" },
	{ .name = "iodepth_batch_complete_min", .alias = "iodepth_batch_complete", .type = OPT_UINT,
	  .offset = OFF(iodepth_batch_complete_min), .def = "1", .min = 0, .max = 65536,
	  .category = C_ENG, .help = "Fewest completions to wait for when reaping" },
	UINT("iodepth_batch_complete_max", iodepth_batch_complete_max, NULL, 0, 65536, C_ENG,
	     "Most completions to take per reap (default: iodepth_batch_complete_min)"),
	UINT("iodepth_low", iodepth_low, NULL, 0, 65536, C_ENG,
	     "When the queue is full, let it drain to this before filling it again"),
	{ .name = "clocksource", .type = OPT_CHOICE, .offset = OFF(clocksource), .choices = clocksource_choices,
	  .category = C_REP,
	  .help = "Timestamps from: cpu (the invariant TSC; the default where there is one) or the kernel's clock" },

	UINT("kb_base", kb_base, "1024", 1000, 1024, C_UNIT, "Base of k/m/g size suffixes: 1024 or 1000"),
	CHOICE("unit_base", unit_base, unit_base_choices, "0", C_UNIT,
	       "Report in bytes (8) or bits (1)"),
	FUNC("cpus_allowed", cpus_allowed, opt_parse_cpus, NULL, "CPU list: 0-3,6", C_UNIT,
	     "CPUs the job's threads may run on"),
	CHOICE("cpus_allowed_policy", cpus_policy, cpus_policy_choices, "shared", C_UNIT,
	       "Share cpus_allowed among clones, or give each its own CPU"),
	BOOL("readonly", readonly, "0", C_UNIT, "Refuse to run any job that writes"),
	BOOL("allow_mounted_write", allow_mounted_write, "0", C_UNIT,
	     "Allow writes to a mounted block device", .effects = OPT_EFFECT_CHANGES),
	CHOICE("unified_rw_reporting", unified, unified_choices, "none", C_REP,
	       "Report reads, writes and trims apart, summed (mixed), or both"),
	FUNC("percentile_list", pct_list, opt_parse_percentiles, NULL, "float:float:... (up to 20)", C_REP,
	     "Percentiles to report"),
	BOOL("clat_percentiles", clat_percentiles, "1", C_REP, "Report completion latency percentiles"),
	BOOL("lat_percentiles", lat_percentiles, "0", C_REP, "Report total latency percentiles"),
	BOOL("slat_percentiles", slat_percentiles, "0", C_REP, "Report submission latency percentiles"),
	UINT("significant_figures", sig_figs, "4", 1, 10, C_REP, "Digits of rates and sizes in the normal format"),
	BOOL("disable_lat", disable_lat, "0", C_REP, "Do not measure total latency"),
	BOOL("disable_clat", disable_clat, "0", C_REP, "Do not measure completion latency"),
	BOOL("disable_slat", disable_slat, "0", C_REP, "Do not measure submission latency"),
	{ .name = "disable_bw_measurement", .alias = "disable_bw", .type = OPT_BOOL, .offset = OFF(disable_bw),
	  .def = "0", .category = C_REP, .help = "Do not sample bandwidth and IOPS" },
	BOOL("gtod_reduce", gtod_reduce, "0", C_REP, "Measure no latencies, take fewer clock readings"),
	BOOL("disk_util", disk_util, "1", C_REP, "Report the utilization of the disks behind the job's files"),
	FUNC("write_bw_log", bw_log, opt_parse_logname, NULL, "file name prefix (bare: the job's name)", C_LOG,
	     "Bandwidth log: PREFIX_bw.N.log", .effects = OPT_EFFECT_OUTPUT),
	FUNC("write_iops_log", iops_log, opt_parse_logname, NULL, "file name prefix (bare: the job's name)", C_LOG,
	     "IOPS log: PREFIX_iops.N.log", .effects = OPT_EFFECT_OUTPUT),
	FUNC("write_lat_log", lat_log, opt_parse_logname, NULL, "file name prefix (bare: the job's name)", C_LOG,
	     "Latency logs: PREFIX_slat.N.log, PREFIX_clat.N.log, PREFIX_lat.N.log", .effects = OPT_EFFECT_OUTPUT),
	FUNC("write_hist_log", hist_log, opt_parse_logname, NULL, "file name prefix (bare: the job's name)", C_LOG,
	     "Completion latency histogram log: PREFIX_clat_hist.N.log", .effects = OPT_EFFECT_OUTPUT),
	U64("log_avg_msec", log_avg_msec, NULL, 0, INT64_MAX, C_LOG, "Average log entries over this many ms (0: every I/O)"),
	U64("log_hist_msec", log_hist_msec, NULL, 0, INT64_MAX, C_LOG, "Histogram log interval in ms (default 1000)"),
	BOOL("log_offset", log_offset, "0", C_LOG, "Add each I/O's offset to the logs"),
	BOOL("per_job_logs", per_job_logs, "1", C_LOG, "One log per clone (.N in the name)"),
	NOOP("create_serialize", C_FILE, "Accepted: iobench lays files out before a group starts"),
	NOOP("unique_filename", C_FILE, "Accepted: only matters for fio's client/server mode"),

	{ NULL },
};

/* The core's tables, in --cmdhelp's order: this one, then one per area (each in its own
 * file, so that areas grow apart). */
extern const struct option_def options_verify[]; /* core/job/options_verify.c */
extern const struct option_def options_io[];     /* core/job/options_io.c */
extern const struct option_def options_trim[];   /* core/job/options_trim.c */
extern const struct option_def options_iolog[];  /* core/job/options_iolog.c */
extern const struct option_def options_env[];    /* core/job/options_env.c */
extern const struct option_def options_ss[];     /* core/job/options_ss.c */
extern const struct option_def options_zone[];   /* core/job/options_zone.c */
extern const struct option_def options_compat[]; /* core/job/options_compat.c */

const struct option_def *const option_tables[] = {
	option_table,
	options_verify,
	options_io,
	options_trim,
	options_iolog,
	options_env,
	options_ss,
	options_zone,
	options_compat,
	NULL,
};
