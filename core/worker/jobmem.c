/* The I/O buffers' memory (mem=): malloc (page-aligned), a System V shared memory segment
 * (shm; shmhuge on huge pages), or a mapping (mmap, private; mmapshared, shared; mmaphuge,
 * on huge pages), anonymous or of a file named after ':'. As fio, mem_align puts the first
 * buffer that many bytes past a page boundary, and huge page memory is a whole number of
 * hugepage-size pages. Nothing is left behind: a segment is marked for removal as soon as
 * it is attached, and a file the buffers map is made by the job (never a file that is
 * there already) and removed as soon as it is mapped. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/lib/debug.h"
#include "core/worker/jobenv.h"
#include "core/worker/worker_int.h"
#include "core/lib/say.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#ifndef SHM_HUGE_SHIFT
#define SHM_HUGE_SHIFT 26
#endif

size_t env_mem_extra(const struct job_opts *o)
{
	return (size_t)o->env.mem_align;
}

static bool huge(unsigned type)
{
	return type == MEM_SHMHUGE || type == MEM_MMAPHUGE;
}

static size_t round_up(size_t v, size_t to)
{
	return to ? (v + to - 1) / to * to : v;
}

uint64_t env_default_hugepage(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	unsigned long long kb = 0;
	char line[256];
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Hugepagesize: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return (uint64_t)kb * 1024;
}

long long env_free_hugepages(uint64_t size)
{
	char path[128];
	unsigned long long free_n = 0, resv = 0;
	snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/hugepages-%llukB/free_hugepages",
		 (unsigned long long)(size / 1024));
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	if (fscanf(f, "%llu", &free_n) != 1)
		free_n = 0;
	fclose(f);
	snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/hugepages-%llukB/resv_hugepages",
		 (unsigned long long)(size / 1024));
	if ((f = fopen(path, "re"))) {
		if (fscanf(f, "%llu", &resv) != 1)
			resv = 0;
		fclose(f);
	}
	return free_n > resv ? (long long)(free_n - resv) : 0;
}

/* The size flag of shmget/mmap for a huge page size other than the default (0: default). */
static int huge_size_flag(uint64_t size, int shift)
{
	if (!size || size == env_default_hugepage())
		return 0;
	return (63 - __builtin_clzll(size)) << shift;
}

static int mem_fail(struct wstate *s, const char *what, size_t len, int err)
{
	const struct env_opts *e = &s->o->env;
	char extra[256] = "";
	if (huge(e->mem) && (err == ENOMEM || err == EINVAL))
		snprintf(extra, sizeof(extra),
			 " (%lld free huge pages of %llu KiB; reserve more in "
			 "/proc/sys/vm/nr_hugepages)",
			 env_free_hugepages(e->hugepage_size), (unsigned long long)(e->hugepage_size / 1024));
	char type[16];
	job_say(s->o->name, "mem=%s%s%s: %s of %zu bytes for the I/O buffers failed: %s%s",
		env_mem_word(e->mem, type, sizeof(type)), e->mem_path[0] ? ":" : "", e->mem_path, what, len,
		strerror(err), extra);
	return -err;
}

static int alloc_shm(struct wstate *s, size_t len)
{
	const struct env_opts *e = &s->o->env;
	int flags = IPC_CREAT | 0600;
	if (e->mem == MEM_SHMHUGE)
		flags |= SHM_HUGETLB | huge_size_flag(e->hugepage_size, SHM_HUGE_SHIFT);
	int id = shmget(IPC_PRIVATE, len, flags);
	if (id < 0)
		return mem_fail(s, "shmget", len, errno);
	void *p = shmat(id, NULL, 0);
	int err = p == (void *)-1 ? errno : 0;
	shmctl(id, IPC_RMID, NULL); /* gone when detached, whatever happens to the job */
	if (err)
		return mem_fail(s, "shmat", len, err);
	s->env.shm_id = id;
	s->env.mem = p;
	if (debug_on(s->w->debug, DBG_MEM))
		debug_print(DBG_MEM, "shmget %zu, %d; shmat %d, %p\n", len, id, id, p);
	return 0;
}

/* mem=mmap:FILE: a file of the job's own (clone N > 0 adds ".N"), removed once mapped. */
static int map_file(struct wstate *s, size_t len, int *fd)
{
	const struct env_opts *e = &s->o->env;
	char path[PATH_MAX];
	if (s->w->clone)
		snprintf(path, sizeof(path), "%.*s.%u", PATH_MAX - 16, e->mem_path, s->w->clone);
	else
		snprintf(path, sizeof(path), "%s", e->mem_path);
	*fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (*fd < 0 && errno == EEXIST) {
		char type[16];
		job_say(s->o->name,
			"mem=%s:%s: '%s' exists; the buffers map a file the job makes "
			"and removes (name one that is not there)",
			env_mem_word(e->mem, type, sizeof(type)), e->mem_path, path);
		return -EEXIST;
	}
	if (*fd < 0)
		return mem_fail(s, "open of the file", len, errno);
	snprintf(s->env.mem_unlink, sizeof(s->env.mem_unlink), "%s", path);
	if (ftruncate(*fd, (off_t)len) < 0)
		return mem_fail(s, "ftruncate of the file", len, errno);
	return 0;
}

static int alloc_mmap(struct wstate *s, size_t len)
{
	const struct env_opts *e = &s->o->env;
	int fd = -1, ret = 0;
	int flags = e->mem == MEM_MMAP ? MAP_PRIVATE : MAP_SHARED;
	if (e->mem_path[0])
		ret = map_file(s, len, &fd);
	else
		flags |= MAP_ANONYMOUS;
	if (e->mem == MEM_MMAPHUGE && !e->mem_path[0])
		flags |= MAP_HUGETLB | huge_size_flag(e->hugepage_size, MAP_HUGE_SHIFT);
	void *p = ret ? MAP_FAILED : mmap(NULL, len, PROT_READ | PROT_WRITE, flags, fd, 0);
	int err = errno;
	if (fd >= 0)
		close(fd);
	if (s->env.mem_unlink[0]) { /* mapped (or not): the name is not needed any more */
		unlink(s->env.mem_unlink);
		s->env.mem_unlink[0] = '\0';
	}
	if (ret)
		return ret;
	if (p == MAP_FAILED)
		return mem_fail(s, "mmap(2)", len, err);
	s->env.mem = p;
	if (debug_on(s->w->debug, DBG_MEM))
		debug_print(DBG_MEM, "mmap %zu/%d %p\n", len, fd, p);
	return 0;
}

int env_mem_alloc(struct wstate *s, size_t bytes, void **buf)
{
	const struct env_opts *e = &s->o->env;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = round_up(bytes + (size_t)e->mem_align, page);
	if (huge(e->mem))
		len = round_up(len, (size_t)e->hugepage_size);
	s->env.mem_len = len;
	s->env.shm_id = -1;
	int ret = 0;
	if (e->mem == MEM_SHM || e->mem == MEM_SHMHUGE)
		ret = alloc_shm(s, len);
	else if (e->mem != MEM_MALLOC)
		ret = alloc_mmap(s, len);
	else if ((ret = -posix_memalign(&s->env.mem, page, len)))
		s->env.mem = NULL;
	if (ret)
		return ret;
	*buf = (char *)s->env.mem + e->mem_align;
	return 0;
}

void env_mem_free(struct wstate *s)
{
	struct env_worker *e = &s->env;
	if (!e->mem)
		return;
	unsigned type = s->o->env.mem;
	char word[16];
	if (debug_on(s->w->debug, DBG_MEM))
		debug_print(DBG_MEM, "free %s mem %p\n", env_mem_word(type, word, sizeof(word)), e->mem);
	if (type == MEM_SHM || type == MEM_SHMHUGE)
		shmdt(e->mem);
	else if (type == MEM_MALLOC)
		free(e->mem);
	else
		munmap(e->mem, e->mem_len);
	e->mem = NULL;
}
