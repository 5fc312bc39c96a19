// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Proxy mode's one way out: init opens the proxy's listening socket in the
 * sandbox's own network namespace and hands it to the supervisor.  A socket
 * stays in the namespace it was made in, so the supervisor accept()s the
 * payload's connections there while it connects upstream from the host's:
 * no forwarding process inside, no Unix socket in the sandbox's filesystem,
 * nothing for the payload to reach but this one TCP port.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/fdpass.h"
#include "base/util.h"
#include "sandbox/net.h"

/* Pending connections the kernel queues before the supervisor accepts. */
#define PROXY_BACKLOG 512

int nsb_net_proxy_listen(uint16_t port, int sock, struct nsb_error *e)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	_cleanup_close_ int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int r;

	if (fd < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_NET, "create the proxy's socket");
	/* Before the payload exists: no one else can hold the port yet. */
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_NET,
				     "bind the proxy to 127.0.0.1:%u", port);
	if (listen(fd, PROXY_BACKLOG) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_NET, "listen on 127.0.0.1:%u",
				     port);
	r = nsb_fd_send(sock, fd);
	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_NET,
				     "hand the proxy's socket to the supervisor");
	/* init keeps no copy: the payload must not accept() on it. */
	close(sock);
	return 0;
}
