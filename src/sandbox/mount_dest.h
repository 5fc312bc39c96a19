/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Mount points inside the new root (init, before pivot_root).  Every lookup
 * is confined beneath the root's fd and refuses symlinks and magic links, so
 * a link planted in a bound directory can never redirect a mount to the
 * host.  Missing directories (and the empty file a file bind needs) are
 * created on the way.
 */
#pragma once

#include <stdbool.h>

#include "base/error.h"
#include "core/config.h"

struct nsb_dest_walk {
	int root_fd; /* the new root (not owned) */
	/* The directory of the last destination, kept open so that the /etc
	 * entries and the /dev nodes walk to it once, not once each (owned). */
	int dir_fd;
	char dir[NSB_MAX_PATH + 1];
};

/* An fd to dest's mount point (O_PATH, or the empty file just made for a
 * file bind): a directory when is_dir, else a file.  *created (when not
 * NULL) tells whether its last component was made here. */
int nsb_dest_open(struct nsb_dest_walk *w, const char *dest, bool is_dir, bool *created,
		  struct nsb_error *e);

/*
 * The common case of a run with many binds, in one or two calls: when
 * dest's directory is the kept one, dest's last component is made there as
 * a new directory (1: *ret_fd, not owned, and *ret_name name it for a
 * lookup that follows no link, move_mount without MOVE_MOUNT_T_SYMLINKS),
 * or opened if a directory is there already (2: *ret_fd is an O_PATH fd of
 * it, owned).  0 when neither: nothing was made, and nsb_dest_open() walks.
 */
int nsb_dest_in_kept(struct nsb_dest_walk *w, const char *dest, int *ret_fd, const char **ret_name);

/* The directory that will hold dest (created as needed) and dest's last
 * component, for an entry the caller creates itself (a symlink). */
int nsb_dest_parent(int root_fd, const char *dest, int *ret_parent, const char **ret_name,
		    struct nsb_error *e);

/* Something was mounted on dest: forget the kept directory if dest covers it. */
void nsb_dest_covered(struct nsb_dest_walk *w, const char *dest);
