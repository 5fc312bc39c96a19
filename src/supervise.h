/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The supervisor's wait: read the sandbox's setup error (if any), forward
 * signals to init, reap init, and turn what happened into the result record.
 */
#pragma once

#include <signal.h>

#include "result.h"
#include "spawn.h"

/* Signals the supervisor forwards; main blocks them (and SIGCHLD) before
 * spawning so nothing is lost between clone and the wait loop. */
void nsb_supervise_sigset(sigset_t *ret);

/*
 * Wait for the sandbox to finish and fill res (status, exit_code, signal,
 * setup_error, resources).  Returns 0, or -errno when supervising itself
 * failed (e set; the sandbox has been killed).
 */
int nsb_supervise(struct nsb_sandbox *sb, struct nsb_result *res, struct nsb_error *e);
