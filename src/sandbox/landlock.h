/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --isolation landlock, the sandbox's side (init, before the payload is
 * forked): the Landlock ruleset built from the plan, the seccomp program that
 * keeps the network off without a network namespace, and the capability
 * drop of a process that may hold no capability to drop.
 */
#pragma once

#include "base/error.h"
#include "core/plan.h"

/*
 * Restrict the calling process (and all it will start) to the plan: read
 * and execute on the system view, /proc and the --ro binds, everything on
 * the --rw binds and the private TMPDIR, read and write on the few device
 * nodes of nsb_landlock_devices, nothing else; TCP bind and connect refused
 * (ABI >= 4, network off); signals and abstract sockets scoped (ABI >= 6).
 * Needs no_new_privs (or CAP_SYS_ADMIN).  Returns 0 or -errno (stage
 * "landlock", the message names the path).
 */
int nsb_landlock_apply(const struct nsb_plan *p, struct nsb_error *e);

/*
 * A seccomp program (no_new_privs set) that refuses socket() for every
 * family but AF_UNIX (EAFNOSUPPORT), io_uring_setup (EPERM: it can open
 * sockets too), and every call of another ABI (ENOSYS): without a network
 * namespace, that is what keeps the payload off the network besides
 * Landlock's TCP rules.  Returns 0 or -errno (stage "landlock").
 */
int nsb_landlock_socket_filter(struct nsb_error *e);

/*
 * Empty every capability set this process can empty: all of them for root
 * (nsb_caps_drop_all); for anyone else the effective, permitted, inheritable
 * and ambient sets, while the bounding set stays (dropping from it takes
 * CAP_SETPCAP, and with no_new_privs it grants nothing).  Returns 0 or -errno.
 */
int nsb_landlock_drop_caps(struct nsb_error *e);
