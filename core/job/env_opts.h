/* A job's environment, as fio 3.33's options give it: who it runs as (uid, gid), its CPU and
 * I/O priorities (nice, prio, prioclass; per I/O: cmdprio*), where it runs (cpumask,
 * gtod_cpu, numa_*, cgroup*), its buffers' memory (mem, mem_align, hugepage-size, lockmem),
 * the commands around it (exec_prerun, exec_postrun), its files' locks (lockfile), write
 * hints (write_hint) and I/O scheduler (ioscheduler). The rows are core/job/options_env.c; this
 * is the options' part of struct job_opts (its member `env`). */
#ifndef IOBENCH_ENV_OPTS_H
#define IOBENCH_ENV_OPTS_H
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define ENV_CMD_MAX 4096
#define ENV_NODES_MAX 1024
#define ENV_CMDPRIO_SPLIT_MAX 64

/* An integer option that has no default: fio tells "not given" from any value. */
struct env_int {
	int64_t v;
	bool set;
};

enum env_mem { MEM_MALLOC, MEM_SHM, MEM_SHMHUGE, MEM_MMAP, MEM_MMAPHUGE, MEM_MMAPSHARED, MEM_TYPES };
/* mem='s words, in enum env_mem's order */
#define ENV_MEM_WORDS "malloc shm shmhuge mmap mmaphuge mmapshared"

/* The word of a memory type, into buf (len >= 16). */
static inline const char *env_mem_word(unsigned type, char *buf, unsigned len)
{
	const char *w = ENV_MEM_WORDS;
	for (unsigned i = 0; i < type && w; i++)
		if ((w = strchr(w, ' ')))
			w++;
	unsigned n = 0;
	while (w && w[n] && w[n] != ' ' && n + 1 < len)
		buf[n] = w[n], n++;
	buf[n] = '\0';
	return buf;
}
enum env_lockfile { LOCKFILE_NONE, LOCKFILE_EXCLUSIVE, LOCKFILE_READWRITE };
/* numa_mem_policy modes (ENV_MPOL_UNSET: not given) */
enum env_mpol { ENV_MPOL_UNSET, ENV_MPOL_DEFAULT, ENV_MPOL_PREFER, ENV_MPOL_BIND, ENV_MPOL_INTERLEAVE, ENV_MPOL_LOCAL };

/* cmdprio_bssplit: I/Os of bs get the priority pct% of the time; class -1: cmdprio_class's,
 * level -1: cmdprio's (the first format, bs/pct). */
struct env_cmdprio_split {
	uint64_t bs;
	unsigned pct;
	int cls, level;
};

struct env_opts {
	char exec_prerun[ENV_CMD_MAX], exec_postrun[ENV_CMD_MAX];
	struct env_int uid, gid; /* numeric, or a name looked up when parsed */
	int nice;
	struct env_int prio, prioclass;
	/* per I/O (io_uring, libaio): read, write (trim takes write's and is not used) */
	unsigned cmdprio_pct[3], cmdprio_class[3], cmdprio[3];
	unsigned ncmdprio_split[2];
	struct env_cmdprio_split cmdprio_split[2][ENV_CMDPRIO_SPLIT_MAX];
	bool log_prio;
	char cgroup[256];
	unsigned cgroup_weight; /* 0: not given */
	bool cgroup_nodelete;
	struct env_int gtod_cpu;
	bool numa_cpu_set;
	uint64_t numa_cpu_nodes[ENV_NODES_MAX / 64];
	unsigned mpol; /* enum env_mpol */
	uint64_t mpol_nodes[ENV_NODES_MAX / 64];
	unsigned mem;            /* enum env_mem */
	char mem_path[PATH_MAX]; /* mem=mmap:PATH, mmaphuge:PATH */
	uint64_t mem_align;
	uint64_t hugepage_size;
	uint64_t lockmem;
	unsigned lockfile; /* enum env_lockfile */
	char ioscheduler[64];
	unsigned write_hint; /* 0: not given; else F_SET_RW_HINT's RWH_WRITE_LIFE_* */
};

/* Is any per-I/O priority asked for (cmdprio_percentage or cmdprio_bssplit)? */
static inline bool env_cmdprio_on(const struct env_opts *e)
{
	return e->cmdprio_pct[0] || e->cmdprio_pct[1] || e->ncmdprio_split[0] || e->ncmdprio_split[1];
}

#endif
