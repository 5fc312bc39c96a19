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

#include "base/error.h"
#include "core/plan.h"
#include "core/stdio_plan.h"

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
	int overlay_sock;    /* each --overlay's upper tmpfs arrives here; else -1 */
	int net_sock;	     /* proxy mode: the proxy's listening socket arrives here; else -1 */
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
