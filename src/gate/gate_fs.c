// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate's view of the real filesystem (supervisor): realpath(3) and lstat(2) on host
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

#include "gate/gate_fs.h"
#include "base/path_search.h"
#include "core/plan.h" /* NSB_SANDBOX_PATH */

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

/*
 * A PATH candidate (an inside path) as the sandbox will see it: mapped to
 * the host through the roots, an executable regular file.  A relative PATH
 * entry means nothing in a fixed PATH: never a hit.
 */
static int host_probe(void *ud, const char *inside)
{
	const struct nsb_gate_fs_host *h = ud;
	struct nsb_gate_input in = {.roots = h->roots, .n_roots = h->n_roots};
	char host[PATH_MAX];
	struct stat st;

	if (inside[0] != '/' || nsb_gate_map_host(&in, inside, host, sizeof(host)) < 0)
		return NSB_PATH_ABSENT;
	if (stat(host, &st) < 0 || !S_ISREG(st.st_mode) || access(host, X_OK) < 0)
		return NSB_PATH_ABSENT;
	return NSB_PATH_EXEC;
}

/* First executable regular file named name in the PATH list, realpath'd. */
static int host_which(void *ud, const char *name, char *out, size_t outsz)
{
	const struct nsb_gate_fs_host *h = ud;
	struct nsb_gate_input in = {.roots = h->roots, .n_roots = h->n_roots};
	char inside[PATH_MAX], host[PATH_MAX];
	int r;

	r = nsb_path_search(h->path_list ? h->path_list : NSB_SANDBOX_PATH, name, host_probe, ud,
			    inside, sizeof(inside));
	if (r == -EINVAL)
		return r;
	if (r < 0 || nsb_gate_map_host(&in, inside, host, sizeof(host)) < 0)
		return -ENOENT;
	return host_realpath(NULL, host, out, outsz);
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
