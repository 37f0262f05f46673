/* bench/floor: the floor under any benchmark's CPU per I/O for the bench's queue-depth jobs.
 * The least a program can do for 4 KiB O_DIRECT random reads at a fixed depth with one
 * submission per I/O (fio's default iodepth_batch_submit=1, which iobench keeps) and one
 * completion taken at a time: no statistics, no options, no time reads but one per second.
 * What it costs in CPU per I/O is the engine's and the kernel's share; what a benchmark adds
 * on top of it is its own.
 *
 *   floor libaio|io_uring FILE DEPTH SECONDS
 *
 * Prints {"jobs":[{"read":{"total_ios":N,"iops":X}}]} so bench.py reads it as it reads the
 * tools' JSON. libaio reaps from the ring in user space when it holds completions (as iobench
 * does) and calls io_getevents only when it is empty; io_uring uses DEFER_TASKRUN and
 * io_uring_submit_and_get_events, as iobench and fio 3.33 do. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <liburing.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BS 4096u
#define MAX_DEPTH 256u

struct draw {
	uint64_t s, blocks;
};

static uint64_t next_block(struct draw *d)
{
	d->s ^= d->s << 13, d->s ^= d->s >> 7, d->s ^= d->s << 17; /* xorshift64 */
	return (uint64_t)(((unsigned __int128)d->s * d->blocks) >> 64);
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The completion ring libaio's io_setup maps into the process (as the kernel lays it out). */
struct aio_ring {
	unsigned id, nr, head, tail, magic, compat_features, incompat_features, header_length;
	struct io_event events[];
};

static int run_libaio(int fd, unsigned depth, double secs, struct draw *d, char *buf, uint64_t *done)
{
	io_context_t ctx = 0;
	struct iocb cbs[MAX_DEPTH], *one;
	struct io_event ev;
	int r = io_setup((int)depth, &ctx);
	if (r)
		return r;
	struct aio_ring *ring = (struct aio_ring *)ctx;
	for (unsigned i = 0; i < depth; i++) {
		io_prep_pread(&cbs[i], fd, buf + (size_t)i * BS, BS, (long long)(next_block(d) * BS));
		one = &cbs[i];
		if ((r = io_submit(ctx, 1, &one)) != 1)
			return r < 0 ? r : -EIO;
	}
	double end = now_s() + secs;
	for (uint64_t n = 0;; n++) {
		struct iocb *cb;
		unsigned head = ring->head;
		if (head != __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE)) {
			cb = (struct iocb *)(uintptr_t)ring->events[head].obj;
			__atomic_store_n(&ring->head, (head + 1) % ring->nr, __ATOMIC_RELEASE);
		} else {
			if ((r = io_getevents(ctx, 1, 1, &ev, NULL)) != 1)
				return r < 0 ? r : -EIO;
			cb = ev.obj;
		}
		(*done)++;
		if ((n & 1023) == 0 && now_s() >= end)
			break;
		io_prep_pread(cb, fd, cb->u.c.buf, BS, (long long)(next_block(d) * BS));
		if ((r = io_submit(ctx, 1, &cb)) != 1)
			return r < 0 ? r : -EIO;
	}
	io_destroy(ctx); /* waits for the rest */
	return 0;
}

static int run_uring(int fd, unsigned depth, double secs, struct draw *d, char *buf, uint64_t *done)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	struct iovec iov[MAX_DEPTH];
	int r = io_uring_queue_init(depth, &ring, IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
	if (r)
		return r;
	for (unsigned i = 0; i < depth; i++) {
		iov[i] = (struct iovec){ buf + (size_t)i * BS, BS };
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
		io_uring_prep_readv(sqe, fd, &iov[i], 1, next_block(d) * BS);
		io_uring_sqe_set_data(sqe, &iov[i]);
		if ((r = io_uring_submit_and_get_events(&ring)) < 0)
			return r;
	}
	double end = now_s() + secs;
	for (uint64_t n = 0;; n++) {
		if ((r = io_uring_wait_cqe(&ring, &cqe)) < 0)
			return r;
		if (cqe->res != (int)BS)
			return cqe->res < 0 ? cqe->res : -EIO;
		struct iovec *v = io_uring_cqe_get_data(cqe);
		io_uring_cqe_seen(&ring, cqe);
		(*done)++;
		if ((n & 1023) == 0 && now_s() >= end)
			break;
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
		io_uring_prep_readv(sqe, fd, v, 1, next_block(d) * BS);
		io_uring_sqe_set_data(sqe, v);
		if ((r = io_uring_submit_and_get_events(&ring)) < 0)
			return r;
	}
	io_uring_queue_exit(&ring);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: floor libaio|io_uring FILE DEPTH SECONDS\n");
		return 1;
	}
	unsigned depth = (unsigned)strtoul(argv[3], NULL, 10);
	double secs = strtod(argv[4], NULL);
	int fd = open(argv[2], O_RDONLY | O_DIRECT);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) || st.st_size < (off_t)BS || !depth || depth > MAX_DEPTH || secs <= 0) {
		fprintf(stderr, "floor: %s: %s\n", argv[2], fd < 0 ? strerror(errno) : "bad size, depth or seconds");
		return 1;
	}
	char *buf;
	if (posix_memalign((void **)&buf, BS, (size_t)depth * BS))
		return 1;
	struct draw d = { 0x9e3779b97f4a7c15ull, (uint64_t)st.st_size / BS };
	uint64_t done = 0;
	double t0 = now_s();
	int r = !strcmp(argv[1], "libaio") ? run_libaio(fd, depth, secs, &d, buf, &done)
		: !strcmp(argv[1], "io_uring") ? run_uring(fd, depth, secs, &d, buf, &done) : -EINVAL;
	if (r) {
		fprintf(stderr, "floor: %s: %s\n", argv[1], strerror(-r));
		return 1;
	}
	printf("{\"jobs\":[{\"read\":{\"total_ios\":%llu,\"iops\":%f}}]}\n", (unsigned long long)done,
	       (double)done / (now_s() - t0));
	free(buf);
	close(fd);
	return 0;
}
