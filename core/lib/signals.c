/* The signal watcher thread. */
#include "core/lib/signals.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "core/lib/clock.h"

#define REPEAT_WINDOW_NS NS_PER_SEC

/* SIGHUP (a closed terminal or ssh session) stops the run as SIGTERM does, so the results
 * so far are reported; not where it was ignored when we started (nohup: the user asked the
 * run to go on). */
static bool hup_wanted(void)
{
	struct sigaction old;
	return sigaction(SIGHUP, NULL, &old) == 0 && old.sa_handler != SIG_IGN;
}

static void signal_set(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	if (hup_wanted())
		sigaddset(set, SIGHUP);
	sigaddset(set, SIGQUIT);
	sigaddset(set, SIGUSR1);
	sigaddset(set, SIGUSR2);
}

static void nothing(int sig)
{
	(void)sig;
}

void signals_init(void)
{
	struct sigaction sa = { .sa_handler = nothing };
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN); /* RLIMIT_FSIZE: the write fails with EFBIG and is reported */
}

void signals_child_defaults(sigset_t *set)
{
	sigemptyset(set);
	for (int sig = 1; sig < 32; sig++) {
		struct sigaction old;
		bool kept = (sig == SIGHUP || sig == SIGINT || sig == SIGQUIT) && sigaction(sig, NULL, &old) == 0 &&
			    old.sa_handler == SIG_IGN;
		if (sig != SIGKILL && sig != SIGSTOP && !kept)
			sigaddset(set, sig);
	}
}

void signals_block(void)
{
	sigset_t set;
	signal_set(&set);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

enum signal_action signals_decide(struct signal_watch *sw, pid_t sender, uint64_t now_ns)
{
	sw->counted++;
	if (sw->counted == 1) {
		sw->first_ns = now_ns;
		sw->first_pid = sender;
		return SIG_ACT_STOP;
	}
	if (sw->counted > 2)
		return SIG_ACT_EXIT;
	if (sender == sw->first_pid && now_ns - sw->first_ns < REPEAT_WINDOW_NS)
		return SIG_ACT_ABSORB;
	return atomic_load(&sw->reporting) ? SIG_ACT_EXIT : SIG_ACT_WARN;
}

static void take(struct signal_watch *sw, const siginfo_t *si)
{
	int sig = si->si_signo;
	if (sig == SIGUSR1) {
		atomic_store(sw->status_request, true);
		return;
	}
	if (sig == SIGUSR2)
		return;
	switch (signals_decide(sw, si->si_pid, clock_now_ns())) {
	case SIG_ACT_STOP:
		atomic_store(sw->interrupted, sig);
		atomic_store(sw->stop, true);
		fprintf(stderr, "iobench: signal %d: stopping jobs, printing results so far\n", sig);
		break;
	case SIG_ACT_ABSORB:
		break;
	case SIG_ACT_WARN:
		fprintf(stderr, "iobench: signal %d again: still stopping; one more ends iobench at once, "
				"without results\n", sig);
		break;
	case SIG_ACT_EXIT:
		fprintf(stderr, "iobench: signal %d: exiting now\n", sig);
		_exit(128 + sig);
	}
}

static void *watch(void *p)
{
	struct signal_watch *sw = p;
	sigset_t set;
	signal_set(&set);
	const struct timespec tick = { 0, 50 * 1000 * 1000 };
	while (!atomic_load(&sw->quit)) {
		siginfo_t si;
		if (sigtimedwait(&set, &si, &tick) > 0)
			take(sw, &si);
	}
	return NULL;
}

int signals_start(struct signal_watch *sw, atomic_bool *stop, atomic_int *interrupted,
		  atomic_bool *status_request)
{
	sw->stop = stop;
	sw->interrupted = interrupted;
	sw->status_request = status_request;
	atomic_store(&sw->reporting, false);
	atomic_store(&sw->quit, false);
	sw->first_ns = 0;
	sw->first_pid = 0;
	sw->counted = 0;
	sw->started = 0;
	signals_block();
	int err = pthread_create(&sw->tid, NULL, watch, sw);
	if (err)
		return -err;
	sw->started = 1;
	return 0;
}

void signals_reporting(struct signal_watch *sw)
{
	atomic_store(&sw->reporting, true);
}

void signals_stop(struct signal_watch *sw)
{
	if (!sw->started)
		return;
	atomic_store(&sw->quit, true);
	pthread_join(sw->tid, NULL);
	sw->started = 0;
}
