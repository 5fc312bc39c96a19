/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Apply one change of an overlay's change set (supervisor/overlay_walk.h) to
 * the host's DIR: for --overlay-mode commit, and for nsbox apply.
 *
 * Nothing is ever looked up through a symlink: each change opens its parent
 * directory beneath DIR with openat2(RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS), so
 * a link the payload planted (or anyone put in DIR meanwhile) makes that
 * change fail; it can never redirect a write outside DIR.  A file or symlink
 * is built aside (an unnamed O_TMPFILE where the filesystem has it, given a
 * temporary name in the same directory only at the end) and renamed over
 * its name with renameat2: a reader, or a commit killed midway, sees the old
 * entry or the new one, never a torn one.  Setuid and setgid bits are never
 * applied, nor owners; fifos, sockets and devices never reach here.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "supervisor/overlay_walk.h"

/* Apply ev beneath dir_fd (DIR).  Returns 0 or -errno with e filled. */
int nsb_ovl_apply(int dir_fd, const struct nsb_ovl_event *ev, struct nsb_error *e);

/* Permission bits applied for st's entry: never setuid or setgid. */
unsigned nsb_ovl_applied_mode(const struct stat *st);

/* A relative path that stays beneath its root: no empty, "." or ".."
 * component, no leading '/'. */
bool nsb_ovl_path_ok(const char *path);
