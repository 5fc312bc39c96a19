/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An in-memory filesystem behind struct nsb_fs_ops, shared by the gate's
 * unit tests and its fuzz target: a table of directories, files and
 * symlinks, resolved the way the kernel would (symlink chains expanded in
 * place, ".." after a link, loops after 40 links, dangling links, a file
 * used as a directory).  Each user brings its own table and PATH.
 */
#pragma once

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "gate/gate.h"

struct fake_ent {
	const char *path;
	int kind;	    /* enum nsb_fs_kind */
	const char *target; /* symlinks */
};

#define FAKE_DIR(p)                 \
	{                           \
		p, NSB_FS_DIR, NULL \
	}
#define FAKE_FILE(p)                 \
	{                            \
		p, NSB_FS_FILE, NULL \
	}
#define FAKE_LINK(p, t)              \
	{                            \
		p, NSB_FS_SYMLINK, t \
	}

struct fake_fs {
	const struct fake_ent *ents;
	size_t n_ents;
	const char *const *path; /* which's directories, NULL-terminated */
	unsigned long lookups;	 /* realpath and lstat_kind calls */
};

/* The entry at a canonical path ("/" is always a directory), or NULL. */
static inline const struct fake_ent *fake_find(const struct fake_fs *fs, const char *path)
{
	static const struct fake_ent root = FAKE_DIR("/");
	if (strcmp(path, "/") == 0)
		return &root;
	for (size_t i = 0; i < fs->n_ents; i++)
		if (strcmp(fs->ents[i].path, path) == 0)
			return &fs->ents[i];
	return NULL;
}

/* realpath(3) over the table: components in order, links expanded in place. */
static inline int fake_realpath(void *ud, const char *path, char *out, size_t outsz)
{
	struct fake_fs *fs = ud;
	char rest[2 * PATH_MAX], cur[PATH_MAX] = "/", tmp[2 * PATH_MAX];
	int links = 0;

	fs->lookups++;
	if (path[0] != '/')
		return -EINVAL;
	if (strlen(path) >= PATH_MAX)
		return -ENAMETOOLONG;
	snprintf(rest, sizeof(rest), "%s", path);
	while (rest[0]) {
		char *s = rest;
		while (*s == '/')
			s++;
		if (!*s)
			break;
		char *e = strchrnul(s, '/');
		char comp[NAME_MAX + 1];
		size_t n = (size_t)(e - s);
		if (n > NAME_MAX)
			return -ENAMETOOLONG;
		memcpy(comp, s, n);
		comp[n] = '\0';
		/* shift left by hand: valgrind takes the fortified memmove
		 * for __memcpy_chk and reports the (legal) overlap */
		for (size_t k = 0;; k++) {
			rest[k] = e[k];
			if (!e[k])
				break;
		}

		const struct fake_ent *dir = fake_find(fs, cur);
		if (!dir || dir->kind != NSB_FS_DIR)
			return -ENOTDIR;
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			char *slash = strrchr(cur, '/');
			if (slash == cur)
				cur[1] = '\0';
			else
				*slash = '\0';
			continue;
		}
		char next[PATH_MAX + NAME_MAX + 2];
		snprintf(next, sizeof(next), "%s%s%s", cur, strcmp(cur, "/") ? "/" : "", comp);
		const struct fake_ent *f = fake_find(fs, next);
		if (!f)
			return -ENOENT;
		if (f->kind == NSB_FS_SYMLINK) {
			if (++links > 40)
				return -ELOOP;
			snprintf(tmp, sizeof(tmp), "%s%s", f->target, rest);
			if (strlen(tmp) >= PATH_MAX)
				return -ENAMETOOLONG;
			snprintf(rest, sizeof(rest), "%s", tmp);
			if (f->target[0] == '/')
				strcpy(cur, "/");
			continue;
		}
		if (strlen(next) >= sizeof(cur))
			return -ENAMETOOLONG;
		strcpy(cur, next);
	}
	if (strlen(cur) >= outsz)
		return -ENAMETOOLONG;
	strcpy(out, cur);
	return 0;
}

/* lstat(2)'s kind: the last component is not followed. */
static inline int fake_lstat_kind(void *ud, const char *path)
{
	struct fake_fs *fs = ud;
	char dir[PATH_MAX], real[PATH_MAX], full[2 * PATH_MAX];

	fs->lookups++;
	if (path[0] != '/')
		return -EINVAL;
	if (strlen(path) >= PATH_MAX)
		return -ENAMETOOLONG;
	const char *base = strrchr(path, '/') + 1;
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
		int r = fake_realpath(ud, path, real, sizeof(real));
		return r < 0 ? r : fake_find(fs, real)->kind;
	}
	snprintf(dir, sizeof(dir), "%.*s", (int)(base - path), path);
	int r = fake_realpath(ud, dir, real, sizeof(real));
	if (r < 0)
		return r;
	snprintf(full, sizeof(full), "%s%s%s", real, strcmp(real, "/") ? "/" : "", base);
	const struct fake_ent *f = fake_find(fs, full);
	return f ? f->kind : -ENOENT;
}

/* The first regular file named name in fs->path, realpath'd. */
static inline int fake_which(void *ud, const char *name, char *out, size_t outsz)
{
	struct fake_fs *fs = ud;
	char p[PATH_MAX];

	if (strchr(name, '/') || strlen(name) > NAME_MAX)
		return -ENOENT;
	for (size_t i = 0; fs->path[i]; i++) {
		snprintf(p, sizeof(p), "%s/%s", fs->path[i], name);
		if (fake_realpath(ud, p, out, outsz) == 0 &&
		    fake_find(fs, out)->kind == NSB_FS_FILE)
			return 0;
	}
	return -ENOENT;
}

/* The table as struct nsb_fs_ops (with which). */
static inline struct nsb_fs_ops fake_fs_ops(struct fake_fs *fs)
{
	return (struct nsb_fs_ops){
		.ud = fs,
		.realpath = fake_realpath,
		.lstat_kind = fake_lstat_kind,
		.which = fake_which,
	};
}

/* exec_probe over the table: a file is executable, a directory absent. */
static inline int fake_exec_probe(void *ud, const char *path)
{
	struct fake_fs *fs = ud;
	char real[PATH_MAX];

	if (fake_realpath(ud, path, real, sizeof(real)) < 0)
		return 0; /* NSB_PATH_ABSENT */
	return fake_find(fs, real)->kind == NSB_FS_FILE ? 1 : 0;
}

/* list_dir over the table: the entries whose parent is dir (canonical). */
static inline int fake_list_dir(void *ud, const char *dir,
				int (*fn)(void *fnud, const char *name, unsigned char type,
					  unsigned long long ino),
				void *fnud)
{
	struct fake_fs *fs = ud;
	size_t n = strlen(dir);

	for (size_t i = 0; i < fs->n_ents; i++) {
		const char *p = fs->ents[i].path;
		if (strncmp(p, dir, n) || p[n] != '/' || strchr(p + n + 1, '/'))
			continue;
		/* no inode numbers here: every entry is resolved */
		int r = fn(fnud, p + n + 1, NSB_DT_UNKNOWN, 0);
		if (r != 0)
			return r < 0 ? r : 0;
	}
	return 0;
}
