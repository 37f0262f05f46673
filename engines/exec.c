/* exec: runs a program alongside the jobs (a monitor such as turbostat, a load, a sleep),
 * as fio's engine. The program starts when the job does; each "I/O" waits up to 50 ms for
 * it, then the job thinks 50 ms (set here), so the job's reads, with no bytes, count its
 * running time in tenths of a second. When the job's runtime is over the program gets
 * SIGTERM, then SIGKILL after grace_time if it is still there. Its output goes to
 * JOBNAME.stdout and JOBNAME.stderr (std_redirect=1) or to iobench's stderr. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engines/engine.h"

extern char **environ;

struct exec_opts {
	char program[PATH_MAX];
	char arguments[4096];
	uint64_t grace_us;
	bool std_redirect;
};

#define EXEC_ARGS_MAX 256
#define EXEC_WAIT_MS 50 /* each I/O waits this long for the program, and thinks as long */

struct exec_data {
	pid_t pid;     /* 0 until started */
	int pidfd;     /* -1 where pidfd_open is missing (before Linux 5.3) */
	bool exited;
	char *argv[EXEC_ARGS_MAX + 2];
	char args[8192]; /* the arguments, %r and %n expanded, each ended by '\0' */
};

#define OFFS(f) offsetof(struct exec_opts, f)
static const struct option_def exec_options[] = {
	{ .name = "program", .type = OPT_STR, .offset = OFFS(program), .size = sizeof(((struct exec_opts *)0)->program),
	  .help = "The program to run (needed; looked up in PATH without a '/')" },
	{ .name = "arguments", .type = OPT_STR, .offset = OFFS(arguments),
	  .size = sizeof(((struct exec_opts *)0)->arguments),
	  .help = "Its arguments, split at blanks; %r is the job's runtime in seconds, %n its name" },
	{ .name = "grace_time", .type = OPT_TIME, .offset = OFFS(grace_us), .unit = 1000000, .def = "1",
	  .help = "Between SIGTERM and SIGKILL at the end (a bare number: seconds)" },
	{ .name = "std_redirect", .type = OPT_BOOL, .offset = OFFS(std_redirect), .def = "1",
	  .help = "The program's output to JOBNAME.stdout and JOBNAME.stderr (0: to iobench's stderr)", .effects = OPT_EFFECT_OUTPUT },
	{ NULL },
};

static bool runnable(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

/* Before the run: the program is there and may be run (found in PATH without a '/', as
 * posix_spawnp will look for it), so that a typo is one line and not a job failing at its
 * start. fio runs the job, the child's exec fails, and it exits 0. */
static int exec_check(const struct job_opts *o, const void *eng_opts, char *why, size_t len)
{
	const struct exec_opts *eo = eng_opts;
	if (strchr(eo->program, '/')) {
		if (runnable(eo->program))
			return 0;
		snprintf(why, len, "program: '%.300s' is not an executable file", eo->program);
		return -ENOENT;
	}
	const char *path = getenv("PATH");
	for (const char *p = path && *path ? path : "/usr/local/bin:/usr/bin:/bin"; *p;) {
		size_t k = strcspn(p, ":");
		char full[PATH_MAX];
		int n = snprintf(full, sizeof(full), "%.*s/%s", (int)k, k ? p : ".", eo->program);
		if (n > 0 && (size_t)n < sizeof(full) && runnable(full))
			return 0;
		p += k + (p[k] == ':');
	}
	snprintf(why, len, "program: '%.300s' is not found in PATH", eo->program);
	return -ENOENT;
}

/* Append src to the argument buffer at *n, %r and %n expanded. */
static int expand(struct exec_data *ed, size_t *n, const char *src, size_t srclen, const struct job_opts *o)
{
	for (size_t i = 0; i < srclen; i++) {
		char num[32];
		const char *sub = NULL;
		if (src[i] == '%' && i + 1 < srclen && (src[i + 1] == 'r' || src[i + 1] == 'n')) {
			snprintf(num, sizeof(num), "%llu", (unsigned long long)(o->runtime_us / 1000000));
			sub = src[++i] == 'r' ? num : o->name;
		}
		size_t k = sub ? strlen(sub) : 1;
		if (*n + k + 1 >= sizeof(ed->args))
			return -E2BIG;
		memcpy(ed->args + *n, sub ? sub : &src[i], k);
		*n += k;
	}
	ed->args[(*n)++] = '\0';
	return 0;
}

/* The program's argv, %r and %n expanded, into ed; -E2BIG with the reason in why. */
static int build_argv(const struct exec_opts *eo, const struct job_opts *o, struct exec_data *ed, char *why,
		      size_t len)
{
	size_t n = 0, argc = 0, starts[EXEC_ARGS_MAX + 1];
	starts[argc++] = 0;
	int ret = expand(ed, &n, eo->program, strlen(eo->program), o);
	for (const char *p = eo->arguments; !ret && *p;) {
		p += strspn(p, " \t");
		size_t k = strcspn(p, " \t");
		if (!k)
			break;
		if (argc > EXEC_ARGS_MAX) {
			snprintf(why, len, "arguments: more than %d of them", EXEC_ARGS_MAX);
			return -E2BIG;
		}
		starts[argc++] = n;
		ret = expand(ed, &n, p, k, o);
		p += k;
	}
	if (ret) {
		snprintf(why, len, "arguments: longer than %zu bytes once expanded", sizeof(ed->args));
		return ret;
	}
	for (size_t i = 0; i < argc; i++)
		ed->argv[i] = ed->args + starts[i];
	ed->argv[argc] = NULL;
	return 0;
}

static int exec_resolve(struct job_opts *o, void *eng_opts, char *why, size_t len)
{
	const struct exec_opts *eo = eng_opts;
	if (!eo->program[0]) {
		snprintf(why, len, "program: the exec engine needs a program to run");
		return -EINVAL;
	}
	struct exec_data *ed = calloc(1, sizeof(*ed));
	int ret = ed ? build_argv(eo, o, ed, why, len) : -ENOMEM;
	free(ed);
	if (ret)
		return -EINVAL;
	o->thinktime_us = EXEC_WAIT_MS * 1000;
	o->thinktime_spin_us = 0;
	o->thinktime_blocks = 1;
	o->nrfiles = 1;
	if (!o->size && !o->filesize_lo) /* no data: a nominal region of one block */
		o->size = o->bs[DDIR_READ] > o->bs[DDIR_WRITE] ? o->bs[DDIR_READ] : o->bs[DDIR_WRITE];
	return 0;
}

static int exec_init(struct engine_ctx *ctx)
{
	struct exec_data *ed = calloc(1, sizeof(*ed));
	if (!ed)
		return -ENOMEM;
	ed->pidfd = -1;
	ctx->priv = ed;
	return build_argv(ctx->eng_opts, ctx->opts, ed, ctx->why, sizeof(ctx->why));
}

/* What fio's engine says as a job starts: the program and its arguments as given, then the
 * command line it runs and where its output goes. */
static void exec_describe(const struct job_opts *o, const void *eng_opts, char *buf, size_t len)
{
	const struct exec_opts *eo = eng_opts;
	struct exec_data *ed = calloc(1, sizeof(*ed));
	char why[128];
	if (!ed || build_argv(eo, o, ed, why, sizeof(why))) {
		free(ed);
		return;
	}
	char cmd[1024] = "";
	for (size_t i = 0, n = 0; ed->argv[i] && n < sizeof(cmd); i++)
		n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, "%s%s", i ? " " : "", ed->argv[i]);
	int n = snprintf(buf, len, "%s : program=%s, arguments=%s\n", o->name, eo->program, eo->arguments);
	if (n > 0 && (size_t)n < len && eo->std_redirect)
		snprintf(buf + n, len - (size_t)n, "%s : Saving output of %s : stdout=%s.stdout stderr=%s.stderr", o->name,
			 cmd, o->name, o->name);
	else if (n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "%s : Running %s", o->name, cmd);
	free(ed);
}

/* Where the program's output goes: files named for the job (opened through the core's
 * door, fds[0..1], closed by the caller once spawned), or iobench's stderr (never its
 * stdout, which may carry JSON). 0, an errno for posix_spawn's, or -errno with ctx->why. */
static int redirect(posix_spawn_file_actions_t *fa, struct engine_ctx *ctx, int fds[2])
{
	const struct exec_opts *eo = ctx->eng_opts;
	if (!eo->std_redirect)
		return posix_spawn_file_actions_adddup2(fa, STDERR_FILENO, STDOUT_FILENO);
	static const char *const ext[2] = { "stdout", "stderr" };
	for (int i = 0; i < 2; i++) {
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s.%s", ctx->opts->name, ext[i]);
		fds[i] = engine_open_output(ctx, path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fds[i] < 0) {
			char why[sizeof(ctx->why)];
			snprintf(why, sizeof(why), "%s", ctx->why);
			snprintf(ctx->why, sizeof(ctx->why), "std_redirect: cannot write '%.50s': %.140s", path, why);
			return fds[i];
		}
		int r = posix_spawn_file_actions_adddup2(fa, fds[i], i ? STDERR_FILENO : STDOUT_FILENO);
		if (r)
			return r;
	}
	return 0;
}

/* Start the program once the job's files are open, just before its loop. The worker's
 * blocked signals and iobench's ignored SIGPIPE are not the program's. */
static int exec_start(struct engine_ctx *ctx)
{
	struct exec_data *ed = ctx->priv;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, all;
	sigemptyset(&none);
	engine_child_sigdefault(&all);
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &all);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	int fds[2] = { -1, -1 };
	int r = redirect(&fa, ctx, fds);
	if (!r)
		r = posix_spawnp(&ed->pid, ed->argv[0], &fa, &attr, ed->argv, environ);
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (r < 0) { /* the door refused an output file: ctx->why says why */
		ed->pid = 0;
		return r;
	}
	if (r) {
		ed->pid = 0;
		snprintf(ctx->why, sizeof(ctx->why), "cannot run '%s'", ed->argv[0]);
		return -r;
	}
	ed->pidfd = (int)syscall(SYS_pidfd_open, ed->pid, 0);
	return 0;
}

/* Wait up to ms for the program to end; true once it has (and has been reaped). */
static bool wait_exit(struct exec_data *ed, int ms)
{
	if (ed->exited)
		return true;
	if (ed->pidfd >= 0) {
		struct pollfd p = { .fd = ed->pidfd, .events = POLLIN };
		poll(&p, 1, ms);
	} else if (ms > 0) {
		struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };
		nanosleep(&ts, NULL);
	}
	pid_t r = waitpid(ed->pid, NULL, WNOHANG);
	ed->exited = r == ed->pid || (r < 0 && errno == ECHILD);
	return ed->exited;
}

static int exec_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct exec_data *ed = ctx->priv;
	if (ed->exited) {
		/* With a runtime the job lasts it, as fio's; without one it ends with the program. */
		if (!ctx->opts->runtime_us)
			return Q_DONE;
		struct timespec ts = { 0, EXEC_WAIT_MS * 1000000L };
		nanosleep(&ts, NULL);
	} else {
		wait_exit(ed, EXEC_WAIT_MS);
	}
	u->result = 0; /* no data moved */
	return Q_COMPLETED;
}

static void exec_cleanup(struct engine_ctx *ctx)
{
	const struct exec_opts *eo = ctx->eng_opts;
	struct exec_data *ed = ctx->priv;
	if (!ed)
		return;
	if (ed->pid > 0 && !wait_exit(ed, 0)) {
		kill(ed->pid, SIGTERM);
		uint64_t ms = eo->grace_us / 1000;
		if (!wait_exit(ed, ms > INT_MAX ? INT_MAX : (int)ms)) {
			kill(ed->pid, SIGKILL);
			waitpid(ed->pid, NULL, 0);
		}
	}
	if (ed->pidfd >= 0)
		close(ed->pidfd);
	free(ed);
}

static int exec_open(struct engine_ctx *ctx, const char *path, int flags, int *fd)
{
	*fd = -1; /* no file */
	return 0;
}

static int exec_close(struct engine_ctx *ctx, int fd)
{
	return 0;
}

const struct engine_ops exec_engine_ops = {
	.name = "exec",
	.flags = ENGINE_SYNC | ENGINE_NO_FILE | ENGINE_NO_IO | ENGINE_TRIM | ENGINE_ALTERS_ON_READ, /* a trim waits as a read */
	.options = exec_options,
	.options_size = sizeof(struct exec_opts),
	.resolve = exec_resolve,
	.check = exec_check,
	.describe = exec_describe,
	.init = exec_init,
	.cleanup = exec_cleanup,
	.open_file = exec_open,
	.close_file = exec_close,
	.post_open = exec_start,
	.queue = exec_queue,
};
