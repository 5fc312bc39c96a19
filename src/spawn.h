/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Supervisor side of sandbox creation: one clone3 with every namespace flag
 * (plain clone where clone3 is missing), the uid/gid maps, and the pipes that
 * connect the supervisor to init.
 */
#pragma once

#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/types.h>

#include "error.h"
#include "plan.h"

/*
 * What the payload gets as stdin, stdout and stderr.  The payload never holds
 * a descriptor to a host inode it was not granted by a bind: a caller's
 * regular file, directory, named FIFO or block device would let it reopen
 * the file for writing through /proc/self/fd, fchmod/futimens it, or walk the
 * host tree from a directory; such streams go through a pipe that the
 * supervisor pumps.
 */
enum nsb_stdio_how {
	NSB_STDIO_INHERIT, /* the caller's own fd: an anonymous pipe, a socket, a terminal */
	NSB_STDIO_PIPE,	   /* a pipe pumped by the supervisor */
	NSB_STDIO_PTY,	   /* the sandbox's own pseudo-terminal */
	NSB_STDIO_REOPEN,  /* the sandbox's own /dev node of the same kind (null, zero, ...) */
	NSB_STDIO_CLOSED,  /* closed in the caller, closed inside */
};

struct nsb_stdio {
	enum nsb_stdio_how how[3];
	char reopen[3][16]; /* NSB_STDIO_REOPEN: "/dev/null" ... */
	int reopen_flags[3];
	bool closed[3];	  /* closed in the caller (held by /dev/null in nsbox until init) */
	bool pty;	  /* a pseudo-terminal for the payload */
	bool in_tty;	  /* the caller's stdin is a terminal (the pty relay reads it) */
	bool has_winsize; /* the caller's window size, copied onto the pty */
	struct winsize winsize;
};

/* Record names of enum nsb_stdio_how ("inherited", "pipe", "pty", "reopened", "closed"). */
const char *nsb_stdio_name(enum nsb_stdio_how how);

/*
 * Decide the payload's stdio from what fds 0-2 are (fstat) and the options:
 * pty_mode (config.h), pipe_output (--capture/--max-output pump both output
 * streams).  A directory as stdio is a usage error (stage "usage").
 */
int nsb_stdio_decide(int pty_mode, bool pipe_output, struct nsb_stdio *ret, struct nsb_error *e);

struct nsb_sandbox {
	pid_t pid;     /* init, as seen from the supervisor */
	int pidfd;     /* -1 when the kernel gave none */
	int err_rd;    /* struct nsb_error from the sandbox, EOF after exec */
	int status_rd; /* the payload's wait status, written by init */
	int stdout_rd; /* the payload's output, when piped; else -1 */
	int stderr_rd;
	int stdin_wr;	     /* the payload's stdin, when pumped; else -1 */
	int pty_sock;	     /* the pty master arrives here (SCM_RIGHTS); else -1 */
	unsigned namespaces; /* NSB_NS_* created */
	bool clone3;	     /* false: the clone fallback was used */
	bool cgroup_joined;  /* placed by writing cgroup.procs, not at clone time */
};

/*
 * Create the sandbox: clone (into cgroup_fd's cgroup with CLONE_INTO_CGROUP
 * when cgroup_fd >= 0, so not one instruction runs outside the limits),
 * write the id maps, release init.  On failure
 * nothing is left running and e says why (stage "clone" or "userns").
 */
int nsb_spawn(const struct nsb_plan *plan, const struct nsb_stdio *stdio, int cgroup_fd,
	      struct nsb_sandbox *sb, struct nsb_error *e);

/* Close the supervisor's handles (does not wait). */
void nsb_sandbox_close(struct nsb_sandbox *sb);
