// SPDX-License-Identifier: GPL-2.0-or-later
/* overlay_store: run by the supervisor: --overlay-store's private directory, its watch and its removal. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/clock.h"
#include "base/macro.h"
#include "supervisor/overlay_store.h"
#include "supervisor/overlay_walk.h"
#include "supervisor/run.h"

/* Filesystems overlayfs refuses as an upper layer, or that would hand the
 * layer to another machine: said by name. */
static const struct {
	long magic;
	const char *name;
} bad_fs[] = {
	{0x794c7630, "overlayfs (an overlay cannot hold another's upper layer)"},
	{0x6969, "NFS (remote; overlayfs needs a local upper layer)"},
	{0x65735546, "FUSE (overlayfs cannot use it as an upper layer)"},
	{(long)0xff534d42, "CIFS (remote; overlayfs needs a local upper layer)"},
	{(long)0xfe534d42, "SMB2 (remote; overlayfs needs a local upper layer)"},
	{0x01021997, "9p (remote; overlayfs needs a local upper layer)"},
	{(long)0x858458f6, "ramfs (no extended attributes for overlayfs's markers)"},
	{0x9fa0, "procfs"},
	{0x62656572, "sysfs"},
};

/* Whether a (a real path) is b or lies beneath it. */
static bool is_within(const char *a, const char *b)
{
	size_t n = strlen(b);

	if (n == 1 && b[0] == '/')
		return true;
	return strncmp(a, b, n) == 0 && (a[n] == '\0' || a[n] == '/');
}

static int refuse(struct nsb_error *e, int err, const char *path, const char *why, const char *hint)
{
	nsb_error_set(e, err, NSB_STAGE_USAGE, "--overlay-store '%s': %s", path, why);
	if (hint)
		nsb_error_hint(e, "%s", hint);
	return err;
}

/* Where the store may not be: inside anything the payload sees of the host
 * (it could then rewrite its own upper layer behind overlayfs's back). */
static int check_place(const char *real, const struct nsb_plan *plan, struct nsb_error *e)
{
	const struct nsb_mount_op *in = NULL;
	char why[NSB_MAX_PATH + 64];

	/* The deepest bind that holds it names the reason. */
	for (size_t i = 0; i < plan->n_ops; i++) {
		const struct nsb_mount_op *op = &plan->ops[i];
		if (op->kind == NSB_OP_BIND && op->src[0] && is_within(real, op->src) &&
		    (!in || strlen(op->src) > strlen(in->src)))
			in = op;
	}
	if (!in)
		return 0;
	nsb_format(why, sizeof(why), "inside '%s', which the sandbox sees (%s)", in->src,
		   in->overlay	  ? "an --overlay DIR"
		   : in->readonly ? "a read-only bind"
				  : "a writable bind");
	return refuse(
		e, -EINVAL, real, why,
		"put the store outside every --overlay, --rw and --ro path (e.g. under ~/.cache)");
}

static int check_fs(int fd, const char *real, struct nsb_error *e)
{
	struct statfs sf;
	char why[160];

	if (fstatfs(fd, &sf) < 0)
		return refuse(e, nsb_negerrno(), real, "statfs failed", NULL);
	for (size_t i = 0; i < ARRAY_SIZE(bad_fs); i++)
		if ((long)sf.f_type == bad_fs[i].magic) {
			nsb_format(why, sizeof(why), "on %s", bad_fs[i].name);
			return refuse(
				e, -EINVAL, real, why,
				"use a directory on a local disk filesystem (ext4, xfs, btrfs)");
		}
	return 0;
}

/* overlayfs in a user namespace keeps its markers in user.* attributes. */
static int check_xattr(int fd, const char *real, struct nsb_error *e)
{
	if (fsetxattr(fd, "user.nsbox.probe", "1", 1, 0) < 0) {
		int r = nsb_negerrno();
		if (r == -EOPNOTSUPP)
			return refuse(
				e, r, real,
				"its filesystem has no user extended attributes, which overlayfs needs for its markers",
				"use a directory on ext4, xfs, btrfs or tmpfs");
		return refuse(e, r, real, "set an extended attribute", NULL);
	}
	if (fremovexattr(fd, "user.nsbox.probe") < 0)
		return refuse(e, nsb_negerrno(), real, "remove an extended attribute", NULL);
	return 0;
}

int nsb_ovl_store_open(struct nsb_ovl_store *s, const char *path, struct nsb_plan *plan,
		       struct nsb_error *e)
{
	_cleanup_free_ char *real = realpath(path, NULL);
	struct stat st;
	int r;

	s->fd = -1;
	s->path[0] = '\0';
	s->limit = plan->overlay_size;
	s->tripped = false;
	s->made = false;
	if (!real)
		return refuse(e, nsb_negerrno(), path, "not found", NULL);
	if (stat(real, &st) < 0)
		return refuse(e, nsb_negerrno(), path, "stat failed", NULL);
	if (!S_ISDIR(st.st_mode))
		return refuse(e, -ENOTDIR, path, "not a directory", NULL);
	r = check_place(real, plan, e);
	if (r < 0)
		return r;
	if (strlen(real) > NSB_MAX_PATH)
		return refuse(e, -ENAMETOOLONG, path, "path too long", NULL);
	{
		_cleanup_close_ int pfd = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (pfd < 0)
			return refuse(e, nsb_negerrno(), path, "open failed", NULL);
		r = check_fs(pfd, real, e);
		if (r < 0)
			return r;
	}
	nsb_format(s->path, sizeof(s->path), "%s/nsbox-ovl-XXXXXX", real);
	/* mkdtemp: a new name, mode 0700, the caller's. */
	if (!mkdtemp(s->path)) {
		r = nsb_negerrno();
		s->path[0] = '\0';
		return refuse(e, r, path, "create the run's directory", NULL);
	}
	s->made = true;
	s->fd = open(s->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (s->fd < 0) {
		r = refuse(e, nsb_negerrno(), s->path, "open the run's directory", NULL);
		goto fail;
	}
	r = check_fs(s->fd, real, e);
	if (r == 0)
		r = check_xattr(s->fd, real, e);
	if (r < 0)
		goto fail;
	plan->overlay_store = s->path;
	plan->overlay_store_fd = s->fd;
	return 0;
fail:
	nsb_ovl_store_remove(s);
	return r;
}

/* Depth-first, one name at a time beneath an open directory. */
static void usage_dir(int dfd, unsigned depth, uint64_t max_b, uint64_t max_i, uint64_t *b,
		      uint64_t *ino)
{
	DIR *d;
	struct dirent *de;

	if (depth > NSB_OVL_MAX_DEPTH + 8)
		return;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	while ((de = readdir(d)) && *b <= max_b && *ino <= max_i) {
		struct stat st;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		*b += (uint64_t)st.st_blocks * 512;
		(*ino)++;
		if (S_ISDIR(st.st_mode)) {
			/* A directory the payload left unreadable (chmod 300: it
			 * still writes into it) is widened for the count, or
			 * what it holds would escape the bound. */
			_cleanup_(nsb_ovl_unwiden) struct nsb_ovl_widened wide = {.fd = -1};
			int c = nsb_ovl_open_upper(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY,
						   &wide);
			if (c >= 0)
				usage_dir(c, depth + 1, max_b, max_i, b, ino);
		}
	}
	closedir(d);
}

void nsb_ovl_store_usage(int dirfd, uint64_t max_bytes, uint64_t max_inodes, uint64_t *ret_bytes,
			 uint64_t *ret_inodes)
{
	struct stat st;
	int fd = nsb_ovl_open_beneath(dirfd, ".", O_RDONLY | O_DIRECTORY, 0);

	*ret_bytes = *ret_inodes = 0;
	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0) {
		*ret_bytes = (uint64_t)st.st_blocks * 512;
		*ret_inodes = 1;
	}
	usage_dir(fd, 0, max_bytes, max_inodes, ret_bytes, ret_inodes);
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* The walk: each overlay's blocks and inodes; tripped past a bound, else
 * the least room any overlay has left. */
static void store_walk(struct nsb_ovl_store *s)
{
	DIR *d;
	struct dirent *de;
	int fd;

	s->room_bytes = s->limit;
	s->room_inodes = s->limit >> 10;
	/* A descriptor of its own: the DIR's offset is not s->fd's. */
	fd = nsb_ovl_open_beneath(s->fd, ".", O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0)
		goto unknown;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		goto unknown;
	}
	/* One subdirectory per overlay, each bounded on its own. */
	while ((de = readdir(d))) {
		uint64_t b, n;
		int c;
		if (de->d_name[0] == '.')
			continue;
		c = nsb_ovl_open_beneath(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY, 0);
		if (c < 0)
			continue;
		nsb_ovl_store_usage(c, s->limit, s->limit >> 10, &b, &n);
		close(c);
		if (b > s->limit || n > (s->limit >> 10))
			s->tripped = true;
		else {
			s->room_bytes = min_u64(s->room_bytes, s->limit - b);
			s->room_inodes = min_u64(s->room_inodes, (s->limit >> 10) - n);
		}
	}
	closedir(d);
	return;
unknown:
	/* No count: the next look walks again. */
	s->room_bytes = s->room_inodes = 0;
}

int nsb_ovl_store_watch(void *ud)
{
	struct nsb_ovl_store *s = ud;
	struct statfs sf;
	bool have_sf;

	if (s->fd < 0 || s->tripped)
		return s->tripped;
	/*
	 * A look every NSB_OVL_STORE_POLL_MS is one statfs: while the
	 * filesystem has lost no more blocks and inodes since the last walk
	 * than the room that walk left, no overlay can be past its bound (its
	 * growth is part of that loss; ext4 and xfs count delayed allocation
	 * in it).  Otherwise, and every NSB_OVL_STORE_WATCH_MS whatever the
	 * filesystem says (others freeing space on it could hide the layer's
	 * growth), the layers are walked.
	 */
	have_sf = fstatfs(s->fd, &sf) == 0;
	if (have_sf && s->have_base &&
	    ++s->polls < NSB_OVL_STORE_WATCH_MS / NSB_OVL_STORE_POLL_MS) {
		uint64_t lost_b = s->base_bfree > (uint64_t)sf.f_bfree
					  ? (s->base_bfree - (uint64_t)sf.f_bfree) * s->bsize
					  : 0;
		uint64_t lost_i = s->base_ffree > (uint64_t)sf.f_ffree
					  ? s->base_ffree - (uint64_t)sf.f_ffree
					  : 0;
		if (lost_b <= s->room_bytes && lost_i <= s->room_inodes)
			return 0;
		/* Near the bound, with a large layer, walks could follow each
		 * other: at most a quarter of the time goes to them. */
		if (nsb_mono_ns() < s->next_walk_ns)
			return 0;
	}
	/* The base is taken before the walk: what is written during it counts
	 * against the room at the next look. */
	s->have_base = have_sf;
	if (have_sf) {
		s->base_bfree = (uint64_t)sf.f_bfree;
		s->base_ffree = (uint64_t)sf.f_ffree;
		s->bsize = (uint64_t)sf.f_bsize;
	}
	s->polls = 0;
	s->walks++;
	uint64_t t0 = nsb_mono_ns();
	store_walk(s);
	uint64_t t1 = nsb_mono_ns();
	s->next_walk_ns = t1 + 3 * (t1 - t0);
	return s->tripped;
}

/* Everything beneath dfd, then dfd's entries themselves; a directory the
 * payload left without access is opened up first (the caller owns it). */
static int remove_tree(int dfd, unsigned depth)
{
	DIR *d;
	struct dirent *de;
	int r = 0;

	if (depth > NSB_OVL_MAX_DEPTH + 8) {
		close(dfd);
		return -ELOOP;
	}
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return nsb_negerrno();
	}
	while ((de = readdir(d))) {
		struct stat st;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if ((st.st_mode & 0700) != 0700 &&
			    fchmodat(dirfd(d), de->d_name, 0700, 0) < 0)
				r = r ? r : nsb_negerrno();
			int c = nsb_ovl_open_beneath(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY,
						     0);
			if (c < 0 || remove_tree(c, depth + 1) < 0 ||
			    unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR) < 0)
				r = r ? r : -EIO;
		} else if (unlinkat(dirfd(d), de->d_name, 0) < 0)
			r = r ? r : nsb_negerrno();
	}
	closedir(d);
	return r;
}

void nsb_ovl_store_remove(struct nsb_ovl_store *s)
{
	int r = 0;

	if (s->fd >= 0) {
		r = remove_tree(s->fd, 0);
		s->fd = -1;
	}
	if (s->made && (r < 0 || rmdir(s->path) < 0))
		fprintf(stderr, "nsbox: warning: --overlay-store: could not remove '%s' whole\n",
			s->path);
	s->made = false;
}

int nsb_ovl_store_new(struct nsb_run *run, struct nsb_error *e)
{
	const struct nsb_config *cfg = run->cfg;
	struct nsb_plan *plan = &run->plan;
	struct nsb_ovl_store *s, **ret = &run->ovl_store;
	int r;

	*ret = NULL;
	if (!cfg->overlay_store || !plan->n_overlays)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_USAGE, "--overlay-store: out of memory");
	r = nsb_ovl_store_open(s, cfg->overlay_store, plan, e);
	if (r < 0) {
		free(s);
		return r;
	}
	s->watch =
		(struct nsb_watch){.fn = nsb_ovl_store_watch, .ud = s, .ms = NSB_OVL_STORE_POLL_MS};
	*ret = s;
	return 0;
}

void nsb_ovl_store_free(struct nsb_ovl_store **s)
{
	if (!*s)
		return;
	nsb_ovl_store_remove(*s);
	free(*s);
	*s = NULL;
}
