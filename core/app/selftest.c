/* --crctest and --cpuclock-test. */
#include "core/app/selftest.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/lib/checksum.h"
#include "core/lib/clock.h"
#include "core/lib/rand.h"

/* fio's list and order; -1: fio's own code, which no library iobench uses has. sha224 and
 * sha384 are iobench's verify types beyond fio's. */
static const struct {
	const char *name;
	int type;
} crc_list[] = {
	{ "md5", VERIFY_MD5 },          { "crc64", VERIFY_CRC64 },       { "crc32", VERIFY_CRC32 },
	{ "crc32c", VERIFY_CRC32C },    { "crc16", VERIFY_CRC16 },       { "crc7", -1 },
	{ "sha1", VERIFY_SHA1 },        { "sha256", VERIFY_SHA256 },     { "sha512", VERIFY_SHA512 },
	{ "xxhash", VERIFY_XXHASH },    { "murmur3", -1 },               { "jhash", -1 },
	{ "fnv", -1 },                  { "sha3-224", VERIFY_SHA3_224 }, { "sha3-256", VERIFY_SHA3_256 },
	{ "sha3-384", VERIFY_SHA3_384 }, { "sha3-512", VERIFY_SHA3_512 }, { "sha224", VERIFY_SHA224 },
	{ "sha384", VERIFY_SHA384 },
};
#define NCRC (sizeof(crc_list) / sizeof(crc_list[0]))

#define CRC_BUF (1u << 20)     /* each pass checksums 1 MiB */
#define CRC_NS (200 * NS_PER_MS) /* for about this long */

/* MiB/s of one checksum over buf. */
static double crc_speed(int type, const unsigned char *buf)
{
	uint8_t sum[CSUM_MAX];
	uint64_t t0 = clock_now_ns(), t, passes = 0;
	do {
		checksum_compute((unsigned)type, buf, CRC_BUF, sum);
		passes++;
		t = clock_now_ns();
	} while (t - t0 < CRC_NS || passes < 2);
	return (double)passes * CRC_BUF / 1048576.0 / ((double)(t - t0) / 1e9);
}

/* Which of the list are asked (all available ones for NULL). 0, or -EINVAL after a line. */
static int crc_pick(const char *list, bool want[NCRC])
{
	char names[512] = "";
	for (size_t i = 0; i < NCRC; i++) {
		want[i] = !list && crc_list[i].type >= 0;
		if (crc_list[i].type >= 0)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", names[0] ? ", " : "",
				 crc_list[i].name);
	}
	char *buf = list ? strdup(list) : NULL, *save = NULL;
	if (list && !buf)
		return -ENOMEM;
	int ret = 0;
	for (char *tok = buf ? strtok_r(buf, ",", &save) : NULL; tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		size_t i = 0;
		while (i < NCRC && strcmp(tok, crc_list[i].name))
			i++;
		if (i == NCRC || crc_list[i].type < 0) {
			fprintf(stderr, "iobench: --crctest: %s '%.100s' (available: %s)\n",
				i == NCRC ? "unknown checksum" : "no library iobench uses has", tok, names);
			ret = -EINVAL;
		} else {
			want[i] = true;
		}
	}
	free(buf);
	return ret;
}

int selftest_crc(FILE *out, const char *list)
{
	bool want[NCRC];
	int ret = crc_pick(list, want);
	if (ret)
		return ret;
	unsigned char *buf = malloc(CRC_BUF);
	if (!buf) {
		fprintf(stderr, "iobench: --crctest: out of memory\n");
		return -ENOMEM;
	}
	struct rng r;
	rng_seed(&r, 0x0c7c);
	for (size_t i = 0; i < CRC_BUF; i += 8) {
		uint64_t v = rng_next(&r);
		memcpy(buf + i, &v, 8);
	}
	for (size_t i = 0; i < NCRC; i++) {
		if (!want[i])
			continue;
		double mibs = crc_speed(crc_list[i].type, buf);
		fprintf(out, "%s:%s%8.2f MiB/sec\n", crc_list[i].name, strlen(crc_list[i].name) < 7 ? "\t\t" : "\t", mibs);
		fflush(out);
	}
	free(buf);
	return 0;
}

/* ---- --cpuclock-test ---- */

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>

#define CS_READS 100000 /* readings per CPU, each under the shared lock */

struct cs_cpu;
struct cs_shared {
	pthread_mutex_t lock;
	uint64_t last;           /* the latest reading of any CPU */
	uint64_t backwards;      /* readings below an earlier one of another CPU */
	struct cs_cpu *done[CPU_SETSIZE]; /* in the order they finished, as fio lists them */
	unsigned ndone;
};

struct cs_cpu {
	struct cs_shared *sh;
	unsigned cpu;
	pthread_t tid;
	bool started, pinned;
	uint64_t seen, first, own_backwards;
};

/* Readings on one CPU, in turn with the others: under the lock, a reading below the last
 * of any CPU means the CPUs' counters disagree; below its own last, the counter stepped
 * back. */
static void *cs_main(void *arg)
{
	struct cs_cpu *c = arg;
	struct cs_shared *sh = c->sh;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(c->cpu, &set);
	c->pinned = !pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	uint64_t prev = 0;
	for (unsigned i = 0; c->pinned && i < CS_READS; i++) {
		pthread_mutex_lock(&sh->lock);
		_mm_lfence(); /* rdtsc is not ordered: without the fence it may read before the lock is held */
		uint64_t t = __rdtsc();
		sh->backwards += t < sh->last;
		sh->last = t > sh->last ? t : sh->last;
		pthread_mutex_unlock(&sh->lock);
		c->own_backwards += t < prev;
		prev = t;
		if (!c->seen++)
			c->first = t;
	}
	pthread_mutex_lock(&sh->lock);
	sh->done[sh->ndone++] = c;
	pthread_mutex_unlock(&sh->lock);
	return NULL;
}

static int cs_run(FILE *out, struct cs_cpu *cpus, unsigned n, struct cs_shared *sh)
{
	fprintf(out, "cs: Testing %u CPUs\n", n);
	for (unsigned i = 0; i < n; i++)
		cpus[i].started = !pthread_create(&cpus[i].tid, NULL, cs_main, &cpus[i]);
	for (unsigned i = 0; i < n; i++)
		if (cpus[i].started)
			pthread_join(cpus[i].tid, NULL);
	uint64_t own = 0;
	unsigned tested = 0;
	for (unsigned i = 0; i < sh->ndone; i++) {
		const struct cs_cpu *c = sh->done[i];
		if (!c->pinned)
			continue;
		fprintf(out, "cs: cpu %2u: %llu clocks seen, first %llu\n", c->cpu, (unsigned long long)c->seen,
			(unsigned long long)c->first);
		own += c->own_backwards;
		tested++;
	}
	if (tested && !own && !sh->backwards) {
		fprintf(out, "cs: Pass!\n");
		return 0;
	}
	fprintf(out, "cs: Failed! (%u CPUs tested; %llu readings below the same CPU's last, %llu below another "
		     "CPU's)\n", tested, (unsigned long long)own, (unsigned long long)sh->backwards);
	return -EIO;
}

int selftest_cpuclock(FILE *out)
{
	struct tsc_clock tsc;
	tsc_calibrate(&tsc);
	fprintf(out, "cs: reliable_tsc: %s\n", tsc.on ? "yes" : "no");
	if (tsc.on) /* the calibration, in fio's time debug shape */
		fprintf(out, "time     %-5d tsc: %.3f MHz (mult=%llu: ns per tick << 32)\n", (int)getpid(),
			4294967296.0 / (double)tsc.mult * 1000.0, (unsigned long long)tsc.mult);
	cpu_set_t set;
	struct cs_cpu *cpus = calloc(CPU_SETSIZE, sizeof(*cpus));
	struct cs_shared *sh = calloc(1, sizeof(*sh));
	if (!cpus || !sh || sched_getaffinity(0, sizeof(set), &set)) {
		free(cpus);
		free(sh);
		fprintf(stderr, "iobench: --cpuclock-test: cannot read the CPUs this process may use\n");
		return -ENOMEM;
	}
	pthread_mutex_init(&sh->lock, NULL);
	unsigned n = 0;
	for (unsigned c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = (struct cs_cpu){ .sh = sh, .cpu = c };
	int ret = cs_run(out, cpus, n, sh);
	pthread_mutex_destroy(&sh->lock);
	free(sh);
	free(cpus);
	return ret;
}
#else
int selftest_cpuclock(FILE *out)
{
	fprintf(out, "cs: reliable_tsc: no\n");
	fprintf(stderr, "iobench: --cpuclock-test: no CPU time-stamp counter on this architecture (iobench uses "
			"clock_gettime)\n");
	return -ENOTSUP;
}
#endif
