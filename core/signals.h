/* SIGINT/SIGTERM without globals: the signals are blocked in every thread and one
 * watcher thread takes them with sigwait() and sets the run's stop flag. A second
 * signal ends the process at once. */
#ifndef IOBENCH_SIGNALS_H
#define IOBENCH_SIGNALS_H
#include <pthread.h>
#include <stdatomic.h>

struct signal_watch {
	pthread_t tid;
	atomic_bool *stop;        /* the jobs stop issuing */
	atomic_int *interrupted;  /* the signal that came (0: none): no more groups */
	int started;
};

/* Call before any other thread starts. 0 or -errno. */
int signals_start(struct signal_watch *sw, atomic_bool *stop, atomic_int *interrupted);
void signals_stop(struct signal_watch *sw);

#endif
