/* --debug's lines about the prepared run, and --daemonize. */
#include "core/app/prog.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/lib/debug.h"
#include "core/lib/outfile.h"

void prog_debug_prepared(const struct run_ctx *rc)
{
	const struct run_cfg *cfg = rc->cfg;
	const struct debug_opts *d = &cfg->prog.debug;
	for (size_t j = 0; debug_on(d->mask, DBG_JOB) && j < cfg->njobs; j++) {
		const struct job_opts *o = &cfg->jobs[j].o;
		debug_print(DBG_JOB, "job %zu '%s': group %u, numjobs=%u, rw=%s, ioengine=%s, iodepth=%u, bs=%" PRIu64
			    "\n", j, o->name, cfg->jobs[j].groupid, o->numjobs, o->rw_text, o->ioengine, o->iodepth,
			    o->bs[DDIR_READ]);
	}
	for (size_t i = 0; i < rc->nclones; i++) {
		const struct clone_result *c = &rc->clones[i];
		if (!debug_on(debug_for_clone(d, (unsigned)i), DBG_FILE))
			continue;
		for (unsigned k = 0; k < c->plan.nfiles; k++) {
			const struct clone_file *f = &c->plan.files[k];
			struct stat st; /* the plan keeps no such bit (a million files: 8 bytes each) */
			bool exists = stat(f->path, &st) == 0;
			debug_print(DBG_FILE, "clone %zu ('%s' %u): file %u '%s', region %" PRIu64 "+%" PRIu64
				    ", file size %" PRIu64 ", %s\n", i, cfg->jobs[c->job].o.name, c->clone, k, f->path,
				    f->offset, f->region, f->file_size, exists ? "exists" : "to be laid out");
		}
	}
	if (!debug_on(d->mask, DBG_TIME))
		return;
	if (rc->tsc.on)
		debug_print(DBG_TIME, "clocksource=cpu: the TSC at %.3f MHz (mult=%" PRIu64 ", ns per tick << 32), "
			    "anchored at %" PRIu64 " ns\n", 4294967296.0 / (double)rc->tsc.mult * 1000.0, rc->tsc.mult,
			    rc->tsc.ns0);
	else
		debug_print(DBG_TIME, "clocksource=clock_gettime (CLOCK_MONOTONIC)\n");
}

void prog_debug_disks(const struct run_ctx *rc)
{
	const struct run_results *r = &rc->results;
	if (!debug_on(rc->cfg->prog.debug.mask, DBG_DISKUTIL))
		return;
	if (!r->ndisks)
		debug_print(DBG_DISKUTIL, "no block device behind the jobs' files\n");
	for (unsigned i = 0; i < r->ndisks; i++)
		debug_print(DBG_DISKUTIL, "%s: ios=%" PRIu64 "/%" PRIu64 ", ticks=%" PRIu64 "/%" PRIu64 ", util=%.2f%%\n",
			    r->disks[i].name, r->disks[i].ios[0], r->disks[i].ios[1], r->disks[i].ticks[0],
			    r->disks[i].ticks[1], r->disks[i].util_pct);
}

/* The child's side: a session of its own, no terminal input, its pid in the file; the
 * parent hears 0 or the errno through the pipe. */
static int daemon_child(const char *pidfile, unsigned flags, int wfd)
{
	int err = setsid() < 0 ? errno : 0;
	int null = open("/dev/null", O_RDONLY);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		close(null);
	}
	char why[600] = "";
	FILE *f = err ? NULL : outfile_fopen(pidfile, O_TRUNC, flags, why, sizeof(why));
	if (!err && !f)
		err = errno;
	if (f) {
		fprintf(f, "%d\n", (int)getpid());
		if (fclose(f) == EOF)
			err = errno;
	}
	if (err)
		fprintf(stderr, "iobench: --daemonize: cannot write '%s': %s\n", pidfile, why[0] ? why : strerror(err));
	if (write(wfd, &err, sizeof(err)) != (ssize_t)sizeof(err) && !err)
		err = EPIPE;
	close(wfd);
	return err ? -err : 0;
}

/* The pid a pid file holds (digits, a newline), or -1 when it holds anything else; 0 when
 * there is no such file. */
static long pidfile_pid(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISREG(st.st_mode) || st.st_size > 24)
		return -1;
	FILE *f = fopen(path, "re");
	char buf[32] = "", end = 0;
	long pid = -1;
	if (f && fgets(buf, sizeof(buf), f) && sscanf(buf, "%ld%c", &pid, &end) >= 1 && (!end || end == '\n'))
		pid = pid > 0 ? pid : -1;
	else
		pid = st.st_size ? -1 : 0; /* an empty file: nothing to lose */
	if (f)
		fclose(f);
	return pid;
}

int prog_daemonize(const struct run_cfg *cfg)
{
	const char *pidfile = cfg->prog.daemonize;
	if (cfg->cluster && cfg->cluster->size > 1) {
		fprintf(stderr, "iobench: --daemonize: not under MPI (mpirun keeps the ranks)\n");
		return -EINVAL;
	}
	if (!cfg->output_path && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "iobench: --daemonize: stdout is a terminal the background run would lose; give "
				"--output=FILE (or redirect stdout)\n");
		return -EINVAL;
	}
	char why[600];
	if (outfile_guard(pidfile, cfg->outfile_flags, why, sizeof(why))) {
		fprintf(stderr, "iobench: --daemonize: cannot write '%s': %s\n", pidfile, why);
		return -EBUSY;
	}
	if (pidfile_pid(pidfile) < 0) { /* a job's data, a report: never replaced by a pid, nor removed */
		fprintf(stderr, "iobench: --daemonize: '%s' exists and is not a pid file: not overwritten\n", pidfile);
		return -EEXIST;
	}
	int p[2];
	if (pipe(p) < 0) {
		fprintf(stderr, "iobench: --daemonize: %s\n", strerror(errno));
		return -errno;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		int err = errno;
		fprintf(stderr, "iobench: --daemonize: cannot fork: %s\n", strerror(err));
		close(p[0]);
		close(p[1]);
		return -err;
	}
	if (pid == 0) {
		close(p[0]);
		return daemon_child(pidfile, cfg->outfile_flags, p[1]);
	}
	close(p[1]);
	int err = EPIPE;
	ssize_t n;
	while ((n = read(p[0], &err, sizeof(err))) < 0 && errno == EINTR)
		;
	close(p[0]);
	return n == (ssize_t)sizeof(err) && !err ? 1 : -(err ? err : EPIPE);
}

void prog_daemon_end(const struct run_cfg *cfg)
{
	/* only our own pid file: another run may have taken the name since */
	if (cfg->prog.daemonize && pidfile_pid(cfg->prog.daemonize) == (long)getpid())
		unlink(cfg->prog.daemonize);
}
