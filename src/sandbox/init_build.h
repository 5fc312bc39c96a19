/* SPDX-License-Identifier: GPL-2.0-or-later */
/* init's setup between hiding and the payload's fork (init_build.c). */
#pragma once

#include "base/error.h"
#include "sandbox/init.h"

/*
 * The sandbox's world (mounts, network namespace, hostname, the pty if
 * asked) and init's lock-down (capabilities, no_new_privs, Landlock, the
 * seccomp filter and its listener's handoff, a session of its own).  On
 * success *slave is the pty's terminal, or -1.  0 or -errno with e.
 */
int nsb_init_build(const struct nsb_init_args *a, int *slave, struct nsb_error *e);
