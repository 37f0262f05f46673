/* flow=, flow_id=: token-based flow control between jobs, as fio's. The jobs of a flow_id
 * share two counters, the sum of their weights and the I/Os all of them issued; a job may
 * issue while its own share of those I/Os is no more than its share of the weight. The
 * table lives in the run (lock-free counters; the lock only when jobs join and leave). */
#ifndef IOBENCH_FLOW_H
#define IOBENCH_FLOW_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define FLOW_MAX 64

struct flow {
	unsigned id;
	unsigned members;
	atomic_uint_fast64_t weight;  /* of the jobs in it now */
	atomic_uint_fast64_t ios;     /* issued by all of them */
};

struct flow_table {
	pthread_mutex_t lock;
	unsigned n;
	struct flow flows[FLOW_MAX];
};

void flow_table_init(struct flow_table *t);
/* A job of flow id with this weight starts: its flow (NULL when FLOW_MAX flows are in use),
 * and its count (*mine): its weight's share of what the flow issued before it came. */
struct flow *flow_join(struct flow_table *t, unsigned id, unsigned weight, uint64_t *mine);
/* ... and ends: its weight and its count leave the flow. */
void flow_leave(struct flow_table *t, struct flow *f, unsigned weight, uint64_t mine);
/* May a job of this weight, which issued *mine of the flow's I/Os, issue one more? If so the
 * I/O is counted (in *mine and the flow). */
bool flow_may_issue(struct flow *f, unsigned weight, uint64_t *mine);

#endif
