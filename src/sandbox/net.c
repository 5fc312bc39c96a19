// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loopback bring-up over rtnetlink with libmnl.  One request, one
 * acknowledgement: we ask for NLM_F_ACK so that success is confirmed by the
 * kernel rather than assumed from a successful sendto().
 */
#include <errno.h>
#include <net/if.h> /* IFF_UP */
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "base/util.h"
#include "sandbox/net.h"

#define LO_NAME "lo"

static void mnl_socket_closep(struct mnl_socket **nl)
{
	if (*nl) {
		int saved = errno;
		mnl_socket_close(*nl);
		errno = saved;
	}
}

#define _cleanup_mnl_socket_ _cleanup_(mnl_socket_closep)

int nsb_net_lo_up(struct nsb_error *e)
{
	_cleanup_mnl_socket_ struct mnl_socket *nl = NULL;
	/*
	 * Fixed size (MNL_SOCKET_BUFFER_SIZE is a runtime value, so a VLA):
	 * the only reply is an NLMSG_ERROR carrying our small request back.
	 */
	char buf[8192];
	unsigned int seq;
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;
	ssize_t n;
	int r;

	/* CLOEXEC: init forks and execs the payload; the socket must not leak. */
	nl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (!nl)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_NET,
				     "open rtnetlink socket for loopback '%s'", LO_NAME);
	/*
	 * Not bound: the kernel binds the socket at the first send (its port
	 * id chosen as mnl_socket_bind's MNL_SOCKET_AUTOPID would), and the
	 * namespace is new, with no process but this one to send from, so the
	 * replies are checked by sequence number alone (port id 0 below tells
	 * mnl_cb_run so).  Two system calls fewer, bind and getsockname.
	 */
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWLINK;
	/* No NLM_F_CREATE: we change the existing device, never make one. */
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = seq = (unsigned int)time(NULL);
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = AF_UNSPEC;
	/* By name, in the namespace the socket lives in (the sandbox's): the
	 * kernel looks the device up itself (index 0 and IFLA_IFNAME), so no
	 * if_nametoindex (a socket, an ioctl and a close) comes first. */
	ifm->ifi_index = 0;
	/* Only the IFF_UP bit changes; every other flag is left alone. */
	ifm->ifi_flags = IFF_UP;
	ifm->ifi_change = IFF_UP;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, LO_NAME);

	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_NET,
				     "send RTM_NEWLINK for loopback '%s'", LO_NAME);

	/*
	 * Read until the acknowledgement: mnl_cb_run() returns MNL_CB_STOP (0)
	 * on an NLMSG_ERROR with error 0, and -1 with errno set to the kernel's
	 * error code otherwise.  It also rejects messages whose sequence number
	 * is not ours.
	 */
	for (;;) {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0)
			return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_NET,
					     "read rtnetlink reply for loopback '%s'", LO_NAME);
		if (n == 0)
			return nsb_error_set(e, -EPROTO, NSB_STAGE_NET,
					     "read rtnetlink reply for loopback '%s'", LO_NAME);
		errno = 0;
		r = mnl_cb_run(buf, (size_t)n, seq, 0, NULL, NULL);
		if (r < 0)
			return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_NET,
					     "bring up loopback '%s'", LO_NAME);
		if (r == MNL_CB_STOP)
			return 0;
	}
}

int nsb_net_make(struct nsb_error *e)
{
	if (unshare(CLONE_NEWNET) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_NET,
				     "create the network namespace");
	return nsb_net_lo_up(e);
}
