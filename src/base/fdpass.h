/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Descriptors that the sandbox creates for the supervisor (the pty master
 * today; the seccomp listener and the egress proxy's sockets as they come)
 * cross the clone boundary over a socketpair, one per message, as
 * SCM_RIGHTS with a one-byte payload.
 */
#pragma once

/* Send fd over sock.  Returns 0 or -errno (-EPIPE when the peer is gone). */
int nsb_fd_send(int sock, int fd);

/*
 * Receive one descriptor from sock, close-on-exec, without blocking.
 * Returns the fd, -EPIPE at EOF, -EAGAIN when nothing is there yet, -EPROTO
 * for a message that carries no descriptor, or -errno.
 */
int nsb_fd_recv(int sock);
