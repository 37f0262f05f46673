/* Several processes running one job file together (MPI ranks). The core sees only this
 * interface; core/run/cluster_mpi.c (built by `make mpi`) implements it with MPI. Without a
 * cluster (NULL), a run is one process, rank 0 of 1. */
#ifndef IOBENCH_CLUSTER_H
#define IOBENCH_CLUSTER_H
#include <stddef.h>

#define CLUSTER_HOST_LEN 64

struct cluster {
	unsigned rank, size;
	char host[CLUSTER_HOST_LEN]; /* this rank's name in reports: "host:rank" */
	/* Every rank waits for every other. */
	int (*barrier)(const struct cluster *c);
	/* Each rank sends len bytes; rank 0 receives size * len bytes in rank order into recv
	 * (the others pass NULL). Returns 0 or -errno. */
	int (*gather)(const struct cluster *c, const void *send, size_t len, void *recv);
	/* The largest of every rank's v, on every rank. */
	int (*max_int)(const struct cluster *c, int v);
};

static inline int cluster_barrier(const struct cluster *c)
{
	return c && c->size > 1 ? c->barrier(c) : 0;
}

static inline unsigned cluster_rank(const struct cluster *c)
{
	return c ? c->rank : 0;
}

static inline int cluster_max_int(const struct cluster *c, int v)
{
	return c && c->size > 1 ? c->max_int(c, v) : v;
}

/* core/run/cluster_mpi.c: MPI_Init and the cluster of all ranks; 0 or -1. */
int cluster_mpi_init(struct cluster *c, int *argc, char ***argv);
void cluster_mpi_finish(void);

#endif
