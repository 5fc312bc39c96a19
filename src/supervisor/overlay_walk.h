/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The change set of an overlay, read from its upper layer after the run
 * (supervisor; the layer is a tmpfs the sandbox handed over, the lower one
 * the host's DIR).  The walk reports each change once, in a fixed order (a
 * directory's entries sorted by name, a deletion before what replaces it,
 * a directory before what it holds), to a callback that records, commits or
 * exports it.  Every lookup is one name beneath an open directory, never
 * through a symlink (openat2 RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS): what the
 * payload planted is read as what it is, never followed.
 *
 * What the upper layer says (overlayfs with userxattr, no redirects, no
 * metacopy: sandbox/mount_overlay.c):
 *   - a character device 0/0 is a whiteout: the lower entry is deleted;
 *   - a directory with user.overlay.opaque "y", or over a lower non-directory,
 *     replaces the lower entry whole: a deletion, then an addition;
 *   - any other directory merges with the lower one (its mode may change);
 *   - a file or symlink is added, or modifies the lower one when its type
 *     matches (a copy-up that changed nothing is no change);
 *   - fifos, sockets and device nodes are reported and never applied.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/sha256.h"

/* Bounds on what the walk descends into (deeper or longer: skipped). */
#define NSB_OVL_MAX_DEPTH 256
#define NSB_OVL_MAX_PATH  4095

enum nsb_ovl_change {
	NSB_OVL_ADD,	/* a new entry (dir, file, symlink) */
	NSB_OVL_MODIFY, /* a file or symlink whose content, target or mode changed; a dir's mode */
	NSB_OVL_DELETE, /* the lower entry is gone (a whole tree for a directory) */
	NSB_OVL_SKIP,	/* in the upper layer, never applied (why says what it is) */
	/* After the entries of a directory that was added or changed its mode:
	 * its mode is applied last, so that a directory without write access
	 * still receives its entries first. */
	NSB_OVL_DIR_END,
};

struct nsb_ovl_event {
	enum nsb_ovl_change kind;
	const char *path; /* relative to DIR, no leading '/' */
	int upper_dir;	  /* the upper directory holding name (ADD, MODIFY, SKIP), else -1 */
	const char *name; /* path's last component */
	struct stat st;	  /* the upper entry (lstat); for DELETE the lower one */
	bool has_sha;	  /* sha256: a regular file's content (ADD, MODIFY) */
	char sha256[NSB_SHA256_HEX];
	bool lower_has_sha; /* lower_sha256: the lower file's (MODIFY, DELETE of a file) */
	char lower_sha256[NSB_SHA256_HEX];
	const char *why; /* SKIP: "fifo", "socket", "device", "too deep", "name too long" */
};

/* Return < 0 to stop the walk (that value is returned). */
typedef int (*nsb_ovl_cb)(void *ud, const struct nsb_ovl_event *ev);

/*
 * Walk upper_fd (the upper layer's root directory) against lower_fd (DIR, or
 * -1 for an empty lower layer).  Hashes (has_sha) only when hash is set.
 * Returns 0, the callback's negative value, or -errno with e filled (stage
 * "supervise": the command has run by then).
 */
int nsb_ovl_walk(int upper_fd, int lower_fd, bool hash, nsb_ovl_cb cb, void *ud,
		 struct nsb_error *e);

/* SHA-256 of the regular file fd (read from its start), as hex. */
int nsb_ovl_hash_fd(int fd, char ret_hex[NSB_SHA256_HEX]);

/* One name beneath dirfd, never through a symlink: openat2 with
 * RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_MAGICLINKS.  fd or -errno. */
int nsb_ovl_open_beneath(int dirfd, const char *path, int flags, unsigned mode);

/* An upper-layer entry whose mode the walk widened so that its owner (the
 * caller) can read it: fd pins it (O_PATH), mode is the payload's. */
struct nsb_ovl_widened {
	int fd;		/* -1: nothing widened */
	mode_t mode;	/* the payload's */
	mode_t widened; /* what the walk set */
};

/*
 * nsb_ovl_open_beneath for the upper layer (or an export's files): where the
 * owner has no access (the payload left a file at mode 000, a directory at
 * 000 or 100) and the caller owns the entry, its mode gains owner read (a
 * file) or r-x (a directory), it is reopened, and the mode goes back: at
 * once for a file; for a directory through nsb_ovl_unwiden(ret_w) once the
 * walk beneath it is done (ret_w NULL: at once too), unless the mode
 * changed meanwhile.  After the run the layer is private to the supervisor;
 * during it (the store's watch) the payload may see the widened mode for
 * the moment of the count.
 */
int nsb_ovl_open_upper(int dirfd, const char *name, int flags, struct nsb_ovl_widened *ret_w);
void nsb_ovl_unwiden(struct nsb_ovl_widened *w);
