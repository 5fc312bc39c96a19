// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate's command lookup (supervisor, pure): nsb_path_search over the
 * sandbox's view.  Candidates are inside paths; relative ones are taken
 * from the working directory, as execve inside takes them, then mapped to
 * the host through the roots and judged by the fs ops.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "gate/gate_which.h"
#include "base/path_search.h"
#include "base/util.h"
#include "core/plan.h" /* NSB_SANDBOX_PATH */

/* A candidate (inside, maybe relative) as a host path. */
static int candidate_host(const struct nsb_gate_input *in, const char *cand, char *host,
			  size_t hostsz)
{
	char inside[PATH_MAX];
	/* joined, not normalized: ".." after a symlink is the kernel's business */
	int r = cand[0] == '/' ? nsb_snprintf(inside, sizeof(inside), "%s", cand)
			       : nsb_snprintf(inside, sizeof(inside), "%s/%s", in->cwd, cand);
	if (r < 0)
		return -ENAMETOOLONG;
	return nsb_gate_map_host(in, inside, host, hostsz);
}

static int gate_probe(void *ud, const char *cand)
{
	const struct nsb_gate_input *in = ud;
	char host[PATH_MAX];
	if (candidate_host(in, cand, host, sizeof(host)) < 0)
		return NSB_PATH_ABSENT;
	return in->fs->exec_probe(in->fs->ud, host);
}

int nsb_gate_which(const struct nsb_gate_input *in, const char *path_list, const char *name,
		   char *out, size_t outsz)
{
	const struct nsb_fs_ops *fs = in->fs;
	char cand[PATH_MAX], host[PATH_MAX];
	int r;

	if (!*name || strchr(name, '/'))
		return -EINVAL;
	if (!path_list)
		path_list = in->path_list;
	if (!path_list && fs->which) /* the sandbox's PATH, as the ops know it */
		return fs->which(fs->ud, name, out, outsz) < 0 ? -ENOENT : 0;
	if (!fs->exec_probe)
		return -ENOENT;
	if (!path_list)
		path_list = NSB_SANDBOX_PATH;
	struct nsb_gate_input copy = *in; /* the probe's ud is not const */
	r = nsb_path_search(path_list, name, gate_probe, &copy, cand, sizeof(cand));
	if (r == -EINVAL)
		return r;
	if (r < 0 || candidate_host(in, cand, host, sizeof(host)) < 0 ||
	    fs->realpath(fs->ud, host, out, outsz) < 0)
		return -ENOENT;
	return 0;
}

int nsb_gate_resolve(const struct nsb_gate_input *in, const char *path_list, const char *cmd,
		     char *out, size_t outsz)
{
	char host[PATH_MAX];

	if (!*cmd)
		return -ENOENT;
	if (!strchr(cmd, '/'))
		return nsb_gate_which(in, path_list, cmd, out, outsz);
	if (candidate_host(in, cmd, host, sizeof(host)) < 0)
		return -ENAMETOOLONG;
	return in->fs->realpath(in->fs->ud, host, out, outsz);
}
