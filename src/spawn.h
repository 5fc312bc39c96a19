/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Supervisor side of sandbox creation: one clone3 with every namespace flag
 * (plain clone where clone3 is missing), the uid/gid maps, and the pipes that
 * connect the supervisor to init.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

#include "error.h"
#include "plan.h"

struct nsb_sandbox {
	pid_t pid;     /* init, as seen from the supervisor */
	int pidfd;     /* -1 when the kernel gave none */
	int err_rd;    /* struct nsb_error from the sandbox, EOF after exec */
	int status_rd; /* the payload's wait status, written by init */
	int stdout_rd; /* the payload's output, when piped; else -1 */
	int stderr_rd;
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
int nsb_spawn(const struct nsb_plan *plan, int cgroup_fd, struct nsb_sandbox *sb,
	      struct nsb_error *e);

/* Close the supervisor's handles (does not wait). */
void nsb_sandbox_close(struct nsb_sandbox *sb);
