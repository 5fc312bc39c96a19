// SPDX-License-Identifier: GPL-2.0-or-later
/* mount_special: run by init, before pivot_root: the new /proc (read-only parts, masks) and /dev. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sandbox/mount_ctx.h"
#include "base/fmt.h"
#include "base/util.h"

/*
 * procfs entries that show the host kernel's memory, keyrings, timers and
 * allocator state: covered, each by an empty read-only file (or an empty
 * read-only directory), what the OCI runtimes mask and more.  Whatever the
 * host kernel lacks is skipped: it has nothing there to leak.
 */
static const struct {
	char name[16]; /* no pointer, no relocation (base/macro.h) */
	bool dir;      /* its type on every kernel seen; another is found by the mount */
} proc_masked[] = {
	{"kcore", false},	{"keys", false},	 {"key-users", false},
	{"timer_list", false},	{"sched_debug", false},	 {"slabinfo", false},
	{"vmallocinfo", false}, {"kpageflags", false},	 {"kpagecount", false},
	{"kpagecgroup", false}, {"pagetypeinfo", false}, {"latency_stats", false},
	{"config.gz", false},	{"acpi", true},		 {"scsi", true},
};

/* Clone the host's device nodes (null, zero, ...) for the new /dev (made
 * read-only there, with /dev: setup_dev). */
int mnt_prepare_devices(struct mount_ctx *c, struct nsb_error *e)
{
	for (size_t i = 0; i < ARRAY_SIZE(dev_nodes); i++) {
		char path[64];
		nsb_format(path, sizeof(path), "/dev/%s", dev_nodes[i]);
		c->dev_fds[i] = open_tree(AT_FDCWD, path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
		if (c->dev_fds[i] < 0)
			return mnt_mount_err(e, nsb_negerrno(), "bind device", path);
	}
	return 0;
}

/*
 * The source of every mask: a tiny tmpfs with an empty file and an empty
 * directory, read-only before anything is cloned from it.  open_tree can
 * clone only from a mount that is attached (before Linux 6.15), so it is
 * attached at the staging directory, under the new root that is stacked on
 * it next; it leaves with the old root at pivot_root.
 */
int mnt_make_mask_source(struct mount_ctx *c, struct nsb_error *e)
{
	int r;

	/* Never seen itself (only its two entries are): the defaults do. */
	c->mask_fd =
		mnt_new_fs(c, "tmpfs", NULL,
			   MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC, "/proc", e);
	if (c->mask_fd < 0)
		return c->mask_fd;
	if (mkdirat(c->mask_fd, "dir", 0555) < 0)
		return mnt_mount_err(e, nsb_negerrno(), "create the empty directory for", "/proc");
	/* mknodat leaves no file open for writing, which would keep the
	 * mount from being made read-only. */
	if (mknodat(c->mask_fd, "file", S_IFREG | 0444, 0) < 0)
		return mnt_mount_err(e, nsb_negerrno(), "create the empty file for", "/proc");
	r = mnt_set_attr(c->mask_fd, "", AT_EMPTY_PATH, MOUNT_ATTR_RDONLY);
	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_MOUNT, "make the masks of '/proc' read-only");
	if (move_mount(c->mask_fd, "", AT_FDCWD, STAGING_DIR, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_MOUNT,
				     "attach the masks of /proc at '%s'", STAGING_DIR);
	return 0;
}

/*
 * Cover each /proc/NAME with an empty read-only file or directory of its own
 * type.  Reading it gives nothing, opening it for writing fails (mode 0444
 * or 0555 on a read-only mount), and the payload, holding no capability,
 * cannot unmount the cover; in a nested user namespace the kernel locks it
 * to the mounts beneath, and refuses a new procfs because of it.
 *
 * Each cover is a clone of the mask source's entry, which is read-only,
 * nosuid, nodev and noexec already: the clone has its flags.  The move
 * itself finds what this kernel has: ENOENT for an entry it lacks (the
 * clone, still detached, serves the next one), ENOTDIR or EINVAL for one of
 * the other type (the clone of the other type is tried).
 */
static int mask_proc(struct mount_ctx *c, int proc, struct nsb_error *e)
{
	int t[2] = {-1, -1}; /* a detached clone of "file" and of "dir" */
	int r = 0;

	for (size_t i = 0; i < ARRAY_SIZE(proc_masked) && r == 0; i++) {
		const char *name = proc_masked[i].name;
		char path[64];

		nsb_format(path, sizeof(path), "/proc/%s", name);
		for (int try = 0; try < 2; try++) {
			int k = proc_masked[i].dir ^ try;
			if (t[k] < 0)
				t[k] = open_tree(c->mask_fd, k ? "dir" : "file",
						 OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
			if (t[k] < 0) {
				r = mnt_mount_err(e, nsb_negerrno(), "mask", path);
				break;
			}
			if (move_mount(t[k], "", proc, name, MOVE_MOUNT_F_EMPTY_PATH) == 0) {
				mnt_defer_close(c, TAKE_FD(t[k]));
				break;
			}
			if (errno == ENOENT)
				break; /* not on this kernel: nothing to leak */
			/* Another type: ENOTDIR, or EINVAL on recent kernels. */
			if ((errno != ENOTDIR && errno != EINVAL) || try == 1) {
				r = mnt_mount_err(e, nsb_negerrno(), "mask", path);
				break;
			}
		}
	}
	/*
	 * A clone left detached would be dissolved when its fd closes, and
	 * that waits for an RCU grace period (milliseconds on a busy host):
	 * it is stacked on the mask source instead, which leaves with the
	 * old root (one such wait for all).
	 */
	for (int k = 0; k < 2; k++) {
		if (t[k] >= 0 && r == 0 &&
		    move_mount(t[k], "", c->mask_fd, k ? "dir" : "file", MOVE_MOUNT_F_EMPTY_PATH) <
			    0)
			r = mnt_mount_err(e, nsb_negerrno(), "put away the spare mask of", "/proc");
		mnt_defer_close(c, t[k]);
	}
	return r;
}

static int fill_proc(struct mount_ctx *c, int proc, const struct nsb_mount_op *op,
		     struct nsb_error *e)
{
	/* Writable or revealing parts of procfs: made read-only in place. */
	static const char *const ro_paths[] = {"sys", "sysrq-trigger", "irq", "bus"};
	int r = mnt_attach(c, proc, op->dest, true, e);

	if (r < 0)
		return r;
	for (size_t i = 0; i < ARRAY_SIZE(ro_paths); i++) {
		_cleanup_close_ int t = open_tree(
			proc, ro_paths[i], OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
		char path[64];

		nsb_format(path, sizeof(path), "/proc/%s", ro_paths[i]);
		if (t < 0) {
			if (errno == ENOENT)
				continue; /* not every kernel has every entry */
			return mnt_mount_err(e, nsb_negerrno(), "protect", path);
		}
		r = mnt_set_attr(t, "", AT_EMPTY_PATH | AT_RECURSIVE,
				 MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
					 MOUNT_ATTR_NOEXEC);
		if (r < 0)
			return mnt_mount_err(e, r, "make read-only", path);
		if (move_mount(t, "", proc, ro_paths[i], MOVE_MOUNT_F_EMPTY_PATH) < 0)
			return mnt_mount_err(e, nsb_negerrno(), "make read-only", path);
		mnt_defer_close(c, TAKE_FD(t));
	}
	return mask_proc(c, proc, e);
}

/* Every fd is closed with a batch only once it is no longer used. */
int mnt_setup_proc(struct mount_ctx *c, const struct nsb_mount_op *op, struct nsb_error *e)
{
	int proc =
		mnt_new_fs(c, "proc", NULL,
			   MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC, op->dest, e);
	int r;

	if (proc < 0)
		return proc;
	r = fill_proc(c, proc, op, e);
	mnt_defer_close(c, proc);
	return r;
}

/* Attach mnt at dev/name, made by setup_dev: /dev is a tmpfs of init's
 * own, where nothing else runs, so the one name is a lookup that meets no
 * link. */
static int dev_attach(struct mount_ctx *c, int dev, int mnt, const char *name, struct nsb_error *e)
{
	if (move_mount(mnt, "", dev, name, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_MOUNT,
				     "attach mount at '/dev/%s'", name);
	mnt_defer_close(c, mnt);
	return 0;
}

static int fill_dev(struct mount_ctx *c, int dev, const struct nsb_mount_op *op,
		    struct nsb_error *e)
{
	static const char *const links[][2] = {
		{"fd", "/proc/self/fd"},       {"stdin", "/proc/self/fd/0"},
		{"stdout", "/proc/self/fd/1"}, {"stderr", "/proc/self/fd/2"},
		{"ptmx", "pts/ptmx"},
	};
	const char *pts_opts[] = {"newinstance", NULL, "ptmxmode", "0666", "mode", "0620", NULL};
	int pts, shm;
	int r = mnt_attach(c, dev, op->dest, true, e);

	if (r < 0)
		return r;

	for (size_t i = 0; i < ARRAY_SIZE(dev_nodes); i++) {
		if (mknodat(dev, dev_nodes[i], S_IFREG | 0444, 0) < 0)
			return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_MOUNT,
					     "create mount point '/dev/%s'", dev_nodes[i]);
		r = dev_attach(c, dev, c->dev_fds[i], dev_nodes[i], e);
		if (r < 0)
			return r;
		c->dev_fds[i] = -1; /* closed with the batch */
	}
	for (size_t i = 0; i < ARRAY_SIZE(links); i++)
		if (symlinkat(links[i][1], dev, links[i][0]) < 0)
			return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_MOUNT,
					     "create link '/dev/%s'", links[i][0]);
	if (mkdirat(dev, "pts", 0755) < 0 || mkdirat(dev, "shm", 0755) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_MOUNT,
				     "create mount point in '/dev'");

	/*
	 * Nothing may be added to /dev once it is built, and the nodes are
	 * the host's own inodes: read-only, so that their mode, owner and
	 * times cannot change (chmod 000 /dev/null would reach the host's).
	 * Reading and writing a device on a read-only mount still works;
	 * nodev is left off so that it opens at all.  One recursive call
	 * covers /dev and its nodes, before devpts and /dev/shm are stacked
	 * on their directories (a mount point needs no write access).
	 */
	r = mnt_set_attr(dev, "", AT_EMPTY_PATH | AT_RECURSIVE,
			 MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC);
	if (r < 0)
		return mnt_mount_err(e, r, "make read-only", "/dev");

	/* A private devpts: the host's terminals are not reachable. */
	pts = mnt_new_fs(c, "devpts", pts_opts, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC, "/dev/pts",
			 e);
	if (pts < 0)
		return pts;
	r = dev_attach(c, dev, pts, "pts", e);
	if (r < 0) {
		close(pts);
		return r;
	}

	shm = mnt_new_tmpfs(c, op->size, 01777, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, "/dev/shm",
			    e);
	if (shm < 0)
		return shm;
	r = dev_attach(c, dev, shm, "shm", e);
	if (r < 0)
		close(shm);
	return r;
}

/* Every fd is closed with a batch only once it is no longer used. */
int mnt_setup_dev(struct mount_ctx *c, const struct nsb_mount_op *op, struct nsb_error *e)
{
	int dev = mnt_new_tmpfs(c, 64 << 10, 0755, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC, op->dest,
				e);
	int r;

	if (dev < 0)
		return dev;
	r = fill_dev(c, dev, op, e);
	mnt_defer_close(c, dev);
	return r;
}
