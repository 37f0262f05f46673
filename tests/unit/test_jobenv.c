/* The job environment's pure parts: lockfile's turns (core/worker/lockfile.c) with threads that
 * count who is inside, cmdprio's shares and priorities (core/worker/cmdprio.c), per-priority
 * statistics merged by priority (core/stats/prio_stats.c), and the options' parsers
 * (core/job/options_env.c) on good and hostile values. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/worker/jobenv.h"
#include "core/job/options.h"

/* ---- lockfile: no two threads inside at once (exclusive); readers together, a writer alone
 * (readwrite) ---- */

struct lock_test {
	struct env_lock *lock;
	unsigned mode;
	int writer_every; /* every Nth I/O of a thread writes (readwrite) */
	atomic_int readers, writers;
	atomic_int bad;
	atomic_int max_readers;
	atomic_int done[4];
};

struct lock_thread {
	struct lock_test *t;
	int id;
};

static void *locker(void *p)
{
	struct lock_thread *lt = p;
	struct lock_test *t = lt->t;
	struct env_lockf f = { .lock = t->lock };
	struct env_worker e = { .lock_mode = t->mode, .files = &f, .nfiles = 1 };
	for (int i = 0; i < 2000; i++) {
		struct io_unit u = { .file_index = 0,
				     .ddir = t->writer_every && i % t->writer_every == 0 ? DDIR_WRITE : DDIR_READ };
		if (lockfile_take(&e, &u) == -EAGAIN && lockfile_wait(&e, &u, NULL))
			atomic_fetch_add(&t->bad, 1);
		bool w = t->mode == LOCKFILE_EXCLUSIVE || u.ddir == DDIR_WRITE;
		int r = w ? atomic_load(&t->readers) : atomic_fetch_add(&t->readers, 1) + 1;
		int wr = w ? atomic_fetch_add(&t->writers, 1) + 1 : atomic_load(&t->writers);
		if ((w && (r || wr > 1)) || (!w && wr))
			atomic_fetch_add(&t->bad, 1);
		if (!w && r > atomic_load(&t->max_readers))
			atomic_store(&t->max_readers, r);
		if (i % 64 == 0)
			usleep(50);
		if (w)
			atomic_fetch_sub(&t->writers, 1);
		else
			atomic_fetch_sub(&t->readers, 1);
		lockfile_done(&e, &u);
		atomic_fetch_add(&t->done[lt->id], 1);
	}
	return NULL;
}

static void run_lockers(struct lock_test *t)
{
	struct env_lock lock;
	memset(&lock, 0, sizeof(lock));
	pthread_mutex_init(&lock.m, NULL);
	pthread_cond_init(&lock.c, NULL);
	t->lock = &lock;
	pthread_t th[4];
	struct lock_thread lt[4];
	for (int i = 0; i < 4; i++) {
		lt[i] = (struct lock_thread){ t, i };
		assert_int_equal(pthread_create(&th[i], NULL, locker, &lt[i]), 0);
	}
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	assert_int_equal(lock.readers, 0);
	assert_false(lock.writer);
	assert_int_equal(atomic_load(&lock.next), atomic_load(&lock.serving)); /* every turn served */
	pthread_mutex_destroy(&lock.m);
	pthread_cond_destroy(&lock.c);
}

static void test_lockfile_exclusive(void **state)
{
	(void)state;
	struct lock_test t = { .mode = LOCKFILE_EXCLUSIVE };
	run_lockers(&t);
	assert_int_equal(atomic_load(&t.bad), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(atomic_load(&t.done[i]), 2000);
}

static void test_lockfile_readwrite(void **state)
{
	(void)state;
	struct lock_test t = { .mode = LOCKFILE_READWRITE, .writer_every = 5 };
	run_lockers(&t);
	assert_int_equal(atomic_load(&t.bad), 0);
	assert_true(atomic_load(&t.max_readers) >= 1);
}

/* A thread with I/Os in flight keeps the lock while nobody waits; a waiter makes it let go. */
static void test_lockfile_turns(void **state)
{
	(void)state;
	struct env_lock lock;
	memset(&lock, 0, sizeof(lock));
	pthread_mutex_init(&lock.m, NULL);
	pthread_cond_init(&lock.c, NULL);
	struct env_lockf f = { .lock = &lock };
	struct env_worker e = { .lock_mode = LOCKFILE_EXCLUSIVE, .files = &f, .nfiles = 1 };
	struct io_unit u = { .file_index = 0, .ddir = DDIR_READ };
	assert_int_equal(lockfile_take(&e, &u), -EAGAIN); /* not held yet */
	assert_int_equal(lockfile_wait(&e, &u, NULL), 0);
	assert_int_equal(lockfile_take(&e, &u), 0); /* a second I/O in flight */
	assert_int_equal(f.inflight, 2);
	atomic_fetch_add(&lock.next, 1); /* someone queues */
	assert_int_equal(lockfile_take(&e, &u), -EAGAIN);
	atomic_fetch_sub(&lock.next, 1);
	lockfile_done(&e, &u);
	assert_true(f.held);
	lockfile_done(&e, &u);
	assert_false(f.held);
	assert_false(lock.writer);
	atomic_bool stop = true; /* a stopped run gives its turn up */
	struct env_lockf g = { .lock = &lock };
	struct env_worker e2 = { .lock_mode = LOCKFILE_EXCLUSIVE, .files = &g, .nfiles = 1 };
	assert_int_equal(lockfile_wait(&e, &u, NULL), 0);
	assert_int_equal(lockfile_wait(&e2, &u, &stop), -EINTR);
	assert_false(g.held);
	lockfile_done(&e, &u);
	assert_int_equal(atomic_load(&lock.next), atomic_load(&lock.serving));
	pthread_mutex_destroy(&lock.m);
	pthread_cond_destroy(&lock.c);
}

/* ---- cmdprio ---- */

static struct job_opts *opts(const char *const *kv)
{
	static struct job_opts o;
	char err[512];
	options_defaults(&o);
	for (; kv && kv[0]; kv += 2) {
		const struct option_def *d = option_find_core(kv[0]);
		assert_non_null(d);
		if (option_set(&o, d, kv[1], err, sizeof(err)))
			fail_msg("%s=%s: %s", kv[0], kv[1], err);
	}
	return &o;
}

static int refused(const char *name, const char *value, const char *want)
{
	static struct job_opts o;
	char err[512] = "";
	options_defaults(&o);
	int ret = option_set(&o, option_find_core(name), value, err, sizeof(err));
	if (!ret || !strstr(err, want))
		fail_msg("%s=%s: %d '%s' (want '%s')", name, value, ret, err, want);
	return ret;
}

static void test_cmdprio_prios(void **state)
{
	(void)state;
	const char *none[] = { NULL };
	assert_int_equal(cmdprio_job_ioprio(&opts(none)->env), 0);
	const char *p3[] = { "prio", "3", NULL };
	assert_int_equal(cmdprio_job_ioprio(&opts(p3)->env), ioprio_value(2, 3)); /* class 0: best-effort */
	const char *c1[] = { "prioclass", "1", NULL };
	assert_int_equal(cmdprio_job_ioprio(&opts(c1)->env), ioprio_value(1, 0));
	const char *pct[] = { "cmdprio_percentage", "30,0", "prio", "3", NULL };
	struct job_opts *o = opts(pct);
	assert_int_equal(o->env.cmdprio_pct[0], 30);
	assert_int_equal(o->env.cmdprio_pct[1], 0);
	assert_int_equal(o->env.cmdprio_class[0], 1); /* the highest class unless given */
	assert_int_equal(cmdprio_count(&o->env, 0), 2);
	assert_int_equal(cmdprio_count(&o->env, 1), 1);
	const char *split[] = {
		"cmdprio_bssplit", "4k/20/3/0:8k/50/2/5:16k/10,4k/100", "cmdprio_class", "2", "cmdprio", "4", NULL
	};
	o = opts(split);
	assert_int_equal(o->env.ncmdprio_split[0], 3);
	assert_int_equal(o->env.ncmdprio_split[1], 1);
	assert_int_equal(o->env.cmdprio_split[0][1].bs, 8192);
	assert_int_equal(o->env.cmdprio_split[0][1].cls, 2);
	assert_int_equal(o->env.cmdprio_split[0][2].cls, -1); /* cmdprio_class's */
	assert_int_equal(cmdprio_count(&o->env, 0), 4);       /* own, 3/0, 2/5, 2/4 */
	assert_int_equal(cmdprio_count(&o->env, 1), 2);
}

/* The drawn shares come out as asked: 30% of reads, none of the writes; by block size. */
static void test_cmdprio_pick(void **state)
{
	(void)state;
	struct env_worker e;
	memset(&e, 0, sizeof(e));
	e.cmdprio = true;
	e.def_ioprio = ioprio_value(2, 3);
	rng_seed(&e.rng, 42);
	e.pct[0] = 30;
	e.ioprio[0] = ioprio_value(1, 0);
	e.index[0] = 1;
	unsigned hi = 0;
	for (int i = 0; i < 100000; i++) {
		struct io_unit u = { .ddir = i % 2 ? DDIR_WRITE : DDIR_READ, .len = 4096 };
		cmdprio_pick(&e, &u);
		if (u.ddir == DDIR_WRITE)
			assert_int_equal(u.ioprio, ioprio_value(2, 3));
		else if (u.prio_index)
			hi++, assert_int_equal(u.ioprio, ioprio_value(1, 0));
	}
	assert_in_range(hi, 14000, 16000);
	memset(e.pct, 0, sizeof(e.pct));
	e.nsplit[0] = 2;
	e.split[0][0] = (struct env_split){ 4096, 100, ioprio_value(3, 0), 1 };
	e.split[0][1] = (struct env_split){ 8192, 50, ioprio_value(2, 5), 2 };
	unsigned by[3] = { 0 };
	for (int i = 0; i < 100000; i++) {
		struct io_unit u = { .ddir = DDIR_READ, .len = i % 2 ? 8192 : 4096 };
		cmdprio_pick(&e, &u);
		by[u.prio_index]++;
		if (u.len == 4096)
			assert_int_equal(u.prio_index, 1);
	}
	assert_in_range(by[2], 24000, 26000);
	assert_in_range(by[0], 24000, 26000);
}

static void test_prio_merge(void **state)
{
	(void)state;
	static struct prio_stats a, b;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	prio_stat_add(&a.e[0], 0x4003, 100);
	prio_stat_add(&a.e[1], 0x2000, 50);
	prio_stat_add(&b.e[1], 0x4003, 300); /* the same priority at another index */
	prio_stat_add(&b.e[2], 0x6000, 7);
	prio_stats_merge(&a, &b);
	assert_int_equal(prio_stats_used(&a), 3);
	assert_int_equal(a.e[0].n, 2);
	assert_int_equal(a.e[0].min, 100);
	assert_int_equal(a.e[0].max, 300);
	assert_int_equal(a.e[2].ioprio, 0x6000);
	assert_false(a.overflow);
	static struct prio_stats c;
	memset(&c, 0, sizeof(c));
	for (unsigned i = 0; i < PRIO_STATS_MAX; i++)
		prio_stat_add(&c.e[i], (uint16_t)(0x4000 + i), 1);
	prio_stats_merge(&c, &b); /* 0x6000 has no room: the merge says so */
	assert_true(c.overflow);
}

/* ---- the options' parsers ---- */

static void test_parsers(void **state)
{
	(void)state;
	const char *good[] = { "uid",
			       "0",
			       "gid",
			       "root",
			       "cpumask",
			       "0x1",
			       "numa_cpu_nodes",
			       "all",
			       "numa_mem_policy",
			       "bind:0",
			       "mem",
			       "mmap:/tmp/x",
			       "lockfile",
			       "readwrite",
			       "write_hint",
			       "extreme",
			       "prioclass",
			       "3",
			       NULL };
	struct job_opts *o = opts(good);
	assert_true(o->env.uid.set);
	assert_int_equal(o->env.gid.v, 0);
	assert_int_equal(o->ncpus_allowed, 1);
	assert_int_equal(o->env.mpol, ENV_MPOL_BIND);
	assert_true(o->env.mpol_nodes[0] & 1);
	assert_int_equal(o->env.mem, MEM_MMAP);
	assert_string_equal(o->env.mem_path, "/tmp/x");
	assert_int_equal(o->env.lockfile, LOCKFILE_READWRITE);
	assert_int_equal(o->env.write_hint, 5);
	refused("uid", "no-such-user-here", "no user named");
	refused("gid", "no-such-group-here", "no group named");
	refused("cpumask", "0", "names no CPU");
	refused("cpumask", "-1", "cannot parse");
	/* A node this machine lacks parses (fio's --parse-only takes numa.fio anywhere); the run
	 * refuses it (env_check_job; t_opts_env checks the line). */
	const char *far[] = { "numa_cpu_nodes", "999", NULL };
	assert_true(opts(far)->env.numa_cpu_nodes[999 / 64] >> (999 % 64) & 1);
	refused("numa_mem_policy", "prefer", "needs a node list");
	refused("numa_mem_policy", "local:0", "takes no node list");
	refused("numa_mem_policy", "sideways:0", "cannot parse");
	refused("mem", "malloc:/x", "this type takes no file");
	refused("mem", "cudamalloc", "rdma");
	refused("cmdprio_bssplit", "4k/101", "cannot parse");
	refused("cmdprio_bssplit", "4k/50/4/0", "cannot parse");
	refused("cmdprio_bssplit", "4k/50/1", "cannot parse");
	refused("cmdprio_bssplit", "4k", "cannot parse");
	refused("prio", "8", "out of range");
	refused("prioclass", "-1", "out of range");
	refused("nice", "-21", "out of range");
	refused("cmdprio_class", "0", "cannot parse");
	refused("lockfile", "sometimes", "");
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpu < 63) {
		char mask[32];
		snprintf(mask, sizeof(mask), "%llu", 1ULL << ncpu);
		refused("cpumask", mask, "this machine's CPUs are");
		snprintf(mask, sizeof(mask), "%ld", ncpu);
		refused("gtod_cpu", mask, "is not on this machine");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lockfile_exclusive),
		cmocka_unit_test(test_lockfile_readwrite),
		cmocka_unit_test(test_lockfile_turns),
		cmocka_unit_test(test_cmdprio_prios),
		cmocka_unit_test(test_cmdprio_pick),
		cmocka_unit_test(test_prio_merge),
		cmocka_unit_test(test_parsers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
