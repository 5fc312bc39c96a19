// SPDX-License-Identifier: GPL-2.0-or-later
/* fdpass: run on both sides of the clone: one descriptor per message over a socketpair. */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/fdpass.h"
#include "base/macro.h"

/* Room for a few descriptors although the protocol sends one: a message
 * that brings more is refused whole, and every descriptor it brought is
 * closed (beyond the room, the kernel drops them and says MSG_CTRUNC). */
#define FD_ROOM 4
union fd_ctrl {
	char buf[CMSG_SPACE(FD_ROOM * sizeof(int))];
	struct cmsghdr align;
};

int nsb_fd_send(int sock, int fd)
{
	union fd_ctrl ctrl;
	char byte = 'F';
	struct iovec iov = {.iov_base = &byte, .iov_len = 1};
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = ctrl.buf,
		.msg_controllen = sizeof(ctrl.buf),
	};
	struct cmsghdr *cm;
	ssize_t n;

	memset(&ctrl, 0, sizeof(ctrl));
	cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	do
		n = sendmsg(sock, &msg, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return nsb_negerrno();
	return n == 1 ? 0 : -EIO;
}

int nsb_fd_recv(int sock)
{
	union fd_ctrl ctrl;
	char byte;
	struct iovec iov = {.iov_base = &byte, .iov_len = 1};
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = ctrl.buf,
		.msg_controllen = sizeof(ctrl.buf),
	};
	struct cmsghdr *cm;
	ssize_t n;
	int fd;

	do
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return nsb_negerrno();
	if (n == 0)
		return -EPIPE;
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS ||
	    cm->cmsg_len < CMSG_LEN(sizeof(int)))
		return -EPROTO;
	size_t n_fds = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
	if (n_fds != 1 || (msg.msg_flags & MSG_CTRUNC)) {
		for (size_t i = 0; i < n_fds && i < FD_ROOM; i++) {
			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
			close(fd);
		}
		return -EPROTO;
	}
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}
