// SPDX-License-Identifier: GPL-2.0-or-later
/* One connection of the egress proxy: the request, the policy, upstream, the relay.  Supervisor. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/clock.h"
#include "base/util.h"
#include "core/netparse.h"
#include "supervisor/proxy_int.h"

/* ---- small I/O helpers ---------------------------------------------------------- */

/* Wait for fd to be ready for EVENTS, at most ms; false on timeout or stop. */
static bool wait_fd(int fd, short events, int ms)
{
	struct pollfd pfd = {.fd = fd, .events = events};
	int r;

	do
		r = poll(&pfd, 1, ms);
	while (r < 0 && errno == EINTR);
	return r == 1 && !(pfd.revents & POLLNVAL);
}

static bool write_all(int fd, const void *buf, size_t len)
{
	const char *s = buf;

	while (len) {
		ssize_t n = send(fd, s, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN && wait_fd(fd, POLLOUT, NSB_PROXY_IDLE_TIMEOUT_MS))
			continue;
		if (n <= 0)
			return false;
		s += n;
		len -= (size_t)n;
	}
	return true;
}

/* Read more into buf[*len..size) within the head timeout.  false: EOF/error/timeout. */
static bool read_more(int fd, char *buf, size_t *len, size_t size, int64_t deadline)
{
	for (;;) {
		int64_t left = deadline - nsb_mono_ms();
		ssize_t n;
		if (left <= 0 || *len >= size || !wait_fd(fd, POLLIN, (int)left))
			return false;
		n = recv(fd, buf + *len, size - *len, 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return false;
		*len += (size_t)n;
		return true;
	}
}

/* The refusal a program can read (and show to a model). */
static void http_error(int fd, const char *status, const char *body)
{
	char buf[1024];
	int n = nsb_format(buf, sizeof(buf),
			   "HTTP/1.1 %s\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n"
			   "Connection: close\r\n\r\n%s\n",
			   status, strlen(body) + 1, body);

	if (n > 0 && (size_t)n < sizeof(buf))
		write_all(fd, buf, (size_t)n);
}

/* ---- policy, resolution, connection ---------------------------------------------- */

struct target {
	char host[NSB_NET_HOST_MAX + 1]; /* normalised */
	int family;			 /* an IP literal's; 0 for a name */
	uint8_t addr[16];
	uint16_t port;
	char why[512];	/* the refusal's text */
	int socks_code; /* the SOCKS5 reply for the failure */
	bool policy;	/* refused by the policy (not a network error) */
};

static void fmt_target(const struct target *t, char *buf, size_t size)
{
	(void)nsb_snprintf(buf, size, "%s%s%s:%u", t->family == AF_INET6 ? "[" : "", t->host,
			   t->family == AF_INET6 ? "]" : "", t->port);
}

static int refuse(struct conn *c, struct target *t, const char *reason, int socks, bool policy,
		  const char *fmt, ...) _printf_(6, 7);

static int refuse(struct conn *c, struct target *t, const char *reason, int socks, bool policy,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nsb_vformat(t->why, sizeof(t->why), fmt, ap);
	va_end(ap);
	t->socks_code = socks;
	t->policy = policy;
	nsb_proxy_entry_reason(c, false, reason, policy);
	return -EACCES;
}

/* Every address must be allowed: a name that resolves into the built-in
 * deny set is refused as a whole (DNS rebinding). */
static int check_addrs(struct conn *c, struct target *t, struct addrinfo *ai, bool literal_ok)
{
	char ts[300], a[64];

	for (struct addrinfo *i = ai; i; i = i->ai_next) {
		const uint8_t *addr =
			i->ai_family == AF_INET
				? (const uint8_t *)&((struct sockaddr_in *)i->ai_addr)->sin_addr
				: (const uint8_t *)&((struct sockaddr_in6 *)i->ai_addr)->sin6_addr;
		nsb_proxy_entry_addr(c, i->ai_family, addr);
		if (nsb_net_addr_allowed(c->p->pol, i->ai_family, addr, literal_ok))
			continue;
		fmt_target(t, ts, sizeof(ts));
		nsb_net_addr_format(i->ai_family, addr, a, sizeof(a));
		return refuse(c, t, "address not allowed", 2, true,
			      "nsbox: blocked by network policy: '%s' resolves to %s, a loopback, "
			      "link-local or private address (--allow-net-range lifts this)",
			      ts, a);
	}
	return 0;
}

void nsb_proxy_loopback_tcp(int fd)
{
	static const char reno[] = "reno";

	if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, reno, sizeof(reno) - 1) < 0)
		return; /* the host's default stays */
}

static bool loopback(const struct addrinfo *i)
{
	if (i->ai_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)i->ai_addr)->sin_addr.s_addr) >> 24) ==
		       127;
	return i->ai_family == AF_INET6 &&
	       IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)i->ai_addr)->sin6_addr);
}

/* Non-blocking connect with a timeout; the socket stays non-blocking. */
static int connect_one(struct addrinfo *i)
{
	int fd = socket(i->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), err = 0;
	socklen_t el = sizeof(err);

	if (fd < 0)
		return -errno;
	if (loopback(i))
		nsb_proxy_loopback_tcp(fd);
	if (connect(fd, i->ai_addr, i->ai_addrlen) < 0 && errno != EINPROGRESS) {
		err = errno;
		close(fd);
		return -err;
	}
	if (!wait_fd(fd, POLLOUT, NSB_PROXY_CONNECT_TIMEOUT_MS)) {
		close(fd);
		return -ETIMEDOUT;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) < 0 || err) {
		close(fd);
		return -(err ? err : EIO);
	}
	return fd;
}

/* Check, resolve, check again, connect: the upstream socket, or -errno with
 * t->why for the client. */
static int open_upstream(struct conn *c, struct target *t, const char *raw_host)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV};
	struct addrinfo *ai = NULL;
	const char *reason;
	char ts[300], port[8];
	bool literal_ok;
	int r, fd = -ECONNREFUSED;

	if (nsb_net_host_normalize(raw_host, strlen(raw_host), t->host, &t->family, t->addr) < 0) {
		nsb_format(t->host, sizeof(t->host), "%s", raw_host);
		return refuse(c, t, "malformed host", 1, false,
			      "nsbox: '%s' is not a host name or IP address", raw_host);
	}
	fmt_target(t, ts, sizeof(ts));
	if (nsb_net_check_host(c->p->pol, t->host, t->port, &reason) < 0)
		return refuse(c, t, reason, 2, true, "nsbox: blocked by network policy: '%s' is %s",
			      ts, reason);
	/* An IP literal the allow list names is allowed to its own address. */
	literal_ok = t->family != 0;
	nsb_format(port, sizeof(port), "%u", t->port);
	if (t->family)
		hints.ai_flags |= AI_NUMERICHOST;
	r = getaddrinfo(t->host, port, &hints, &ai);
	if (r != 0 || !ai) {
		if (ai)
			freeaddrinfo(ai);
		return refuse(c, t, "name not resolved", 4, false, "nsbox: cannot resolve '%s': %s",
			      t->host, gai_strerror(r));
	}
	if (check_addrs(c, t, ai, literal_ok) < 0) {
		freeaddrinfo(ai);
		return -EACCES;
	}
	for (struct addrinfo *i = ai; i && fd < 0; i = i->ai_next)
		fd = connect_one(i);
	freeaddrinfo(ai);
	if (fd < 0)
		return refuse(c, t, "connect failed", 5, false, "nsbox: cannot connect to '%s': %s",
			      ts, strerror(-fd));
	nsb_proxy_entry_reason(c, true, NULL, false);
	return fd;
}

/* ---- relay ------------------------------------------------------------------------ */

struct relay_pipe {
	int fd[2];  /* -1: none (not made yet, or the buffer instead) */
	int size;   /* its capacity */
	bool tried; /* made (or failed to) */
};

/* Move n bytes from a pipe to a socket, waiting for room. */
static bool splice_all(int from, int to, size_t n)
{
	while (n) {
		ssize_t k = splice(from, NULL, to, NULL, n, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno == EAGAIN && wait_fd(to, POLLOUT, NSB_PROXY_IDLE_TIMEOUT_MS))
			continue;
		if (k <= 0)
			return false;
		n -= (size_t)k;
	}
	return true;
}

/*
 * One read's worth from fds[i] to fds[1 - i]: through a pipe with
 * splice(2) (the bytes never enter user space: on a loaded machine the
 * proxy's copy is what costs), else with a buffer.  The pipe is made at
 * the first read, and grows to NSB_PROXY_PIPE_MAX once a read fills it: a
 * bulk transfer then takes a sixteenth of the calls and wakeups, while a
 * short exchange keeps the default size (a user's pipe pages are bounded,
 * pipe(7)).  Returns the bytes moved, 0 at EOF, -EAGAIN for nothing, -1
 * on error.
 */
static ssize_t move_once(const int fds[2], int i, struct relay_pipe *rp, char *buf)
{
	ssize_t n;

	if (!rp->tried) {
		rp->tried = true;
		/* Best effort: without a pipe (no descriptors left), the buffer. */
		if (pipe2(rp->fd, O_CLOEXEC | O_NONBLOCK) < 0)
			rp->fd[0] = rp->fd[1] = -1;
		else
			rp->size = fcntl(rp->fd[0], F_GETPIPE_SZ); /* -1: never grown */
	}
	if (rp->fd[0] >= 0) {
		n = splice(fds[i], NULL, rp->fd[1], NULL, NSB_PROXY_PIPE_MAX,
			   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (n > 0 && !splice_all(rp->fd[0], fds[1 - i], (size_t)n))
			return -1;
		if (n > 0 && rp->size > 0 && n >= rp->size && rp->size < NSB_PROXY_PIPE_MAX) {
			int sz = fcntl(rp->fd[0], F_SETPIPE_SZ, NSB_PROXY_PIPE_MAX);
			rp->size = sz > 0 ? sz : NSB_PROXY_PIPE_MAX; /* refused: once */
		}
		if (n >= 0 || errno == EAGAIN || errno == EINTR)
			return n >= 0 ? n : -EAGAIN;
		if (errno != EINVAL)
			return -1;
		close(rp->fd[0]); /* not spliceable: the buffer from here on */
		close(rp->fd[1]);
		rp->fd[0] = rp->fd[1] = -1;
	}
	n = recv(fds[i], buf, NSB_PROXY_RELAY_BUF, 0);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? -EAGAIN : -1;
	if (n > 0 && !write_all(fds[1 - i], buf, (size_t)n))
		return -1;
	return n;
}

/* Both ways until both are closed, or idle too long; counts the bytes. */
static void relay(struct conn *c, char *buf)
{
	int fds[2] = {c->client, c->up};
	struct relay_pipe pipes[2] = {{.fd = {-1, -1}}, {.fd = {-1, -1}}};
	bool open_[2] = {true, true}; /* reading from fds[i] still */
	uint64_t moved[2] = {0, 0};   /* [0]: up (client -> upstream), [1]: down */

	fcntl(c->client, F_SETFL, O_NONBLOCK);
	while (open_[0] || open_[1]) {
		struct pollfd pfd[2] = {{.fd = open_[0] ? fds[0] : -1, .events = POLLIN},
					{.fd = open_[1] ? fds[1] : -1, .events = POLLIN}};
		int r = poll(pfd, 2, NSB_PROXY_IDLE_TIMEOUT_MS);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break; /* idle: closed */
		for (int i = 0; i < 2; i++) {
			if (!pfd[i].revents || !open_[i])
				continue;
			ssize_t n = move_once(fds, i, &pipes[i], buf);
			if (n == -EAGAIN)
				continue;
			if (n == 0) {
				/* Half-close: the other side learns of it, and may still answer. */
				open_[i] = false;
				shutdown(fds[1 - i], SHUT_WR);
				continue;
			}
			if (n < 0) {
				open_[0] = open_[1] = false;
				break;
			}
			moved[i] += (uint64_t)n;
		}
	}
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 2; k++)
			if (pipes[i].fd[k] >= 0)
				close(pipes[i].fd[k]);
	nsb_proxy_entry_bytes(c, moved[0], moved[1]);
}

/* ---- the protocols -------------------------------------------------------------------- */

/* SOCKS5: greeting, request, reply; 0 with c->up connected. */
static int serve_socks5(struct conn *c, char *buf, size_t len, int64_t deadline)
{
	struct target t = {0};
	char host[NSB_NET_HOST_MAX + 1];
	size_t used;
	int atyp, r;
	uint8_t rep[10] = {5, 0, 0, 1};

	while ((r = nsb_socks5_greeting((uint8_t *)buf, len, &used)) == -EAGAIN)
		if (!read_more(c->client, buf, &len, NSB_HTTP_HEAD_MAX, deadline))
			return -EIO;
	nsb_proxy_entry_request(c, "", 0, "socks5");
	if (r < 0) {
		write_all(c->client, "\x05\xff", 2);
		nsb_proxy_entry_reason(c, false, "bad SOCKS5 greeting", false);
		return r;
	}
	write_all(c->client, "\x05\x00", 2);
	memmove(buf, buf + used, len - used);
	len -= used;
	while ((r = nsb_socks5_request((uint8_t *)buf, len, host, &atyp, &t.port, &used)) ==
	       -EAGAIN)
		if (!read_more(c->client, buf, &len, NSB_HTTP_HEAD_MAX, deadline))
			return -EIO;
	if (r < 0) {
		rep[1] = r == -EOPNOTSUPP ? 7 : 1;
		write_all(c->client, rep, sizeof(rep));
		nsb_proxy_entry_reason(c, false, "bad SOCKS5 request", false);
		return r;
	}
	nsb_proxy_entry_request(c, host, t.port, "socks5");
	c->up = open_upstream(c, &t, host);
	nsb_proxy_entry_request(c, t.host, t.port, "socks5");
	if (c->up < 0) {
		rep[1] = (uint8_t)t.socks_code;
		write_all(c->client, rep, sizeof(rep));
		return c->up;
	}
	write_all(c->client, rep, sizeof(rep));
	/* Anything the client sent after its request goes up first. */
	if (len > used && !write_all(c->up, buf + used, len - used))
		return -EIO;
	nsb_proxy_entry_bytes(c, len - used, 0);
	return 0;
}

/*
 * CONNECT to port 443: the ClientHello's server name must be the target
 * (no domain fronting).  No SNI at all passes (the server answers with its
 * default name); an encrypted ClientHello (ECH) shows only its outer name.
 */
static int check_sni(struct conn *c, struct target *t, char *buf, size_t *len)
{
	char sni[NSB_NET_HOST_MAX + 2], norm[NSB_NET_HOST_MAX + 1], ts[300];
	int64_t deadline = nsb_mono_ms() + NSB_PROXY_HEAD_TIMEOUT_MS;
	uint8_t addr[16];
	int family, r;

	while ((r = nsb_tls_sni((uint8_t *)buf, *len, sni, sizeof(sni))) == -EAGAIN)
		if (!read_more(c->client, buf, len, NSB_HTTP_HEAD_MAX, deadline))
			return *len ? -EIO : 0; /* nothing sent: nothing to check */
	if (r < 0)
		return 0; /* not TLS, or no SNI: nothing names another host */
	fmt_target(t, ts, sizeof(ts));
	if (nsb_net_host_normalize(sni, strlen(sni), norm, &family, addr) < 0 ||
	    strcmp(norm, t->host) != 0)
		return refuse(c, t, "SNI does not match", 2, true,
			      "nsbox: blocked by network policy: TLS names '%s', not '%s'", sni,
			      ts);
	return 0;
}

static int serve_http(struct conn *c, char *buf, size_t len, int64_t deadline, char *out)
{
	struct nsb_http_req req;
	struct target t = {0};
	char ts[300];
	int r, n;

	while ((r = nsb_http_parse_head(buf, len, &req)) == -EAGAIN)
		if (!read_more(c->client, buf, &len, NSB_HTTP_HEAD_MAX, deadline))
			return -EIO;
	if (r < 0) {
		nsb_proxy_entry_request(c, "", 0, "http");
		nsb_proxy_entry_reason(c, false, "bad request", false);
		http_error(c->client,
			   r == -E2BIG ? "431 Request Header Fields Too Large" : "400 Bad Request",
			   r == -EPROTONOSUPPORT
				   ? "nsbox: the proxy takes CONNECT and http:// requests"
				   : "nsbox: malformed request");
		return r;
	}
	t.port = req.port;
	nsb_proxy_entry_request(c, req.host, req.port, req.connect ? "connect" : "http");
	c->up = open_upstream(c, &t, req.host);
	nsb_proxy_entry_request(c, t.host, t.port, req.connect ? "connect" : "http");
	if (c->up < 0) {
		http_error(c->client, t.policy ? "403 Forbidden" : "502 Bad Gateway", t.why);
		return c->up;
	}
	if (req.connect) {
		static const char ok[] = "HTTP/1.1 200 Connection established\r\n\r\n";
		size_t rest = len - req.head_len;
		if (!write_all(c->client, ok, sizeof(ok) - 1))
			return -EIO;
		memmove(buf, buf + req.head_len, rest);
		if (t.port == 443 && check_sni(c, &t, buf, &rest) < 0)
			return -EACCES; /* after 200: the client sees the TLS fail */
		if (rest && !write_all(c->up, buf, rest))
			return -EIO;
		nsb_proxy_entry_bytes(c, rest, 0);
		return 0;
	}
	n = nsb_http_rewrite(buf, &req, out, NSB_PROXY_RELAY_BUF);
	if (n < 0) {
		fmt_target(&t, ts, sizeof(ts));
		http_error(c->client, "431 Request Header Fields Too Large",
			   "nsbox: request too large");
		return n;
	}
	if (!write_all(c->up, out, (size_t)n) ||
	    (len > req.head_len && !write_all(c->up, buf + req.head_len, len - req.head_len)))
		return -EIO;
	nsb_proxy_entry_bytes(c, (uint64_t)n + (len - req.head_len), 0);
	return 0;
}

void *nsb_proxy_conn_main(void *arg)
{
	struct conn *c = arg;
	int64_t deadline = nsb_mono_ms() + NSB_PROXY_HEAD_TIMEOUT_MS;
	char *buf = malloc(2 * (size_t)NSB_PROXY_RELAY_BUF);
	size_t len = 0;
	int r = -ENOMEM;

	if (buf && read_more(c->client, buf, &len, NSB_HTTP_HEAD_MAX, deadline)) {
		if (buf[0] == 5)
			r = serve_socks5(c, buf, len, deadline);
		else
			r = serve_http(c, buf, len, deadline, buf + NSB_PROXY_RELAY_BUF);
		if (r == 0)
			relay(c, buf);
	} else if (buf) {
		nsb_proxy_entry_request(c, "", 0, "unknown");
		nsb_proxy_entry_reason(c, false, "no request", false);
	}
	free(buf);
	nsb_proxy_conn_close(c);
	return NULL;
}

/* A connection accepted: its entry and its thread, or closed at once. */
