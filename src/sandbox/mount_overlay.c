// SPDX-License-Identifier: GPL-2.0-or-later
/* mount_overlay: run by init, before pivot_root: --overlay DIR as an overlayfs on a private, bounded upper layer. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fdpass.h"
#include "sandbox/mount_ctx.h"
#include "base/util.h"

/*
 * The upper layer: a tmpfs of its own per overlay, so that its size bounds
 * what the payload can write there (ENOSPC past it) and the host's disk is
 * never touched.  It holds "upper" (the changes) and "work" (overlayfs's
 * scratch directory, which must share the upper's filesystem).  Its mount
 * descriptor goes to the supervisor at once, before anything of the payload
 * runs: the supervisor reads the change set through it after the run, when
 * the sandbox's mount namespace is gone (a detached mount held by a
 * descriptor lives as long as the descriptor).  Mode 0700: the caller's uid
 * (init's, mapped) alone may enter it from the host's side.
 */
static int make_upper(struct mount_ctx *c, const struct nsb_mount_op *op, int lower_fd,
		      struct nsb_error *e)
{
	struct stat st;
	char size[32], inodes[32];
	/* Inodes cost tmpfs memory its size does not count: one per KiB of
	 * the bound, so that a payload cannot hand the supervisor a walk of
	 * millions of empty files either. */
	snprintf(size, sizeof(size), "%llu", (unsigned long long)c->plan->overlay_size);
	snprintf(inodes, sizeof(inodes), "%llu", (unsigned long long)(c->plan->overlay_size >> 10));
	const char *kv[] = {"size", size, "nr_inodes", inodes, "mode", "0700", NULL};
	int t = mnt_new_fs(c, "tmpfs", kv, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, op->dest, e);
	int r;

	if (t < 0)
		return t;
	/* The merged root takes the upper root's mode: DIR's own. */
	if (fstat(lower_fd, &st) < 0) {
		r = mnt_mount_err(e, nsb_negerrno(), "stat overlay directory", op->src);
		goto fail;
	}
	if (mkdirat(t, "upper", st.st_mode & 07777) < 0 || mkdirat(t, "work", 0700) < 0 ||
	    fchmodat(t, "upper", st.st_mode & 07777, 0) < 0) {
		r = mnt_mount_err(e, nsb_negerrno(), "create the upper layer for", op->dest);
		goto fail;
	}
	r = nsb_fd_send(c->overlay_sock, t);
	if (r < 0) {
		mnt_mount_err(e, r, "hand the upper layer to the supervisor for", op->dest);
		goto fail;
	}
	return t;
fail:
	close(t);
	return r;
}

/*
 * Unprivileged overlayfs (Linux 5.11) with the new mount API.  The layers are
 * named by descriptor through /proc/self/fd (init still sees the host's /proc
 * here), so no host path is parsed as an option string (':' and '\' in DIR
 * would be).  userxattr: in a user namespace the whiteout and opaque markers
 * are user.overlay.* attributes, which the supervisor can read.  No redirects
 * and no metacopy: a renamed directory is a copy plus a whiteout and a
 * changed file is copied up whole, so the upper layer alone says what
 * changed.  Returns the overlay's mount fd (not attached).
 */
int mnt_make_overlay(struct mount_ctx *c, const struct nsb_mount_op *op, int lower_fd,
		     struct nsb_error *e)
{
	char lower[64], upper[64], work[64];
	int t = make_upper(c, op, lower_fd, e);
	int m;

	if (t < 0)
		return t;
	snprintf(lower, sizeof(lower), "/proc/self/fd/%d", lower_fd);
	snprintf(upper, sizeof(upper), "/proc/self/fd/%d/upper", t);
	snprintf(work, sizeof(work), "/proc/self/fd/%d/work", t);
	const char *kv[] = {"lowerdir", lower,	     "upperdir", upper,		 "workdir",
			    work,	"userxattr", NULL,	 "redirect_dir", "nofollow",
			    "metacopy", "off",	     NULL};
	m = mnt_new_fs(c, "overlay", kv, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, op->dest, e);
	/* The supervisor holds the upper layer now; the mount keeps its own. */
	mnt_defer_close(c, t);
	if (m < 0 && (e->err == EPERM || e->err == EINVAL || e->err == ENODEV))
		nsb_error_hint(
			e,
			"--overlay needs unprivileged overlayfs (Linux 5.11 or later, overlay module loaded); use --rw to write to DIR directly");
	return m;
}
