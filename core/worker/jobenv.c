/* A worker's thread in its place: its cgroup, I/O priority, nice value, NUMA nodes and
 * memory policy, group and user, pinned memory; the write hint of its files; the commands
 * before and after the job. iobench runs jobs as threads, so each of these is set for the
 * job's own thread only (Linux keeps them per thread: ioprio_set, setpriority and
 * sched_setaffinity on the thread, set_mempolicy, the raw setresuid/setresgid system calls
 * rather than glibc's, which would change every thread of the process). Commands run from
 * the thread inherit all of it. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/worker/jobenv.h"
#include "core/worker/worker_int.h"
#include "core/lib/outfile.h"
#include "core/lib/signals.h"
#include "core/lib/say.h"

#ifndef F_SET_RW_HINT
#define F_SET_RW_HINT 1036
#endif
#define IOPRIO_WHO_PROCESS 1
#define MPOL_DEFAULT 0
#define MPOL_PREFERRED 1
#define MPOL_BIND 2
#define MPOL_INTERLEAVE 3
#define MPOL_LOCAL 4

extern char **environ;

static int __attribute__((format(printf, 4, 5)))
fail(const struct wstate *s, const char *opt, int err, const char *fmt, ...)
{
	char what[PATH_MAX + 256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	job_say(s->o->name, "%s: %s: %s", opt, what, strerror(err));
	return -err;
}

static int join_cgroup(struct wstate *s)
{
	const struct env_clone *ec = s->w->env;
	if (!ec || !ec->cgroup_join[0])
		return 0;
	char tid[32];
	int n = snprintf(tid, sizeof(tid), "%d\n", (int)gettid());
	int fd = open(ec->cgroup_join, O_WRONLY | O_CLOEXEC);
	int err = fd < 0 ? errno : write(fd, tid, (size_t)n) != n ? errno : 0;
	if (fd >= 0)
		close(fd);
	return err ? fail(s, "cgroup", err, "cannot move the job's thread in (%s)", ec->cgroup_join) : 0;
}

static int set_ioprio(struct wstate *s)
{
	const struct env_opts *e = &s->o->env;
	uint16_t v = cmdprio_job_ioprio(e);
	if (!v)
		return 0;
	if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, (int)v) == 0)
		return 0;
	char what[64];
	snprintf(what, sizeof(what), "class %u, level %u", ioprio_class_of(v), ioprio_level_of(v));
	return fail(s, e->prio.set ? "prio" : "prioclass", errno, "ioprio_set(%s) failed", what);
}

/* nice=N adds N to the thread's nice value, as nice(2) (within -20..19). */
static int set_nice(struct wstate *s)
{
	int n = s->o->env.nice;
	if (!n)
		return 0;
	id_t tid = (id_t)gettid();
	errno = 0;
	int cur = getpriority(PRIO_PROCESS, tid);
	int want = cur + n < -20 ? -20 : cur + n > 19 ? 19 : cur + n;
	if ((cur == -1 && errno) || setpriority(PRIO_PROCESS, tid, want) < 0) {
		char what[32];
		snprintf(what, sizeof(what), "%d", want);
		return fail(s, "nice", errno, "cannot set the job's thread's nice value to %s", what);
	}
	return 0;
}

/* The CPUs of a node, from /sys/devices/system/node/nodeN/cpulist ("0-3,8"). */
static void node_cpus(unsigned node, cpu_set_t *set)
{
	char path[80], buf[4096];
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%u/cpulist", node);
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f)) {
		char *save = NULL;
		for (char *tok = strtok_r(buf, ",\n", &save); tok; tok = strtok_r(NULL, ",\n", &save)) {
			unsigned lo, hi;
			int k = sscanf(tok, "%u-%u", &lo, &hi);
			if (k == 1)
				hi = lo;
			for (unsigned c = lo; k >= 1 && c <= hi && c < CPU_SETSIZE; c++)
				CPU_SET(c, set);
		}
	}
	fclose(f);
}

static int set_numa(struct wstate *s)
{
	const struct env_opts *e = &s->o->env;
	if (e->numa_cpu_set) {
		cpu_set_t set;
		CPU_ZERO(&set);
		for (unsigned k = 0; k < ENV_NODES_MAX; k++)
			if (e->numa_cpu_nodes[k / 64] >> (k % 64) & 1)
				node_cpus(k, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0)
			return fail(s, "numa_cpu_nodes", errno, "cannot run the job's thread on the nodes' CPUs%s", "");
	}
	if (e->mpol == ENV_MPOL_UNSET)
		return 0;
	static const int modes[] = { 0, MPOL_DEFAULT, MPOL_PREFERRED, MPOL_BIND, MPOL_INTERLEAVE, MPOL_LOCAL };
	bool nodes = e->mpol == ENV_MPOL_PREFER || e->mpol == ENV_MPOL_BIND || e->mpol == ENV_MPOL_INTERLEAVE;
	if (syscall(SYS_set_mempolicy, modes[e->mpol], nodes ? e->mpol_nodes : NULL,
		    nodes ? (unsigned long)ENV_NODES_MAX + 1 : 0UL) < 0)
		return fail(s, "numa_mem_policy", errno, "set_mempolicy failed%s", "");
	return 0;
}

/* gid first: a new group needs the privilege that a new user gives up. */
static int set_ids(struct wstate *s)
{
	const struct env_opts *e = &s->o->env;
	char what[32];
	if (e->gid.set && syscall(SYS_setresgid, (gid_t)e->gid.v, (gid_t)e->gid.v, (gid_t)e->gid.v) < 0) {
		snprintf(what, sizeof(what), "%lld", (long long)e->gid.v);
		return fail(s, "gid", errno, "cannot switch the job's thread to group %s", what);
	}
	if (e->uid.set && syscall(SYS_setresuid, (uid_t)e->uid.v, (uid_t)e->uid.v, (uid_t)e->uid.v) < 0) {
		snprintf(what, sizeof(what), "%lld", (long long)e->uid.v);
		return fail(s, "uid", errno, "cannot switch the job's thread to user %s", what);
	}
	return 0;
}

/* lockmem=N: N bytes pinned for the job's life (memory the rest of the machine lacks). */
static int pin_memory(struct wstate *s)
{
	size_t len = (size_t)s->o->env.lockmem;
	if (!len)
		return 0;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int err = p == MAP_FAILED ? errno : mlock(p, len) < 0 ? errno : 0;
	if (!err) {
		s->env.pinned = p;
		s->env.pinned_len = len;
		return 0;
	}
	if (p != MAP_FAILED)
		munmap(p, len);
	struct rlimit rl = { 0, 0 };
	getrlimit(RLIMIT_MEMLOCK, &rl);
	char what[160];
	if (rl.rlim_cur == RLIM_INFINITY)
		snprintf(what, sizeof(what), "cannot pin %zu bytes with mlock", len);
	else
		snprintf(what, sizeof(what),
			 "cannot pin %zu bytes with mlock (RLIMIT_MEMLOCK is %llu bytes: ulimit -l, "
			 "or CAP_IPC_LOCK)",
			 len, (unsigned long long)rl.rlim_cur);
	return fail(s, "lockmem", err, "%s", what);
}

int env_enter(struct wstate *s)
{
	int ret = join_cgroup(s);
	if (!ret)
		ret = set_ioprio(s);
	if (!ret)
		ret = set_nice(s);
	if (!ret)
		ret = set_numa(s);
	if (!ret)
		ret = set_ids(s);
	if (!ret)
		ret = pin_memory(s);
	return ret;
}

void env_leave(struct wstate *s)
{
	if (s->env.pinned)
		munmap(s->env.pinned, s->env.pinned_len);
	s->env.pinned = NULL;
}

int env_files_opened(struct wstate *s)
{
	uint64_t hint = s->o->env.write_hint;
	if (!hint)
		return 0;
	for (unsigned i = 0; i < s->nfiles; i++)
		if (wf_fd(s, &s->files[i]) >= 0 && fcntl(wf_fd(s, &s->files[i]), F_SET_RW_HINT, &hint) < 0)
			return fail(s, "write_hint", errno, "fcntl(F_SET_RW_HINT) on '%s' failed",
				    s->cfs[i].path);
	return 0;
}

/* sh -c CMD, its output and errors in JOBNAME.WHAT.txt (opened through the door: why says
 * why not); its exit status, or -errno. */
static int run_command(const struct wstate *s, const char *cmd, const char *what, char *out, size_t outlen,
		       char *why, size_t whylen)
{
	snprintf(out, outlen, "%s.%s.txt", s->o->name, what);
	int fd = outfile_open_raw(out, O_WRONLY | O_CREAT | O_TRUNC, 0666,
				  s->o->allow_mounted_write ? OUTFILE_ALLOW_BUSY : 0, why, whylen);
	if (fd < 0)
		return fd;
	why[0] = '\0';
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd, 1);
	posix_spawn_file_actions_adddup2(&fa, fd, 2);
	posix_spawnattr_init(&at);
	sigset_t none, dfl;
	sigemptyset(&none);
	signals_child_defaults(&dfl);
	posix_spawnattr_setsigmask(&at, &none); /* the worker blocks the run's signals: not the command */
	posix_spawnattr_setsigdefault(&at, &dfl);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	char *argv[] = { "sh", "-c", (char *)cmd, NULL };
	pid_t pid;
	int err = posix_spawn(&pid, "/bin/sh", &fa, &at, argv, environ);
	close(fd);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	if (err)
		return -err;
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int env_prerun(struct wstate *s)
{
	const char *cmd = s->o->env.exec_prerun;
	if (!cmd[0])
		return 0;
	char out[PATH_MAX], why[600];
	int st = run_command(s, cmd, "prerun", out, sizeof(out), why, sizeof(why));
	if (st < 0 && why[0]) {
		job_say(s->o->name, "exec_prerun: cannot write '%s': %s", out, why);
		return st;
	}
	if (st < 0)
		return fail(s, "exec_prerun", -st, "cannot run '%s'", cmd);
	if (st) {
		job_say(s->o->name, "exec_prerun: '%s' exited with status %d (its output: %s); the job does not run",
			cmd, st, out);
		return -ECANCELED;
	}
	return 0;
}

/* After the job, as fio: only when its prerun (if any) went well. A failure is a note. */
int env_postrun(struct wstate *s)
{
	const char *cmd = s->o->env.exec_postrun;
	if (!cmd[0])
		return 0;
	char out[PATH_MAX], why[600];
	int st = run_command(s, cmd, "postrun", out, sizeof(out), why, sizeof(why));
	if (st < 0 && why[0]) { /* refused by the door: an error, as a log that cannot be written */
		job_say(s->o->name, "exec_postrun: cannot write '%s': %s", out, why);
		return st;
	}
	if (st < 0)
		fail(s, "exec_postrun", -st, "cannot run '%s'", cmd);
	else if (st)
		job_say(s->o->name, "note: exec_postrun: '%s' exited with status %d (its output: %s)", cmd, st, out);
	return 0;
}
