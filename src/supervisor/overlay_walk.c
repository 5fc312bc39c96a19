// SPDX-License-Identifier: GPL-2.0-or-later
/* overlay_walk: run by the supervisor after the run: the change set of an overlay's upper layer. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/macro.h"
#include "supervisor/overlay_walk.h"

int nsb_ovl_open_beneath(int dirfd, const char *path, int flags, unsigned mode)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC | O_NOFOLLOW),
		.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	do
		fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	while (fd < 0 && errno == EINTR);
	return fd < 0 ? nsb_negerrno() : (int)fd;
}

/* chmod of what the O_PATH descriptor fd is (fchmod refuses an O_PATH fd). */
static int chmod_fd(int fd, mode_t mode)
{
	char proc[64];

	nsb_format(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	return fchmodat(AT_FDCWD, proc, mode, 0) < 0 ? nsb_negerrno() : 0;
}

void nsb_ovl_unwiden(struct nsb_ovl_widened *w)
{
	if (w->fd < 0)
		return;
	struct stat st;

	/* Only if the mode is still the widened one: during the run (the
	 * store's watch) the payload may have changed it since, and its
	 * change stands.  Best effort: a failure leaves the layer (private,
	 * removed after the run) wider than the payload left it; what is
	 * recorded and applied is the mode read before the widening. */
	if (fstat(w->fd, &st) == 0 && (st.st_mode & 07777) == w->widened)
		(void)chmod_fd(w->fd, w->mode);
	nsb_closep(&w->fd);
}

int nsb_ovl_open_upper(int dirfd, const char *name, int flags, struct nsb_ovl_widened *ret_w)
{
	struct nsb_ovl_widened w = {.fd = -1};
	struct stat st;
	mode_t need;
	char proc[64];
	int fd = nsb_ovl_open_beneath(dirfd, name, flags, 0);
	int r;

	if (ret_w)
		*ret_w = w;
	if (fd != -EACCES)
		return fd;
	/* The payload left its owner (the caller, who runs this) without
	 * access: mode 000, 100 or 300.  Root never gets here (CAP_DAC_OVERRIDE).
	 * The entry is pinned first, without access and never through a
	 * link, and only that inode is widened and reopened. */
	w.fd = nsb_ovl_open_beneath(dirfd, name, O_PATH, 0);
	if (w.fd < 0)
		return w.fd;
	if (fstat(w.fd, &st) < 0) {
		r = nsb_negerrno();
		goto fail;
	}
	/* A directory: listed and searched, never written through here. */
	need = S_ISDIR(st.st_mode) ? S_IRUSR | S_IXUSR : S_IRUSR;
	if (st.st_uid != geteuid() || (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) ||
	    (st.st_mode & need) == need) {
		r = -EACCES;
		goto fail;
	}
	w.mode = st.st_mode & 07777;
	w.widened = w.mode | need;
	r = chmod_fd(w.fd, w.widened);
	if (r < 0)
		goto fail;
	nsb_format(proc, sizeof(proc), "/proc/self/fd/%d", w.fd);
	fd = open(proc, (flags & ~O_NOFOLLOW) | O_CLOEXEC);
	if (fd < 0)
		r = nsb_negerrno();
	/* A file is read through its descriptor: its mode goes back at once.
	 * A directory stays searchable until the walk beneath it is done. */
	if (fd < 0 || !ret_w || !S_ISDIR(st.st_mode)) {
		nsb_ovl_unwiden(&w);
		return fd < 0 ? r : fd;
	}
	*ret_w = w;
	return fd;
fail:
	nsb_closep(&w.fd);
	return r;
}

int nsb_ovl_hash_fd(int fd, char ret_hex[NSB_SHA256_HEX])
{
	static const char hex[] = "0123456789abcdef";
	struct nsb_sha256 s;
	uint8_t d[NSB_SHA256_LEN];
	char buf[65536];
	off_t off = 0;

	nsb_sha256_init(&s);
	for (;;) {
		ssize_t n = pread(fd, buf, sizeof(buf), off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return nsb_negerrno();
		if (n == 0)
			break;
		nsb_sha256_update(&s, buf, (size_t)n);
		off += n;
	}
	nsb_sha256_final(&s, d);
	for (size_t i = 0; i < NSB_SHA256_LEN; i++) {
		ret_hex[2 * i] = hex[d[i] >> 4];
		ret_hex[2 * i + 1] = hex[d[i] & 15];
	}
	ret_hex[2 * NSB_SHA256_LEN] = '\0';
	return 0;
}

struct walk {
	nsb_ovl_cb cb;
	void *ud;
	bool hash;
	struct nsb_error *e;
	char path[NSB_OVL_MAX_PATH + 1];
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* The names in directory fd (without . and ..), sorted.  fd is consumed. */
static int read_names(int fd, char ***ret, size_t *ret_n)
{
	DIR *d = fdopendir(fd);
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;

	if (!d) {
		int r = nsb_negerrno();
		close(fd);
		return r;
	}
	errno = 0;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 16;
			char **nn = realloc(names, nc * sizeof(*nn));
			if (!nn)
				goto nomem;
			names = nn;
			cap = nc;
		}
		if (!(names[n] = strdup(de->d_name)))
			goto nomem;
		n++;
		errno = 0;
	}
	if (errno) {
		int r = nsb_negerrno();
		closedir(d);
		free_names(names, n);
		return r;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_name);
	*ret = names;
	*ret_n = n;
	return 0;
nomem:
	closedir(d);
	free_names(names, n);
	return -ENOMEM;
}

static bool is_whiteout(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && st->st_rdev == makedev(0, 0);
}

/* An upper directory that hides the lower one whole (overlayfs's opaque mark). */
static bool is_opaque(int dirfd)
{
	char v[4];
	ssize_t n = fgetxattr(dirfd, "user.overlay.opaque", v, sizeof(v));
	return n == 1 && v[0] == 'y';
}

static int emit(struct walk *w, struct nsb_ovl_event *ev)
{
	ev->path = w->path;
	return w->cb(w->ud, ev);
}

/* sha256 of name beneath dir (a regular file); -errno on failure.  In the
 * upper layer a file its owner cannot read is widened for the read. */
static int hash_at(int dir, const char *name, bool upper, char ret[NSB_SHA256_HEX])
{
	_cleanup_close_ int fd = upper ? nsb_ovl_open_upper(dir, name, O_RDONLY, NULL)
				       : nsb_ovl_open_beneath(dir, name, O_RDONLY, 0);
	if (fd < 0)
		return fd;
	return nsb_ovl_hash_fd(fd, ret);
}

/* Same content: sizes first, then the hashes (the upper's is wanted anyway). */
static int file_changed(struct walk *w, int upper, int lower, const char *name,
			struct nsb_ovl_event *ev, const struct stat *lst)
{
	int r = hash_at(upper, name, true, ev->sha256);
	if (r < 0)
		return r;
	ev->has_sha = true;
	r = hash_at(lower, name, false, ev->lower_sha256);
	/* DIR's file is unreadable to its owner (mode 000 there; the command
	 * opened it up in the overlay): DIR is never widened, so the change
	 * is recorded without the old content's hash. */
	if (r == -EACCES)
		return 1;
	if (r < 0)
		return r;
	ev->lower_has_sha = true;
	return ev->st.st_size != lst->st_size || strcmp(ev->sha256, ev->lower_sha256) != 0 ||
	       (ev->st.st_mode & 07777) != (lst->st_mode & 07777);
}

static int link_changed(int upper, int lower, const char *name)
{
	char a[NSB_OVL_MAX_PATH + 1], b[NSB_OVL_MAX_PATH + 1];
	ssize_t na = readlinkat(upper, name, a, sizeof(a));
	ssize_t nb = readlinkat(lower, name, b, sizeof(b));

	if (na < 0 || nb < 0)
		return nsb_negerrno();
	return na != nb || memcmp(a, b, (size_t)na) != 0;
}

static int walk_dir(struct walk *w, int upper, int lower, size_t len, unsigned depth);

/* The lower entry at w->path is gone (whiteout, or replaced by another type). */
static int emit_delete(struct walk *w, int lower, const char *name, const struct stat *lst)
{
	struct nsb_ovl_event ev = {.kind = NSB_OVL_DELETE, .upper_dir = -1, .name = name};

	ev.st = *lst;
	if (w->hash && S_ISREG(lst->st_mode) && hash_at(lower, name, false, ev.lower_sha256) == 0)
		ev.lower_has_sha = true;
	return emit(w, &ev);
}

static int skip(struct walk *w, int upper, const char *name, const struct stat *st, const char *why)
{
	struct nsb_ovl_event ev = {
		.kind = NSB_OVL_SKIP, .upper_dir = upper, .name = name, .st = *st, .why = why};
	return emit(w, &ev);
}

/* A directory of the upper layer: merged with the lower one, or new. */
static int on_dir(struct walk *w, int upper, int lower, const char *name, const struct stat *st,
		  const struct stat *lst, size_t len, unsigned depth)
{
	_cleanup_close_ int ud = -1, ld = -1;
	_cleanup_(nsb_ovl_unwiden) struct nsb_ovl_widened wide = {.fd = -1};
	struct nsb_ovl_event ev = {.upper_dir = upper, .name = name, .st = *st};
	bool merged;
	int r;

	if (depth + 1 >= NSB_OVL_MAX_DEPTH)
		return skip(w, upper, name, st, "too deep");
	/* st (read before any widening) is the mode recorded and applied. */
	ud = nsb_ovl_open_upper(upper, name, O_RDONLY | O_DIRECTORY, &wide);
	if (ud < 0)
		return nsb_error_set(w->e, ud, NSB_STAGE_SUPERVISE, "open upper '%s'", w->path);
	merged = lst && S_ISDIR(lst->st_mode) && !is_opaque(ud);
	if (merged) {
		ld = nsb_ovl_open_beneath(lower, name, O_RDONLY | O_DIRECTORY, 0);
		if (ld < 0)
			return nsb_error_set(w->e, ld, NSB_STAGE_SUPERVISE, "open '%s'", w->path);
		if ((st->st_mode & 07777) != (lst->st_mode & 07777)) {
			ev.kind = NSB_OVL_MODIFY;
			r = emit(w, &ev);
			if (r < 0)
				return r;
		}
	} else {
		if (lst) {
			r = emit_delete(w, lower, name, lst);
			if (r < 0)
				return r;
		}
		ev.kind = NSB_OVL_ADD;
		r = emit(w, &ev);
		if (r < 0)
			return r;
	}
	r = walk_dir(w, TAKE_FD(ud), merged ? TAKE_FD(ld) : -1, len, depth + 1);
	if (r < 0 || (merged && (st->st_mode & 07777) == (lst->st_mode & 07777)))
		return r;
	ev.kind = NSB_OVL_DIR_END;
	return emit(w, &ev);
}

static int on_file(struct walk *w, int upper, int lower, const char *name, const struct stat *st,
		   const struct stat *lst)
{
	struct nsb_ovl_event ev = {.upper_dir = upper, .name = name, .st = *st};
	bool same_type = lst && (lst->st_mode & S_IFMT) == (st->st_mode & S_IFMT);
	int r;

	if (same_type) {
		r = S_ISREG(st->st_mode) ? file_changed(w, upper, lower, name, &ev, lst)
					 : link_changed(upper, lower, name);
		if (r == 0 && S_ISLNK(st->st_mode))
			return 0;
		if (r == 0)
			return 0; /* copied up, but nothing changed */
		if (r < 0)
			return nsb_error_set(w->e, r, NSB_STAGE_SUPERVISE, "compare '%s'", w->path);
		ev.kind = NSB_OVL_MODIFY;
		if (!w->hash)
			ev.has_sha = ev.lower_has_sha = false;
		return emit(w, &ev);
	}
	if (lst) {
		r = emit_delete(w, lower, name, lst);
		if (r < 0)
			return r;
	}
	ev.kind = NSB_OVL_ADD;
	if (w->hash && S_ISREG(st->st_mode)) {
		r = hash_at(upper, name, true, ev.sha256);
		if (r < 0)
			return nsb_error_set(w->e, r, NSB_STAGE_SUPERVISE, "read '%s'", w->path);
		ev.has_sha = true;
	}
	return emit(w, &ev);
}

/* One entry of an upper directory; w->path holds its path. */
static int on_entry(struct walk *w, int upper, int lower, const char *name, size_t len,
		    unsigned depth)
{
	struct stat st, lst;
	bool has_lower;

	if (fstatat(upper, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return nsb_error_set(w->e, nsb_negerrno(), NSB_STAGE_SUPERVISE, "stat upper '%s'",
				     w->path);
	has_lower = lower >= 0 && fstatat(lower, name, &lst, AT_SYMLINK_NOFOLLOW) == 0;
	if (lower >= 0 && !has_lower && errno != ENOENT)
		return nsb_error_set(w->e, nsb_negerrno(), NSB_STAGE_SUPERVISE, "stat '%s'",
				     w->path);
	if (is_whiteout(&st))
		return has_lower ? emit_delete(w, lower, name, &lst) : 0;
	if (S_ISDIR(st.st_mode))
		return on_dir(w, upper, lower, name, &st, has_lower ? &lst : NULL, len, depth);
	if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))
		return on_file(w, upper, lower, name, &st, has_lower ? &lst : NULL);
	return skip(w, upper, name, &st,
		    S_ISFIFO(st.st_mode)   ? "fifo"
		    : S_ISSOCK(st.st_mode) ? "socket"
					   : "device");
}

/* Walk directory upper (consumed) against lower (consumed, or -1); w->path[0..len) is its path. */
static int walk_dir(struct walk *w, int upper, int lower, size_t len, unsigned depth)
{
	_cleanup_close_ int keep = -1, lkeep = lower;
	char **names = NULL;
	size_t n = 0;
	int r;

	/* fdopendir takes the fd: a duplicate stays for the lookups. */
	keep = fcntl(upper, F_DUPFD_CLOEXEC, 3);
	if (keep < 0) {
		r = nsb_negerrno();
		close(upper);
		return nsb_error_set(w->e, r, NSB_STAGE_SUPERVISE, "read upper '%s'", w->path);
	}
	r = read_names(upper, &names, &n);
	if (r < 0)
		return nsb_error_set(w->e, r, NSB_STAGE_SUPERVISE, "read upper '%s'", w->path);
	for (size_t i = 0; i < n && r >= 0; i++) {
		size_t nl = strlen(names[i]);
		size_t at = len ? len + 1 : 0;

		if (at + nl > NSB_OVL_MAX_PATH) {
			struct stat st = {0};
			w->path[len] = '\0';
			if (fstatat(keep, names[i], &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    !is_whiteout(&st))
				r = skip(w, keep, names[i], &st, "name too long");
			continue;
		}
		if (len)
			w->path[len] = '/';
		memcpy(w->path + at, names[i], nl + 1);
		r = on_entry(w, keep, lkeep, names[i], at + nl, depth);
		w->path[len] = '\0';
	}
	free_names(names, n);
	return r;
}

int nsb_ovl_walk(int upper_fd, int lower_fd, bool hash, nsb_ovl_cb cb, void *ud,
		 struct nsb_error *e)
{
	_cleanup_free_ struct walk *w = calloc(1, sizeof(*w));
	int u, l = -1;

	if (!w)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_SUPERVISE, "walk the upper layer");
	w->cb = cb;
	w->ud = ud;
	w->hash = hash;
	w->e = e;
	u = nsb_ovl_open_beneath(upper_fd, ".", O_RDONLY | O_DIRECTORY, 0);
	if (u < 0)
		return nsb_error_set(e, u, NSB_STAGE_SUPERVISE, "open the upper layer");
	if (lower_fd >= 0) {
		l = nsb_ovl_open_beneath(lower_fd, ".", O_RDONLY | O_DIRECTORY, 0);
		if (l < 0) {
			close(u);
			return nsb_error_set(e, l, NSB_STAGE_SUPERVISE, "open the lower layer");
		}
	}
	return walk_dir(w, u, l, 0, 0);
}
