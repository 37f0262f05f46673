/* The run's part of the job environment: the checks of a job's options once resolved; before
 * a group starts, its cgroups made, the I/O schedulers of its block devices switched and its
 * files' locks; after the run, the cgroups it made removed and the schedulers put back.
 *
 * cgroups: as fio, the blkio hierarchy of cgroup v1 where it is mounted, else cgroup v2.
 * v1: NAME under the hierarchy's root, the thread joins through "tasks". v2 moves a single
 * thread only into a threaded cgroup within its process's own: NAME is made under the
 * process's cgroup as threaded, and the thread joins through "cgroup.threads". */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/stats/diskstats.h"
#include "core/run/jobenv_run.h"
#include "core/run/run.h"
#include "core/stats/sysinfo.h"
#include "core/lib/say.h"

/* ---- checks ---- */

static int __attribute__((format(printf, 2, 3))) job_err(const struct job *job, const char *fmt, ...)
{
	char what[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	job_say(job->o.name, "%s", what);
	return -EINVAL;
}

/* The cmdprio option a job was given last (fio's are the engines' options: given to an
 * engine without them, they are an error), or NULL. */
static const char *cmdprio_given(const struct job *job, const struct run_cfg *cfg)
{
	const struct opt_list *const lists[] = { &cfg->cmdline_globals, &job->inherit, &job->given };
	const char *found = NULL;
	for (size_t i = 0; i < 3; i++)
		for (size_t k = 0; k < lists[i]->n; k++)
			if (!strncmp(lists[i]->v[k].name, "cmdprio", 7))
				found = lists[i]->v[k].name;
	return found;
}

static int check_cmdprio(const struct job *job, const struct run_cfg *cfg)
{
	const struct env_opts *e = &job->o.env;
	const char *opt = cmdprio_given(job, cfg);
	if (!opt)
		return 0;
	if (!(job->ops->flags & ENGINE_IOPRIO)) {
		char names[256] = "";
		const struct engine_ops *x;
		for (size_t i = 0; (x = engine_by_index(i)); i++)
			if (x->flags & ENGINE_IOPRIO)
				snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
					 names[0] ? ", " : "", x->name);
		char what[300];
		snprintf(what, sizeof(what), "the %s engine cannot give an I/O a priority of its own (%s can)",
			 job->ops->name, names);
		return job_err(job, "%s: %s", opt, what);
	}
	if ((e->cmdprio_pct[0] || e->cmdprio_pct[1]) && (e->ncmdprio_split[0] || e->ncmdprio_split[1]))
		return job_err(job, "%s%s",
			       "cmdprio_percentage and cmdprio_bssplit cannot be used together (as in fio)", "");
	for (int d = 0; d < PRIO_DIRS; d++)
		if (cmdprio_count(e, d) > PRIO_STATS_MAX) {
			char what[128];
			snprintf(what, sizeof(what),
				 "the %s have %u priorities; iobench keeps apart at most %d (the job's "
				 "own and %d more)",
				 d ? "writes" : "reads", cmdprio_count(e, d), PRIO_STATS_MAX, PRIO_STATS_MAX - 1);
			return job_err(job, "%s: %s", opt, what);
		}
	return 0;
}

/* gtod_cpu=N: CPU N is kept out of the job's cpus_allowed/cpumask, as fio does for the CPU
 * of its gettimeofday thread. */
static int apply_gtod_cpu(struct job *job)
{
	struct job_opts *o = &job->o;
	if (!o->env.gtod_cpu.set || !o->ncpus_allowed)
		return 0;
	unsigned c = (unsigned)o->env.gtod_cpu.v;
	if (o->cpus_allowed[c / 64] & (1ULL << (c % 64))) {
		o->cpus_allowed[c / 64] &= ~(1ULL << (c % 64));
		o->ncpus_allowed--;
	}
	if (o->ncpus_allowed)
		return 0;
	char what[32];
	snprintf(what, sizeof(what), "%u", c);
	return job_err(job, "gtod_cpu: CPU %s was the only one its cpus_allowed/cpumask gave it%s", what, "");
}

static uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	unsigned long long kb = 0;
	char line[256];
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	uint64_t avail = (uint64_t)kb * 1024;
	struct cpu_limit cl;
	memset(&cl, 0, sizeof(cl));
	cpu_limit_read(&cl);
	if (cl.mem_set && cl.mem_bytes < avail)
		avail = cl.mem_bytes;
	return avail;
}

/* "1.5 GiB", "512 MiB": bytes in the largest IEC unit they reach. */
static const char *iec(char *buf, size_t len, uint64_t v)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned u = 0;
	double d = (double)v;
	while (d >= 1024 && u < 6)
		d /= 1024, u++;
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", d, unit[u]);
	return buf;
}

/* What the machine must have: the memory lockmem pins, the huge pages shmhuge and mmaphuge
 * take. */
static int check_memory(const struct job *job)
{
	const struct env_opts *e = &job->o.env;
	char a[32], b[32];
	if (e->lockmem) {
		uint64_t all = e->lockmem * job->o.numjobs, avail = mem_available();
		if (all / job->o.numjobs != e->lockmem || all > avail)
			return job_err(job,
				       "lockmem: %s per thread (x numjobs=%u) is more than the memory available (%s); "
				       "pinning it would bring in the OOM killer",
				       iec(a, sizeof(a), e->lockmem), job->o.numjobs, iec(b, sizeof(b), avail));
	}
	const char *type = e->mem == MEM_SHMHUGE ? "shmhuge" : "mmaphuge";
	if (e->mem != MEM_SHMHUGE && (e->mem != MEM_MMAPHUGE || e->mem_path[0]))
		return 0;
	uint64_t def = env_default_hugepage();
	long long nfree = env_free_hugepages(e->hugepage_size);
	iec(a, sizeof(a), e->hugepage_size);
	if (!def)
		return job_err(job, "mem=%s: this machine has no huge pages (no Hugepagesize in /proc/meminfo)", type);
	if (nfree < 0)
		return job_err(job,
			       "hugepage-size: this machine has no huge pages of %s (its default is %s; see "
			       "/sys/kernel/mm/hugepages)",
			       a, iec(b, sizeof(b), def));
	if (!nfree)
		return job_err(job,
			       "mem=%s: no free huge pages of %s (reserve some: echo N > /sys/kernel/mm/hugepages/"
			       "hugepages-%llukB/nr_hugepages)",
			       type, a, (unsigned long long)(e->hugepage_size / 1024));
	return 0;
}

static int check_names(const struct job *job)
{
	const struct env_opts *e = &job->o.env;
	if (e->cgroup[0] && (strstr(e->cgroup, "..") || !e->cgroup[strspn(e->cgroup, "/")]))
		return job_err(job, "cgroup: '%s' is not a cgroup name (a path below the hierarchy, without ..)%s",
			       e->cgroup, "");
	const char *s = e->ioscheduler;
	if (s[0] && s[strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-_")])
		return job_err(job, "ioscheduler: '%s' is not a scheduler's name (none, mq-deadline, kyber, bfq...)%s",
			       s, "");
	return 0;
}

/* Every NUMA node the job names exists on this machine (checked here, not when parsed). */
static int check_nodes(const struct job *job)
{
	const struct env_opts *e = &job->o.env;
	for (long k = 0; k < ENV_NODES_MAX; k++) {
		bool cpu = e->numa_cpu_set && (e->numa_cpu_nodes[k / 64] >> (k % 64) & 1);
		bool mem = e->mpol_nodes[k / 64] >> (k % 64) & 1;
		char path[64];
		struct stat st;
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%ld", k);
		if ((cpu || mem) && stat(path, &st) != 0)
			return job_err(job, "%s: NUMA node %ld is not on this machine (see /sys/devices/system/node)",
				       cpu ? "numa_cpu_nodes" : "numa_mem_policy", k);
	}
	return 0;
}

int env_check_job(struct job *job, const struct run_cfg *cfg)
{
	int ret = check_cmdprio(job, cfg);
	if (!ret)
		ret = apply_gtod_cpu(job);
	if (!ret)
		ret = check_names(job);
	if (!ret && !cfg->parse_only)
		ret = check_nodes(job);
	if (!ret && !cfg->parse_only)
		ret = check_memory(job);
	return ret;
}

/* ---- before a group: I/O schedulers ---- */

static int read_scheduler(const char *disk, char *line, size_t len, char *cur, size_t curlen)
{
	char path[160];
	snprintf(path, sizeof(path), "/sys/block/%s/queue/scheduler", disk);
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(line, (int)len, f))
		line[0] = '\0';
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	const char *a = strchr(line, '['), *b = a ? strchr(a, ']') : NULL;
	snprintf(cur, curlen, "%.*s", a && b ? (int)(b - a - 1) : 0, a ? a + 1 : "");
	return 0;
}

static int write_scheduler(const char *disk, const char *name)
{
	char path[160];
	snprintf(path, sizeof(path), "/sys/block/%s/queue/scheduler", disk);
	FILE *f = fopen(path, "we");
	if (!f)
		return -errno;
	int ret = fputs(name, f) < 0 ? -errno : 0;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

/* Switch the disk behind path to the job's scheduler (once per disk; the first scheduler
 * it had is put back after the run). */
static int switch_scheduler(struct env_run *er, const struct job *job, const char *path)
{
	const char *want = job->o.env.ioscheduler;
	struct disk_set ds = { .disks = NULL };
	int ret = disks_add_for_path(&ds, path);
	if (ret || !ds.n) {
		disks_free(&ds);
		if (!ret)
			job_say(job->o.name,
				"note: ioscheduler: '%s' is on no block device (tmpfs?); nothing to switch", path);
		return ret;
	}
	char disk[64], line[512], cur[64];
	snprintf(disk, sizeof(disk), "%s", ds.disks[0].name);
	disks_free(&ds);
	if ((ret = read_scheduler(disk, line, sizeof(line), cur, sizeof(cur)))) {
		job_say(job->o.name, "ioscheduler: %s has no scheduler to switch (/sys/block/%s/queue/scheduler: %s)",
			disk, disk, strerror(-ret));
		return ret;
	}
	if (!strcmp(cur, want))
		return 0;
	bool known = false;
	for (unsigned i = 0; i < er->nscheds; i++)
		known |= !strcmp(er->scheds[i].disk, disk);
	if (!known) {
		struct env_sched *x = realloc(er->scheds, (er->nscheds + 1) * sizeof(*x));
		if (!x)
			return -ENOMEM;
		er->scheds = x;
		snprintf(x[er->nscheds].disk, sizeof(x->disk), "%s", disk);
		snprintf(x[er->nscheds++].was, sizeof(x->was), "%s", cur);
	}
	ret = write_scheduler(disk, want);
	if (!ret && !read_scheduler(disk, line, sizeof(line), cur, sizeof(cur)) && strcmp(cur, want))
		ret = -EINVAL;
	if (ret)
		job_say(job->o.name, "ioscheduler: cannot switch %s to '%s': %s (it has: %s)", disk, want,
			strerror(-ret), line);
	return ret;
}

/* ---- before a group: file locks, one per file (device and inode) ---- */

static struct env_lock *lock_for(struct env_run *er, const char *path)
{
	struct stat st;
	bool known = stat(path, &st) == 0;
	for (unsigned i = 0; i < er->nlocks; i++) {
		struct env_lock *l = er->locks[i];
		if (known ? l->dev == (uint64_t)st.st_dev && l->ino == (uint64_t)st.st_ino : !strcmp(l->path, path))
			return l;
	}
	struct env_lock **v = realloc(er->locks, (er->nlocks + 1) * sizeof(*v));
	if (!v)
		return NULL;
	er->locks = v;
	struct env_lock *l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	pthread_mutex_init(&l->m, NULL);
	pthread_cond_init(&l->c, NULL);
	l->dev = known ? (uint64_t)st.st_dev : 0;
	l->ino = known ? (uint64_t)st.st_ino : 0;
	snprintf(l->path, sizeof(l->path), "%s", path);
	er->locks[er->nlocks++] = l;
	return l;
}

static int clone_locks(struct env_run *er, struct env_clone *ec, const struct file_plan *plan)
{
	ec->locks = calloc(plan->nfiles ? plan->nfiles : 1, sizeof(*ec->locks));
	if (!ec->locks)
		return -ENOMEM;
	ec->nlocks = plan->nfiles;
	for (unsigned k = 0; k < plan->nfiles; k++)
		if (!(ec->locks[k] = lock_for(er, plan->files[k].path)))
			return -ENOMEM;
	return 0;
}

/* ---- the run's part ---- */

static int env_run_alloc(struct run_ctx *rc)
{
	if (rc->env)
		return 0;
	if (!(rc->env = calloc(1, sizeof(*rc->env))))
		return -ENOMEM;
	rc->env->clones = calloc(rc->nclones ? rc->nclones : 1, sizeof(*rc->env->clones));
	rc->env->nclones = rc->nclones;
	return rc->env->clones ? 0 : -ENOMEM;
}

static int clone_start(struct run_ctx *rc, size_t i)
{
	struct clone_result *c = &rc->clones[i];
	const struct job *job = &rc->cfg->jobs[c->job];
	const struct env_opts *e = &job->o.env;
	struct env_run *er = rc->env;
	struct env_clone *ec = &er->clones[i];
	int ret = 0;
	if (e->cgroup[0])
		ret = env_cgroup_prepare(er, job, ec->cgroup_join, sizeof(ec->cgroup_join));
	bool files = !(job->ops->flags & ENGINE_NO_FILE);
	if (!files && e->ioscheduler[0] && c->clone == 0)
		job_say(job->o.name, "note: ioscheduler: the %s engine uses no files; nothing to switch",
			job->ops->name);
	for (unsigned k = 0; !ret && files && e->ioscheduler[0] && k < c->plan.nfiles; k++)
		ret = switch_scheduler(er, job, c->plan.files[k].path);
	if (!ret && files && e->lockfile != LOCKFILE_NONE)
		ret = clone_locks(er, ec, &c->plan);
	return ret;
}

int env_group_start(struct run_ctx *rc, unsigned g)
{
	int ret = 0;
	for (size_t i = 0; i < rc->nclones; i++) {
		struct clone_result *c = &rc->clones[i];
		const struct job *job = &rc->cfg->jobs[c->job];
		const struct env_opts *e = &job->o.env;
		if (job->groupid != g || c->err ||
		    (!e->cgroup[0] && !e->ioscheduler[0] && e->lockfile == LOCKFILE_NONE))
			continue;
		int r = env_run_alloc(rc);
		if (!r)
			r = clone_start(rc, i);
		if (r) {
			c->err = r;
			ret = ret ? ret : r;
		}
	}
	return ret;
}

const struct env_clone *env_for_clone(const struct run_ctx *rc, size_t clone)
{
	return rc->env && clone < rc->env->nclones ? &rc->env->clones[clone] : NULL;
}

void env_run_end(struct run_ctx *rc)
{
	struct env_run *er = rc->env;
	if (!er)
		return;
	env_cgroup_remove(er);
	for (unsigned i = 0; i < er->nscheds; i++) {
		int ret = write_scheduler(er->scheds[i].disk, er->scheds[i].was);
		if (ret)
			fprintf(stderr, "iobench: ioscheduler: cannot put %s's scheduler back to '%s': %s\n",
				er->scheds[i].disk, er->scheds[i].was, strerror(-ret));
	}
	free(er->scheds);
	er->scheds = NULL;
	er->nscheds = 0;
}

void env_run_free(struct run_ctx *rc)
{
	struct env_run *er = rc->env;
	if (!er)
		return;
	env_run_end(rc);
	for (size_t i = 0; i < er->nclones; i++)
		free(er->clones[i].locks);
	free(er->clones);
	for (unsigned i = 0; i < er->nlocks; i++) {
		pthread_mutex_destroy(&er->locks[i]->m);
		pthread_cond_destroy(&er->locks[i]->c);
		free(er->locks[i]);
	}
	free(er->locks);
	free(er);
	rc->env = NULL;
}
