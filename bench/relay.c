// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor of any user-space TCP proxy, for bench/egress.sh: a plain
 * forwarder with no policy, no parsing and no record.  It listens on
 * 127.0.0.1 (the port it prints), and for each connection connects to
 * 127.0.0.1:UPSTREAM and moves bytes both ways with splice(2) through a
 * pipe of 1 MiB, one poll(2) loop per connection (a thread each), exactly
 * the data path nsbox's proxy takes after a request is allowed.  What it
 * costs over a direct connection is the second TCP connection's kernel
 * work: nothing in user space is cheaper.
 *
 * usage: relay UPSTREAM_PORT
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

static int upstream_port;

/* Reno on both loopback hops, as nsbox's proxy sets (proxy_serve.c): the
 * host's default may pace (BBR), which on loopback only costs. */
static void reno(int fd)
{
	(void)setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, "reno", 4);
}

static int splice_all(int from, int to, ssize_t n)
{
	while (n > 0) {
		ssize_t k = splice(from, NULL, to, NULL, (size_t)n, SPLICE_F_MOVE);
		if (k <= 0)
			return -1;
		n -= k;
	}
	return 0;
}

static void *conn(void *arg)
{
	int fd[2] = {(int)(long)arg, socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)};
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_port = htons((uint16_t)upstream_port),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	int p[2][2], open_[2] = {1, 1};

	reno(fd[0]);
	if (fd[1] >= 0)
		reno(fd[1]);
	if (fd[1] < 0 || connect(fd[1], (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    pipe2(p[0], O_CLOEXEC) < 0 || pipe2(p[1], O_CLOEXEC) < 0)
		goto out;
	for (int i = 0; i < 2; i++)
		fcntl(p[i][0], F_SETPIPE_SZ, 1 << 20);
	while (open_[0] || open_[1]) {
		struct pollfd pfd[2] = {{.fd = open_[0] ? fd[0] : -1, .events = POLLIN},
					{.fd = open_[1] ? fd[1] : -1, .events = POLLIN}};
		if (poll(pfd, 2, -1) < 0)
			break;
		for (int i = 0; i < 2; i++) {
			if (!pfd[i].revents)
				continue;
			ssize_t n = splice(fd[i], NULL, p[i][1], NULL, 1 << 20,
					   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
			if (n < 0 && errno == EAGAIN)
				continue;
			if (n <= 0) {
				open_[i] = 0;
				shutdown(fd[1 - i], SHUT_WR);
			} else if (splice_all(p[i][0], fd[1 - i], n) < 0) {
				goto out;
			}
		}
	}
out:
	close(fd[0]);
	if (fd[1] >= 0)
		close(fd[1]);
	return NULL;
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(a);
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (argc != 2 || (upstream_port = atoi(argv[1])) <= 0) {
		fprintf(stderr, "usage: relay UPSTREAM_PORT\n");
		return 2;
	}
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s, 512) < 0 ||
	    getsockname(s, (struct sockaddr *)&a, &len) < 0) {
		perror("relay: listen");
		return 1;
	}
	printf("%d\n", ntohs(a.sin_port));
	fflush(stdout);
	for (;;) {
		int c = accept4(s, NULL, NULL, SOCK_CLOEXEC);
		pthread_t t;
		if (c < 0)
			continue;
		if (pthread_create(&t, NULL, conn, (void *)(long)c) != 0)
			close(c);
		else
			pthread_detach(t);
	}
}
