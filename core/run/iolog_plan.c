/* I/O logs before the run: read_iolog's logs are read whole (merged first when
 * merge_blktrace_file asks) and become the job's plan: its files are the log's, its
 * directions and amount of I/O the log's (size, rw, bs, loops, io_size and number_ios do not
 * apply, as in fio), and nothing is laid out: a file the log writes is created empty if
 * missing, one it does not write must exist. write_iolog's file is checked before any job runs. */
#include "core/run/iolog_plan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engines/engine.h"
#include "core/plan/files.h"
#include "core/run/run.h"
#include "core/lib/outfile.h"
#include "core/lib/say.h"

#define NAMES_MAX 256

/* The names of read_iolog's list: a ':' separates, "\:" is a colon of a name (as filename=). */
static int split_names(const struct job_opts *o, char (*names)[PATH_MAX], unsigned *n)
{
	*n = 0;
	for (const char *p = o->iolog.read; *p && *n < NAMES_MAX;) {
		p = files_next_name(p, names[*n]);
		if (names[*n][0])
			(*n)++;
	}
	if (!*n) {
		job_say(o->name, "read_iolog: no file named");
		return -EINVAL;
	}
	return 0;
}

/* merge_blktrace_file: the listed traces become that one file. */
static int merge(const struct job_opts *o, char (*names)[PATH_MAX], unsigned *n)
{
	const char *list[NAMES_MAX];
	char err[PATH_MAX + 512];
	if (o->iolog.nscalars > *n || o->iolog.niters > *n) {
		job_say(o->name, "merge_blktrace_%s: %u values for %u trace%s",
			o->iolog.nscalars > *n ? "scalars" : "iters",
			o->iolog.nscalars > *n ? o->iolog.nscalars : o->iolog.niters, *n, *n > 1 ? "s" : "");
		return -EINVAL;
	}
	for (unsigned i = 0; i < *n; i++)
		list[i] = names[i];
	int ret = blktrace_merge(list, *n, o->iolog.scalars, o->iolog.nscalars, o->iolog.iters, o->iolog.niters,
				 o->iolog.merge_file, o->allow_mounted_write ? OUTFILE_ALLOW_BUSY : 0, err, sizeof(err));
	if (ret) {
		job_say(o->name, "%s", err);
		return ret;
	}
	snprintf(names[0], PATH_MAX, "%s", o->iolog.merge_file);
	*n = 1;
	return 0;
}

static int load(const struct job_opts *o, const char *name, struct iolog *log)
{
	const struct iolog_parse_opts po = { o->iolog.redirect, o->directory, o->iolog.align, o->iolog.scale,
					     o->iolog.skip };
	char err[PATH_MAX + 1024];
	bool in = !strcmp(name, "-");
	FILE *f = in ? stdin : fopen(name, "rb");
	if (!f) {
		job_say(o->name, "read_iolog: cannot open '%s': %s", name, strerror(errno));
		return -errno;
	}
	memset(log, 0, sizeof(*log));
	int ret = (log->name = strdup(in ? "stdin" : name)) ? iolog_read(f, log->name, &po, log, err, sizeof(err)) : -ENOMEM;
	if (ret == -ENOMEM)
		snprintf(err, sizeof(err), "%s: out of memory", name);
	if (ret)
		job_say(o->name, "read_iolog %s", err);
	if (!in)
		fclose(f);
	return ret;
}

/* What the logs ask of the job, refused where it cannot be done. */
static int check_logs(const struct job *job, const struct run_cfg *cfg, unsigned *rw)
{
	const struct job_opts *o = &job->o;
	uint64_t ios[DDIR_NR] = { 0 };
	for (unsigned i = 0; i < job->iologs->n; i++)
		for (int d = 0; d < DDIR_NR; d++)
			ios[d] += job->iologs->logs[i].ios[d];
	*rw = (ios[DDIR_READ] || (!ios[DDIR_WRITE] && !ios[DDIR_TRIM]) ? RW_READ : 0) |
	      (ios[DDIR_WRITE] ? RW_WRITE : 0) | (ios[DDIR_TRIM] ? RW_TRIM : 0);
	if ((ios[DDIR_WRITE] || ios[DDIR_TRIM]) && (cfg->readonly || o->readonly)) {
		job_say(o->name, "read_iolog: the log writes (%llu writes), and --readonly is set",
			(unsigned long long)ios[DDIR_WRITE]);
		return -EROFS;
	}
	return 0;
}

/* Options a replay cannot take. */
static int check_combination(const struct job *job)
{
	const struct job_opts *o = &job->o;
	const char *why = NULL;
	if (job->ops->flags & (ENGINE_FILE_OP | ENGINE_DIRS))
		why = "the engine does file operations, not I/O at offsets";
	else if (o->verify != VERIFY_NONE)
		why = "verify checks what the job's own workload wrote; a replay has none (use a separate verify job)";
	if (why)
		job_say(o->name, "read_iolog with %s%s: %s",
			job->ops->flags & (ENGINE_FILE_OP | ENGINE_DIRS) ? "ioengine=" : "verify",
			job->ops->flags & (ENGINE_FILE_OP | ENGINE_DIRS) ? job->ops->name : "", why);
	return why ? -EINVAL : 0;
}

/* A file that is missing or empty, or starts as fio's I/O logs do. */
static bool is_iolog(const char *path)
{
	char head[20] = "";
	FILE *f = fopen(path, "re");
	if (!f)
		return errno == ENOENT;
	size_t n = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	return n == 0 || !strncmp(head, "fio version ", 12);
}

/* write_iolog: its file can be opened to append to (it is created, as fio does). */
static int check_write_log(const struct job_opts *o, const struct run_cfg *cfg)
{
	if (!o->iolog.write[0] || cfg->parse_only)
		return 0;
	char why[600];
	if ((cfg->readonly || o->readonly) && !is_iolog(o->iolog.write)) {
		/* appended to as fio does: under --readonly only a log's own file, never a job's data */
		job_say(o->name, "write_iolog: '%s' exists and is not an I/O log, and --readonly is set",
			o->iolog.write);
		return -EROFS;
	}
	int fd = outfile_open_raw(o->iolog.write, O_WRONLY | O_CREAT | O_APPEND, 0644,
				  o->allow_mounted_write ? OUTFILE_ALLOW_BUSY : 0, why, sizeof(why));
	if (fd < 0) {
		job_say(o->name, "write_iolog: cannot open '%s': %s", o->iolog.write, why);
		return fd;
	}
	close(fd);
	return 0;
}

static int load_all(struct job *job, char (*names)[PATH_MAX], unsigned n)
{
	if (!(job->iologs = calloc(1, sizeof(*job->iologs))) || !(job->iologs->logs = calloc(n, sizeof(struct iolog)))) {
		job_say(job->o.name, "read_iolog: out of memory");
		return -ENOMEM;
	}
	unsigned stdin_uses = 0;
	for (unsigned i = 0; i < n; i++) {
		if (!strcmp(names[i], "-") && stdin_uses++) {
			job_say(job->o.name, "read_iolog: '-' (stdin) can be read once only");
			return -EINVAL;
		}
		int ret = load(&job->o, names[i], &job->iologs->logs[i]);
		job->iologs->n = i + 1;
		if (ret)
			return ret;
	}
	return 0;
}

int iolog_job_prepare(struct job *job, const struct run_cfg *cfg)
{
	struct job_opts *o = &job->o;
	iolog_set_free(job->iologs);
	job->iologs = NULL;
	if (!o->iolog.read[0])
		return check_write_log(o, cfg);
	char (*names)[PATH_MAX] = malloc(NAMES_MAX * PATH_MAX);
	unsigned n, rw;
	int ret = names ? split_names(o, names, &n) : -ENOMEM;
	if (!ret)
		ret = check_combination(job);
	if (!ret && o->iolog.merge_file[0] && (!cfg->parse_only || cfg->prog.merge_blktrace_only))
		ret = merge(o, names, &n);
	if (!ret && !cfg->prog.merge_blktrace_only)
		ret = load_all(job, names, n);
	free(names);
	if (ret || cfg->prog.merge_blktrace_only)
		return ret;
	if ((ret = check_logs(job, cfg, &rw)))
		return ret;
	o->rw = rw; /* what is opened how, and guarded, follows from it; rw= as given is still shown */
	o->rw_mod = 0;
	o->opendir[0] = '\0';
	if (o->iolog.write[0] && !cfg->parse_only)
		job_say(o->name, "note: read_iolog overrides write_iolog: nothing is recorded");
	o->iolog.write[0] = '\0';
	return 0;
}

int iolog_plan(const struct job *job, unsigned clone, bool no_file, struct file_plan *plan)
{
	const struct iolog *log = &job->iologs->logs[clone % job->iologs->n];
	memset(plan, 0, sizeof(*plan));
	plan->files = calloc(log->nfiles ? log->nfiles : 1, sizeof(*plan->files));
	if (!plan->files) {
		job_say(job->o.name, "read_iolog: out of memory");
		return -ENOMEM;
	}
	for (unsigned i = 0; i < log->nfiles; i++) {
		struct clone_file *f = &plan->files[i];
		f->path = log->files[i].path; /* the log lives as long as the job */
		f->region = log->files[i].extent;
	}
	plan->nfiles = log->nfiles;
	for (unsigned i = 0; i < log->nfiles && job->groupid == 0 && !no_file; i++) {
		struct stat st;
		if (stat(plan->files[i].path, &st) != 0 && !log->files[i].writes) { /* no earlier group can make it */
			job_say(job->o.name, "read_iolog %s: '%s' does not exist, and the log does not write it",
				log->name, plan->files[i].path);
			return -ENOENT;
		}
	}
	plan->io_limit = log->bytes[DDIR_READ] + log->bytes[DDIR_WRITE] + log->bytes[DDIR_TRIM];
	plan->replay = log;
	return 0;
}

static int create_empty(const struct job_opts *o, const char *path)
{
	files_make_parents(path);
	char why[600];
	int fd = outfile_open_raw(path, O_WRONLY | O_CREAT, 0644, o->allow_mounted_write ? OUTFILE_ALLOW_BUSY : 0, why,
				  sizeof(why));
	if (fd < 0) {
		int err = fd;
		job_say(o->name, "read_iolog: cannot create '%s': %s", path, why);
		return err;
	}
	close(fd);
	return 0;
}

int iolog_layout(const struct job *job, const struct file_plan *plan, bool readonly)
{
	const struct job_opts *o = &job->o;
	for (unsigned i = 0; i < plan->nfiles; i++) {
		const char *path = plan->files[i].path;
		struct stat st;
		if (stat(path, &st) == 0)
			continue;
		const char *why = !plan->replay->files[i].writes ? "the log does not write it"
				  : readonly ? "--readonly is set" : !o->allow_file_create ? "allow_file_create=0" : NULL;
		if (!why) {
			int ret = create_empty(o, path);
			if (ret)
				return ret;
			continue;
		}
		job_say(o->name, "read_iolog %s: '%s' does not exist, and %s", plan->replay->name, path, why);
		return readonly ? -EROFS : -ENOENT;
	}
	return 0;
}
