// SPDX-License-Identifier: GPL-2.0-or-later
/* The facts of a run: real paths and ids, resolved once (run_facts.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/real_path.h"
#include "base/util.h"
#include "supervisor/run_facts.h"

/* The real path of every bind's source, and whether it is a directory. */
static int resolve_mounts(struct nsb_run *run, struct nsb_error *e)
{
	const struct nsb_config *cfg = run->cfg;
	struct nsb_facts *facts = &run->facts;

	/* One allocation: the paths, then whether each is a directory. */
	if (cfg->n_mounts &&
	    !(run->mount_real = calloc(cfg->n_mounts, sizeof(char *) + sizeof(bool))))
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_USAGE, "resolve the mount sources");
	bool *is_dir = cfg->n_mounts ? (bool *)(run->mount_real + cfg->n_mounts) : NULL;
	facts->mount_src_real = (const char *const *)run->mount_real;
	facts->mount_src_is_dir = is_dir;
	const char *known = NULL; /* the last directory resolved */
	for (size_t i = 0; i < cfg->n_mounts; i++) {
		const struct nsb_mount_arg *m = &cfg->mounts[i];
		const char *opt = m->kind == NSB_MOUNT_RO	 ? "--ro"
				  : m->kind == NSB_MOUNT_OVERLAY ? "--overlay"
								 : "--rw";
		_cleanup_free_ char *src = NULL;
		struct stat st;

		if (m->kind == NSB_MOUNT_TMPFS)
			continue;
		src = strndup(m->src, m->src_len);
		if (!src)
			return nsb_error_set(e, -ENOMEM, NSB_STAGE_USAGE, "%s", opt);
		if (!(run->mount_real[i] = nsb_real_path(src, run->cwd_real, known))) {
			int r = nsb_negerrno();
			nsb_error_set(e, r, NSB_STAGE_USAGE, "%s '%s'", opt, src);
			if (r == -ENOENT)
				return nsb_error_hint(
					e, "create it first; a relative path is taken from '%s'",
					run->cwd_real);
			return r;
		}
		if (stat(run->mount_real[i], &st) < 0)
			return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_USAGE, "%s '%s'", opt,
					     src);
		if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
			return nsb_error_setx(
				e, -EINVAL, NSB_STAGE_USAGE,
				"%s '%s': only directories and regular files can be bound", opt,
				src);
		is_dir[i] = S_ISDIR(st.st_mode);
		if (is_dir[i])
			known = run->mount_real[i];
	}
	return 0;
}

int nsb_run_facts(struct nsb_run *run, struct nsb_error *e)
{
	const struct nsb_config *cfg = run->cfg;
	struct nsb_facts *facts = &run->facts;
	const char *home = getenv("HOME");
	_cleanup_free_ char *cwd = NULL;

	facts->uid = getuid();
	facts->gid = getgid();
	facts->environ = environ;

	/* Each real path malloc'd to size: no PATH_MAX buffers in the frame
	 * or in the run (a page each, touched on every launch).  getcwd names
	 * the directory without a symlink (from its dentries): no realpath
	 * walk is needed unless it is unreachable from our root. */
	cwd = getcwd(NULL, 0);
	if (cwd && cwd[0] == '/')
		run->cwd_real = TAKE_PTR(cwd);
	else if (!cwd || !(run->cwd_real = realpath(cwd, NULL)))
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_USAGE,
				     "resolve the current directory");
	facts->cwd = run->cwd_real;
	if (home && *home && (run->home_real = realpath(home, NULL)))
		facts->home = run->home_real;

	if (cfg->project) {
		struct stat st;
		if (!(run->project_real = realpath(cfg->project, NULL))) {
			nsb_error_set(e, nsb_negerrno(), NSB_STAGE_USAGE, "--project '%s'",
				      cfg->project);
			return nsb_error_hint(e, "the path is relative to '%s'", run->cwd_real);
		}
		if (stat(run->project_real, &st) < 0 || !S_ISDIR(st.st_mode))
			return nsb_error_setx(e, -ENOTDIR, NSB_STAGE_USAGE,
					      "--project '%s': not a directory", cfg->project);
		facts->project_real = run->project_real;
	}

	return resolve_mounts(run, e);
}
