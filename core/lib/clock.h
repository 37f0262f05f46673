/* Monotonic time in ns: one vDSO read per timestamp. */
#ifndef IOBENCH_CLOCK_H
#define IOBENCH_CLOCK_H
#include <stdbool.h>
#include <stdint.h>
#include <errno.h>
#include <stdatomic.h>
#include <time.h>

static inline uint64_t clock_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* clocksource=cpu: the CPU's invariant time-stamp counter, calibrated once per run against
 * CLOCK_MONOTONIC and anchored to it, so its readings compare with clock_now_ns()'s. */
struct tsc_clock {
	bool on;
	uint64_t tsc0, ns0;
	uint64_t mult; /* ns per tick << 32 */
};

/* Calibrate (about 1 ms); c->on stays false where the TSC is not invariant or not x86. */
void tsc_calibrate(struct tsc_clock *c);

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static inline uint64_t tsc_ns(const struct tsc_clock *c)
{
	uint64_t t = __rdtsc();
	return c->ns0 + (uint64_t)(((unsigned __int128)(t - c->tsc0) * c->mult) >> 32);
}
#else
static inline uint64_t tsc_ns(const struct tsc_clock *c)
{
	(void)c;
	return clock_now_ns();
}
#endif

/* The worker's clock: the TSC when calibrated and chosen, else CLOCK_MONOTONIC. */
static inline uint64_t clock_fast_ns(const struct tsc_clock *c)
{
	return c ? tsc_ns(c) : clock_now_ns();
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

/* Sleep until clock c (NULL: clock_now_ns) reaches end_ns or *stop is set, in naps of at most
 * 50 ms, so a stop is seen within one. Returns false when stopped. */
static inline bool clock_sleep_until(const struct tsc_clock *c, uint64_t end_ns, const atomic_bool *stop)
{
	for (uint64_t now = clock_fast_ns(c); now < end_ns; now = clock_fast_ns(c)) {
		if (stop && atomic_load_explicit(stop, memory_order_relaxed))
			return false;
		clock_sleep_ns(end_ns - now < 50 * NS_PER_MS ? end_ns - now : 50 * NS_PER_MS);
	}
	return !stop || !atomic_load_explicit(stop, memory_order_relaxed);
}

#endif
