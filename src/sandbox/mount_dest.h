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

/* The directory that will hold dest (created as needed) and dest's last
 * component, for an entry the caller creates itself (a symlink). */
int nsb_dest_parent(int root_fd, const char *dest, int *ret_parent, const char **ret_name,
		    struct nsb_error *e);

/* Something was mounted on dest: forget the kept directory if dest covers it. */
void nsb_dest_covered(struct nsb_dest_walk *w, const char *dest);
