// SPDX-License-Identifier: GPL-2.0-or-later
/* overlay_export: run by the supervisor: an overlay's change set written for review, and nsbox apply. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/macro.h"
#include "supervisor/overlay_apply.h"
#include "supervisor/overlay_export.h"
#include "supervisor/overlay_walk.h"

#define EXPORT_MAGIC	   "nsbox-overlay-export 1"
#define EXPORT_MAX_CHANGES (256u << 20) /* bytes of "changes" nsbox apply reads */

static const char *const op_names[] = {[NSB_OVL_ADD] = "add",
				       [NSB_OVL_MODIFY] = "mod",
				       [NSB_OVL_DELETE] = "del",
				       [NSB_OVL_SKIP] = "skip"};

static const char *type_name(mode_t m)
{
	return S_ISDIR(m) ? "dir" : S_ISLNK(m) ? "symlink" : S_ISREG(m) ? "file" : "other";
}

static void put_escaped(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || *p == '%')
			fprintf(f, "%%%02X", *p);
		else
			fputc(*p, f);
}

static int unhex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int nsb_ovl_parse_line(char *line, char *ret[6])
{
	char *p = line;

	for (int i = 0; i < 6; i++) {
		char *t = i < 5 ? strchr(p, '\t') : NULL;
		ret[i] = p;
		if (i < 5) {
			if (!t)
				return -EINVAL;
			*t = '\0';
			p = t + 1;
		}
	}
	/* The path: %XX back to bytes, in place; no NUL may come of it. */
	char *w = ret[5];
	for (char *r = ret[5]; *r; r++) {
		if (*r == '\t')
			return -EINVAL;
		if (*r != '%') {
			*w++ = *r;
			continue;
		}
		int hi = unhex(r[1]), lo = hi < 0 ? -1 : unhex(r[2]);
		if (lo < 0 || (hi == 0 && lo == 0))
			return -EINVAL;
		*w++ = (char)(hi * 16 + lo);
		r += 2;
	}
	*w = '\0';
	return nsb_ovl_path_ok(ret[5]) ? 0 : -EINVAL;
}

/* mkdir -p of path's parent directories beneath root (never through a link). */
static int make_parents(int root, const char *path)
{
	char buf[NSB_OVL_MAX_PATH + 1];
	size_t n = strlen(path);

	if (n > NSB_OVL_MAX_PATH)
		return -ENAMETOOLONG;
	memcpy(buf, path, n + 1);
	for (char *s = strchr(buf, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdirat(root, buf, 0700) < 0 && errno != EEXIST)
			return nsb_negerrno();
		int fd = nsb_ovl_open_beneath(root, buf, O_PATH | O_DIRECTORY, 0);
		if (fd < 0)
			return fd;
		close(fd);
		*s = '/';
	}
	return 0;
}

struct export
{
	FILE *changes;
	int files;
	struct nsb_error *e;
};

static int export_change(void *ud, const struct nsb_ovl_event *ev)
{
	struct export *x = ud;
	const struct stat *st = &ev->st;
	int r;

	if (ev->kind == NSB_OVL_DIR_END)
		return 0;
	if (ev->kind == NSB_OVL_SKIP)
		fprintf(x->changes, "skip\t%s\t-\t-\t-\t", ev->why);
	else
		fprintf(x->changes, "%s\t%s\t%04o\t%s\t%s\t", op_names[ev->kind],
			type_name(st->st_mode),
			ev->kind == NSB_OVL_DELETE ? 0 : nsb_ovl_applied_mode(st),
			ev->has_sha ? ev->sha256 : "-", ev->lower_has_sha ? ev->lower_sha256 : "-");
	put_escaped(x->changes, ev->path);
	fputc('\n', x->changes);
	if (ev->kind != NSB_OVL_ADD && ev->kind != NSB_OVL_MODIFY)
		return 0;
	r = make_parents(x->files, ev->path);
	if (r < 0)
		return nsb_error_set(x->e, r, NSB_STAGE_SUPERVISE, "export '%s'", ev->path);
	if (S_ISDIR(st->st_mode)) {
		if (mkdirat(x->files, ev->path, 0700) < 0 && errno != EEXIST)
			return nsb_error_set(x->e, nsb_negerrno(), NSB_STAGE_SUPERVISE,
					     "export '%s'", ev->path);
		return 0;
	}
	return nsb_ovl_apply(x->files, ev, x->e);
}

int nsb_ovl_export(int upper, int lower, const char *path, struct nsb_error *e)
{
	_cleanup_close_ int root = -1, files = -1;
	struct export x = {.e = e};
	int cfd, r;

	if (mkdir(path, 0700) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_SUPERVISE,
				     "create export directory '%s'", path);
	root = open(path, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (root < 0 || mkdirat(root, "files", 0700) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_SUPERVISE, "create '%s/files'",
				     path);
	files = nsb_ovl_open_beneath(root, "files", O_PATH | O_DIRECTORY, 0);
	cfd = nsb_ovl_open_beneath(root, "changes", O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (files < 0 || cfd < 0) {
		r = files < 0 ? files : cfd;
		if (cfd >= 0)
			close(cfd);
		return nsb_error_set(e, r, NSB_STAGE_SUPERVISE, "create '%s/changes'", path);
	}
	x.files = files;
	x.changes = fdopen(cfd, "w");
	if (!x.changes) {
		r = nsb_negerrno();
		close(cfd);
		return nsb_error_set(e, r, NSB_STAGE_SUPERVISE, "write '%s/changes'", path);
	}
	fprintf(x.changes, "%s\n", EXPORT_MAGIC);
	r = nsb_ovl_walk(upper, lower, true, export_change, &x, e);
	if (fclose(x.changes) != 0 && r == 0)
		r = nsb_error_set(e, nsb_negerrno(), NSB_STAGE_SUPERVISE, "write '%s/changes'",
				  path);
	return r;
}

/* ---- nsbox apply ------------------------------------------------------------ */

struct change {
	enum nsb_ovl_change op;
	mode_t type; /* S_IFREG, S_IFDIR, S_IFLNK */
	unsigned mode;
	char *sha, *lower_sha, *path; /* into the buffer */
};

static int parse_changes(char *buf, struct change **ret, size_t *ret_n, struct nsb_error *e)
{
	size_t n = 0, cap = 0, lineno = 1;
	struct change *ch = NULL;
	char *save = NULL;
	char *line = strtok_r(buf, "\n", &save);

	if (!line || strcmp(line, EXPORT_MAGIC) != 0)
		return nsb_error_setx(e, -EINVAL, NSB_STAGE_USAGE,
				      "not an nsbox overlay export (first line)");
	while ((line = strtok_r(NULL, "\n", &save))) {
		char *f[6];
		struct change c = {0};
		lineno++;
		if (nsb_ovl_parse_line(line, f) < 0)
			goto bad;
		if (strcmp(f[0], "skip") == 0)
			continue;
		c.op = strcmp(f[0], "add") == 0	  ? NSB_OVL_ADD
		       : strcmp(f[0], "mod") == 0 ? NSB_OVL_MODIFY
		       : strcmp(f[0], "del") == 0 ? NSB_OVL_DELETE
						  : NSB_OVL_SKIP;
		c.type = strcmp(f[1], "file") == 0	? S_IFREG
			 : strcmp(f[1], "dir") == 0	? S_IFDIR
			 : strcmp(f[1], "symlink") == 0 ? S_IFLNK
							: 0;
		char *end;
		c.mode = (unsigned)strtoul(f[2], &end, 8);
		if (c.op == NSB_OVL_SKIP || !c.type || *end || c.mode > 07777)
			goto bad;
		c.sha = f[3];
		c.lower_sha = f[4];
		c.path = f[5];
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 64;
			struct change *nn = realloc(ch, nc * sizeof(*nn));
			if (!nn) {
				free(ch);
				return nsb_error_set(e, -ENOMEM, NSB_STAGE_SUPERVISE,
						     "read the changes");
			}
			ch = nn;
			cap = nc;
		}
		ch[n++] = c;
	}
	*ret = ch;
	*ret_n = n;
	return 0;
bad:
	free(ch);
	return nsb_error_setx(e, -EINVAL, NSB_STAGE_USAGE, "changes: line %zu is malformed",
			      lineno);
}

/* Whether path or one of its parents is deleted or added as a directory earlier in the set. */
static bool replaced_before(const struct change *ch, size_t i)
{
	const char *p = ch[i].path;

	for (size_t k = 0; k < i; k++) {
		size_t n = strlen(ch[k].path);
		bool prefix = strncmp(ch[k].path, p, n) == 0 && (p[n] == '\0' || p[n] == '/');
		if (prefix && (ch[k].op == NSB_OVL_DELETE ||
			       (ch[k].op == NSB_OVL_ADD && ch[k].type == S_IFDIR && p[n] == '/')))
			return true;
	}
	return false;
}

/* DIR still is what the run saw, for change i. */
static int check_one(int dir, const struct change *ch, size_t i, struct nsb_error *e)
{
	const struct change *c = &ch[i];
	struct stat st;
	char sha[NSB_SHA256_HEX];
	const char *slash = strrchr(c->path, '/');
	_cleanup_close_ int parent = -1;
	const char *name = slash ? slash + 1 : c->path;
	bool exists;

	if (slash) {
		char buf[NSB_OVL_MAX_PATH + 1];
		nsb_format(buf, sizeof(buf), "%.*s", (int)(slash - c->path), c->path);
		parent = nsb_ovl_open_beneath(dir, buf, O_PATH | O_DIRECTORY, 0);
	} else
		parent = nsb_ovl_open_beneath(dir, ".", O_PATH | O_DIRECTORY, 0);
	exists = parent >= 0 && fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
	if (c->op == NSB_OVL_ADD) {
		if (!exists || replaced_before(ch, i))
			return 0;
		return nsb_error_setx(e, -ESTALE, NSB_STAGE_SUPERVISE,
				      "'%s' exists in DIR now, the run added it", c->path);
	}
	if (replaced_before(ch, i))
		return 0;
	if (!exists || (st.st_mode & S_IFMT) != c->type)
		return nsb_error_setx(e, -ESTALE, NSB_STAGE_SUPERVISE,
				      "'%s' is gone from DIR or changed its type since the run",
				      c->path);
	if (c->type == S_IFREG && strcmp(c->lower_sha, "-") != 0) {
		_cleanup_close_ int fd = nsb_ovl_open_beneath(parent, name, O_RDONLY, 0);
		if (fd < 0 || nsb_ovl_hash_fd(fd, sha) < 0 || strcmp(sha, c->lower_sha) != 0)
			return nsb_error_setx(e, -ESTALE, NSB_STAGE_SUPERVISE,
					      "'%s' changed in DIR since the run", c->path);
	}
	return 0;
}

static int apply_one(int dir, int files, const struct change *c, struct nsb_error *e)
{
	struct nsb_ovl_event ev = {.kind = c->op, .path = c->path, .upper_dir = -1};
	_cleanup_close_ int src_parent = -1;
	const char *slash = strrchr(c->path, '/');

	ev.st.st_mode = c->type | c->mode;
	ev.name = slash ? slash + 1 : c->path;
	if (c->op != NSB_OVL_DELETE && c->type != S_IFDIR) {
		char buf[NSB_OVL_MAX_PATH + 1];
		nsb_format(buf, sizeof(buf), "%.*s", slash ? (int)(slash - c->path) : 1,
			   slash ? c->path : ".");
		src_parent = nsb_ovl_open_beneath(files, buf, O_PATH | O_DIRECTORY, 0);
		if (src_parent < 0)
			return nsb_error_set(e, src_parent, NSB_STAGE_SUPERVISE,
					     "open the exported '%s'", c->path);
		ev.upper_dir = src_parent;
		/* The exported file must match the hash the set gives it. */
		if (c->type == S_IFREG) {
			char sha[NSB_SHA256_HEX];
			_cleanup_close_ int fd =
				nsb_ovl_open_upper(src_parent, ev.name, O_RDONLY, NULL);
			if (fd < 0 || nsb_ovl_hash_fd(fd, sha) < 0 || strcmp(sha, c->sha) != 0)
				return nsb_error_setx(e, -EBADMSG, NSB_STAGE_SUPERVISE,
						      "the exported '%s' does not match its hash",
						      c->path);
		}
	}
	return nsb_ovl_apply(dir, &ev, e);
}

static int read_changes(int root, char **ret, struct nsb_error *e)
{
	_cleanup_close_ int fd = nsb_ovl_open_beneath(root, "changes", O_RDONLY, 0);
	_cleanup_free_ char *buf = NULL;
	struct stat st;
	size_t len = 0;

	if (fd < 0 || fstat(fd, &st) < 0)
		return nsb_error_set(e, fd < 0 ? fd : nsb_negerrno(), NSB_STAGE_USAGE,
				     "read 'changes'");
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > EXPORT_MAX_CHANGES)
		return nsb_error_setx(e, -EFBIG, NSB_STAGE_USAGE,
				      "'changes' is not a regular file of at most 256M");
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_USAGE, "read 'changes'");
	while (len < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + len, (size_t)st.st_size - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return nsb_error_set(e, n < 0 ? nsb_negerrno() : -EIO, NSB_STAGE_USAGE,
					     "read 'changes'");
		len += (size_t)n;
	}
	buf[len] = '\0';
	if (strlen(buf) != len)
		return nsb_error_setx(e, -EINVAL, NSB_STAGE_USAGE, "'changes' holds a NUL byte");
	*ret = TAKE_PTR(buf);
	return 0;
}

int nsb_ovl_apply_export(const char *export, const char *dir, struct nsb_error *e)
{
	_cleanup_close_ int root = open(export, O_PATH | O_DIRECTORY | O_CLOEXEC);
	_cleanup_close_ int d = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	_cleanup_close_ int files = -1;
	_cleanup_free_ char *buf = NULL;
	_cleanup_free_ struct change *ch = NULL;
	size_t n = 0;
	int r;

	if (root < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_USAGE, "open export '%s'",
				     export);
	if (d < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_USAGE, "open '%s'", dir);
	files = nsb_ovl_open_beneath(root, "files", O_PATH | O_DIRECTORY, 0);
	if (files < 0)
		return nsb_error_set(e, files, NSB_STAGE_USAGE, "open '%s/files'", export);
	r = read_changes(root, &buf, e);
	if (r < 0)
		return r;
	r = parse_changes(buf, &ch, &n, e);
	if (r < 0)
		return r;
	/* Every check before any change: a refusal leaves DIR as it is. */
	for (size_t i = 0; i < n; i++) {
		r = check_one(d, ch, i, e);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < n; i++) {
		r = apply_one(d, files, &ch[i], e);
		if (r < 0)
			return r;
	}
	/* Directory modes last, children before parents. */
	for (size_t i = n; i-- > 0;) {
		struct nsb_ovl_event ev = {.kind = NSB_OVL_DIR_END, .path = ch[i].path};
		if (ch[i].type != S_IFDIR || ch[i].op == NSB_OVL_DELETE)
			continue;
		ev.st.st_mode = S_IFDIR | ch[i].mode;
		r = nsb_ovl_apply(d, &ev, e);
		if (r < 0)
			return r;
	}
	return 0;
}
