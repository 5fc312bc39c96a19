// SPDX-License-Identifier: GPL-2.0-or-later
/* overlay_apply: run by the supervisor: one change of an overlay's change set applied to DIR. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/macro.h"
#include "supervisor/overlay_apply.h"

unsigned nsb_ovl_applied_mode(const struct stat *st)
{
	return st->st_mode & (S_ISDIR(st->st_mode) ? 01777 : 0777);
}

bool nsb_ovl_path_ok(const char *path)
{
	const char *p = path;

	if (!*p || *p == '/')
		return false;
	while (*p) {
		const char *s = strchr(p, '/');
		size_t n = s ? (size_t)(s - p) : strlen(p);
		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += n;
		if (*p == '/') {
			p++;
			if (!*p)
				return false;
		}
	}
	return true;
}

static int fail(struct nsb_error *e, int r, const char *what, const char *path)
{
	return nsb_error_set(e, r, NSB_STAGE_SUPERVISE, "%s '%s'", what, path);
}

/* The directory that holds path (opened beneath dir_fd, no symlink on the
 * way) and path's last component. */
static int open_parent(int dir_fd, const char *path, const char **ret_name)
{
	const char *slash = strrchr(path, '/');
	char parent[NSB_OVL_MAX_PATH + 1];

	if (!slash) {
		*ret_name = path;
		return nsb_ovl_open_beneath(dir_fd, ".", O_PATH | O_DIRECTORY, 0);
	}
	if ((size_t)(slash - path) > NSB_OVL_MAX_PATH)
		return -ENAMETOOLONG;
	memcpy(parent, path, (size_t)(slash - path));
	parent[slash - path] = '\0';
	*ret_name = slash + 1;
	return nsb_ovl_open_beneath(dir_fd, parent, O_PATH | O_DIRECTORY, 0);
}

/* Remove name beneath parent, a whole tree for a directory; never follows a link. */
static int remove_entry(int parent, const char *name, unsigned depth)
{
	struct stat st;
	_cleanup_close_ int d = -1;
	DIR *dir;
	struct dirent *de;
	int r = 0;

	if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : nsb_negerrno();
	if (!S_ISDIR(st.st_mode))
		return unlinkat(parent, name, 0) < 0 && errno != ENOENT ? nsb_negerrno() : 0;
	if (depth > NSB_OVL_MAX_DEPTH * 4)
		return -ELOOP;
	d = nsb_ovl_open_beneath(parent, name, O_RDONLY | O_DIRECTORY, 0);
	if (d < 0)
		return d;
	int rd = fcntl(d, F_DUPFD_CLOEXEC, 3);
	if (rd < 0)
		return nsb_negerrno();
	dir = fdopendir(rd);
	if (!dir) {
		r = nsb_negerrno();
		close(rd);
		return r;
	}
	while (r == 0 && (de = readdir(dir))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		r = remove_entry(d, de->d_name, depth + 1);
		if (r == 0)
			rewinddir(dir); /* the listing changed under us */
	}
	closedir(dir);
	if (r < 0)
		return r;
	return unlinkat(parent, name, AT_REMOVEDIR) < 0 && errno != ENOENT ? nsb_negerrno() : 0;
}

/* [from, to) of in to the same offsets of out. */
static int copy_range(int out, int in, off_t from, off_t to)
{
	if (lseek(out, from, SEEK_SET) < 0)
		return nsb_negerrno();
	while (from < to) {
		ssize_t n = sendfile(out, in, &from, (size_t)(to - from));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return nsb_negerrno();
		if (n == 0)
			return -EIO; /* the file shrank under us */
	}
	return 0;
}

/*
 * A sparse file stays sparse: only its data extents are copied (SEEK_DATA,
 * SEEK_HOLE), the holes left as holes, the size set at the end.  1: the
 * filesystem cannot say (copy it whole).
 */
static int copy_sparse(int out, int in)
{
	struct stat st;
	off_t data = 0, hole;
	int r;

	if (fstat(in, &st) < 0)
		return nsb_negerrno();
	for (;;) {
		data = lseek(in, data, SEEK_DATA);
		if (data < 0 && errno == ENXIO)
			break; /* no data past here */
		if (data < 0)
			return errno == EINVAL || errno == EOPNOTSUPP ? 1 : nsb_negerrno();
		hole = lseek(in, data, SEEK_HOLE);
		if (hole < 0)
			return nsb_negerrno();
		r = copy_range(out, in, data, hole);
		if (r < 0)
			return r;
		data = hole;
	}
	return ftruncate(out, st.st_size) < 0 ? nsb_negerrno() : 0;
}

static int copy_fd(int out, int in)
{
	char buf[65536];
	off_t off = 0;
	int r = copy_sparse(out, in);

	if (r <= 0)
		return r;
	if (lseek(out, 0, SEEK_SET) < 0 || ftruncate(out, 0) < 0)
		return nsb_negerrno();
	for (;;) {
		ssize_t n = sendfile(out, in, &off, 1 << 30);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EINVAL || errno == ENOSYS))
			break;
		if (n < 0)
			return nsb_negerrno();
		if (n == 0)
			return 0;
	}
	/* sendfile refused: plain reads and writes from where it stopped. */
	for (;;) {
		ssize_t n = pread(in, buf, sizeof(buf), off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return nsb_negerrno();
		if (n == 0)
			return 0;
		for (ssize_t w = 0; w < n;) {
			ssize_t k = write(out, buf + w, (size_t)(n - w));
			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0)
				return nsb_negerrno();
			w += k;
		}
		off += n;
	}
}

/* A temporary name in parent, for the last step before the rename. */
static void tmp_name(char *buf, size_t size)
{
	static unsigned seq;
	nsb_format(buf, size, ".nsbox-commit.%d.%u", (int)getpid(), seq++);
}

/*
 * The new content of a file, unnamed until it is complete (O_TMPFILE), then
 * linked under a temporary name: *tmp names it.  Where the filesystem has no
 * O_TMPFILE the temporary name is made first (O_EXCL, never a link).
 */
static int build_file(int parent, int src, unsigned mode, char *tmp, size_t tmp_size)
{
	_cleanup_close_ int out = openat(parent, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	bool named = false;
	char proc[64];
	int r;

	if (out < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
		tmp_name(tmp, tmp_size);
		out = openat(parent, tmp, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC,
			     0600);
		named = true;
	}
	if (out < 0)
		return nsb_negerrno();
	r = copy_fd(out, src);
	if (r == 0 && fchmod(out, mode) < 0)
		r = nsb_negerrno();
	if (r < 0 || named) {
		if (r < 0 && named)
			unlinkat(parent, tmp, 0);
		return r;
	}
	tmp_name(tmp, tmp_size);
	nsb_format(proc, sizeof(proc), "/proc/self/fd/%d", out);
	if (linkat(AT_FDCWD, proc, parent, tmp, AT_SYMLINK_FOLLOW) < 0)
		return nsb_negerrno();
	return 0;
}

/* A file or symlink: built aside, then renamed over name. */
static int put_entry(int parent, const char *name, const struct nsb_ovl_event *ev)
{
	char tmp[64];
	int r;

	if (S_ISLNK(ev->st.st_mode)) {
		char target[NSB_OVL_MAX_PATH + 1];
		ssize_t n = readlinkat(ev->upper_dir, ev->name, target, sizeof(target) - 1);
		if (n < 0)
			return nsb_negerrno();
		target[n] = '\0';
		tmp_name(tmp, sizeof(tmp));
		if (symlinkat(target, parent, tmp) < 0)
			return nsb_negerrno();
	} else {
		_cleanup_close_ int src =
			nsb_ovl_open_upper(ev->upper_dir, ev->name, O_RDONLY, NULL);
		if (src < 0)
			return src;
		r = build_file(parent, src, nsb_ovl_applied_mode(&ev->st), tmp, sizeof(tmp));
		if (r < 0)
			return r;
	}
	if (renameat2(parent, tmp, parent, name, 0) < 0) {
		r = nsb_negerrno();
		unlinkat(parent, tmp, 0);
		return r;
	}
	return 0;
}

/* A directory: made (owner access only, until its DIR_END), or its mode
 * applied once its entries are in. */
static int put_dir(int parent, const char *name, const struct nsb_ovl_event *ev)
{
	_cleanup_close_ int d = -1;

	if (ev->kind == NSB_OVL_MODIFY)
		return 0;
	if (ev->kind == NSB_OVL_ADD)
		return mkdirat(parent, name, 0700) < 0 && errno != EEXIST ? nsb_negerrno() : 0;
	d = nsb_ovl_open_beneath(parent, name, O_RDONLY | O_DIRECTORY, 0);
	if (d < 0)
		return d;
	/* mkdirat's mode went through the umask: the exact bits now. */
	if (fchmod(d, nsb_ovl_applied_mode(&ev->st)) < 0)
		return nsb_negerrno();
	return 0;
}

int nsb_ovl_apply(int dir_fd, const struct nsb_ovl_event *ev, struct nsb_error *e)
{
	_cleanup_close_ int parent = -1;
	const char *name = NULL;
	int r;

	if (ev->kind == NSB_OVL_SKIP)
		return 0;
	if (!nsb_ovl_path_ok(ev->path))
		return nsb_error_setx(e, -EINVAL, NSB_STAGE_SUPERVISE,
				      "change to '%s': not a path beneath DIR", ev->path);
	parent = open_parent(dir_fd, ev->path, &name);
	if (parent < 0) {
		fail(e, parent, "open the directory of", ev->path);
		if (parent == -ELOOP || parent == -EXDEV)
			nsb_error_hint(e, "a symbolic link on the way was not followed");
		return parent;
	}
	if (ev->kind == NSB_OVL_DELETE)
		r = remove_entry(parent, name, 0);
	else if (S_ISDIR(ev->st.st_mode))
		r = put_dir(parent, name, ev);
	else
		r = put_entry(parent, name, ev);
	if (r < 0)
		return fail(e, r, ev->kind == NSB_OVL_DELETE ? "delete" : "write", ev->path);
	return 0;
}
