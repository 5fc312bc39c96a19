/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The explanation of why a user namespace could not be created or set up
 * (its id maps are written by init itself: sandbox/idmap.h).
 */
#pragma once

#include <sys/types.h>

#include "base/error.h"

/*
 * Explain a failure to create a user namespace (clone/unshare with
 * CLONE_NEWUSER returned clone_errno, positive or negative) or to write its
 * maps.  Reads, under proc_root (normally "/proc"):
 *   sys/user/max_user_namespaces, sys/kernel/unprivileged_userns_clone,
 *   sys/kernel/apparmor_restrict_unprivileged_userns, self/status (Seccomp:),
 *   self/ns/user (only for EINVAL).
 * Sets e (stage "userns") to a message that names every cause found, or says
 * that none was found and lists what was checked, with a hint where one
 * exists.  Returns -clone_errno (-EIO when clone_errno is 0).
 */
int nsb_userns_diagnose(int clone_errno, const char *proc_root, struct nsb_error *e);
