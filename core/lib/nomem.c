/* The one line for an allocation that failed while setting up (core/lib/nomem.h). */
#include "core/lib/nomem.h"

#include <errno.h>
#include <stdio.h>

int nomem(const char *job, const char *what, uint64_t bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	unsigned u = 0;
	while (v >= 1024 && u < 6)
		v /= 1024, u++;
	if (bytes)
		fprintf(stderr, "iobench: %s%.200s%sout of memory: cannot allocate %.1f %s (%llu bytes) for the %s\n",
			job ? "job '" : "", job ? job : "", job ? "': " : "", v, units[u], (unsigned long long)bytes, what);
	else
		fprintf(stderr, "iobench: %s%.200s%sout of memory for the %s\n", job ? "job '" : "", job ? job : "",
			job ? "': " : "", what);
	return -ENOMEM;
}
