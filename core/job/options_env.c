/* The job-environment options (core/job/env_opts.h), and the parsers of their values: users and
 * groups by number or name, CPU masks, NUMA node lists and policies, buffer memory types,
 * per-block-size command priorities. CPUs and NUMA nodes are checked against this machine
 * when parsed, as fio does. */
#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/job/options.h"
#include "core/job/options_rows.h"
#include "core/job/parse.h"

#define FIELD(o, d, type) ((type *)((char *)(o) + (d)->offset))

static int bad(char *e, size_t n, const char *what, const char *v)
{
	snprintf(e, n, "cannot parse '%.*s%s' as %s", SHOWN(v), what);
	return -EINVAL;
}

/* An integer with no default (prio, prioclass, gtod_cpu): [min, max], remembered as given. */
static int env_parse_int(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	int64_t i;
	int ret = parse_int(v, d->min, d->max, &i);
	if (ret == -ERANGE)
		snprintf(e, n, "'%.*s%s' is out of range (%lld to %lld)", SHOWN(v), (long long)d->min,
			 (long long)d->max);
	else if (ret)
		bad(e, n, "an integer", v);
	if (ret)
		return ret;
	*FIELD(o, d, struct env_int) = (struct env_int){ i, true };
	return 0;
}

/* uid=, gid=: a number (as fio; the kernel needs no passwd entry for it) or a name that
 * the passwd or group database knows. */
static int parse_id(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n, bool user)
{
	int64_t i;
	int ret = parse_int(v, 0, UINT32_MAX - 1, &i);
	if (ret == -ERANGE) {
		snprintf(e, n, "'%.*s%s' is out of range (0 to %u)", SHOWN(v), UINT32_MAX - 1);
		return ret;
	}
	if (ret) {
		struct passwd pw, *pwp = NULL;
		struct group gr, *grp = NULL;
		char buf[4096];
		if (user ? getpwnam_r(v, &pw, buf, sizeof(buf), &pwp) || !pwp
			 : getgrnam_r(v, &gr, buf, sizeof(buf), &grp) || !grp) {
			snprintf(e, n, "no %s named '%.*s%s' on this machine (give a name it knows, or a number)",
				 user ? "user" : "group", SHOWN(v));
			return -EINVAL;
		}
		i = user ? (int64_t)pwp->pw_uid : (int64_t)grp->gr_gid;
	}
	*FIELD(o, d, struct env_int) = (struct env_int){ i, true };
	return 0;
}

static int env_parse_uid(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	return parse_id(o, d, v, e, n, true);
}

static int env_parse_gid(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	return parse_id(o, d, v, e, n, false);
}

static long machine_cpus(void)
{
	long c = sysconf(_SC_NPROCESSORS_CONF);
	return c > 0 ? (c < CPUS_MAX ? c : CPUS_MAX) : 1;
}

/* cpumask=: a bit mask of CPUs (decimal or 0x hex), fio's other way to say cpus_allowed:
 * both set the same CPU set, the later one wins. */
static int env_parse_cpumask(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	int64_t mask;
	if (parse_int(v, 0, INT64_MAX, &mask))
		return bad(e, n, "a CPU bit mask (decimal, or hex with 0x: 0x3 is CPUs 0 and 1)", v);
	if (!mask) {
		snprintf(e, n, "'%.*s%s' names no CPU", SHOWN(v));
		return -EINVAL;
	}
	long ncpu = machine_cpus();
	for (int c = 0; c < 63; c++)
		if (((uint64_t)mask >> c & 1) && c >= ncpu) {
			snprintf(e, n, "'%.*s%s' has bit %d set, but this machine's CPUs are 0-%ld", SHOWN(v), c,
				 ncpu - 1);
			return -EINVAL;
		}
	memset(o->cpus_allowed, 0, sizeof(o->cpus_allowed));
	o->cpus_allowed[0] = (uint64_t)mask;
	o->ncpus_allowed = (unsigned)__builtin_popcountll((uint64_t)mask);
	return 0;
}

static int env_parse_gtod_cpu(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	int ret = env_parse_int(o, d, v, e, n);
	if (!ret && o->env.gtod_cpu.v >= machine_cpus()) {
		snprintf(e, n, "CPU %lld is not on this machine (CPUs 0-%ld)", (long long)o->env.gtod_cpu.v,
			 machine_cpus() - 1);
		return -EINVAL;
	}
	return ret;
}

static bool node_exists(long node)
{
	char path[64];
	struct stat st;
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%ld", node);
	return stat(path, &st) == 0;
}

/* A NUMA node list: "all", or "0,2-3". Whether the nodes exist here is checked when the job
 * is prepared to run (env_check_job), so --parse-only takes a job file written for another
 * machine, as fio does. */
static int parse_nodes(const char *v, uint64_t *mask, char *e, size_t n)
{
	memset(mask, 0, ENV_NODES_MAX / 8);
	if (!strcmp(v, "all")) {
		for (long k = 0; k < ENV_NODES_MAX; k++)
			if (node_exists(k))
				mask[k / 64] |= 1ULL << (k % 64);
		if (mask[0] || node_exists(0))
			return 0;
		snprintf(e, n, "this machine shows no NUMA nodes (no /sys/devices/system/node/node*)");
		return -ENOENT;
	}
	char buf[1024];
	if (!*v || strlen(v) >= sizeof(buf))
		return bad(e, n, "a NUMA node list (0,2-3 or all)", v);
	snprintf(buf, sizeof(buf), "%s", v);
	char *save = NULL;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int64_t lo, hi;
		char *dash = strchr(tok, '-');
		if (dash)
			*dash = '\0';
		if (parse_int(tok, 0, ENV_NODES_MAX - 1, &lo) ||
		    (dash ? parse_int(dash + 1, lo, ENV_NODES_MAX - 1, &hi) : (hi = lo, 0)))
			return bad(e, n, "a NUMA node list (0,2-3 or all)", v);
		for (int64_t k = lo; k <= hi; k++)
			mask[k / 64] |= 1ULL << (k % 64);
	}
	return 0;
}

static int env_parse_cpu_nodes(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	int ret = parse_nodes(v, o->env.numa_cpu_nodes, e, n);
	o->env.numa_cpu_set = ret == 0;
	return ret;
}

static unsigned nodes_count(const uint64_t *mask)
{
	unsigned c = 0;
	for (unsigned i = 0; i < ENV_NODES_MAX / 64; i++)
		c += (unsigned)__builtin_popcountll(mask[i]);
	return c;
}

/* numa_mem_policy=MODE[:NODES]: default and local take no nodes, prefer one, bind and
 * interleave a list. */
static int env_parse_mpol(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	static const char *const modes[] = { "", "default", "prefer", "bind", "interleave", "local" };
	const char *colon = strchr(v, ':');
	size_t len = colon ? (size_t)(colon - v) : strlen(v);
	unsigned m = 0;
	for (unsigned i = 1; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strlen(modes[i]) == len && !strncmp(v, modes[i], len))
			m = i;
	if (!m)
		return bad(e, n, "a memory policy (default, prefer:NODE, bind:NODES, interleave:NODES, local)", v);
	memset(o->env.mpol_nodes, 0, sizeof(o->env.mpol_nodes));
	bool wants = m == ENV_MPOL_PREFER || m == ENV_MPOL_BIND || m == ENV_MPOL_INTERLEAVE;
	if (wants && (!colon || !colon[1])) {
		snprintf(e, n, "'%.*s%s': %s needs a node list (%s:0)", SHOWN(v), modes[m], modes[m]);
		return -EINVAL;
	}
	if (!wants && colon) {
		snprintf(e, n, "'%.*s%s': %s takes no node list", SHOWN(v), modes[m]);
		return -EINVAL;
	}
	int ret = wants ? parse_nodes(colon + 1, o->env.mpol_nodes, e, n) : 0;
	if (!ret && m == ENV_MPOL_PREFER && nodes_count(o->env.mpol_nodes) != 1) {
		snprintf(e, n, "'%.*s%s': prefer takes one node", SHOWN(v));
		return -EINVAL;
	}
	o->env.mpol = ret ? ENV_MPOL_UNSET : m;
	return ret;
}

/* mem=TYPE[:FILE] (mmap, mmapshared and mmaphuge may name the file to map). */
static int env_parse_mem(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	const char *colon = strchr(v, ':');
	size_t len = colon ? (size_t)(colon - v) : strlen(v);
	for (unsigned t = 0; t < MEM_TYPES; t++) {
		char word[16];
		env_mem_word(t, word, sizeof(word));
		if (strlen(word) != len || strncasecmp(v, word, len))
			continue;
		bool file = t == MEM_MMAP || t == MEM_MMAPHUGE || t == MEM_MMAPSHARED;
		if (colon && (!file || !colon[1] || strlen(colon + 1) >= sizeof(o->env.mem_path))) {
			snprintf(e, n, "'%.*s%s': %s", SHOWN(v),
				 file ? "the file name after ':' is empty or too long" : "this type takes no file");
			return -EINVAL;
		}
		o->env.mem = t;
		snprintf(o->env.mem_path, sizeof(o->env.mem_path), "%s", colon ? colon + 1 : "");
		return 0;
	}
	if (!strncasecmp(v, "cudamalloc", len) && len == 10) {
		snprintf(e, n, "cudamalloc is GPU memory for fio's rdma engine, which iobench does not have");
		return -ENOTSUP;
	}
	return bad(e, n, "a memory type (malloc, shm, shmhuge, mmap[:FILE], mmaphuge[:FILE], mmapshared[:FILE])", v);
}

/* One direction of cmdprio_bssplit: bs/pct[/class/level]:... */
static int split_field(struct job_opts *o, int dir, const char *f, char *e, size_t n)
{
	char buf[1024];
	unsigned k = 0;
	snprintf(buf, sizeof(buf), "%s", f);
	char *save = NULL;
	for (char *tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *part[4] = { tok, NULL, NULL, NULL };
		int np = 1;
		for (char *s = tok; np < 4 && (s = strchr(s, '/')); np++)
			*s++ = '\0', part[np] = s;
		if (k >= ENV_CMDPRIO_SPLIT_MAX || (np != 2 && np != 4) || strchr(part[np - 1], '/'))
			return -EINVAL;
		struct env_cmdprio_split *sp = &o->env.cmdprio_split[dir][k++];
		int64_t pct, cls = -1, level = -1;
		if (parse_size(part[0], o->kb_base, &sp->bs) || !sp->bs || parse_int(part[1], 0, 100, &pct) ||
		    (np == 4 && (parse_int(part[2], 0, 3, &cls) || parse_int(part[3], 0, 7, &level))))
			return -EINVAL;
		sp->pct = (unsigned)pct;
		sp->cls = (int)cls;
		sp->level = (int)level;
	}
	o->env.ncmdprio_split[dir] = k;
	return k ? 0 : -EINVAL;
}

/* cmdprio_bssplit=READS[,WRITES[,TRIMS]]: one field for both; trims are ignored, as fio. */
static int env_parse_cmdprio_split(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	char buf[1024];
	if (strlen(v) >= sizeof(buf))
		return bad(e, n, "bs/pct[/class/level]:...[,...]", v);
	snprintf(buf, sizeof(buf), "%s", v);
	char *comma = strchr(buf, ',');
	if (comma)
		*comma++ = '\0';
	char *more = comma ? strchr(comma, ',') : NULL;
	if (more)
		*more = '\0'; /* the trims' field */
	const char *fields[2] = { buf, comma && *comma ? comma : buf };
	for (int dir = 0; dir < 2; dir++)
		if (split_field(o, dir, fields[dir], e, n))
			return bad(e, n, "bs/pct[/class/level]:... (pct 0-100, class 0-3, level 0-7), read[,write]", v);
	return 0;
}

static const struct choice lockfile_choices[] = {
	{ "none", LOCKFILE_NONE, "No locking" },
	{ "exclusive", LOCKFILE_EXCLUSIVE, "One thread at a time does I/O to the file" },
	{ "readwrite", LOCKFILE_READWRITE, "Readers share the file, a writer has it alone" },
	{ NULL, 0, NULL },
};
static const struct choice write_hint_choices[] = {
	{ "none", 1, "RWH_WRITE_LIFE_NONE: no particular life time" },
	{ "short", 2, "RWH_WRITE_LIFE_SHORT" },
	{ "medium", 3, "RWH_WRITE_LIFE_MEDIUM" },
	{ "long", 4, "RWH_WRITE_LIFE_LONG" },
	{ "extreme", 5, "RWH_WRITE_LIFE_EXTREME" },
	{ NULL, 0, NULL },
};

const struct option_def options_env[] = {
	STR("exec_prerun", env.exec_prerun, NULL, C_ENV,
	    "Run this shell command before the job (output: JOBNAME.prerun.txt)",
	    .effects = OPT_EFFECT_OUTPUT | OPT_EFFECT_CHANGES),
	STR("exec_postrun", env.exec_postrun, NULL, C_ENV,
	    "Run this shell command after the job (output: JOBNAME.postrun.txt)",
	    .effects = OPT_EFFECT_OUTPUT | OPT_EFFECT_CHANGES),
	FUNC("uid", env.uid, env_parse_uid, NULL, "user id or name", C_ENV, "Run the job's thread as this user",
	     .size = SZ(env.uid)),
	FUNC("gid", env.gid, env_parse_gid, NULL, "group id or name", C_ENV, "Run the job's thread with this group",
	     .size = SZ(env.gid)),
	INT("nice", env.nice, "0", -20, 19, C_ENV, "Add this to the job's thread's nice value (nice(2))"),
	FUNC("prio", env.prio, env_parse_int, NULL, "integer 0..7", C_ENV,
	     "I/O priority level of the job (ioprio_set; 0 is highest)", .size = SZ(env.prio), .min = 0, .max = 7),
	FUNC("prioclass", env.prioclass, env_parse_int, NULL, "integer 0..3", C_ENV,
	     "I/O priority class: 1 realtime, 2 best-effort, 3 idle (0: best-effort)", .size = SZ(env.prioclass),
	     .min = 0, .max = 3),
	FUNC("cmdprio_percentage", env.cmdprio_pct, opt_parse_dir_uints, NULL, "int[,int] (read,write)", C_ENV,
	     "io_uring, libaio: share of I/Os issued with the cmdprio_class/cmdprio priority",
	     .size = SZ(env.cmdprio_pct), .min = 0, .max = 100),
	FUNC("cmdprio_class", env.cmdprio_class, opt_parse_dir_uints, "1", "int[,int] (read,write)", C_ENV,
	     "io_uring, libaio: class of the prioritized I/Os (1 realtime)", .size = SZ(env.cmdprio_class), .min = 1,
	     .max = 3),
	FUNC("cmdprio", env.cmdprio, opt_parse_dir_uints, "0", "int[,int] (read,write)", C_ENV,
	     "io_uring, libaio: level of the prioritized I/Os (0 is highest)", .size = SZ(env.cmdprio), .min = 0,
	     .max = 7),
	FUNC("cmdprio_bssplit", env.cmdprio_split, env_parse_cmdprio_split, NULL, "bs/pct[/class/level]:...[,...]",
	     C_ENV, "io_uring, libaio: share of I/Os of each block size issued with a priority",
	     .size = SZ(env.cmdprio_split)),
	BOOL("log_prio", env.log_prio, "0", C_ENV,
	     "Logs' last column is each I/O's priority (0x2000), not 1 for cmdprio's and 0 for others"),
	STR("cgroup", env.cgroup, NULL, C_ENV,
	    "Run the job's thread in this cgroup (made, and removed after the run, if new)"),
	UINT("cgroup_weight", env.cgroup_weight, NULL, 100, 1000, C_ENV,
	     "The cgroup's blkio.weight (v1) or io.weight (v2)"),
	BOOL("cgroup_nodelete", env.cgroup_nodelete, "0", C_ENV, "Leave the cgroups the run made"),
	FUNC("cpumask", cpus_allowed, env_parse_cpumask, NULL, "CPU bit mask (3 or 0x3: CPUs 0 and 1)", C_ENV,
	     "CPUs the job's threads may run on, as a bit mask (cpus_allowed as a list)"),
	FUNC("gtod_cpu", env.gtod_cpu, env_parse_gtod_cpu, NULL, "CPU number", C_ENV,
	     "Keep this CPU out of the jobs' cpus_allowed/cpumask (fio's gettimeofday thread's CPU)",
	     .size = SZ(env.gtod_cpu), .min = 0, .max = CPUS_MAX - 1),
	FUNC("numa_cpu_nodes", env.numa_cpu_nodes, env_parse_cpu_nodes, NULL, "node list: 0,2-3 or all", C_ENV,
	     "Run the job's thread on these NUMA nodes' CPUs", .size = SZ(env.numa_cpu_nodes)),
	FUNC("numa_mem_policy", env.mpol, env_parse_mpol, NULL, "default|prefer:N|bind:NODES|interleave:NODES|local",
	     C_ENV, "The job's thread's memory policy (set_mempolicy)", .size = SZ(env.mpol)),
	FUNC("mem", env.mem, env_parse_mem, "malloc",
	     "malloc|shm|shmhuge|mmap[:FILE]|mmaphuge[:FILE]|mmapshared[:FILE]", C_ENV, "Memory of the I/O buffers",
	     .alias = "iomem", .effects = OPT_EFFECT_CHANGES),
	SIZE("iomem_align", env.mem_align, NULL, C_ENV,
	     "The first buffer starts this many bytes past a page boundary (as fio)", .alias = "mem_align"),
	SIZE("hugepage-size", env.hugepage_size, "2m", C_ENV,
	     "Huge page size: shmhuge and mmaphuge buffers are a multiple of it"),
	SIZE("lockmem", env.lockmem, NULL, C_ENV,
	     "Pin this much memory per thread with mlock(2) (to leave the rest less)"),
	CHOICE("lockfile", env.lockfile, lockfile_choices, "none", C_ENV,
	       "Threads doing I/O to one file take turns: exclusive, or readers together"),
	STR("ioscheduler", env.ioscheduler, NULL, C_ENV,
	    "Switch the job's block device to this I/O scheduler (restored after the run)"),
	CHOICE("write_hint", env.write_hint, write_hint_choices, NULL, C_ENV,
	       "Expected life time of written data (fcntl F_SET_RW_HINT on each file)"),
	{ NULL },
};
