/* io_submit_mode=offload (core/worker/offload.c): a wrapper engine whose submitter threads do the
 * I/O through the real one. */
#ifndef IOBENCH_OFFLOAD_H
#define IOBENCH_OFFLOAD_H

struct offload;
struct wstate;
struct engine_ops;

/* depth submitter threads for nfiles files; NULL when out of memory. The worker puts it in
 * its engine context's priv before engine_init of offload_ops(). */
struct offload *offload_new(struct wstate *s, const struct engine_ops *real, unsigned depth, unsigned nfiles);
const struct engine_ops *offload_ops(struct offload *off);
/* After engine_cleanup (which stops the threads). */
void offload_free(struct offload *off);

#endif
