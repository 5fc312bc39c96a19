/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sandbox side: init (pid 1 in the new PID namespace) and the payload it
 * forks.  init sets up the mounts, loopback and hostname, drops every
 * capability, then forks the payload, forwards signals to it, reaps orphans
 * and exits with the payload's status.  Setup errors travel to the
 * supervisor as a struct nsb_error over err_wr; EOF there after the payload's
 * execve means the exec succeeded.
 */
#pragma once

#include <sys/time.h>

#include "base/macro.h"
#include "core/plan.h"
#include "core/stdio_plan.h"

struct nsb_init_args {
	const struct nsb_plan *plan;
	int sync_rd;   /* supervisor → init: one byte once init is in the run's
			* cgroup (clone fallback only), else -1 */
	int err_wr;    /* init/payload → supervisor: struct nsb_error, CLOEXEC */
	int status_wr; /* init → supervisor: struct nsb_init_final */
	int stdout_wr; /* payload's stdout/stderr when the supervisor pumps them, else -1 */
	int stderr_wr;
	int stdin_rd; /* payload's stdin when the supervisor pumps it, else -1 */
	int pty_wr;   /* init → supervisor: the pty master (SCM_RIGHTS), else -1 */
	const struct nsb_stdio *stdio;
	int overlay_wr; /* init → supervisor: each --overlay's upper tmpfs (SCM_RIGHTS), else -1 */
	int net_wr; /* init → supervisor: the proxy's listening socket (SCM_RIGHTS), else -1 */
};

/*
 * init's last word, one atomic write on status_wr, sent once the payload has
 * ended and every other process of the sandbox has been killed and reaped:
 * from then on nothing of the caller's command runs, and the supervisor
 * need not wait for init's own exit (the kernel's teardown of the
 * namespaces) unless it must remove a cgroup.
 */
struct nsb_init_final {
	int status;		     /* the payload's wait status */
	struct timeval utime, stime; /* init's and every reaped process's CPU time */
};

/* Runs in the child created by clone; never returns. */
_noreturn_ void nsb_init_main(const struct nsb_init_args *a);
