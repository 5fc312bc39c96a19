// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Seccomp profiles on the host (supervisor): find a profile by name or path,
 * open it and its includes, and hand them to the pure parser (profile.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fmt.h"
#include "seccomp/profile.h"

/* Finding a profile is part of setting up seccomp: the record says so. */

static bool valid_profile_name(const char *s)
{
	size_t len = strlen(s);
	/* A name never reaches outside the profile directories: no '/', no
	 * leading '.', a short fixed alphabet. */
	if (len == 0 || len >= NSB_PROFILE_NAME_MAX || s[0] == '.' || s[0] == '-')
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' || *s == '.'))
			return false;
	return true;
}

static bool is_regular(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int nsb_profile_find(const char *name_or_path, char *ret_path, size_t size, struct nsb_error *e)
{
	/* The installed directory comes first: a binary built in a tree that
	 * someone else can write must not prefer that tree's profiles to the
	 * ones installed with it. */
	static const char *const dirs[] = {NSB_PROFILEDIR, NSB_SRCDIR "/seccomp-profiles"};
	char buf[NSB_PROFILE_PATH_MAX];

	if (strchr(name_or_path, '/')) {
		if (strlen(name_or_path) >= size)
			return nsb_error_setx(e, -ENAMETOOLONG, NSB_STAGE_PROFILE,
					      "seccomp profile path is too long");
		struct stat st;
		if (stat(name_or_path, &st) < 0)
			return nsb_error_set(e, -errno, NSB_STAGE_PROFILE, "seccomp profile '%s'",
					     name_or_path);
		if (!S_ISREG(st.st_mode))
			return nsb_error_setx(e, -EINVAL, NSB_STAGE_PROFILE,
					      "seccomp profile '%s': not a regular file",
					      name_or_path);
		memcpy(ret_path, name_or_path, strlen(name_or_path) + 1);
		return 0;
	}
	if (!valid_profile_name(name_or_path)) {
		nsb_error_setx(e, -EINVAL, NSB_STAGE_PROFILE, "invalid seccomp profile name '%s'",
			       name_or_path);
		return nsb_error_hint(
			e,
			"a name uses letters, digits, '-', '_' and '.'; a path must contain '/' (e.g. ./%s)",
			name_or_path);
	}
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		int n = nsb_format(buf, sizeof(buf), "%s/%s.profile", dirs[i], name_or_path);
		if (n < 0 || (size_t)n >= sizeof(buf) || (size_t)n >= size)
			continue;
		if (is_regular(buf)) {
			memcpy(ret_path, buf, (size_t)n + 1);
			return 0;
		}
	}
	nsb_error_setx(e, -ENOENT, NSB_STAGE_PROFILE, "seccomp profile '%s' not found",
		       name_or_path);
	return nsb_error_hint(
		e, "looked for %s.profile in %s and %s; '%s' or a path containing '/' also work",
		name_or_path, dirs[0], dirs[1], NSB_SECCOMP_NONE);
}

/* Open a profile file without blocking on a FIFO or reading a device. */
static int open_profile(const char *path, FILE **ret, struct nsb_error *e)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;

	if (fd < 0)
		return nsb_error_set(e, -errno, NSB_STAGE_PROFILE, "open '%s'", path);
	if (fstat(fd, &st) < 0)
		return nsb_error_set(e, -errno, NSB_STAGE_PROFILE, "stat '%s'", path);
	if (!S_ISREG(st.st_mode))
		return nsb_error_setx(e, -EINVAL, NSB_STAGE_PROFILE, "'%s' is not a regular file",
				      path);
	FILE *f = fdopen(fd, "r");
	if (!f)
		return nsb_error_set(e, -errno, NSB_STAGE_PROFILE, "open '%s'", path);
	TAKE_FD(fd);
	*ret = f;
	return 0;
}

/* Open path under its canonical name (*ret_path, malloc'd): canonical paths
 * make include cycles and repeats recognisable.  what prefixes the path in
 * the message when it cannot be resolved. */
static int open_canonical(const char *path, const char *what, FILE **ret_f, char **ret_path,
			  struct nsb_error *e)
{
	_cleanup_free_ char *real = realpath(path, NULL);
	if (!real)
		return nsb_error_set(e, -errno, NSB_STAGE_PROFILE, "%s'%s'", what, path);
	FILE *f = NULL;
	int r = open_profile(real, &f, e);
	if (r < 0)
		return r;
	*ret_f = f;
	*ret_path = TAKE_PTR(real);
	return 0;
}

/* include NAME: a bare NAME is NAME.profile next to the including file; a
 * value with '/' is a path, relative to the including file's directory. */
static int file_opener(const char *name, const char *from, void *userdata, FILE **ret_f,
		       char **ret_path, struct nsb_error *e)
{
	char buf[NSB_PROFILE_PATH_MAX];
	const char *slash = strrchr(from, '/');
	int dirlen = slash ? (int)(slash - from) : 1;
	const char *dir = slash ? from : ".";
	int n;

	if (name[0] == '/')
		n = nsb_format(buf, sizeof(buf), "%s", name);
	else if (strchr(name, '/'))
		n = nsb_format(buf, sizeof(buf), "%.*s/%s", dirlen, dir, name);
	else
		n = nsb_format(buf, sizeof(buf), "%.*s/%s.profile", dirlen, dir, name);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return nsb_error_setx(e, -ENAMETOOLONG, NSB_STAGE_PROFILE, "path is too long");
	return open_canonical(buf, "", ret_f, ret_path, e);
}

int nsb_profile_load(const char *path, struct nsb_profile **ret, struct nsb_error *e)
{
	_cleanup_free_ char *real = NULL;
	FILE *f = NULL;
	int r = open_canonical(path, "seccomp profile ", &f, &real, e);
	if (r < 0)
		return r;
	r = nsb_profile_parse(f, real, file_opener, NULL, ret, e);
	fclose(f);
	return r;
}
