// SPDX-License-Identifier: GPL-2.0-or-later
/* mount_cover: run by init, before pivot_root: protected paths re-bound read-only, secrets masked. */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/mount_ctx.h"
#include "base/util.h"

static const char *const verb[] = {
	[NSB_COVER_PROTECT] = "protect",
	[NSB_COVER_MASK] = "mask",
	[NSB_COVER_PIN] = "pin",
};

/*
 * One cover, found again beneath the bind's mount just attached: never
 * through a symlink, never above the bind's root, so an entry the host
 * replaced by a link since the scan cannot lead a cover elsewhere (that
 * fails the run).  An entry gone since the scan has nothing to protect or
 * hide, and is skipped.
 *
 * protect: a recursive clone of the entry, made read-only (every submount
 * too), stacked on the entry itself.  A write then fails with EROFS, and
 * so does creating anything inside a protected folder; a rename or unlink
 * of the mount point fails with EBUSY, a hard link to it with EXDEV (links
 * never cross mounts); the payload holds no capability to unmount it.
 * pin: the same clone left writable, so that only the name is fixed.
 * mask: a clone of the mask source's empty file or directory (read-only,
 * nosuid, nodev, noexec) of the entry's own type.
 */
static int cover_one(struct mount_ctx *c, int tree_fd, const struct nsb_cover *cv,
		     struct nsb_error *e)
{
	struct open_how how = {
		.flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	_cleanup_close_ int at = (int)syscall(SYS_openat2, tree_fd, cv->rel, &how, sizeof(how));
	struct stat st;
	int t, r;

	if (at < 0) {
		if (errno == ENOENT)
			return 0;
		return mnt_mount_err(e, nsb_negerrno(), verb[cv->kind], cv->path);
	}
	if (fstat(at, &st) < 0)
		return mnt_mount_err(e, nsb_negerrno(), verb[cv->kind], cv->path);
	if (cv->kind == NSB_COVER_MASK)
		t = open_tree(c->mask_fd, S_ISDIR(st.st_mode) ? "dir" : "file",
			      OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	else
		t = open_tree(at, "",
			      OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH | AT_RECURSIVE);
	if (t < 0)
		return mnt_mount_err(e, nsb_negerrno(), verb[cv->kind], cv->path);
	if (cv->kind == NSB_COVER_PROTECT) {
		r = mnt_set_attr(t, "", AT_EMPTY_PATH | AT_RECURSIVE,
				 MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
		if (r < 0) {
			close(t);
			return mnt_mount_err(e, r, "make read-only", cv->path);
		}
	}
	if (move_mount(t, "", at, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0) {
		r = nsb_negerrno();
		close(t);
		return mnt_mount_err(e, r, verb[cv->kind], cv->path);
	}
	mnt_defer_close(c, t);
	nsb_dest_covered(&c->walk, cv->path);
	return 0;
}

int mnt_cover_bind(struct mount_ctx *c, size_t op, int tree_fd, struct nsb_error *e)
{
	const struct nsb_plan *p = c->plan;

	/* The covers come in the order of their binds, parents first. */
	for (; c->next_cover < p->n_covers && p->covers[c->next_cover].op <= op; c->next_cover++) {
		const struct nsb_cover *cv = &p->covers[c->next_cover];
		int r;

		if (cv->op != op)
			continue; /* its bind was skipped: nothing there */
		r = cover_one(c, tree_fd, cv, e);
		if (r < 0)
			return r;
	}
	return 0;
}
