// SPDX-License-Identifier: GPL-2.0-or-later
/* mount_overlay: run by init, before pivot_root: --overlay DIR as an overlayfs on a private, bounded upper layer. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/fmt.h"
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
/*
 * --overlay-store: the upper layer is a directory of its own in the run's
 * private directory on disk (the supervisor made it, 0700, opened it for
 * init, and watches its size: supervisor/overlay_store.h).  Named by the
 * op's index; opened beneath it with no symlink followed.  Returns the directory's fd, which goes to the supervisor as the
 * tmpfs's would.
 */
static int store_dir(struct mount_ctx *c, const struct nsb_mount_op *op, struct nsb_error *e)
{
	struct open_how how = {.flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
			       .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
					  RESOLVE_NO_MAGICLINKS};
	int s = c->store_fd;
	char name[32];
	int d;

	nsb_format(name, sizeof(name), "%zu", (size_t)(op - c->plan->ops));
	if (mkdirat(s, name, 0700) < 0)
		return mnt_mount_err(e, nsb_negerrno(), "create the upper layer for", op->dest);
	d = (int)syscall(SYS_openat2, s, name, &how, sizeof(how));
	if (d < 0)
		return mnt_mount_err(e, nsb_negerrno(), "open the upper layer for", op->dest);
	return d;
}

/*
 * overlayfs takes a private clone of its upper layer's mount, which must be
 * in init's mount namespace: the directory the supervisor made (and init
 * inherited as overlay_store_fd) is on a mount of the host's.  So it is
 * cloned here by path, while the host's tree is still in view (STAGING_DIR
 * covers /tmp later), and must be that same directory: a path swapped in
 * between is refused.
 */
int mnt_open_store(struct mount_ctx *c, struct nsb_error *e)
{
	const struct nsb_plan *p = c->plan;
	struct stat want, got;

	c->store_fd = -1;
	if (!p->overlay_store || !p->n_overlays)
		return 0;
	c->store_fd = open_tree(AT_FDCWD, p->overlay_store, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (c->store_fd < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_MOUNT,
				     "open the overlay store '%s'", p->overlay_store);
	if (fstat(p->overlay_store_fd, &want) < 0 || fstat(c->store_fd, &got) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_MOUNT,
				     "stat the overlay store '%s'", p->overlay_store);
	if (want.st_dev != got.st_dev || want.st_ino != got.st_ino)
		return nsb_error_set(e, -EXDEV, NSB_STAGE_MOUNT,
				     "the overlay store '%s' was replaced during setup",
				     p->overlay_store);
	return 0;
}

static int make_upper(struct mount_ctx *c, const struct nsb_mount_op *op, int lower_fd,
		      struct nsb_error *e)
{
	struct stat st;
	char size[32], inodes[32];
	/* Inodes cost tmpfs memory its size does not count: one per KiB of
	 * the bound, so that a payload cannot hand the supervisor a walk of
	 * millions of empty files either. */
	nsb_format(size, sizeof(size), "%llu", (unsigned long long)c->plan->overlay_size);
	nsb_format(inodes, sizeof(inodes), "%llu",
		   (unsigned long long)(c->plan->overlay_size >> 10));
	const char *kv[] = {"size", size, "nr_inodes", inodes, "mode", "0700", NULL};
	int t = c->plan->overlay_store
			? store_dir(c, op, e)
			: mnt_new_fs(c, "tmpfs", kv, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, op->dest,
				     e);
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
	nsb_format(lower, sizeof(lower), "/proc/self/fd/%d", lower_fd);
	nsb_format(upper, sizeof(upper), "/proc/self/fd/%d/upper", t);
	nsb_format(work, sizeof(work), "/proc/self/fd/%d/work", t);
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
