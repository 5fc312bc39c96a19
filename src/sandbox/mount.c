// SPDX-License-Identifier: GPL-2.0-or-later
/* mount: run by init, before pivot_root: the new root, every bind and /tmp (/proc, /dev: mount_special). */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/mount.h"
#include "sandbox/mount_ctx.h"
#include "sandbox/mount_dest.h"
#include "base/fmt.h"
#include "base/util.h"

struct prepared {
	int tree_fd;	   /* detached clone of the source, or -1 */
	bool skip;	   /* optional entry absent on the host */
	bool is_dir;	   /* the source's type: the plan's expectation until checked */
	bool type_checked; /* is_dir comes from fstat of the clone */
	bool is_link;
	char *link; /* the link's target, owned (init's heap stays small) */
};

static int cmp_fd(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/*
 * Close fds[0..k) (-1 entries are skipped): they were opened one after
 * another, so most are consecutive and one close_range closes each run of
 * them, where closing them one by one costs a call each.
 */
static void close_runs(int *fds, size_t k)
{
	qsort(fds, k, sizeof(*fds), cmp_fd);
	for (size_t i = 0; i < k;) {
		size_t j = i;
		while (j + 1 < k && fds[j + 1] == fds[j] + 1)
			j++;
		/* close_range (Linux 5.9) predates the mount API nsbox needs. */
		if (fds[i] >= 0 &&
		    syscall(SYS_close_range, (unsigned)fds[i], (unsigned)fds[j], 0) < 0)
			for (size_t m = i; m <= j; m++)
				close(fds[m]);
		i = j + 1;
	}
}

static void flush_deferred(struct mount_ctx *c)
{
	close_runs(c->defer, c->n_defer);
	c->n_defer = 0;
}

/* Close fd with the next batch: a mount point or an attached tree is not
 * used again, and its number is not reused meanwhile.  A full batch is
 * closed at once, so fd must be one no longer used. */
void mnt_defer_close(struct mount_ctx *c, int fd)
{
	if (fd < 0)
		return;
	if (c->n_defer == DEFER_MAX)
		flush_deferred(c);
	c->defer[c->n_defer++] = fd;
}

int mnt_set_attr(int fd, const char *path, unsigned flags, uint64_t set)
{
	struct mount_attr attr = {.attr_set = set};
	if (mount_setattr(fd, path, flags, &attr, sizeof(attr)) < 0)
		return nsb_negerrno();
	return 0;
}

int mnt_mount_err(struct nsb_error *e, int r, const char *what, const char *path)
{
	return nsb_error_set(e, r, NSB_STAGE_MOUNT, "%s '%s'", what, path);
}

static int attach_at(struct mount_ctx *c, int tree_fd, const char *dest, bool is_dir, bool *created,
		     struct nsb_error *e)
{
	/*
	 * A directory of the root's own (/usr, /proc, /dev, /tmp) that mkdir
	 * has just made in the new root, a tmpfs where nothing else runs: its
	 * one name is a lookup that meets no link, and no fd is needed.
	 * Anything already there takes the walk.
	 */
	if (is_dir && dest[0] == '/' && dest[1] && !strchr(dest + 1, '/')) {
		if (mkdirat(c->root_fd, dest + 1, 0755) == 0) {
			if (created)
				*created = true;
			if (move_mount(tree_fd, "", c->root_fd, dest + 1, MOVE_MOUNT_F_EMPTY_PATH) <
			    0)
				return mnt_mount_err(e, nsb_negerrno(), "attach mount at", dest);
			return 0;
		}
		if (errno != EEXIST)
			return mnt_mount_err(e, nsb_negerrno(), "create mount point", dest);
	}
	/* The same, one level down, in the directory of the previous
	 * destination (binds side by side): no fd either, or the one of a
	 * directory that is there already. */
	int dfd = -1;
	const char *name = NULL;
	int kept = is_dir ? nsb_dest_in_kept(&c->walk, dest, &dfd, &name) : 0;
	if (kept == 1) {
		if (created)
			*created = true;
		if (move_mount(tree_fd, "", dfd, name, MOVE_MOUNT_F_EMPTY_PATH) < 0)
			return mnt_mount_err(e, nsb_negerrno(), "attach mount at", dest);
		return 0;
	}
	if (kept == 0)
		dfd = nsb_dest_open(&c->walk, dest, is_dir, created, e);
	if (dfd < 0)
		return dfd;
	if (move_mount(tree_fd, "", dfd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) <
	    0) {
		int r = nsb_negerrno();
		close(dfd);
		return mnt_mount_err(e, r, "attach mount at", dest);
	}
	mnt_defer_close(c, dfd);
	nsb_dest_covered(&c->walk, dest);
	return 0;
}

int mnt_attach(struct mount_ctx *c, int tree_fd, const char *dest, bool is_dir, struct nsb_error *e)
{
	return attach_at(c, tree_fd, dest, is_dir, NULL, e);
}

/*
 * Attach a bind whose type is the plan's expectation, not yet checked: when
 * that fails, the clone's real type decides.  If it differs, the mount point
 * made for the expected type (when this call made it) is removed and the
 * bind attached again for the real one; else the first error stands.
 */
static int attach_bind(struct mount_ctx *c, struct prepared *pr, const char *dest,
		       struct nsb_error *e)
{
	bool created = false;
	struct stat st;
	int r = attach_at(c, pr->tree_fd, dest, pr->is_dir, &created, e);

	if (r == 0 || pr->type_checked)
		return r;
	if (fstat(pr->tree_fd, &st) < 0 || S_ISDIR(st.st_mode) == pr->is_dir)
		return r;
	if (created) {
		_cleanup_close_ int parent = -1;
		const char *name = NULL;
		r = nsb_dest_parent(c->root_fd, dest, &parent, &name, e);
		if (r < 0)
			return r;
		// NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker)
		if (unlinkat(parent, name, pr->is_dir ? AT_REMOVEDIR : 0) < 0)
			return mnt_mount_err(e, nsb_negerrno(), "remove mount point", dest);
	}
	nsb_error_clear(e);
	pr->is_dir = S_ISDIR(st.st_mode);
	pr->type_checked = true;
	return mnt_attach(c, pr->tree_fd, dest, pr->is_dir, e);
}

/* A new, detached filesystem instance with the given options. */
int mnt_new_fs(struct mount_ctx *c, const char *type, const char *const *kv, unsigned attrs,
	       const char *dest, struct nsb_error *e)
{
	_cleanup_close_ int fs = fsopen(type, FSOPEN_CLOEXEC);
	int mnt;

	if (fs < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_MOUNT, "create %s for '%s'", type,
				     dest);
	for (size_t i = 0; kv && kv[i]; i += 2) {
		int r = kv[i + 1] ? fsconfig(fs, FSCONFIG_SET_STRING, kv[i], kv[i + 1], 0)
				  : fsconfig(fs, FSCONFIG_SET_FLAG, kv[i], NULL, 0);
		if (r < 0)
			return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_MOUNT,
					     "set %s option '%s' for '%s'", type, kv[i], dest);
	}
	if (fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_MOUNT, "create %s for '%s'", type,
				     dest);
	mnt = fsmount(fs, FSMOUNT_CLOEXEC, attrs);
	if (mnt < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_MOUNT, "mount %s for '%s'", type,
				     dest);
	mnt_defer_close(c, TAKE_FD(fs));
	return mnt;
}

int mnt_new_tmpfs(struct mount_ctx *c, uint64_t size, unsigned mode, unsigned attrs,
		  const char *dest, struct nsb_error *e)
{
	char sz[32], md[16];
	nsb_format(sz, sizeof(sz), "%llu", (unsigned long long)size);
	nsb_format(md, sizeof(md), "%o", mode);
	/* 01777 is tmpfs's own default mode: no call to set it. */
	const char *kv[] = {"size", sz, mode == 01777 ? NULL : "mode", md, NULL};
	return mnt_new_fs(c, "tmpfs", kv, attrs, dest, e);
}

/* A system path that may be missing (skipped) or a symlink (kept as a link,
 * pr->link): only a real directory or file is bound like a bind.  readlink
 * alone tells the three apart (EINVAL: no link); such a path is expected to
 * be a directory, which attach_bind checks if the mount fails. */
static int prepare_syslink(const struct nsb_mount_op *op, struct prepared *pr, struct nsb_error *e)
{
	char link[NSB_MAX_PATH + 1];
	ssize_t n = readlink(op->src, link, sizeof(link) - 1);

	if (n < 0) {
		if (errno == ENOENT) {
			pr->skip = true;
			return 0;
		}
		if (errno == EINVAL) {
			pr->is_dir = true;
			return 0;
		}
		return mnt_mount_err(e, nsb_negerrno(), "read link", op->src);
	}
	pr->link = strndup(link, (size_t)n);
	if (!pr->link)
		return mnt_mount_err(e, -ENOMEM, "read link", op->src);
	pr->is_link = true;
	return 0;
}

/*
 * The /etc snapshot is cloned by path (a clone must come from a mount of
 * init's namespace, and the descriptor init inherited is on the host's),
 * and must be the directory the supervisor checked and holds: one swapped
 * in meanwhile is refused.
 */
static int mnt_same_dir(int tree_fd, int want_fd, const char *path, struct nsb_error *e)
{
	struct stat want, got;

	if (fstat(want_fd, &want) < 0 || fstat(tree_fd, &got) < 0)
		return mnt_mount_err(e, nsb_negerrno(), "stat", path);
	if (want.st_dev != got.st_dev || want.st_ino != got.st_ino)
		return nsb_error_set(e, -EXDEV, NSB_STAGE_MOUNT,
				     "the /etc snapshot '%s' was replaced during setup", path);
	return 0;
}

/* Clone the source of every bind while the host tree is still visible. */
static int prepare(struct mount_ctx *c, struct nsb_error *e)
{
	const struct nsb_plan *p = c->plan;
	int r;

	for (size_t i = 0; i < p->n_ops; i++) {
		const struct nsb_mount_op *op = &p->ops[i];
		struct prepared *pr = &c->prep[i];

		if (op->kind != NSB_OP_BIND && op->kind != NSB_OP_SYSLINK)
			continue;
		/* A file of /etc that the snapshot bound at /etc holds. */
		if (op->in_snapshot) {
			pr->skip = true;
			continue;
		}

		if (op->kind == NSB_OP_SYSLINK) {
			r = prepare_syslink(op, pr, e);
			if (r != 0)
				return r;
			if (pr->skip || pr->is_link)
				continue;
		}

		/* One call clones the whole subtree (AT_RECURSIVE)... */
		pr->tree_fd = open_tree(AT_FDCWD, op->src,
					OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE |
						(op->from_snapshot ? AT_SYMLINK_NOFOLLOW : 0));
		if (pr->tree_fd >= 0 && op->from_snapshot) {
			r = mnt_same_dir(pr->tree_fd, p->etc_snapshot_fd, op->src, e);
			if (r < 0)
				return r;
		}
		if (pr->tree_fd < 0) {
			r = nsb_negerrno();
			if (op->optional && (r == -ENOENT || r == -ENOTDIR)) {
				pr->skip = true;
				continue;
			}
			nsb_error_set(e, r, NSB_STAGE_MOUNT, "bind '%s'", op->src);
			if (r == -ENOSYS)
				nsb_error_hint(
					e, "nsbox needs the new mount API (Linux 5.12 or later)");
			return r;
		}
		/* Its type is the plan's (the supervisor's stat, or the
		 * system view's table), checked by attach_bind when the mount
		 * fails; a syslink's was seen by lstat. */
		if (op->kind != NSB_OP_SYSLINK)
			pr->is_dir = op->src_is_dir;
		if (i < c->ro_prefix)
			continue; /* made read-only with the root (ro_prefix) */

		/* ...and one call makes every submount read-only, nosuid and
		 * nodev: no mountinfo walk, no submount left writable. */
		uint64_t set = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;
		if (op->readonly)
			set |= MOUNT_ATTR_RDONLY;
		r = mnt_set_attr(pr->tree_fd, "", AT_EMPTY_PATH | AT_RECURSIVE, set);
		if (r < 0)
			return mnt_mount_err(
				e, r, op->readonly ? "make read-only" : "set nosuid,nodev on",
				op->src);
	}
	return mnt_prepare_devices(c, e);
}

/* --overlay: the overlay at dest, then its covers, found beneath it. */
static int apply_overlay(struct mount_ctx *c, size_t i, struct nsb_error *e)
{
	const struct nsb_mount_op *op = &c->plan->ops[i];
	int m = mnt_make_overlay(c, op, c->prep[i].tree_fd, e);
	int r;

	if (m < 0)
		return m;
	r = mnt_attach(c, m, op->dest, true, e);
	if (r == 0)
		r = mnt_cover_bind(c, i, m, e);
	mnt_defer_close(c, m);
	return r;
}

static int apply_op(struct mount_ctx *c, size_t i, struct nsb_error *e)
{
	const struct nsb_mount_op *op = &c->plan->ops[i];
	struct prepared *pr = &c->prep[i];

	if (pr->skip)
		return 0;

	switch (op->kind) {
	case NSB_OP_SYSLINK:
		if (pr->is_link) {
			_cleanup_close_ int parent = -1;
			const char *name = NULL;
			int r;

			/* The root's own entries (/bin, /lib64, ...) need no walk. */
			if (op->dest[0] == '/' && op->dest[1] && !strchr(op->dest + 1, '/')) {
				if (symlinkat(pr->link, c->root_fd, op->dest + 1) < 0)
					return mnt_mount_err(e, nsb_negerrno(), "create link",
							     op->dest);
				return 0;
			}
			r = nsb_dest_parent(c->root_fd, op->dest, &parent, &name, e);
			if (r < 0)
				return r;
			/* nsb_dest_parent sets name whenever it returns >= 0 */
			// NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker)
			if (symlinkat(pr->link, parent, name) < 0)
				return mnt_mount_err(e, nsb_negerrno(), "create link", op->dest);
			return 0;
		}
		return attach_bind(c, pr, op->dest, e);
	case NSB_OP_BIND: {
		if (op->overlay)
			return apply_overlay(c, i, e);
		int r = attach_bind(c, pr, op->dest, e);
		/* Protected paths and masks, before any bind nested in this one. */
		return r < 0 ? r : mnt_cover_bind(c, i, pr->tree_fd, e);
	}
	case NSB_OP_TMPFS: {
		int t = mnt_new_tmpfs(c, op->size, op->mode, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
				      op->dest, e);
		if (t < 0)
			return t;
		int r = mnt_attach(c, t, op->dest, true, e);
		mnt_defer_close(c, t);
		return r;
	}
	case NSB_OP_PROC:
		return mnt_setup_proc(c, op, e);
	case NSB_OP_DEV:
		return mnt_setup_dev(c, op, e);
	}
	return nsb_error_setx(e, -EINVAL, NSB_STAGE_MOUNT, "unknown mount operation for '%s'",
			      op->dest);
}

static int switch_root(struct mount_ctx *c, struct nsb_error *e)
{
	/*
	 * pivot_root(".", ".") stacks the old root under the new one; the
	 * lazy unmount then drops it, so no path inside leads to the host.
	 */
	if (fchdir(c->root_fd) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_PIVOT_ROOT, "enter the new root");
	if (syscall(SYS_pivot_root, ".", ".") < 0) {
		int r = nsb_error_set(e, nsb_negerrno(), NSB_STAGE_PIVOT_ROOT,
				      "switch to the new root");
		/* The kernel's initial rootfs can never be pivoted away from. */
		if (r == -EINVAL)
			nsb_error_hint(
				e,
				"is '/' the kernel's initramfs (rootfs)? pivot_root cannot leave it: switch_root into a tmpfs first, as an init system does");
		return r;
	}
	if (umount2(".", MNT_DETACH) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_PIVOT_ROOT,
				     "detach the old root");
	if (chdir("/") < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_PIVOT_ROOT, "enter '/'");
	/* Only now, with every mount point in place, is / made read-only. */
	int r = mnt_set_attr(AT_FDCWD, "/", 0,
			     MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_PIVOT_ROOT, "make '/' read-only");
	return 0;
}

/* Close every fd the mounts held (-1 entries are skipped), in runs. */
static void close_held(struct mount_ctx *c)
{
	const size_t n_ops = c->plan->n_ops;
	const size_t n = n_ops + ARRAY_SIZE(c->dev_fds) + 3 + c->n_defer;
	int *fds = malloc(n * sizeof(*fds));
	size_t k = 0;

	if (!fds) {
		flush_deferred(c);
		for (size_t i = 0; i < n_ops; i++)
			nsb_closep(&c->prep[i].tree_fd);
		for (size_t i = 0; i < ARRAY_SIZE(c->dev_fds); i++)
			nsb_closep(&c->dev_fds[i]);
		nsb_closep(&c->mask_fd);
		nsb_closep(&c->walk.dir_fd);
		nsb_closep(&c->root_fd);
		return;
	}
	for (size_t i = 0; i < n_ops; i++)
		fds[k++] = TAKE_FD(c->prep[i].tree_fd);
	for (size_t i = 0; i < ARRAY_SIZE(c->dev_fds); i++)
		fds[k++] = TAKE_FD(c->dev_fds[i]);
	for (size_t i = 0; i < c->n_defer; i++)
		fds[k++] = c->defer[i];
	c->n_defer = 0;
	fds[k++] = TAKE_FD(c->mask_fd);
	fds[k++] = TAKE_FD(c->walk.dir_fd);
	fds[k++] = TAKE_FD(c->root_fd);
	close_runs(fds, k);
	free(fds);
}

/* The leading binds that are read-only (and so take the root's flags). */
static size_t count_ro_prefix(const struct nsb_plan *p)
{
	size_t i = 0;

	while (i < p->n_ops &&
	       (p->ops[i].kind == NSB_OP_BIND || p->ops[i].kind == NSB_OP_SYSLINK) &&
	       p->ops[i].readonly)
		i++;
	return i;
}

/*
 * Every bind of the read-only prefix is attached: one recursive call makes
 * them and every submount read-only, nosuid and nodev, and a second gives the
 * root back its write access for the mount points still to come (switch_root
 * takes it away for good).
 */
static int seal_ro_prefix(struct mount_ctx *c, struct nsb_error *e)
{
	struct mount_attr clr = {.attr_clr = MOUNT_ATTR_RDONLY};
	int r = mnt_set_attr(c->root_fd, "", AT_EMPTY_PATH | AT_RECURSIVE,
			     MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);

	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_MOUNT, "make the system view read-only");
	if (mount_setattr(c->root_fd, "", AT_EMPTY_PATH, &clr, sizeof(clr)) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_MOUNT,
				     "make the new root writable again");
	return 0;
}

/* Long: one fixed sequence of steps (mount.h), each with its error path. */
int nsb_mount_setup(const struct nsb_plan *plan, int overlay_sock, struct nsb_error *e)
{
	struct mount_ctx c = {
		.plan = plan, .mask_fd = -1, .root_fd = -1, .walk = {.root_fd = -1, .dir_fd = -1}};
	c.overlay_sock = overlay_sock;
	c.store_fd = -1;
	int r;

	c.prep = calloc(plan->n_ops ? plan->n_ops : 1, sizeof(*c.prep));
	if (!c.prep)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_MOUNT, "plan the mounts");
	for (size_t i = 0; i < plan->n_ops; i++)
		c.prep[i].tree_fd = -1;
	c.ro_prefix = count_ro_prefix(plan);
	for (size_t i = 0; i < ARRAY_SIZE(c.dev_fds); i++)
		c.dev_fds[i] = -1;

	/* Nothing we mount may propagate back to the host, and nothing the
	 * host mounts later may appear inside. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		r = nsb_error_set(e, nsb_negerrno(), NSB_STAGE_MOUNT, "make '/' private");
		goto out;
	}

	r = prepare(&c, e);
	if (r >= 0)
		r = mnt_open_store(&c, e);
	if (r < 0)
		goto out;

	c.root_fd = mnt_new_tmpfs(&c, 1 << 20, 0755, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, "/", e);
	c.walk.root_fd = c.root_fd;
	if (c.root_fd < 0) {
		r = c.root_fd;
		goto out;
	}
	/* Beneath the new root, which is stacked on it at once. */
	r = mnt_make_mask_source(&c, e);
	if (r < 0)
		goto out;
	if (move_mount(c.root_fd, "", AT_FDCWD, STAGING_DIR, MOVE_MOUNT_F_EMPTY_PATH) < 0) {
		r = nsb_error_set(e, nsb_negerrno(), NSB_STAGE_MOUNT, "attach the new root at '%s'",
				  STAGING_DIR);
		goto out;
	}

	for (size_t i = 0; i < plan->n_ops; i++) {
		if (i == c.ro_prefix && i > 0) {
			r = seal_ro_prefix(&c, e);
			if (r < 0)
				goto out;
		}
		r = apply_op(&c, i, e);
		if (r < 0)
			goto out;
	}
	if (c.ro_prefix == plan->n_ops && c.ro_prefix > 0) {
		r = seal_ro_prefix(&c, e);
		if (r < 0)
			goto out;
	}

	r = switch_root(&c, e);
	if (r < 0)
		goto out;

	if (chdir(plan->cwd) < 0) {
		r = nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CHDIR,
				  "enter working directory '%s'", plan->cwd);
		nsb_error_hint(
			e,
			"the directory must exist inside the sandbox: bind it with --ro/--rw or pick another --chdir");
		goto out;
	}
	r = 0;
out:
	close_held(&c);
	nsb_closep(&c.store_fd);
	for (size_t i = 0; i < plan->n_ops; i++)
		free(c.prep[i].link);
	free(c.prep);
	return r;
}
