/* fio's engines that iobench does not carry out: SCSI generic (sg), RDMA verbs and librpma,
 * HDFS, DAOS (dfs), MTD flash, libnfs, NVIDIA's cuFile, xNVMe and io_uring's NVMe
 * passthrough (io_uring_cmd). Each is here by name with its options as fio 3.33 takes them,
 * so a job file written for one parses (--parse-only passes, --enghelp lists them, the
 * options are refused for other engines as fio refuses them), and a job that would run on
 * one is refused in one line naming the engine and what it needs (ENGINE_ABSENT). None of
 * them has a stand-in on this machine: they need hardware (sg devices, RDMA NICs, NVMe
 * character devices, MTD chips, GPUs) or a service (HDFS, DAOS, an NFS server) and a library
 * Debian lacks or iobench does not load. */
#include <stddef.h>

#include "engines/engine.h"

/* One struct holds every option of these engines: only the offsets matter, and no hook ever
 * reads them. */
struct fio_only_opts {
	bool hipri, readfua, writefua, single_instance, use_direct, skip_bad, direct_write_to_pmem, busy_wait;
	bool sqthread_poll, fixedbufs, registerfiles, nowait;
	unsigned write_mode, verb, cuda_io, cmd_type;
	int stream_id, port, nonvectored, sqthread_poll_cpu, force_async, dev_nsid, iovec;
	uint64_t chunk_size;
	char host[256], bindname[256], dir[256], pool[256], cont[256], oclass[64], svcl[256], url[1024];
	char gpus[256], be[64], async[64], sync[64], admin[64];
};

#define OFFS(f) offsetof(struct fio_only_opts, f)
#define SZ(f) sizeof(((struct fio_only_opts *)0)->f)
#define B(n, f, d, h) { .name = n, .type = OPT_BOOL, .offset = OFFS(f), .def = d, .help = h }
#define S(n, f, h) { .name = n, .type = OPT_STR, .offset = OFFS(f), .size = SZ(f), .help = h }
#define I(n, f, d, lo, hi, h) { .name = n, .type = OPT_INT, .offset = OFFS(f), .def = d, .min = lo, .max = hi, .help = h }
#define C(n, f, list, d, h) { .name = n, .type = OPT_CHOICE, .offset = OFFS(f), .choices = list, .def = d, .help = h }

static const struct choice sg_write_modes[] = {
	{ "write", 0, "Issue standard SCSI WRITE commands" },
	{ "write_and_verify", 1, "Issue SCSI WRITE AND VERIFY commands" },
	{ "verify", 1, "Same as write_and_verify (deprecated)" },
	{ "write_same", 2, "Issue SCSI WRITE SAME commands" },
	{ "same", 2, "Same as write_same (deprecated)" },
	{ "write_same_ndob", 3, "Issue SCSI WRITE SAME(16) commands with NDOB set" },
	{ "verify_bytchk_00", 4, "Issue SCSI VERIFY commands with BYTCHK 00" },
	{ "verify_bytchk_01", 5, "Issue SCSI VERIFY commands with BYTCHK 01" },
	{ "verify_bytchk_11", 6, "Issue SCSI VERIFY commands with BYTCHK 11" },
	{ "write_stream", 7, "Issue SCSI WRITE STREAM(16) commands" },
	{ NULL, 0, NULL },
};
static const struct option_def sg_options[] = {
	B("hipri", hipri, "0", "Polled completions (SGV4_FLAG_HIPRI) for READ and WRITE"),
	B("readfua", readfua, "0", "Set FUA (force unit access) on every read"),
	B("writefua", writefua, "0", "Set FUA (force unit access) on every write"),
	C("sg_write_mode", write_mode, sg_write_modes, "write", "The SCSI command writes are issued as"),
	I("stream_id", stream_id, "0", 0, 65535, "Stream ID for WRITE STREAM(16) commands"),
	{ NULL },
};

static const struct choice rdma_verbs[] = {
	{ "write", 0, "Memory write" },
	{ "read", 1, "Memory read" },
	{ "send", 2, "Posted send" },
	{ "recv", 3, "Posted receive" },
	{ NULL, 0, NULL },
};
static const struct option_def rdma_options[] = {
	S("hostname", host, "Host of the RDMA-CM connection"),
	S("bindname", bindname, "Local address or name to bind the RDMA-CM connection to"),
	I("port", port, NULL, 1, 65535, "Port of the RDMA-CM connection"),
	{ .name = "verb", .alias = "proto", .type = OPT_CHOICE, .offset = OFFS(verb), .choices = rdma_verbs,
	  .def = "write", .help = "The RDMA verb this side uses" },
	{ NULL },
};

#define RPMA_COMMON                                                                                   \
	S("serverip", host, "IP address of the RDMA-CM connection"),                                    \
	I("port", port, NULL, 1, 65535, "Port of the RDMA-CM connection"),                               \
	B("direct_write_to_pmem", direct_write_to_pmem, "0", "Direct write to PMem from the remote host is possible")
static const struct option_def rpma_client_options[] = {
	RPMA_COMMON,
	{ NULL },
};
static const struct option_def rpma_server_options[] = {
	RPMA_COMMON,
	B("busy_wait_polling", busy_wait, "1", "Busy-wait for completions (0: wait for them)"),
	{ NULL },
};

static const struct option_def hdfs_options[] = {
	S("namenode", host, "Host of the HDFS cluster's namenode"),
	S("hostname", bindname, "Host of the HDFS cluster's namenode (as namenode)"),
	I("port", port, NULL, 1, 65535, "Port of the HDFS cluster's namenode"),
	S("hdfsdirectory", dir, "HDFS directory the chunks are made in"),
	{ .name = "chunk_size", .type = OPT_SIZE, .offset = OFFS(chunk_size), .def = "1048576",
	  .help = "Size of each file's chunks" },
	B("single_instance", single_instance, "1", "One HDFS connection for all the clones"),
	B("hdfs_use_direct", use_direct, "0", "Use libhdfs's direct reads"),
	{ NULL },
};

static const struct option_def dfs_options[] = {
	S("pool", pool, "Label or UUID of the DAOS pool"),
	S("cont", cont, "Label or UUID of the DAOS container"),
	{ .name = "chunk_size", .type = OPT_SIZE, .offset = OFFS(chunk_size),
	  .help = "Chunk size of the dfs file (default: the container's)" },
	S("object_class", oclass, "Object class of the dfs file (default: the container's)"),
	S("svcl", svcl, "Service replica ranks (older DAOS versions)"),
	{ NULL },
};

static const struct option_def mtd_options[] = {
	B("skip_bad", skip_bad, "0", "Skip operations on known bad blocks"),
	{ NULL },
};

static const struct option_def nfs_options[] = {
	S("nfs_url", url, "nfs://SERVER/EXPORT[?options], as libnfs takes it"),
	{ NULL },
};

static const struct choice cuda_ios[] = {
	{ "cufile", 0, "GPUDirect Storage through cuFile" },
	{ "posix", 1, "POSIX I/O, then cudaMemcpy" },
	{ NULL, 0, NULL },
};
static const struct option_def cufile_options[] = {
	S("gpu_dev_ids", gpus, "GPU ids, joined with ':', one per clone in turn"),
	C("cuda_io", cuda_io, cuda_ios, "cufile", "How data moves between the file and the GPU"),
	{ NULL },
};

static const struct option_def xnvme_options[] = {
	B("hipri", hipri, "0", "Polled completions"),
	B("sqthread_poll", sqthread_poll, "0", "A kernel thread polls the submission queue"),
	S("xnvme_be", be, "xNVMe backend (linux, spdk, fbsd, ...)"),
	S("xnvme_async", async, "Asynchronous interface: emu, thrpool, io_uring, io_uring_cmd, libaio, posix, nil"),
	S("xnvme_sync", sync, "Synchronous interface: nvme, psync, block"),
	S("xnvme_admin", admin, "Admin interface: nvme, block"),
	I("xnvme_dev_nsid", dev_nsid, "0", 0, INT32_MAX, "NVMe namespace id"),
	I("xnvme_iovec", iovec, "0", 0, 1, "Vectored I/O commands"),
	{ NULL },
};

static const struct choice cmd_types[] = {
	{ "nvme", 0, "NVMe uring commands" },
	{ NULL, 0, NULL },
};
static const struct option_def uring_cmd_options[] = {
	B("hipri", hipri, "0", "Polled completions"),
	B("fixedbufs", fixedbufs, "0", "Register the I/O buffers with the ring"),
	B("registerfiles", registerfiles, "0", "Register the files with the ring"),
	B("sqthread_poll", sqthread_poll, "0", "A kernel thread polls the submission queue"),
	I("sqthread_poll_cpu", sqthread_poll_cpu, "-1", -1, INT32_MAX, "CPU of the polling thread"),
	I("nonvectored", nonvectored, "-1", -1, 1, "Non-vectored commands"),
	I("force_async", force_async, "0", 0, INT32_MAX, "IOSQE_ASYNC on every N-th request"),
	B("nowait", nowait, "0", "RWF_NOWAIT on reads and writes"),
	C("cmd_type", cmd_type, cmd_types, "nvme", "The uring passthrough command type"),
	{ NULL },
};

#define FIO_ONLY(sym, nm, table, needs)                 \
	const struct engine_ops sym##_engine_ops = {    \
		.name = nm,                             \
		.flags = ENGINE_ABSENT,                 \
		.library = needs,                       \
		.options = table,                       \
		.options_size = sizeof(struct fio_only_opts), \
	};

FIO_ONLY(sg, "sg", sg_options, "SCSI generic devices (/dev/sgN, /dev/bsg)")
FIO_ONLY(rdma, "rdma", rdma_options, "RDMA NICs and librdmacm/libibverbs")
FIO_ONLY(rpma_apm_client, "librpma_apm_client", rpma_client_options, "RDMA NICs, PMem and librpma")
FIO_ONLY(rpma_apm_server, "librpma_apm_server", rpma_server_options, "RDMA NICs, PMem and librpma")
FIO_ONLY(rpma_gpspm_client, "librpma_gpspm_client", rpma_client_options, "RDMA NICs, PMem and librpma")
FIO_ONLY(rpma_gpspm_server, "librpma_gpspm_server", rpma_server_options, "RDMA NICs, PMem and librpma")
FIO_ONLY(hdfs, "libhdfs", hdfs_options, "an HDFS cluster and libhdfs (Java)")
FIO_ONLY(dfs, "dfs", dfs_options, "a DAOS pool and libdfs")
FIO_ONLY(mtd, "mtd", mtd_options, "MTD flash devices (/dev/mtdN) and libmtd")
FIO_ONLY(nfs, "nfs", nfs_options, "an NFS server and libnfs")
FIO_ONLY(cufile, "libcufile", cufile_options, "NVIDIA GPUs and libcufile (GPUDirect Storage)")
FIO_ONLY(xnvme, "xnvme", xnvme_options, "NVMe devices and libxnvme")
FIO_ONLY(uring_cmd, "io_uring_cmd", uring_cmd_options, "NVMe character devices (/dev/ngXnY)")
