/* The cluster over MPI (`make mpi`): MPI_COMM_WORLD, called from the main thread only. */
#include "core/run/cluster.h"

#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int mpi_barrier(const struct cluster *c)
{
	return MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -EIO;
}

/* MPI counts are ints: large buffers go in 1 GiB pieces. */
static int mpi_gather(const struct cluster *c, const void *send, size_t len, void *recv)
{
	const size_t chunk = (size_t)1 << 30;
	if (c->rank != 0) {
		for (size_t off = 0; off < len; off += chunk) {
			size_t n = len - off < chunk ? len - off : chunk;
			if (MPI_Send((const char *)send + off, (int)n, MPI_BYTE, 0, 7, MPI_COMM_WORLD) != MPI_SUCCESS)
				return -EIO;
		}
		return 0;
	}
	if (len)
		memcpy(recv, send, len);
	for (unsigned r = 1; r < c->size; r++)
		for (size_t off = 0; off < len; off += chunk) {
			size_t n = len - off < chunk ? len - off : chunk;
			if (MPI_Recv((char *)recv + (size_t)r * len + off, (int)n, MPI_BYTE, (int)r, 7,
				     MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS)
				return -EIO;
		}
	return 0;
}

static int mpi_max_int(const struct cluster *c, int v)
{
	int out = v;
	MPI_Allreduce(&v, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	return out;
}

int cluster_mpi_init(struct cluster *c, int *argc, char ***argv)
{
	int provided = 0, rank = 0, size = 1;
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
		return -1;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	c->rank = (unsigned)rank;
	c->size = (unsigned)size;
	char host[CLUSTER_HOST_LEN - 12] = "";
	gethostname(host, sizeof(host) - 1);
	snprintf(c->host, sizeof(c->host), "%s:%d", host, rank);
	c->barrier = mpi_barrier;
	c->gather = mpi_gather;
	c->max_int = mpi_max_int;
	return 0;
}

void cluster_mpi_finish(void)
{
	MPI_Finalize();
}
