/* TSC calibration for clocksource=cpu (the default where the TSC is invariant, as fio). */
#include "core/lib/clock.h"

#include <stdio.h>
#include <string.h>

/* constant_tsc and nonstop_tsc: the counter runs at one rate, in every power state. */
static bool tsc_invariant(void)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	if (!f)
		return false;
	char line[4096];
	bool found = false;
	while (!found && fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags", 5))
			found = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
	fclose(f);
	return found;
}

void tsc_calibrate(struct tsc_clock *c)
{
	memset(c, 0, sizeof(*c));
#if defined(__x86_64__) || defined(__i386__)
	if (!tsc_invariant())
		return;
	uint64_t ns_a = clock_now_ns(), t_a = __rdtsc(), ns_b, t_b;
	do { /* a busy window: sleeping would add the scheduler's noise to one end */
		ns_b = clock_now_ns();
		t_b = __rdtsc();
	} while (ns_b - ns_a < NS_PER_MS); /* 1 ms: a few tens of ppm, paid by every run */
	if (t_b <= t_a)
		return;
	c->mult = (uint64_t)(((unsigned __int128)(ns_b - ns_a) << 32) / (t_b - t_a));
	c->ns0 = clock_now_ns();
	c->tsc0 = __rdtsc();
	c->on = c->mult != 0;
#endif
}
