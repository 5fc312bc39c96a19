// SPDX-License-Identifier: GPL-2.0-or-later
/* The egress proxy (proxy.h): the connection list, the acceptor, start and stop.  Supervisor. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/clock.h"
#include "base/fdpass.h"
#include "base/util.h"
#include "supervisor/nss.h"
#include "supervisor/proxy_int.h"

#define STOP_WAIT_MS 2000 /* for the connection threads at the end */

int64_t nsb_proxy_t0_ms; /* the proxy's start: entries count from there */

/* ---- the record list ---------------------------------------------------------- */

/* A new entry for c (under the lock): its index, or SIZE_MAX past the bound. */
static size_t rec_add(struct nsb_proxy *p)
{
	if (p->n_rec >= NSB_NET_RECORD_MAX) {
		p->more++;
		return SIZE_MAX;
	}
	if (p->n_rec == p->room) {
		size_t room = p->room ? p->room * 2 : 16;
		struct nsb_net_conn *n = realloc(p->rec, room * sizeof(*n));
		if (!n) {
			p->more++;
			return SIZE_MAX;
		}
		p->rec = n;
		p->room = room;
	}
	memset(&p->rec[p->n_rec], 0, sizeof(p->rec[0]));
	return p->n_rec++;
}

void nsb_proxy_entry_request(struct conn *c, const char *host, uint16_t port, const char *protocol)
{
	pthread_mutex_lock(&c->p->lock);
	if (c->idx != SIZE_MAX) {
		struct nsb_net_conn *en = &c->p->rec[c->idx];
		nsb_format(en->host, sizeof(en->host), "%s", host);
		en->port = port;
		en->protocol = protocol;
	}
	pthread_mutex_unlock(&c->p->lock);
}

void nsb_proxy_entry_reason(struct conn *c, bool allowed, const char *reason, bool policy)
{
	pthread_mutex_lock(&c->p->lock);
	if (policy)
		c->p->denied++;
	if (c->idx != SIZE_MAX) {
		c->p->rec[c->idx].allowed = allowed;
		if (!c->p->rec[c->idx].reason)
			c->p->rec[c->idx].reason = reason;
	}
	pthread_mutex_unlock(&c->p->lock);
}

void nsb_proxy_entry_addr(struct conn *c, int family, const uint8_t *addr)
{
	pthread_mutex_lock(&c->p->lock);
	if (c->idx != SIZE_MAX && c->p->rec[c->idx].n_addrs < NSB_NET_ADDRS_MAX) {
		struct nsb_net_conn *en = &c->p->rec[c->idx];
		nsb_net_addr_format(family, addr, en->addrs[en->n_addrs++], sizeof(en->addrs[0]));
	}
	pthread_mutex_unlock(&c->p->lock);
}

void nsb_proxy_entry_bytes(struct conn *c, uint64_t up, uint64_t down)
{
	pthread_mutex_lock(&c->p->lock);
	if (c->idx != SIZE_MAX) {
		c->p->rec[c->idx].bytes_up += up;
		c->p->rec[c->idx].bytes_down += down;
	}
	pthread_mutex_unlock(&c->p->lock);
}

/* ---- threads ---------------------------------------------------------------------- */

void nsb_proxy_conn_close(struct conn *c)
{
	struct nsb_proxy *p = c->p;

	pthread_mutex_lock(&p->lock);
	nsb_closep(&c->client);
	nsb_closep(&c->up);
	if (c->idx != SIZE_MAX)
		p->rec[c->idx].duration_ms = nsb_mono_ms() - c->start_ms;
	for (size_t i = 0; i < NSB_PROXY_MAX_CONNS; i++)
		if (p->conns[i] == c)
			p->conns[i] = NULL;
	if (--p->active == 0)
		pthread_cond_broadcast(&p->idle);
	pthread_mutex_unlock(&p->lock);
	free(c);
}

static void conn_start(struct nsb_proxy *p, int fd, pthread_attr_t *attr)
{
	struct conn *c = calloc(1, sizeof(*c));
	pthread_t th;
	size_t slot = NSB_PROXY_MAX_CONNS;

	pthread_mutex_lock(&p->lock);
	for (size_t i = 0; c && i < NSB_PROXY_MAX_CONNS && slot == NSB_PROXY_MAX_CONNS; i++)
		if (!p->conns[i])
			slot = i;
	if (!c || slot == NSB_PROXY_MAX_CONNS || p->stopping) {
		size_t idx = rec_add(p);
		if (idx != SIZE_MAX) {
			p->rec[idx].protocol = "unknown";
			p->rec[idx].reason = "too many connections";
			p->rec[idx].start_ms = nsb_mono_ms() - nsb_proxy_t0_ms;
		}
		pthread_mutex_unlock(&p->lock);
		free(c);
		close(fd);
		return;
	}
	*c = (struct conn){.p = p, .client = fd, .up = -1, .start_ms = nsb_mono_ms()};
	c->idx = rec_add(p);
	if (c->idx != SIZE_MAX) {
		p->rec[c->idx].start_ms = c->start_ms - nsb_proxy_t0_ms;
		p->rec[c->idx].protocol = "unknown";
	}
	p->conns[slot] = c;
	p->active++;
	pthread_mutex_unlock(&p->lock);
	if (pthread_create(&th, attr, nsb_proxy_conn_main, c) != 0) {
		nsb_proxy_entry_reason(c, false, "no thread", false);
		nsb_proxy_conn_close(c);
	}
}

static void *acceptor_main(void *arg)
{
	struct nsb_proxy *p = arg;
	pthread_attr_t attr;
	struct pollfd pfd[2] = {{.fd = p->sock, .events = POLLIN},
				{.fd = p->stopfd, .events = POLLIN}};

	/* init sends the socket once its namespace is made; EOF: it never will. */
	while (p->lfd < 0) {
		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			return NULL;
		if (pfd[1].revents)
			return NULL;
		if (!pfd[0].revents)
			continue;
		int fd = nsb_fd_recv(p->sock);
		if (fd >= 0)
			p->lfd = fd;
		else if (fd != -EAGAIN && fd != -EINTR)
			return NULL;
	}
	nsb_closep(&p->sock);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* getaddrinfo and NSS need some stack; the buffers are on the heap. */
	pthread_attr_setstacksize(&attr, 256u << 10);
	pfd[0].fd = p->lfd;
	for (;;) {
		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			break;
		if (pfd[1].revents)
			break;
		if (!(pfd[0].revents & POLLIN))
			continue;
		int fd = accept4(p->lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd >= 0) {
			nsb_proxy_loopback_tcp(fd); /* the sandbox's lo */
			conn_start(p, fd, &attr);
		} else if (errno == EMFILE || errno == ENFILE)
			poll(NULL, 0, 10); /* let connections finish */
	}
	pthread_attr_destroy(&attr);
	return NULL;
}

int nsb_proxy_start(const struct nsb_net_policy *policy, int sock, struct nsb_proxy **ret,
		    struct nsb_error *e)
{
	struct nsb_proxy *p = calloc(1, sizeof(*p));
	int r;

	if (!p) {
		close(sock);
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_NET, "start the proxy");
	}
	/* Before the first thread: its getaddrinfo may not load a module. */
	r = nsb_nss_builtin_only();
	if (r < 0) {
		close(sock);
		free(p);
		return nsb_error_set(e, r, NSB_STAGE_NET,
				     "restrict the proxy's name lookups to /etc/hosts and DNS");
	}
	nsb_proxy_t0_ms = nsb_mono_ms();
	/* Two sockets and two pipes per connection: room for all of them
	 * (the sandbox was cloned already and keeps its own limit). */
	struct rlimit nofile;
	if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < 8 * NSB_PROXY_MAX_CONNS) {
		nofile.rlim_cur = nofile.rlim_max < 8 * NSB_PROXY_MAX_CONNS
					  ? nofile.rlim_max
					  : 8 * NSB_PROXY_MAX_CONNS;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
	/* ...and a descriptor table of that size now, while no thread of
	 * the proxy shares it (util.h says why). */
	nsb_fd_table_reserve(sock, 8 * NSB_PROXY_MAX_CONNS);
	p->pol = policy;
	p->sock = sock;
	p->lfd = -1;
	p->stopfd = eventfd(0, EFD_CLOEXEC);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->idle, NULL);
	if (p->stopfd < 0) {
		r = nsb_error_set(e, nsb_negerrno(), NSB_STAGE_NET, "start the proxy");
		goto fail;
	}
	r = -pthread_create(&p->acceptor, NULL, acceptor_main, p);
	if (r < 0) {
		nsb_error_set(e, r, NSB_STAGE_NET, "start the proxy's thread");
		goto fail;
	}
	p->acceptor_started = true;
	*ret = p;
	return 0;
fail:
	nsb_closep(&p->sock);
	nsb_closep(&p->stopfd);
	free(p);
	return r;
}

void nsb_proxy_stop(struct nsb_proxy *p, struct nsb_result *res)
{
	uint64_t one = 1;
	struct timespec until;
	bool left_behind = false;

	if (!p)
		return;
	if (write(p->stopfd, &one, sizeof(one)) < 0) {
		/* an eventfd write of 1 cannot fail short of a bug */
	}
	if (p->acceptor_started)
		pthread_join(p->acceptor, NULL);
	nsb_closep(&p->lfd);
	nsb_closep(&p->sock);

	pthread_mutex_lock(&p->lock);
	p->stopping = true;
	/* Wake every thread blocked on a socket: the sandbox is gone. */
	for (size_t i = 0; i < NSB_PROXY_MAX_CONNS; i++)
		if (p->conns[i]) {
			if (p->conns[i]->client >= 0)
				shutdown(p->conns[i]->client, SHUT_RDWR);
			if (p->conns[i]->up >= 0)
				shutdown(p->conns[i]->up, SHUT_RDWR);
		}
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += STOP_WAIT_MS / 1000;
	while (p->active > 0)
		if (pthread_cond_timedwait(&p->idle, &p->lock, &until) == ETIMEDOUT) {
			left_behind = p->active > 0;
			break;
		}
	/* The record gets a copy: a thread left in the resolver may still
	 * write to the proxy's own list, which is then never freed. */
	res->has_network = true;
	res->net_conns_more = p->more;
	if (p->n_rec && (res->net_conns = malloc(p->n_rec * sizeof(*p->rec)))) {
		memcpy(res->net_conns, p->rec, p->n_rec * sizeof(*p->rec));
		res->n_net_conns = p->n_rec;
	} else {
		res->net_conns_more += p->n_rec;
	}
	if (p->denied && res->n_violations < ARRAY_SIZE(res->violations)) {
		res->violations[res->n_violations].kind = "net.denied";
		res->violations[res->n_violations].count = p->denied;
		res->n_violations++;
	}
	pthread_mutex_unlock(&p->lock);
	if (left_behind)
		return;
	nsb_closep(&p->stopfd);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->idle);
	free(p->rec);
	free(p);
}
