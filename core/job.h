/* The job model: options as given (for the JSON option maps) and as resolved. */
#ifndef IOBENCH_JOB_H
#define IOBENCH_JOB_H
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ddir { DDIR_READ = 0, DDIR_WRITE = 1, DDIR_TRIM = 2, DDIR_NR = 3 };

/* rw= values; the low bits say which directions, RW_RANDOM says random offsets. */
enum rw_mode {
	RW_READ = 1 << DDIR_READ,
	RW_WRITE = 1 << DDIR_WRITE,
	RW_TRIM = 1 << DDIR_TRIM,
	RW_RANDOM = 1 << 4,
};

/* One option as written: name, value (NULL for a bare flag), and where. */
struct opt_kv {
	char *name;
	char *value;
	const char *file; /* NULL for the command line */
	int line;
};

struct opt_list {
	struct opt_kv *v;
	size_t n, cap;
};

int opt_list_add(struct opt_list *l, const char *name, const char *value, const char *file, int line);
int opt_list_copy(struct opt_list *dst, const struct opt_list *src);
void opt_list_free(struct opt_list *l);

/* Resolved options of one job section. Fixed-size strings keep it copyable per clone. */
struct job_opts {
	char name[256];
	char description[256];
	char filename[PATH_MAX];
	char directory[PATH_MAX];
	char ioengine[32];
	unsigned rw;         /* enum rw_mode bits */
	char rw_text[16];    /* as fio prints it in the job header */
	unsigned rwmixread;  /* percent of reads in a mixed job */
	uint64_t bs[DDIR_NR];
	uint64_t size;       /* bytes; 0 = from the file */
	unsigned numjobs;
	unsigned iodepth;
	unsigned kb_base;
	uint64_t runtime_us; /* 0 = no limit */
	uint64_t ramp_time_us;
	bool direct;
	bool time_based;
	bool group_reporting;
	bool stonewall;
	bool new_group;
	bool allow_mounted_write;
	bool thread;
	bool unlink;         /* remove the job's files when it is done */
};

/* One job section as parsed, before numjobs expands it into clones. */
struct job {
	struct opt_list inherit;  /* [global] options in force for it (job files) */
	struct opt_list given;    /* its own options, in order */
	const char *file;         /* job file, NULL for the command line */
	int line;
	unsigned file_index;      /* which job file (0 = command line / first file) */
	struct job_opts o;        /* resolved by job_resolve() */
	unsigned groupid;
};

struct run_cfg;
/* Resolve defaults <- command-line globals <- inherited <- own into job->o. On error,
 * prints one line to stderr and returns -EINVAL. */
int job_resolve(struct job *job, const struct opt_list *cmdline_globals);
void job_free(struct job *job);

static inline bool job_has_dir(const struct job_opts *o, enum ddir d)
{
	return (o->rw & (1u << d)) != 0;
}

#endif
