/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --overlay-store PATH (issue 16): the overlays' upper layers on disk
 * instead of on tmpfs.  The supervisor makes one private directory per run
 * under PATH (mode 0700, the caller's), init makes one subdirectory per
 * overlay in it ("upper" and "work" beneath: sandbox/mount_overlay.c), and
 * the supervisor removes the whole of it after the run, whatever the mode.
 *
 * A directory on disk has no size of its own (the kernel bounds it only
 * through quotas, which need privilege): --overlay-size is enforced by
 * watching.  While the command runs the supervisor adds up each overlay's
 * blocks and inodes (every NSB_OVL_STORE_WATCH_MS, and as soon as a statfs
 * every NSB_OVL_STORE_POLL_MS says the filesystem lost more than the room
 * left); past the bound it kills the run, and the record says disk.full.
 * Between the look that sees it and the kill the payload can overshoot by
 * what it writes in that time: the bound is soft, and the man page says so.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "core/config.h"
#include "core/plan.h"
#include "supervisor/supervise.h"

/* A statfs every POLL_MS, a walk of the layers when it says the room may be
 * gone, and every WATCH_MS regardless (overlay_store.c). */
#define NSB_OVL_STORE_POLL_MS  10
#define NSB_OVL_STORE_WATCH_MS 200

struct nsb_ovl_store {
	int fd;			      /* the run's private directory, or -1 */
	char path[NSB_MAX_PATH + 32]; /* its path (kept after removal, for the record) */
	bool made;		      /* path exists: remove it */
	uint64_t limit;		      /* bytes per overlay (--overlay-size) */
	bool tripped;		      /* the watch found an overlay past its bound */
	struct nsb_watch watch;	      /* nsb_ovl_store_watch on this, for nsb_supervise */
	/* The watch's state: the filesystem's free blocks and inodes when the
	 * last walk began, and the least room an overlay had left then. */
	bool have_base;
	uint64_t base_bfree, base_ffree, bsize;
	uint64_t room_bytes, room_inodes;
	unsigned polls;	       /* looks since the last walk */
	unsigned walks;	       /* walks so far */
	uint64_t next_walk_ns; /* CLOCK_MONOTONIC: no walk the statfs asks for before */
};

/*
 * Check PATH (a directory, outside every bind of the plan, on a filesystem
 * overlayfs can write its upper layer to) and make the run's directory in
 * it; plan->overlay_store points to its path afterwards.  Errors (stage
 * "overlay") name PATH and the reason.
 */
int nsb_ovl_store_open(struct nsb_ovl_store *s, const char *path, struct nsb_plan *plan,
		       struct nsb_error *e);

/* Blocks (bytes) and inodes beneath dirfd, itself included, never following
 * a symlink; stops counting once past max_bytes or max_inodes. */
void nsb_ovl_store_usage(int dirfd, uint64_t max_bytes, uint64_t max_inodes, uint64_t *ret_bytes,
			 uint64_t *ret_inodes);

/* The supervisor's periodic look (ud: the store): 1 when an overlay is past
 * its bound (and tripped is set), else 0. */
int nsb_ovl_store_watch(void *ud);

/* Remove the run's directory and all beneath it; a failure is a warning. */
void nsb_ovl_store_remove(struct nsb_ovl_store *s);

/* With --overlay-store and an overlay: run->ovl_store a new store, opened
 * (else NULL); nsb_run_destroy removes it, after the record is written.
 * Errors as nsb_ovl_store_open, or -ENOMEM. */
struct nsb_run;
int nsb_ovl_store_new(struct nsb_run *run, struct nsb_error *e);

/* Remove (if not yet) and free *s; NULL afterwards.  NULL is fine. */
void nsb_ovl_store_free(struct nsb_ovl_store **s);
