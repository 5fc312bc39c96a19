// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loopback bring-up over rtnetlink with libmnl.  One request, one
 * acknowledgement: we ask for NLM_F_ACK so that success is confirmed by the
 * kernel rather than assumed from a successful sendto().
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <net/if.h> /* IFF_UP */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "base/fmt.h"
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

/* The job itself: a new namespace for the calling thread, lo up, and, on
 * the thread (on_thread: told by who calls, never read from j, which the
 * main thread is still writing when the thread starts), an fd to it. */
static void net_job(struct nsb_net_job *j, bool on_thread)
{
	if (unshare(CLONE_NEWNET) < 0) {
		j->err = nsb_error_set(&j->e, nsb_negerrno(), NSB_STAGE_NET,
				       "create the network namespace");
		return;
	}
	j->err = nsb_net_lo_up(&j->e);
	if (j->err < 0 || !on_thread)
		return; /* inline: init is in it already */
	/* Through the caller's /proc, before the sandbox has its own: a
	 * thread may always read its own namespace links. */
	j->fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (j->fd < 0)
		j->err = nsb_error_set(&j->e, nsb_negerrno(), NSB_STAGE_NET,
				       "open the new network namespace");
}

/*
 * The thread ends with the exit system call itself, not by returning into
 * glibc's thread teardown (__libc_thread_freeres: the resolver's, Sun RPC's
 * and the TLS's cleanups), which this thread has nothing for and which
 * would fault three 64 KiB windows of libc's text into init, each resident
 * for the whole run (base/fmt.h).  The kernel still clears the thread's
 * tid and wakes pthread_join (CLONE_CHILD_CLEARTID), which then frees the
 * thread's TLS; what stays is its malloc cache, a few hundred bytes for
 * init's life.  Sanitizers track a thread's end in that teardown: there,
 * it returns.
 */
static void *net_thread(void *arg)
{
	net_job(arg, true);
#if !defined(__SANITIZE_ADDRESS__)
	syscall(SYS_exit, 0);
#endif
	return NULL;
}

/* Where the namespace's next pid comes from: ns_last_pid + 1. */
static int set_last_pid(int fd, int last)
{
	char buf[16];
	int n = nsb_format(buf, sizeof(buf), "%d", last);

	return pwrite(fd, buf, (size_t)n, 0) == n ? 0 : nsb_negerrno();
}

/* The thread's stack: the job needs lo_up's buffer and libmnl, no more. */
#define NET_STACK_SIZE (128u << 10)

void nsb_net_start(struct nsb_net_job *j, unsigned fds)
{
	pthread_attr_t attr;

	*j = (struct nsb_net_job){.last_pid_fd = -1, .fd = -1};
	/* The thread takes NSB_NET_THREAD_PID, never 2 (net.h). */
	j->last_pid_fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);
	if (j->last_pid_fd >= 0 && set_last_pid(j->last_pid_fd, NSB_NET_THREAD_PID - 1) == 0 &&
	    pthread_attr_init(&attr) == 0) {
		nsb_fd_table_reserve(j->last_pid_fd, fds);
		/* A small stack without a guard page, and ours: glibc keeps
		 * the stacks it makes in a cache after the join, where their
		 * pages would stay init's for the whole run (16 KiB).  libmnl's
		 * one allocation comes from the main arena: a thread arena of
		 * its own would cost a 128 MiB reservation and four system
		 * calls. */
		mallopt(M_ARENA_MAX, 1);
		j->stack = mmap(NULL, NET_STACK_SIZE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
		if (j->stack == MAP_FAILED)
			j->stack = NULL;
		if (j->stack && pthread_attr_setstack(&attr, j->stack, NET_STACK_SIZE) == 0)
			j->threaded = pthread_create(&j->thread, &attr, net_thread, j) == 0;
		pthread_attr_destroy(&attr);
		if (!j->threaded && j->stack) {
			munmap(j->stack, NET_STACK_SIZE);
			j->stack = NULL;
		}
	}
	if (j->threaded)
		return;
	/* Inline: the next pid must still be 2. */
	if (j->last_pid_fd >= 0) {
		int r = set_last_pid(j->last_pid_fd, 1);
		nsb_closep(&j->last_pid_fd);
		if (r < 0) {
			j->err = nsb_error_set(&j->e, r, NSB_STAGE_NET,
					       "rewind the pid namespace's ns_last_pid");
			return;
		}
	}
	net_job(j, false);
}

int nsb_net_enter(struct nsb_net_job *j, struct nsb_error *e)
{
	int r = 0;

	if (j->threaded) {
		r = -pthread_join(j->thread, NULL);
		j->threaded = false;
		/* Joined: nothing runs on it any more. */
		if (r == 0 && j->stack && munmap(j->stack, NET_STACK_SIZE) == 0)
			j->stack = NULL;
		if (r < 0)
			r = nsb_error_set(e, r, NSB_STAGE_NET, "wait for the network thread");
		else if (j->err < 0)
			r = (*e = j->e, j->err);
		else if (j->fd < 0)
			/* never run the payload in the caller's namespace */
			r = nsb_error_setx(e, -EPROTO, NSB_STAGE_NET,
					   "the network thread made no namespace");
		else if ((r = set_last_pid(j->last_pid_fd, 1)) < 0)
			r = nsb_error_set(e, r, NSB_STAGE_NET,
					  "make pid 2 the payload's (ns_last_pid)");
	} else if (j->err < 0) {
		r = (*e = j->e, j->err);
	}
	if (r == 0 && j->fd >= 0 && setns(j->fd, CLONE_NEWNET) < 0)
		r = nsb_error_set(e, nsb_negerrno(), NSB_STAGE_NET, "enter the network namespace");
	nsb_closep(&j->fd);
	nsb_closep(&j->last_pid_fd);
	return r;
}
