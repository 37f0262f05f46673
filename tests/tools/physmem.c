/* LD_PRELOAD shim for tests: sysconf(_SC_PHYS_PAGES) answers $PHYS_PAGES, so that fio's and
 * iobench's $mb_memory (fio's tiobench profile sizes its files from it) is small and the same
 * for both. Everything else goes to the C library. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

long sysconf(int name)
{
	static long (*real)(int);
	if (!real)
		real = (long (*)(int))dlsym(RTLD_NEXT, "sysconf");
	const char *pages = getenv("PHYS_PAGES");
	if (name == _SC_PHYS_PAGES && pages)
		return atol(pages);
	return real(name);
}
