/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The /etc snapshot (supervisor, impure; issue 11): the system view's /etc
 * files, copied once into a directory of the caller's cache and bound at
 * /etc as one mount, instead of one bind per file.
 *
 * A snapshot is named by the SHA-256 of every entry's device, inode, size,
 * mode and modification and change times (or its absence): any change to
 * one of the files, the change time included, names another snapshot, so a
 * run sees the files as they are when it starts.  What a run sees differs
 * from the binds only in this: a file changed on the host while the run
 * goes on is not seen changing inside, and the files belong to the caller
 * (root inside) instead of the host's root (nobody inside, for a caller
 * other than root).
 *
 * A snapshot is made only from files unchanged for a second (a change
 * within the same tick of the file system's clock would leave the times
 * as they were), by one run at a time (an exclusive flock on the cache
 * directory; the others bind meanwhile), under a temporary name, every
 * file synced, then renamed into place; it is used only when the directory and the cache directory
 * are the caller's and writable by no one else.  A run holds a shared lock
 * on its snapshot until it ends; a run that makes a new snapshot removes
 * the others that no run holds.  No payload may write the cache: a run
 * whose writable binds reach it covers it (supervisor/cache_guard.h).
 *
 * Without a cache (NSBOX_NO_CACHE, no HOME), or with a file larger than
 * 4 MiB, not a regular file, not readable by the caller or changed within
 * the second, or a user mount under /etc, every entry is bound from the
 * host as before.
 */
#pragma once

#include "core/plan.h"

struct nsb_etc_snapshot {
	int fd;	    /* the snapshot's directory, locked (shared); -1: none */
	char *path; /* its path (malloc'd), for the record and messages */
};

/*
 * Use (or make) the snapshot for p's /etc entries and rewrite p to bind it:
 * the first file entry's op binds the snapshot at /etc, the other file
 * entries are left to it (core/plan.h: from_snapshot, in_snapshot).
 * Returns 1 when p was rewritten (s holds the snapshot until
 * nsb_etc_snapshot_close), 0 when it was not (p is unchanged and every
 * entry is bound from the host).  Never fails the run.
 */
int nsb_etc_snapshot_apply(struct nsb_plan *p, struct nsb_etc_snapshot *s);

/* Let go of the snapshot (the lock goes with the last descriptor); a
 * zeroed s, or one apply left without a snapshot, holds nothing. */
void nsb_etc_snapshot_close(struct nsb_etc_snapshot *s);
