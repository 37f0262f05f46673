/* net and netsplice: the "file" is a connection, as fio's engines. A job sends
 * (rw=write) or receives (rw=read) bs-sized blocks over TCP, UDP or a unix socket; it
 * measures the network stack (loopback, or a link to another host running the other job).
 * TCP: listen=1 accepts one connection on port (port + the clone's number with numjobs),
 * otherwise the job connects to hostname:port; either side may send. UDP and unix sockets:
 * the reader binds (and, for a multicast hostname, joins the group), the writer sends to
 * it; a UDP writer announces itself and says goodbye with fio's 8-byte messages, so that
 * fio and iobench can talk to each other. pingpong=1: each block is sent back by the
 * reader and waited for by the writer, whose latencies are then round trips. A reader's
 * job ends when the writer closes (or says goodbye). netsplice moves TCP and unix data
 * through a pipe with vmsplice(2) and splice(2); its UDP is net's. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "engines/engine.h"

enum net_proto { NET_TCP, NET_TCPV6, NET_UDP, NET_UDPV6, NET_UNIX };

struct net_opts {
	char hostname[256];
	unsigned port;
	unsigned proto; /* enum net_proto */
	bool nodelay, listen, pingpong;
	char interface[64];
	unsigned ttl, window_size, mss;
};

/* fio's UDP link messages: the writer's hello (magic and command in network order) and
 * goodbye (in the host's order). */
#define LINK_MAGIC 0x6c696e6bu /* "link" */
#define LINK_OPEN 0x98u
#define LINK_CLOSE 0x89u
#define NET_WAIT_MS 250 /* a blocked socket call looks at the run's stop flag this often */

struct net_data {
	int lfd;          /* listening (TCP, unix) or bound (UDP reader) socket, or -1 */
	int fd;           /* the connection, or the UDP socket */
	bool splice;      /* netsplice on a stream socket */
	int pipe[2];
	size_t chunk;     /* the pipe's capacity */
	struct sockaddr_storage peer; /* UDP: where to send (writer) or reply (reader) */
	socklen_t peer_len;
	char unix_path[sizeof(((struct sockaddr_un *)0)->sun_path)]; /* made by this job: removed */
	char path[PATH_MAX]; /* the job's file name: a unix socket's path */
};

static const struct choice proto_choices[] = {
	{ "tcp", NET_TCP, "Transmission Control Protocol" },
	{ "tcpv6", NET_TCPV6, "TCP over IPv6" },
	{ "udp", NET_UDP, "User Datagram Protocol" },
	{ "udpv6", NET_UDPV6, "UDP over IPv6" },
	{ "unix", NET_UNIX, "A unix domain socket (the job's filename is its path)" },
	{ NULL, 0, NULL },
};

#define OFFS(f) offsetof(struct net_opts, f)
static const struct option_def net_options[] = {
	{ .name = "hostname", .type = OPT_STR, .offset = OFFS(hostname), .size = sizeof(((struct net_opts *)0)->hostname),
	  .help = "Host to connect to (or the multicast group a UDP reader joins)" },
	{ .name = "port", .type = OPT_UINT, .offset = OFFS(port), .min = 1, .max = 65535,
	  .help = "TCP or UDP port (the first of numjobs consecutive ones)" },
	{ .name = "protocol", .alias = "proto", .type = OPT_CHOICE, .offset = OFFS(proto), .choices = proto_choices,
	  .def = "tcp", .help = "Network protocol" },
	{ .name = "nodelay", .type = OPT_BOOL, .offset = OFFS(nodelay), .def = "0",
	  .help = "Set TCP_NODELAY on TCP connections" },
	{ .name = "listen", .type = OPT_BOOL, .offset = OFFS(listen), .def = "0",
	  .help = "Accept a TCP connection instead of making one" },
	{ .name = "pingpong", .type = OPT_BOOL, .offset = OFFS(pingpong), .def = "0",
	  .help = "The reader sends each block back; the writer waits for it (round-trip latencies)" },
	{ .name = "interface", .type = OPT_STR, .offset = OFFS(interface), .size = sizeof(((struct net_opts *)0)->interface),
	  .help = "IP address of the interface for UDP multicast" },
	{ .name = "ttl", .type = OPT_UINT, .offset = OFFS(ttl), .def = "1", .min = 0, .max = 255,
	  .help = "Time-to-live of outgoing UDP multicast packets" },
	{ .name = "window_size", .type = OPT_UINT, .offset = OFFS(window_size), .min = 0, .max = INT32_MAX,
	  .help = "Socket buffer sizes (SO_SNDBUF, SO_RCVBUF)" },
	{ .name = "mss", .type = OPT_UINT, .offset = OFFS(mss), .min = 0, .max = 65535,
	  .help = "TCP maximum segment size (TCP_MAXSEG)" },
	{ NULL },
};

static bool is_tcp(const struct net_opts *no)
{
	return no->proto == NET_TCP || no->proto == NET_TCPV6;
}

static bool is_udp(const struct net_opts *no)
{
	return no->proto == NET_UDP || no->proto == NET_UDPV6;
}

static int family(const struct net_opts *no)
{
	return no->proto == NET_UNIX ? AF_UNIX : no->proto == NET_TCPV6 || no->proto == NET_UDPV6 ? AF_INET6 : AF_INET;
}

static bool is_multicast(const char *host)
{
	struct in_addr a4;
	struct in6_addr a6;
	if (inet_pton(AF_INET, host, &a4) == 1)
		return IN_MULTICAST(ntohl(a4.s_addr));
	return inet_pton(AF_INET6, host, &a6) == 1 && IN6_IS_ADDR_MULTICAST(&a6);
}

/* Does this job wait for the other side (a TCP listener, a UDP or unix reader)? */
static bool is_inbound(const struct net_opts *no, const struct job_opts *o)
{
	return is_tcp(no) ? no->listen : job_has_dir(o, DDIR_READ);
}

static int net_check_protocol(const struct job_opts *o, const struct net_opts *no, char *why, size_t len)
{
	const char *p = proto_choices[no->proto].word;
	if (no->listen && !is_tcp(no))
		snprintf(why, len, "listen: only TCP listens (protocol=tcp or tcpv6, not %s)", p);
	else if (no->proto == NET_UNIX && no->port)
		snprintf(why, len, "port: not used with protocol=unix (the job's filename is the socket)");
	else if (no->proto != NET_UNIX && !no->port)
		snprintf(why, len, "port: the %s engine needs a port for protocol=%s", o->ioengine, p);
	else if (no->proto != NET_UNIX && is_inbound(no, o) && no->hostname[0] && !is_multicast(no->hostname))
		snprintf(why, len, "hostname: a %s job waits for the other side and takes no hostname (but a "
			 "multicast group)", is_tcp(no) ? "listening" : "reading");
	else if (no->proto != NET_UNIX && !is_inbound(no, o) && !no->hostname[0])
		snprintf(why, len, "hostname: a %s job needs the host to %s", is_tcp(no) ? "connecting" : "writing",
			 is_tcp(no) ? "connect to" : "send to");
	else
		return 0;
	return -EINVAL;
}

/* A network job goes one way, one connection, one amount. */
static int net_resolve(struct job_opts *o, void *eng_opts, char *why, size_t len)
{
	const struct net_opts *no = eng_opts;
	if (job_has_dir(o, DDIR_TRIM) || (job_has_dir(o, DDIR_READ) && job_has_dir(o, DDIR_WRITE)))
		snprintf(why, len, "rw=%s: a %s job either sends (rw=write) or receives (rw=read)", o->rw_text,
			 o->ioengine);
	else if (o->rw & RW_RANDOM)
		snprintf(why, len, "rw=%s: a %s job moves a stream, which has no random offsets (rw=read or write)",
			 o->rw_text, o->ioengine);
	else if (o->nrfiles > 1)
		snprintf(why, len, "nrfiles: a %s job has one connection", o->ioengine);
	else if (o->verify)
		snprintf(why, len, "verify: not with the %s engine (the data is not read back)", o->ioengine);
	else if (!o->size && !o->filesize_lo)
		snprintf(why, len, "size: the %s engine needs size= (the bytes to send or receive)", o->ioengine);
	else
		return net_check_protocol(o, no, why, len);
	return -EINVAL;
}

/* The options every socket of the job gets. */
static void set_sock_opts(const struct net_opts *no, int fd)
{
	int one = 1;
	int w = (int)no->window_size;
	struct timeval tv = { 0, NET_WAIT_MS * 1000 };
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (w) {
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &w, sizeof(w));
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &w, sizeof(w));
	}
	if (!is_tcp(no))
		return;
	if (no->nodelay)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (no->mss) {
		int m = (int)no->mss;
		setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &m, sizeof(m));
	}
}

/* host:port (or the wildcard address, host NULL) into nd->peer. */
static int resolve_addr(struct engine_ctx *ctx, const struct net_opts *no, const char *host, struct net_data *nd)
{
	struct addrinfo hints = { .ai_family = family(no), .ai_socktype = is_udp(no) ? SOCK_DGRAM : SOCK_STREAM,
				  .ai_flags = host ? 0 : AI_PASSIVE };
	char port[16];
	snprintf(port, sizeof(port), "%u", no->port + ctx->clone);
	struct addrinfo *res = NULL;
	int r = getaddrinfo(host, port, &hints, &res);
	if (r) {
		snprintf(ctx->why, sizeof(ctx->why), "hostname: cannot resolve '%.200s': %s", host ? host : "",
			 gai_strerror(r));
		return -EINVAL;
	}
	memcpy(&nd->peer, res->ai_addr, res->ai_addrlen);
	nd->peer_len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

static int unix_addr(struct engine_ctx *ctx, const char *path, struct net_data *nd)
{
	struct sockaddr_un *sun = (struct sockaddr_un *)&nd->peer;
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun->sun_path)) {
		snprintf(ctx->why, sizeof(ctx->why), "filename: a unix socket's path has %zu bytes at most",
			 sizeof(sun->sun_path) - 1);
		return -ENAMETOOLONG;
	}
	memcpy(sun->sun_path, path, strlen(path) + 1);
	nd->peer_len = sizeof(*sun);
	return 0;
}

/* UDP readers of a multicast group join it (on interface, where given). */
static int join_group(struct engine_ctx *ctx, const struct net_opts *no, int fd)
{
	int r;
	if (family(no) == AF_INET) {
		struct ip_mreq m = { .imr_interface.s_addr = htonl(INADDR_ANY) };
		inet_pton(AF_INET, no->hostname, &m.imr_multiaddr);
		if (no->interface[0] && inet_pton(AF_INET, no->interface, &m.imr_interface) != 1)
			return -EINVAL;
		r = setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &m, sizeof(m));
	} else {
		struct ipv6_mreq m = { 0 };
		inet_pton(AF_INET6, no->hostname, &m.ipv6mr_multiaddr);
		r = setsockopt(fd, IPPROTO_IPV6, IPV6_JOIN_GROUP, &m, sizeof(m));
	}
	if (r < 0)
		snprintf(ctx->why, sizeof(ctx->why), "cannot join the multicast group %.100s", no->hostname);
	return r < 0 ? -errno : 0;
}

/* The waiting side's socket, bound before any job of the group starts sending. */
static int net_bind(struct engine_ctx *ctx, const struct net_opts *no, struct net_data *nd, const char *path)
{
	int one = 1, type = is_udp(no) ? SOCK_DGRAM : SOCK_STREAM;
	int r = no->proto == NET_UNIX ? unix_addr(ctx, path, nd) : resolve_addr(ctx, no, NULL, nd);
	if (r)
		return r;
	if ((nd->lfd = socket(family(no), type | SOCK_CLOEXEC, 0)) < 0)
		return -errno;
	setsockopt(nd->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	set_sock_opts(no, nd->lfd);
	struct stat st;
	if (no->proto == NET_UNIX && lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) { /* a user's file is never replaced by the socket */
			snprintf(ctx->why, sizeof(ctx->why), "the unix socket's path '%.150s' is a file that is not a socket",
				 path);
			return -EEXIST;
		}
		unlink(path); /* a socket left by an earlier run */
	}
	if (bind(nd->lfd, (struct sockaddr *)&nd->peer, nd->peer_len) < 0) {
		if (no->proto == NET_UNIX)
			snprintf(ctx->why, sizeof(ctx->why), "cannot bind the unix socket '%.200s'", path);
		else
			snprintf(ctx->why, sizeof(ctx->why), "cannot bind %s port %u", proto_choices[no->proto].word,
				 no->port + ctx->clone);
		return -errno;
	}
	if (no->proto == NET_UNIX)
		snprintf(nd->unix_path, sizeof(nd->unix_path), "%s", path);
	if (is_udp(no))
		return no->hostname[0] ? join_group(ctx, no, nd->lfd) : 0;
	return listen(nd->lfd, 10) < 0 ? -errno : 0;
}

static int net_init(struct engine_ctx *ctx)
{
	const struct net_opts *no = ctx->eng_opts;
	struct net_data *nd = calloc(1, sizeof(*nd));
	if (!nd)
		return -ENOMEM;
	nd->lfd = nd->fd = nd->pipe[0] = nd->pipe[1] = -1;
	ctx->priv = nd;
	/* The unix reader binds in open_file, when its path is known. */
	if (is_inbound(no, ctx->opts) && no->proto != NET_UNIX)
		return net_bind(ctx, no, nd, NULL);
	return 0;
}

static int netsplice_init(struct engine_ctx *ctx)
{
	int r = net_init(ctx);
	struct net_data *nd = ctx->priv;
	if (r || is_udp(ctx->eng_opts))
		return r;
	if (pipe2(nd->pipe, O_CLOEXEC) < 0)
		return -errno;
	nd->splice = true;
	fcntl(nd->pipe[1], F_SETPIPE_SZ, (int)(ctx->buf_len < (1u << 20) ? ctx->buf_len : 1u << 20));
	int sz = fcntl(nd->pipe[1], F_GETPIPE_SZ);
	nd->chunk = sz > 0 ? (size_t)sz : 65536;
	return 0;
}

static void net_cleanup(struct engine_ctx *ctx)
{
	const struct net_opts *no = ctx->eng_opts;
	struct net_data *nd = ctx->priv;
	if (!nd)
		return;
	if (nd->fd >= 0 && is_udp(no) && !is_inbound(no, ctx->opts)) { /* goodbye: the readers' jobs end */
		uint32_t bye[2] = { LINK_MAGIC, LINK_CLOSE };
		sendto(nd->fd, bye, sizeof(bye), 0, (struct sockaddr *)&nd->peer, nd->peer_len);
	}
	int fds[] = { nd->fd, nd->lfd, nd->pipe[0], nd->pipe[1] };
	for (unsigned i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (nd->unix_path[0])
		unlink(nd->unix_path);
	free(nd);
}

static bool stopping(const struct engine_ctx *ctx)
{
	return ctx->stop && atomic_load_explicit(ctx->stop, memory_order_relaxed);
}

/* Wait for the connection (the writer of the group may start later: startdelay). */
static int net_accept(struct engine_ctx *ctx, struct net_data *nd)
{
	for (;;) {
		struct pollfd p = { .fd = nd->lfd, .events = POLLIN };
		int r = poll(&p, 1, NET_WAIT_MS);
		if (r < 0 && errno != EINTR)
			return -errno;
		if (stopping(ctx))
			return -EINTR;
		if (r <= 0)
			continue;
		int fd = accept4(nd->lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd >= 0) {
			set_sock_opts(ctx->eng_opts, fd);
			return fd;
		}
		if (errno != EINTR && errno != ECONNABORTED)
			return -errno;
	}
}

/* A UDP reader waits for a writer's first datagram and answers to where it came from: its
 * hello, taken; or, where the hello was lost (sent before this socket was bound), its data or
 * goodbye, left for the first read: the job then does not wait forever. */
static int udp_wait_hello(struct engine_ctx *ctx, struct net_data *nd)
{
	for (;;) {
		uint32_t msg[2];
		nd->peer_len = sizeof(nd->peer);
		ssize_t n = recvfrom(nd->lfd, msg, sizeof(msg), MSG_PEEK, (struct sockaddr *)&nd->peer, &nd->peer_len);
		if (n == (ssize_t)sizeof(msg) && ntohl(msg[0]) == LINK_MAGIC && ntohl(msg[1]) == LINK_OPEN)
			return recv(nd->lfd, msg, sizeof(msg), 0) < 0 ? -errno : 0;
		if (n >= 0)
			return 0;
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
		if (stopping(ctx))
			return -EINTR;
	}
}

static int net_connect(struct engine_ctx *ctx, const struct net_opts *no, struct net_data *nd, const char *path)
{
	int r = no->proto == NET_UNIX ? unix_addr(ctx, path, nd) : resolve_addr(ctx, no, no->hostname, nd);
	if (r)
		return r;
	int fd = socket(family(no), (is_udp(no) ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	set_sock_opts(no, fd);
	if (is_udp(no)) {
		int ttl = (int)no->ttl;
		bool v4 = family(no) == AF_INET;
		setsockopt(fd, v4 ? IPPROTO_IP : IPPROTO_IPV6, v4 ? IP_MULTICAST_TTL : IPV6_MULTICAST_HOPS, &ttl,
			   sizeof(ttl));
		struct in_addr ifa;
		if (v4 && no->interface[0] && inet_pton(AF_INET, no->interface, &ifa) == 1)
			setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &ifa, sizeof(ifa));
		uint32_t hello[2] = { htonl(LINK_MAGIC), htonl(LINK_OPEN) };
		r = sendto(fd, hello, sizeof(hello), 0, (struct sockaddr *)&nd->peer, nd->peer_len) < 0 ? -errno : 0;
	} else {
		do
			r = connect(fd, (struct sockaddr *)&nd->peer, nd->peer_len) < 0 ? -errno : 0;
		while (r == -EINTR);
		if (r == -ECONNREFUSED || r == -ENOENT)
			snprintf(ctx->why, sizeof(ctx->why), "nothing listens at %.150s%s%.0u (start the receiving job "
				 "first, or give this one a startdelay)", no->proto == NET_UNIX ? path : no->hostname,
				 no->proto == NET_UNIX ? "" : " port ", no->proto == NET_UNIX ? 0 : no->port + ctx->clone);
	}
	if (r) {
		close(fd);
		return r;
	}
	return fd;
}

/* The "file" is only a name (a unix socket's path: the job's filename, else its hostname,
 * as fio's examples/netio.fio suggests); the connection is made in post_open, whose
 * failures the core reports with the reason. */
static int net_open(struct engine_ctx *ctx, const char *path, int flags, int *fd)
{
	const struct net_opts *no = ctx->eng_opts;
	struct net_data *nd = ctx->priv;
	if (no->proto == NET_UNIX && !ctx->opts->filename[0] && no->hostname[0])
		path = no->hostname;
	snprintf(nd->path, sizeof(nd->path), "%s", path);
	*fd = -1;
	return 0;
}

static int net_close(struct engine_ctx *ctx, int fd)
{
	return 0;
}

static int net_post_open(struct engine_ctx *ctx)
{
	const struct net_opts *no = ctx->eng_opts;
	struct net_data *nd = ctx->priv;
	int r;
	if (!is_inbound(no, ctx->opts)) {
		r = net_connect(ctx, no, nd, nd->path);
	} else if (is_udp(no)) {
		r = udp_wait_hello(ctx, nd);
		nd->fd = nd->lfd; /* the reader's socket is its connection */
		nd->lfd = -1;
		return r;
	} else {
		r = no->proto == NET_UNIX ? net_bind(ctx, no, nd, nd->path) : 0;
		if (!r)
			r = net_accept(ctx, nd);
	}
	if (r < 0)
		return r;
	nd->fd = r;
	return 0;
}

/* ---- moving one block ---- */

/* All of len over a stream socket: a blocked call looks at the stop flag every
 * NET_WAIT_MS. Returns the bytes moved (fewer at the end of the stream) or -errno. */
static int64_t stream_io(const struct engine_ctx *ctx, int fd, char *buf, size_t len, bool out)
{
	size_t done = 0;
	while (done < len) {
		ssize_t n = out ? send(fd, buf + done, len - done, MSG_NOSIGNAL)
				: recv(fd, buf + done, len - done, MSG_WAITALL);
		if (n > 0) {
			done += (size_t)n;
			continue;
		}
		if (n == 0)
			break; /* the other side closed */
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
		if (stopping(ctx))
			return -EINTR;
	}
	return (int64_t)done;
}

/* The same through the pipe (netsplice). */
static int64_t splice_io(const struct engine_ctx *ctx, struct net_data *nd, char *buf, size_t len, bool out)
{
	size_t done = 0;
	while (done < len) {
		size_t want = len - done < nd->chunk ? len - done : nd->chunk;
		struct iovec iov = { buf + done, want };
		ssize_t n = out ? vmsplice(nd->pipe[1], &iov, 1, 0) : splice(nd->fd, NULL, nd->pipe[1], NULL, want, 0);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno != EAGAIN && errno != EINTR)
				return -errno;
			if (stopping(ctx))
				return -EINTR;
			continue;
		}
		/* Empty the pipe: into the socket, or out into the buffer. */
		for (size_t moved = 0; moved < (size_t)n;) {
			ssize_t m = out ? splice(nd->pipe[0], NULL, nd->fd, NULL, (size_t)n - moved, SPLICE_F_MOVE)
					: read(nd->pipe[0], buf + done + moved, (size_t)n - moved);
			if (m > 0)
				moved += (size_t)m;
			else if (m == 0 || (errno != EAGAIN && errno != EINTR))
				return m == 0 ? -EPIPE : -errno;
			else if (stopping(ctx))
				return -EINTR;
		}
		done += (size_t)n;
	}
	return (int64_t)done;
}

/* One datagram; 0 for a writer's goodbye. */
static int64_t dgram_io(const struct engine_ctx *ctx, struct net_data *nd, char *buf, size_t len, bool out)
{
	for (;;) {
		ssize_t n;
		if (out) {
			n = sendto(nd->fd, buf, len, 0, (struct sockaddr *)&nd->peer, nd->peer_len);
		} else {
			n = recv(nd->fd, buf, len, 0);
			uint32_t m[2];
			if (n == (ssize_t)sizeof(m) && (memcpy(m, buf, sizeof(m)), m[0] == LINK_MAGIC && m[1] == LINK_CLOSE))
				return 0;
		}
		if (n >= 0)
			return n;
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
		if (stopping(ctx))
			return -EINTR;
	}
}

static int64_t xfer(const struct engine_ctx *ctx, struct net_data *nd, char *buf, size_t len, bool out)
{
	if (is_udp(ctx->eng_opts))
		return dgram_io(ctx, nd, buf, len, out);
	return nd->splice ? splice_io(ctx, nd, buf, len, out) : stream_io(ctx, nd->fd, buf, len, out);
}

static int net_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	const struct net_opts *no = ctx->eng_opts;
	struct net_data *nd = ctx->priv;
	bool out = u->ddir == DDIR_WRITE;
	int64_t r = xfer(ctx, nd, u->buf, u->len, out);
	if (r == 0 && !out)
		return Q_DONE; /* the writer is done */
	/* pingpong: the block comes back (writer), or goes back (reader). */
	if (r > 0 && no->pingpong) {
		int64_t back = xfer(ctx, nd, u->buf, (size_t)r, !out);
		if (back < 0)
			r = back;
		else if (back < r)
			r = out ? back : -EPIPE;
	}
	u->result = r;
	return Q_COMPLETED;
}

#define NET_ENGINE(nm, init_fn)                                                  \
	const struct engine_ops nm##_engine_ops = {                              \
		.name = #nm,                                                     \
		.flags = ENGINE_SYNC | ENGINE_NO_FILE,                           \
		.options = net_options,                                          \
		.options_size = sizeof(struct net_opts),                         \
		.resolve = net_resolve,                                          \
		.init = init_fn,                                                 \
		.cleanup = net_cleanup,                                          \
		.open_file = net_open,                                           \
		.close_file = net_close,                                         \
		.post_open = net_post_open,                                      \
		.queue = net_queue,                                              \
	};

NET_ENGINE(net, net_init)
NET_ENGINE(netsplice, netsplice_init)
