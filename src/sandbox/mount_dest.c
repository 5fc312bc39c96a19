// SPDX-License-Identifier: GPL-2.0-or-later
/* mount_dest: run by init, before pivot_root: finds or creates each mount point beneath the new root. */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/mount_dest.h"
#include "base/util.h"

static int mount_err(struct nsb_error *e, int r, const char *what, const char *path)
{
	return nsb_error_set(e, r, NSB_STAGE_MOUNT, "%s '%s'", what, path);
}

/*
 * Symlinks are never followed while building the new root: every lookup is
 * confined beneath the root fd and refuses symlinks and magic links, so a
 * link planted in a bound directory cannot redirect a mount point to the
 * host (the CVE-2026-87766 class).
 */
static int openat_beneath(int dirfd, const char *path, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	return fd < 0 ? nsb_negerrno() : (int)fd;
}

static int create_err(int r, const char *dest, struct nsb_error *e)
{
	nsb_error_set(e, r, NSB_STAGE_MOUNT, "create mount point '%s'", dest);
	if (r == -EROFS)
		nsb_error_hint(
			e,
			"'%s' lies inside a read-only bind; create it on the host first or choose another destination",
			dest);
	return r;
}

/*
 * Open component comp under at (never through a symlink), creating it (a
 * directory, or an empty file for the last one of a file bind) when missing.
 * Creation is tried first, since in the new root nearly every component is
 * new: mkdir and open with O_CREAT|O_EXCL never follow a symlink and fail
 * with EEXIST on anything already there (before EROFS).  A file made here is
 * returned as it is, *created set: a regular file, no link, the mount point
 * itself (nothing to look up again).  A directory is then opened with
 * O_DIRECTORY, which fails on anything else, a symlink included, so that
 * only what is found otherwise is checked with fstat (*checked cleared).
 */
static int open_or_create(int at, const char *comp, bool dir, bool *created, bool *checked,
			  const char *dest, struct nsb_error *e)
{
	int fd, r;

	*checked = false;
	if (dir) {
		r = mkdirat(at, comp, 0755);
		if (r < 0 && errno != EEXIST)
			return create_err(nsb_negerrno(), dest, e);
		*created = r == 0;
		fd = openat_beneath(at, comp, O_PATH | O_NOFOLLOW | O_DIRECTORY);
		if (fd >= 0) {
			*checked = true;
			return fd;
		}
		if (fd != -ENOTDIR)
			return mount_err(e, fd, "open mount point", dest);
	} else {
		fd = openat(at, comp, O_CREAT | O_EXCL | O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0444);
		if (fd >= 0) {
			*created = true;
			return fd;
		}
		if (errno != EEXIST)
			return create_err(nsb_negerrno(), dest, e);
	}
	/* Something other than a directory, or a file already there. */
	fd = openat_beneath(at, comp, O_PATH | O_NOFOLLOW);
	if (fd == -ELOOP) {
		nsb_error_setx(e, -ELOOP, NSB_STAGE_MOUNT,
			       "mount point '%s' is or passes through a symbolic link", dest);
		return nsb_error_hint(
			e,
			"mount destinations are never resolved through symlinks; use the link's target as the destination");
	}
	if (fd < 0)
		return mount_err(e, fd, "open mount point", dest);
	return fd;
}

/* What was opened must be a directory or, for the last component of a file
 * bind, a file: never a symlink. */
static int check_component(int fd, bool dir, const char *dest, struct nsb_error *e)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return mount_err(e, nsb_negerrno(), "stat mount point", dest);
	if (S_ISLNK(st.st_mode)) {
		nsb_error_setx(e, -ELOOP, NSB_STAGE_MOUNT, "mount point '%s' is a symbolic link",
			       dest);
		return nsb_error_hint(e, "use the link's target as the destination");
	}
	if (dir && !S_ISDIR(st.st_mode))
		return nsb_error_setx(
			e, -ENOTDIR, NSB_STAGE_MOUNT,
			"mount point '%s': a directory is needed there, but it is a file", dest);
	if (!dir && S_ISDIR(st.st_mode))
		return nsb_error_setx(
			e, -EISDIR, NSB_STAGE_MOUNT,
			"mount point '%s': a file is needed there, but it is a directory", dest);
	return 0;
}

/*
 * Create (or find) the mount point for dest inside the new root and return an
 * O_PATH fd to it.  Intermediate directories are created as needed.  The
 * walk starts at root_fd with dest + skip (root_fd is then the directory
 * dest's first skip bytes name); messages name the whole dest.
 */
static int make_dest(int root_fd, const char *dest, size_t skip, bool is_dir, int *ret_parent,
		     const char **ret_name, bool *ret_created, struct nsb_error *e)
{
	char buf[NSB_MAX_PATH + 1];
	_cleanup_close_ int cur = -1; /* owned once past the first component */
	int at = root_fd;	      /* where the next lookup starts: root_fd or cur */
	char *comp, *next;

	if (nsb_snprintf(buf, sizeof(buf), "%s", dest + skip + 1) < 0)
		return nsb_error_setx(e, -ENAMETOOLONG, NSB_STAGE_MOUNT,
				      "mount point '%s' is too long", dest);

	for (comp = buf; comp; comp = next) {
		_cleanup_close_ int fd = -1;
		bool last, dir, created = false, checked;
		int r;

		next = strchr(comp, '/');
		if (next)
			*next++ = '\0';
		last = !next;
		dir = !last || is_dir;

		if (last && ret_parent) {
			/* The caller creates the entry itself (a symlink). */
			if (cur < 0)
				cur = fcntl(root_fd, F_DUPFD_CLOEXEC, 3);
			if (cur < 0)
				return mount_err(e, nsb_negerrno(), "open new root for", dest);
			*ret_parent = TAKE_FD(cur);
			*ret_name = dest + skip + (comp - buf) + 1;
			return 0;
		}
		fd = open_or_create(at, comp, dir, &created, &checked, dest, e);
		if (fd >= 0 && last && ret_created)
			*ret_created = created;
		if (fd < 0 || (created && !dir))
			return fd < 0 ? fd : TAKE_FD(fd);
		if (!checked) {
			r = check_component(fd, dir, dest, e);
			if (r < 0)
				return r;
		}
		nsb_closep(&cur);
		cur = TAKE_FD(fd);
		at = cur;
	}
	return TAKE_FD(cur);
}

/*
 * make_dest, from the directory of the previous destination when dest lies
 * in the same one: the /etc entries and the /dev nodes walk to their
 * directory once, not once each.  A walk that fails is made again from the
 * root, so that its message is the one a full walk gives.
 */
int nsb_dest_open(struct nsb_dest_walk *w, const char *dest, bool is_dir, bool *created,
		  struct nsb_error *e)
{
	const char *slash = strrchr(dest, '/');
	size_t len = slash ? (size_t)(slash - dest) : 0;

	if (len == 0 || len >= sizeof(w->dir))
		return make_dest(w->root_fd, dest, 0, is_dir, NULL, NULL, created, e);
	if (w->dir_fd < 0 || strncmp(w->dir, dest, len) != 0 || w->dir[len] != '\0') {
		char dir[NSB_MAX_PATH + 1];
		/* Beneath the kept directory (/etc, then /etc/ssl): from there. */
		size_t kept = w->dir_fd >= 0 ? strlen(w->dir) : 0;
		bool below = kept > 0 && kept < len && strncmp(w->dir, dest, kept) == 0 &&
			     dest[kept] == '/';
		memcpy(dir, dest, len);
		dir[len] = '\0';
		int fd = below ? make_dest(w->dir_fd, dir, kept, true, NULL, NULL, NULL, e) : -1;
		if (fd < 0)
			fd = make_dest(w->root_fd, dir, 0, true, NULL, NULL, NULL, e);
		if (fd < 0)
			return make_dest(w->root_fd, dest, 0, is_dir, NULL, NULL, created, e);
		nsb_closep(&w->dir_fd);
		w->dir_fd = fd;
		memcpy(w->dir, dir, len + 1);
	}
	int fd = make_dest(w->dir_fd, dest, len, is_dir, NULL, NULL, created, e);
	return fd < 0 ? make_dest(w->root_fd, dest, 0, is_dir, NULL, NULL, created, e) : fd;
}

int nsb_dest_in_kept(struct nsb_dest_walk *w, const char *dest, int *ret_fd, const char **ret_name)
{
	const char *slash = strrchr(dest, '/');
	size_t len = slash ? (size_t)(slash - dest) : 0;
	int fd;

	if (w->dir_fd < 0 || len == 0 || !slash[1] || strncmp(w->dir, dest, len) != 0 ||
	    w->dir[len] != '\0')
		return 0;
	/* As open_or_create does for a directory, without an fd when mkdir
	 * made it: mkdir never follows a link and fails on anything already
	 * there ("." and ".." included), which O_DIRECTORY then opens only if
	 * it is a directory.  Anything else is the walk's, and its message. */
	if (mkdirat(w->dir_fd, slash + 1, 0755) == 0) {
		*ret_fd = w->dir_fd;
		*ret_name = slash + 1;
		return 1;
	}
	if (errno != EEXIST)
		return 0;
	fd = openat_beneath(w->dir_fd, slash + 1, O_PATH | O_NOFOLLOW | O_DIRECTORY);
	if (fd < 0)
		return 0;
	*ret_fd = fd;
	*ret_name = NULL;
	return 2;
}

int nsb_dest_parent(int root_fd, const char *dest, int *ret_parent, const char **ret_name,
		    struct nsb_error *e)
{
	return make_dest(root_fd, dest, 0, false, ret_parent, ret_name, NULL, e);
}

void nsb_dest_covered(struct nsb_dest_walk *w, const char *dest)
{
	/* A mount on the kept directory or above it covers what its fd names. */
	size_t len = strlen(dest);

	if (w->dir_fd >= 0 && strncmp(w->dir, dest, len) == 0 &&
	    (w->dir[len] == '\0' || w->dir[len] == '/'))
		nsb_closep(&w->dir_fd);
}
