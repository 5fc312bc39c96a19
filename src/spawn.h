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
	pid_t pid;      /* init, as seen from the supervisor */
	int pidfd;      /* -1 when the kernel gave none */
	int err_rd;     /* struct nsb_error from the sandbox, EOF after exec */
	int status_rd;  /* the payload's wait status, written by init */
	unsigned namespaces; /* NSB_NS_* created */
	bool clone3;    /* false: the clone fallback was used */
};

/*
 * Create the sandbox: clone, write the id maps, release init.  On failure
 * nothing is left running and e says why (stage "clone" or "userns").
 */
int nsb_spawn(const struct nsb_plan *plan, struct nsb_sandbox *sb, struct nsb_error *e);

/* Close the supervisor's handles (does not wait). */
void nsb_sandbox_close(struct nsb_sandbox *sb);
