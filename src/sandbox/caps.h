/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Capability and privilege lock-down for the payload, done right before
 * seccomp and execve.
 */
#pragma once

#include <stdbool.h>

#include "base/error.h"

/*
 * Lock the securebits so that uid 0 gains nothing at execve and no later
 * call can undo that, then empty the bounding, ambient, inheritable,
 * permitted and effective capability sets of the calling thread, and verify
 * the result with capget(2) and PR_CAPBSET_READ.  Needs CAP_SETPCAP in the
 * current user namespace (the sandbox's init and payload have it).
 * Single-threaded callers only: capabilities are per thread.
 * Returns 0 or -errno (stage "caps"; the message names the set that failed).
 */
int nsb_caps_drop_all(struct nsb_error *e);

/* prctl(PR_SET_NO_NEW_PRIVS); returns 0 or -errno (stage "no_new_privs"). */
int nsb_no_new_privs(struct nsb_error *e);
