/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Execute the plan's mounts inside the new mount namespace (called by init,
 * before pivot_root) and switch to the new root.  Built on the new mount API:
 * open_tree(OPEN_TREE_CLONE) + mount_setattr(AT_RECURSIVE) make a recursive
 * read-only bind one call, fsopen/fsmount create filesystems detached, and
 * move_mount attaches everything by file descriptor, so no path of the new
 * root is ever looked up through a symlink that could lead back to the host.
 */
#pragma once

#include "base/error.h"
#include "core/plan.h"

/* Build the new root, pivot into it, make it read-only, chdir to plan->cwd.
 * overlay_sock: where each --overlay's upper layer goes (-1: none). */
int nsb_mount_setup(const struct nsb_plan *plan, int overlay_sock, struct nsb_error *e);
