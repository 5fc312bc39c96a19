/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Killing every descendant of the calling process where no PID namespace
 * does it (--isolation landlock): the caller is a child subreaper
 * (PR_SET_CHILD_SUBREAPER), so whatever outlives its parent becomes the
 * caller's direct child, where /proc/self/task/TID/children lists it.
 */
#pragma once

#include <stdbool.h>

/*
 * SIGKILL every descendant that /proc shows, parents before their children,
 * without reaping.  Returns how many were signalled (zombies are not), or
 * -errno when the caller's own /proc entry cannot be read.
 */
int nsb_kill_descendants(void);

/*
 * Kill and reap every descendant until the caller has no child left.
 * Returns 0, or -errno when /proc cannot be read (every direct child is then
 * still killed and reaped through waitpid).
 */
int nsb_reap_descendants(void);
