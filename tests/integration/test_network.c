// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Network: a new namespace with only `lo`, up; --share-net keeps the host's.
 * Checked with the interfaces the probe sees and a TCP connect to a listener
 * the test opens on the host's loopback.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness.h"

/* A listening socket on the host's 127.0.0.1; its port in ret_port. */
static int host_listener(char *ret_port, size_t size)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	cr_assert(fd >= 0);
	cr_assert(bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0);
	cr_assert(listen(fd, 8) == 0);
	cr_assert(getsockname(fd, (struct sockaddr *)&sa, &len) == 0);
	snprintf(ret_port, size, "%u", ntohs(sa.sin_port));
	return fd;
}

NSB_ITEST(network, only_loopback_exists_and_it_is_up)
{
	struct itest_run r;

	ITEST_RUN(&r, "--", "./probe", "ifaces");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "ifaces"), "lo");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "iface.lo"), "up");
	/* Made inside the sandbox's user namespace, not the host's. */
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "netns.owner"), "own");
	itest_run_close(&r);
}

NSB_ITEST(network, host_loopback_is_unreachable_without_share_net)
{
	struct itest_run r;
	char port[16];
	int fd = host_listener(port, sizeof(port));

	ITEST_RUN(&r, "--", "./probe", "connect", "127.0.0.1", port);
	/* The sandbox's lo is its own: nobody listens there. */
	ITEST_EXPECT_EXIT(&r, 1);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "connect"), "ECONNREFUSED");
	itest_run_close(&r);
	close(fd);
}

NSB_ITEST(network, share_net_keeps_host_interfaces_and_loopback)
{
	struct itest_run r;
	char port[16], *host_dev = itest_slurp("/proc/net/dev"), *line;
	int fd = host_listener(port, sizeof(port));

	cr_assert(host_dev != NULL);
	ITEST_RUN(&r, "--share-net", "--", "./probe", "ifaces");
	ITEST_ASSERT_EXIT(&r, 0);
	/* Every interface of the host's namespace is there too. */
	for (line = strtok(host_dev, "\n"); line; line = strtok(NULL, "\n")) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		while (*line == ' ')
			line++;
		cr_expect(itest_has_word(itest_kv(r.out, "ifaces"), line),
			  "host interface '%s' missing inside%s", line, itest_ctx(&r));
	}
	free(host_dev);
	itest_run_close(&r);

	ITEST_RUN(&r, "--share-net", "--", "./probe", "connect", "127.0.0.1", port);
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "connect"), "ok");
	itest_run_close(&r);
	close(fd);
}
