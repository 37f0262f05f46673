/* Signals without globals: INT, TERM, QUIT, USR1 and USR2 are blocked in every thread and
 * one watcher thread takes them with sigtimedwait(). The first INT, TERM or QUIT stops the
 * jobs and
 * the results so far are printed. A repeat from the same sender within a second (timeout(1),
 * kubectl and systemd signal the process and then its group) changes nothing; any other
 * second one while the results are being written, or a third, ends the process at once. USR1 asks for
 * the statistics so far (as fio); USR2 is ignored. SIGPIPE and SIGXFSZ are ignored: the
 * write fails (EPIPE, EFBIG) and the run reports it. */
#ifndef IOBENCH_SIGNALS_H
#define IOBENCH_SIGNALS_H
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

struct signal_watch {
	pthread_t tid;
	atomic_bool *stop;          /* the jobs stop issuing */
	atomic_int *interrupted;    /* the signal that came (0: none): no more groups */
	atomic_bool *status_request; /* SIGUSR1: print the statistics so far */
	atomic_bool reporting;      /* the results are being written */
	atomic_bool quit;           /* the watcher ends */
	/* the watcher's own: stop signals so far, and when and from whom the first came */
	uint64_t first_ns;
	pid_t first_pid;
	unsigned counted;
	int started;
};

/* First thing in main: SIGPIPE ignored, USR1 and USR2 harmless until the watcher runs. */
void signals_init(void);
/* Block the signals in the calling thread (and so in every thread it starts): call once,
 * first thing in main. */
void signals_block(void);
/* Start the watcher. 0 or -errno. */
int signals_start(struct signal_watch *sw, atomic_bool *stop, atomic_int *interrupted,
		  atomic_bool *status_request);
/* The signals a command iobench starts (exec_prerun, --trigger, the exec engine) gets back
 * to their defaults (posix_spawnattr_setsigdefault): all but SIGKILL and SIGSTOP, and but
 * SIGHUP, SIGINT and SIGQUIT where they were ignored when iobench started (nohup, a
 * background job of a script): the command keeps ignoring them, as system(3)'s would. */
void signals_child_defaults(sigset_t *set);
/* The results are being written from now on: a further signal ends the process. */
void signals_reporting(struct signal_watch *sw);
void signals_stop(struct signal_watch *sw);

/* What the watcher does with one signal: pure, for tests. */
enum signal_action {
	SIG_ACT_STOP,    /* the first: stop and print */
	SIG_ACT_ABSORB,  /* a repeat from the same sender within a second */
	SIG_ACT_WARN,    /* a second one: still stopping; the next ends the process */
	SIG_ACT_EXIT,    /* exit at once */
};
enum signal_action signals_decide(struct signal_watch *sw, pid_t sender, uint64_t now_ns);

#endif
