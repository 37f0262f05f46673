/* The only list of engines. */
#include <stdio.h>
#include <string.h>

#include "engines/engine.h"

extern const struct engine_ops psync_engine_ops;
extern const struct engine_ops libaio_engine_ops;
extern const struct engine_ops io_uring_engine_ops;
extern const struct engine_ops null_engine_ops;
extern const struct engine_ops sync_engine_ops;
extern const struct engine_ops pvsync_engine_ops;
extern const struct engine_ops pvsync2_engine_ops;
extern const struct engine_ops mmap_engine_ops;
extern const struct engine_ops posixaio_engine_ops;
extern const struct engine_ops faulty_engine_ops;
extern const struct engine_ops filecreate_engine_ops;
extern const struct engine_ops filestat_engine_ops;
extern const struct engine_ops filedelete_engine_ops;
extern const struct engine_ops dircreate_engine_ops;
extern const struct engine_ops dirstat_engine_ops;
extern const struct engine_ops dirdelete_engine_ops;
extern const struct engine_ops rbd_engine_ops;
extern const struct engine_ops rados_engine_ops;
extern const struct engine_ops falloc_engine_ops;
extern const struct engine_ops ftruncate_engine_ops;
extern const struct engine_ops splice_engine_ops;
extern const struct engine_ops cpuio_engine_ops;
extern const struct engine_ops exec_engine_ops;
extern const struct engine_ops e4defrag_engine_ops;
extern const struct engine_ops net_engine_ops;
extern const struct engine_ops netsplice_engine_ops;
extern const struct engine_ops http_engine_ops;
extern const struct engine_ops nbd_engine_ops;
extern const struct engine_ops gfapi_engine_ops;
extern const struct engine_ops gfapi_async_engine_ops;
/* fio's engines iobench does not carry out (engines/fio_only.c): their jobs are refused. */
extern const struct engine_ops sg_engine_ops;
extern const struct engine_ops rdma_engine_ops;
extern const struct engine_ops rpma_apm_client_engine_ops;
extern const struct engine_ops rpma_apm_server_engine_ops;
extern const struct engine_ops rpma_gpspm_client_engine_ops;
extern const struct engine_ops rpma_gpspm_server_engine_ops;
extern const struct engine_ops hdfs_engine_ops;
extern const struct engine_ops dfs_engine_ops;
extern const struct engine_ops mtd_engine_ops;
extern const struct engine_ops nfs_engine_ops;
extern const struct engine_ops cufile_engine_ops;
extern const struct engine_ops xnvme_engine_ops;
extern const struct engine_ops uring_cmd_engine_ops;

static const struct engine_ops *const engines[] = {
	&psync_engine_ops,
	&sync_engine_ops,
	&pvsync_engine_ops,
	&pvsync2_engine_ops,
	&libaio_engine_ops,
	&io_uring_engine_ops,
	&posixaio_engine_ops,
	&mmap_engine_ops,
	&null_engine_ops,
	&faulty_engine_ops,
	&filecreate_engine_ops,
	&filestat_engine_ops,
	&filedelete_engine_ops,
	&dircreate_engine_ops,
	&dirstat_engine_ops,
	&dirdelete_engine_ops,
	&rbd_engine_ops,
	&rados_engine_ops,
	&falloc_engine_ops,
	&ftruncate_engine_ops,
	&splice_engine_ops,
	&cpuio_engine_ops,
	&exec_engine_ops,
	&e4defrag_engine_ops,
	&net_engine_ops,
	&netsplice_engine_ops,
	&http_engine_ops,
	&nbd_engine_ops,
	&gfapi_engine_ops,
	&gfapi_async_engine_ops,
	&sg_engine_ops,
	&rdma_engine_ops,
	&rpma_apm_client_engine_ops,
	&rpma_apm_server_engine_ops,
	&rpma_gpspm_client_engine_ops,
	&rpma_gpspm_server_engine_ops,
	&hdfs_engine_ops,
	&dfs_engine_ops,
	&mtd_engine_ops,
	&nfs_engine_ops,
	&cufile_engine_ops,
	&xnvme_engine_ops,
	&uring_cmd_engine_ops,
};

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (strcmp(engines[i]->name, name) == 0)
			return engines[i];
	return NULL;
}

const struct engine_ops *engine_by_index(size_t i)
{
	return i < sizeof(engines) / sizeof(engines[0]) ? engines[i] : NULL;
}

const char *engine_names(char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "", engines[i]->name);
	return buf;
}

const struct option_def *option_find(const char *name)
{
	const struct option_def *d = option_find_core(name);
	const struct engine_ops *e;
	for (size_t i = 0; !d && (e = engine_by_index(i)); i++)
		d = option_find_in(e->options, name);
	return d;
}
