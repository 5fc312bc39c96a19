/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Between init.c and payload.c only (the supervisor sees init.h): init
 * starts the payload, which sets up its terminal, stdio and descriptors,
 * finds the command, applies the rlimits and execs it.  Errors travel over
 * err_wr as in init.h.
 */
#pragma once

#include <stddef.h>
#include <sys/types.h>

#include "base/error.h"
#include "base/macro.h"
#include "sandbox/init.h"

/*
 * Start the payload (vfork-style where it can, else fork) with init's
 * signalfd sfd and the pty's terminal slave (-1 without a pty); the payload
 * never returns here.  Returns the payload's pid or -errno.
 */
pid_t nsb_payload_start(const struct nsb_init_args *a, int sfd, int slave);

/* init.c, shared with the payload: close every fd >= 3 except those listed
 * (n <= 8), returns 0 or -errno; report e over err_wr and _exit(code). */
int nsb_init_close_all_except(const int *keep, size_t n);
_noreturn_ void nsb_init_fail(const struct nsb_init_args *a, const struct nsb_error *e, int code);
