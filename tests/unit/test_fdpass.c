// SPDX-License-Identifier: GPL-2.0-or-later
/* fdpass: one descriptor per message across a socketpair, nothing else. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/new/assert.h>

#include "base/fdpass.h"

static int sp[2] = {-1, -1};

static void pair(void)
{
	cr_assert(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) == 0);
}

static void unpair(void)
{
	close(sp[0]);
	close(sp[1]);
}

/* The lowest free descriptor number: a leak shows as a higher one. */
static int next_fd(void)
{
	int fd = dup(0);
	close(fd);
	return fd;
}

Test(fdpass, the_received_fd_is_the_sent_file_and_close_on_exec, .init = pair, .fini = unpair)
{
	int p[2], got;
	char buf[4] = {0};

	cr_assert(pipe(p) == 0);
	cr_assert(eq(int, nsb_fd_send(sp[0], p[1]), 0));
	close(p[1]);
	got = nsb_fd_recv(sp[1]);
	cr_assert(got >= 0, "recv: %s", strerror(-got));
	cr_expect(fcntl(got, F_GETFD) & FD_CLOEXEC);
	cr_assert(write(got, "abc", 3) == 3);
	close(got);
	cr_assert(read(p[0], buf, sizeof(buf)) == 3);
	cr_expect(memcmp(buf, "abc", 3) == 0);
	close(p[0]);
}

Test(fdpass, nothing_yet_is_eagain_and_eof_is_epipe, .init = pair, .fini = unpair)
{
	cr_expect(eq(int, nsb_fd_recv(sp[1]), -EAGAIN));
	close(sp[0]);
	sp[0] = -1;
	cr_expect(eq(int, nsb_fd_recv(sp[1]), -EPIPE));
}

Test(fdpass, a_message_without_a_descriptor_is_refused, .init = pair, .fini = unpair)
{
	cr_assert(write(sp[0], "x", 1) == 1);
	cr_expect(eq(int, nsb_fd_recv(sp[1]), -EPROTO));
}

/* Send n descriptors (dups of 0) in one message. */
static void send_many(int n)
{
	int fds[8];
	char ctrl[CMSG_SPACE(sizeof(fds))];
	char byte = 'F';
	struct iovec iov = {.iov_base = &byte, .iov_len = 1};
	struct msghdr msg = {.msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = ctrl,
			     .msg_controllen = CMSG_SPACE(n * sizeof(int))};
	struct cmsghdr *cm;

	cr_assert(n > 0 && n <= 8);
	for (int i = 0; i < n; i++)
		fds[i] = dup(0);
	memset(ctrl, 0, sizeof(ctrl));
	cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(n * sizeof(int));
	memcpy(CMSG_DATA(cm), fds, n * sizeof(int));
	cr_assert(sendmsg(sp[0], &msg, 0) == 1);
	for (int i = 0; i < n; i++)
		close(fds[i]);
}

/* 2 fit the receiver's room and are closed by it; 8 do not, and the kernel
 * drops what does not fit (MSG_CTRUNC). */
Test(fdpass, several_descriptors_in_one_message_are_refused_and_none_leaks, .init = pair,
     .fini = unpair)
{
	static const int counts[] = {2, 8};

	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		send_many(counts[i]);
		int before = next_fd();
		cr_expect(eq(int, nsb_fd_recv(sp[1]), -EPROTO), "%d descriptors", counts[i]);
		cr_expect(eq(int, next_fd(), before), "%d descriptors: one was left open",
			  counts[i]);
	}
}

Test(fdpass, sending_to_a_closed_peer_is_epipe, .init = pair, .fini = unpair)
{
	close(sp[1]);
	sp[1] = -1;
	cr_expect(eq(int, nsb_fd_send(sp[0], 0), -EPIPE));
}
