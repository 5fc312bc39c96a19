// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate's view of the real filesystem: realpath(3) and lstat(2) on host
 * paths, and a PATH lookup that maps the sandbox's directories to the host
 * through the roots.  The only impure part of the gate, kept tiny so the
 * rules themselves stay testable.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gate_fs.h"
#include "plan.h" /* NSB_SANDBOX_PATH */

static int host_realpath(void *ud, const char *path, char *out, size_t outsz)
{
	char buf[PATH_MAX];
	if (!realpath(path, buf))
		return nsb_negerrno();
	if (strlen(buf) >= outsz)
		return -ENAMETOOLONG;
	memcpy(out, buf, strlen(buf) + 1);
	return 0;
}

static int host_lstat_kind(void *ud, const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return nsb_negerrno();
	if (S_ISLNK(st.st_mode))
		return NSB_FS_SYMLINK;
	if (S_ISDIR(st.st_mode))
		return NSB_FS_DIR;
	if (S_ISREG(st.st_mode))
		return NSB_FS_FILE;
	return NSB_FS_OTHER;
}

/* First executable regular file named name in the PATH list, realpath'd. */
static int host_which(void *ud, const char *name, char *out, size_t outsz)
{
	const struct nsb_gate_fs_host *h = ud;
	const char *list = h->path_list ? h->path_list : NSB_SANDBOX_PATH;
	struct nsb_gate_input in = {.roots = h->roots, .n_roots = h->n_roots};
	char inside[PATH_MAX], host[PATH_MAX];

	if (!*name || strchr(name, '/'))
		return -EINVAL;
	for (const char *s = list; *s;) {
		const char *e = strchrnul(s, ':');
		int n = snprintf(inside, sizeof(inside), "%.*s/%s", (int)(e - s), s, name);
		s = *e ? e + 1 : e;
		/* relative PATH entries are meaningless in a fixed PATH: skip */
		if (n < 0 || (size_t)n >= sizeof(inside) || inside[0] != '/')
			continue;
		if (nsb_gate_map_host(&in, inside, host, sizeof(host)) < 0)
			continue;
		struct stat st;
		if (stat(host, &st) < 0 || !S_ISREG(st.st_mode) || access(host, X_OK) < 0)
			continue;
		return host_realpath(NULL, host, out, outsz);
	}
	return -ENOENT;
}

void nsb_gate_fs_host_ops(struct nsb_gate_fs_host *h, struct nsb_fs_ops *ret)
{
	*ret = (struct nsb_fs_ops){
		.ud = h,
		.realpath = host_realpath,
		.lstat_kind = host_lstat_kind,
		.which = host_which,
	};
}
