/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The supervisor's wait: read the sandbox's setup error (if any), forward
 * signals to init, enforce the wall-clock timeout, pump and count output,
 * reap init, and turn what happened into the result record.
 */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "supervisor/notify.h"
#include "supervisor/pump.h"
#include "core/result.h"
#include "supervisor/spawn.h"

/* A periodic look at the run: fn's return > 0 kills the run at once. */
struct nsb_watch {
	int (*fn)(void *ud);
	void *ud;
	uint64_t ms;
};

struct nsb_supervise_opts {
	uint64_t timeout_ms;	/* 0: none */
	uint64_t kill_after_ms; /* grace between SIGTERM and SIGKILL */
	bool pipe_output;	/* --max-output or --capture (see stdio) */
	uint64_t max_output;	/* per stream; UINT64_MAX: unbounded */
	bool capture;		/* keep output for the record instead of passing it on */
	/* Kill everything at once (cgroup.kill); NULL: SIGKILL init. */
	int (*kill_all)(void *ud);
	void *kill_ud;
	/* Which of the payload's streams are pumped, and the pty. */
	const struct nsb_stdio *stdio;
	/* The seccomp listener's state (notify.h): the listener arrives over
	 * pty_sock after the pty master, and is served here.  NULL: none. */
	struct nsb_notify *notify;
	/* A look every ms while the command runs (--overlay-store's size
	 * bound); NULL: none. */
	const struct nsb_watch *watch;
};

/* Signals the supervisor forwards; main blocks them (and SIGCHLD) before
 * spawning so nothing is lost between clone and the wait loop. */
void nsb_supervise_sigset(sigset_t *ret);

/*
 * Wait for the sandbox to finish and fill res (status, exit_code, signal,
 * timed_out, setup_error, byte counts, resources from rusage).  out/err
 * receive captured output.  Returns 0, or -errno when supervising itself
 * failed (e set; the sandbox has been killed).
 */
int nsb_supervise(struct nsb_sandbox *sb, const struct nsb_supervise_opts *o,
		  struct nsb_result *res, struct nsb_captured *out, struct nsb_captured *err,
		  struct nsb_error *e);

/* What the supervisor saw when the run ended. */
struct nsb_wait_facts {
	const struct nsb_error *setup_error; /* the sandbox's report, or NULL */
	bool timed_out;			     /* the deadline fired (SIGTERM) */
	bool killed;			     /* ... and the grace ran out (SIGKILL) */
	bool have_payload;		     /* init sent the payload's wait status */
	int payload_status;		     /* that status */
	int init_status;		     /* init's own wait status */
};

/*
 * Pure: the facts -> res's status, exit_code, signal, reason, timed_out and
 * setup_error.  A setup error wins, then the deadline, then the payload's
 * status; without any of them, init's own.
 */
void nsb_supervise_outcome(const struct nsb_wait_facts *f, struct nsb_result *res);
