/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The user namespace's id maps, written by init for itself: one line each,
 * its own ids, which the kernel lets a process in a new user namespace do
 * without any privilege outside it.
 */
#pragma once

#include <sys/types.h>

#include "base/error.h"

/*
 * Map the caller's own uid and gid to themselves in the user namespace of
 * process pid (0 means the calling process): writes "deny" to
 * /proc/PID/setgroups, then "UID UID 1" to uid_map and "GID GID 1" to
 * gid_map.  Returns 0 or -errno (stage "userns", the message names the file).
 * On -EPERM/-EACCES, the supervisor's nsb_userns_diagnose() explains the
 * likely cause.
 */
int nsb_userns_write_maps(pid_t pid, uid_t uid, gid_t gid, struct nsb_error *e);
