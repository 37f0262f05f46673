/* Monotonic time in ns: one vDSO read per timestamp. */
#ifndef IOBENCH_CLOCK_H
#define IOBENCH_CLOCK_H
#include <stdint.h>
#include <errno.h>
#include <time.h>

static inline uint64_t clock_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

#define NS_PER_MS 1000000ULL
#define NS_PER_SEC 1000000000ULL

/* Sleep ns nanoseconds, through signals. */
static inline void clock_sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / NS_PER_SEC), (long)(ns % NS_PER_SEC) };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

#endif
