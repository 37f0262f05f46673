/* The signal watcher thread. */
#include "core/signals.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

static void signal_set(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGUSR2); /* used to end the watcher */
}

static void *watch(void *p)
{
	struct signal_watch *sw = p;
	sigset_t set;
	signal_set(&set);
	for (;;) {
		int sig;
		if (sigwait(&set, &sig))
			continue;
		if (sig == SIGUSR2)
			return NULL;
		atomic_store(sw->stop, true);
		if (atomic_exchange(sw->interrupted, sig)) {
			fprintf(stderr, "iobench: second signal %d, exiting now\n", sig);
			_exit(128 + sig);
		}
		fprintf(stderr, "iobench: signal %d: stopping jobs, printing results so far\n", sig);
	}
}

int signals_start(struct signal_watch *sw, atomic_bool *stop, atomic_int *interrupted)
{
	sigset_t set;
	signal_set(&set);
	sw->stop = stop;
	sw->interrupted = interrupted;
	sw->started = 0;
	int err = pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (!err)
		err = pthread_create(&sw->tid, NULL, watch, sw);
	if (err)
		return -err;
	sw->started = 1;
	return 0;
}

void signals_stop(struct signal_watch *sw)
{
	if (!sw->started)
		return;
	pthread_kill(sw->tid, SIGUSR2);
	pthread_join(sw->tid, NULL);
	sw->started = 0;
}
