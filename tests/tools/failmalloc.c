/* LD_PRELOAD shim for tests: the FAILMALLOC_NTH-th allocation of the process (malloc,
 * calloc, realloc, strdup, strndup, posix_memalign, aligned_alloc; the C library's own calls
 * too) fails with ENOMEM, and only that one: out of memory at each place in turn
 * (tests/integration/t_oom_setup.sh). When it happens, the file FAILMALLOC_HIT is created, so
 * the caller knows the count was reached. Everything else goes to the C library. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_long calls;
static long nth = -1;

static int fail_now(void)
{
	if (nth < 0) {
		const char *e = getenv("FAILMALLOC_NTH");
		nth = e ? atol(e) : 0;
	}
	if (!nth || atomic_fetch_add(&calls, 1) + 1 != nth)
		return 0;
	const char *hit = getenv("FAILMALLOC_HIT");
	if (hit) {
		int fd = open(hit, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (fd >= 0)
			close(fd);
	}
	errno = ENOMEM;
	return 1;
}

/* dlsym may allocate before calloc is found: a little room for that. */
static char early[4096] __attribute__((aligned(16)));
static size_t early_used;

#define REAL(ret, name, args)                                                                                  \
	static ret(*real_##name) args;                                                                       \
	if (!real_##name)                                                                                     \
		real_##name = (ret(*) args)dlsym(RTLD_NEXT, #name)

void *malloc(size_t n)
{
	REAL(void *, malloc, (size_t));
	return fail_now() ? NULL : real_malloc(n);
}

void *calloc(size_t a, size_t b)
{
	static int finding;
	static void *(*real_calloc)(size_t, size_t);
	if (!real_calloc) {
		if (finding) {
			size_t n = (a * b + 15) & ~(size_t)15;
			if (early_used + n > sizeof(early))
				return NULL;
			early_used += n;
			return early + early_used - n; /* zeroed: static storage */
		}
		finding = 1;
		real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
		finding = 0;
	}
	return fail_now() ? NULL : real_calloc(a, b);
}

void *realloc(void *p, size_t n)
{
	REAL(void *, realloc, (void *, size_t));
	return fail_now() ? NULL : real_realloc(p, n);
}

void free(void *p)
{
	REAL(void, free, (void *));
	if ((char *)p >= early && (char *)p < early + sizeof(early))
		return;
	real_free(p);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	REAL(int, posix_memalign, (void **, size_t, size_t));
	return fail_now() ? ENOMEM : real_posix_memalign(out, align, n);
}

void *aligned_alloc(size_t align, size_t n)
{
	REAL(void *, aligned_alloc, (size_t, size_t));
	return fail_now() ? NULL : real_aligned_alloc(align, n);
}

char *strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);
	return p ? memcpy(p, s, n) : NULL;
}

char *strndup(const char *s, size_t max)
{
	size_t n = strnlen(s, max);
	char *p = malloc(n + 1);
	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}
