/* The program's flags of fio 3.33 beyond the report's (issue 16): what the command line
 * asked, held in run_cfg.prog. The flags themselves are rows of cli_flags[] (core/app/cli.c). */
#ifndef IOBENCH_PROGFLAGS_H
#define IOBENCH_PROGFLAGS_H
#include <stdbool.h>
#include <stdint.h>

#include "core/lib/debug.h"

struct prog_flags {
	struct debug_opts debug;   /* --debug */
	int idle_prof;             /* --idle-prof: enum idle_mode (core/app/idle.h) */
	uint64_t eta_interval_ms;  /* --eta-interval: 0 is fio's default, a second */
	uint64_t eta_newline_ms;   /* --eta-newline: 0 none */
	bool bandwidth_log;        /* --bandwidth-log: agg-{read,write,trim}_bw.log */
	bool warnings_fatal;       /* --warnings-fatal: a note on stderr ends the run (exit 1) */
	const char *trigger_file;  /* --trigger-file: fire when it exists */
	uint64_t trigger_timeout_ms; /* --trigger-timeout: fire this long after the start; 0 none */
	const char *trigger_cmd;   /* --trigger: the command run when it fires */
	const char *aux_path;      /* --aux-path: the directory of state files (default: .) */
	const char *daemonize;     /* --daemonize: the pid file of a run in the background */
	unsigned max_jobs;         /* --max-jobs: threads a run may start; 0: MAX_JOBS */
	bool merge_blktrace_only; /* --merge-blktrace-only: merge_blktrace_file's merges, no I/O */
	bool reparse;              /* a sweep parses the command line again: its notes were said */
};

/* The trigger fires at all? */
static inline bool prog_trigger_on(const struct prog_flags *p)
{
	return p->trigger_file || p->trigger_timeout_ms;
}

#endif
