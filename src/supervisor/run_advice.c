// SPDX-License-Identifier: GPL-2.0-or-later
/* run_advice: what a run says besides the record (supervisor): fallback and bind warnings, the not-found hint. */
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/path_search.h"
#include "base/util.h"
#include "core/dac.h"
#include "supervisor/nss.h"
#include "supervisor/run_advice.h"

/* One line per limit that a weaker mechanism enforces (said only for a run
 * that goes ahead). */
void nsb_run_warn_fallbacks(const struct nsb_run *run)
{
	const struct nsb_limits *l = &run->plan.limits;

	if (l->memory_via == NSB_VIA_RLIMIT)
		fprintf(stderr,
			"nsbox: warning: --memory enforced by RLIMIT_AS and RLIMIT_DATA (address space, per process), not by a cgroup: %s\n",
			run->fallback_why);
	/* The default was not asked for: the record says how it is enforced. */
	if (l->pids_via == NSB_VIA_RLIMIT && !l->pids_default)
		fprintf(stderr,
			"nsbox: warning: --pids enforced by RLIMIT_NPROC (per user namespace), not by a cgroup: %s\n",
			run->pids_fallback_why);
}

/*
 * Root inside the sandbox is uid 0 without CAP_DAC_OVERRIDE: a writable bind
 * of another user's directory answers EACCES there, which surprises a root
 * caller used to writing anywhere.  Say so before the run, once per bind,
 * and in the record.  (An unprivileged caller is judged by the same bits
 * outside, so nothing is new to it.)
 */
static bool is_user_rw_bind(const struct nsb_mount_op *op)
{
	return op->user && op->kind == NSB_OP_BIND && !op->readonly;
}

void nsb_run_warn_unwritable_binds(struct nsb_run *run)
{
	struct nsb_result *res = &run->res;
	/* Sized by the kernel, on the heap: NGROUPS_MAX on the stack is 256
	 * KiB, every page of it probed (-fstack-clash-protection) and so
	 * resident in the supervisor and init. */
	_cleanup_free_ gid_t *groups = NULL;
	int n_groups;
	size_t first = 0;

	while (first < run->plan.n_ops && !is_user_rw_bind(&run->plan.ops[first]))
		first++;
	if (run->facts.uid != 0 || first == run->plan.n_ops)
		return;
	n_groups = getgroups(0, NULL);
	if (n_groups > 0 && (groups = calloc((size_t)n_groups, sizeof(*groups))))
		n_groups = getgroups(n_groups, groups);
	if (n_groups < 0 || !groups)
		n_groups = 0;
	for (size_t i = first; i < run->plan.n_ops; i++) {
		const struct nsb_mount_op *op = &run->plan.ops[i];
		char msg[NSB_ERR_MESSAGE_MAX], owner[64];
		struct stat st;

		if (!is_user_rw_bind(op) || stat(op->src, &st) < 0)
			continue;
		struct nsb_dac_inode ino = {.uid = st.st_uid, .gid = st.st_gid, .mode = st.st_mode};
		/* Creating an entry in a directory takes write and search. */
		int want = S_ISDIR(st.st_mode) ? W_OK | X_OK : W_OK;
		if (nsb_dac_allows(&ino, 0, run->facts.gid, groups, (size_t)n_groups, want))
			continue;
		const struct passwd *pw = nsb_nss_builtin_only() == 0 ? getpwuid(st.st_uid) : NULL;
		if (pw)
			nsb_format(owner, sizeof(owner), "%s", pw->pw_name);
		else
			nsb_format(owner, sizeof(owner), "uid %u", (unsigned)st.st_uid);
		nsb_format(
			msg, sizeof(msg),
			"--rw '%s' is owned by %s (uid %u, gid %u) with mode %04o: root inside the sandbox has no CAP_DAC_OVERRIDE, so writing there fails with EACCES; %s%s",
			op->src, owner, (unsigned)st.st_uid, (unsigned)st.st_gid,
			(unsigned)(st.st_mode & 07777),
			st.st_uid == 0 ? "give its owner write permission (chmod u+w)"
				       : "chown it to root, or run nsbox as ",
			st.st_uid == 0 ? "" : owner);
		fprintf(stderr, "nsbox: warning: %s\n", msg);
		if (res->n_warnings < ARRAY_SIZE(res->warnings)) {
			size_t k = res->n_warnings++;
			nsb_format(run->warn_path[k], sizeof(run->warn_path[k]), "%s", op->src);
			nsb_format(run->warn_msg[k], sizeof(run->warn_msg[k]), "%s", msg);
			res->warnings[k].kind = "rw_not_writable";
			res->warnings[k].path = run->warn_path[k];
			res->warnings[k].message = run->warn_msg[k];
		}
	}
}

/* A warning on stderr and in the record. */
static void warn(struct nsb_run *run, const char *kind, const char *path, const char *msg)
{
	struct nsb_result *res = &run->res;

	fprintf(stderr, "nsbox: warning: %s\n", msg);
	if (res->n_warnings < ARRAY_SIZE(res->warnings)) {
		size_t k = res->n_warnings++;
		nsb_format(run->warn_path[k], sizeof(run->warn_path[k]), "%s", path);
		nsb_format(run->warn_msg[k], sizeof(run->warn_msg[k]), "%s", msg);
		res->warnings[k].kind = kind;
		res->warnings[k].path = run->warn_path[k];
		res->warnings[k].message = run->warn_msg[k];
	}
}

void nsb_run_warn_covers(struct nsb_run *run)
{
	const struct nsb_cover_stats *st = &run->covers;
	char msg[NSB_ERR_MESSAGE_MAX];

	if (st->truncated) {
		/* Truncation only shortens a warning. */
		(void)nsb_snprintf(
			msg, sizeof(msg),
			"the scan for protected paths and secrets stopped at its bound (%d entries, "
			"%d levels) in '%s': what lies beyond is neither protected nor masked; bind a "
			"narrower directory or name secrets with --mask PATH",
			NSB_SCAN_MAX_ENTRIES, NSB_SCAN_MAX_DEPTH, st->truncated_in);
		warn(run, "scan_truncated", st->truncated_in, msg);
	}
	if (st->git_fallback)
		warn(run, "rw_git_fallback", ".git",
		     "--rw-git: a .git without hooks/ or config stays read-only as a whole (the "
		     "payload could create them); create them (mkdir .git/hooks) to commit inside");
}

/*
 * A candidate of the caller's PATH, judged by the rules the sandbox applies
 * (the one PATH search, an executable file that is not a directory), and
 * only for absolute entries: a relative one means nothing inside.
 */
static int probe_host(void *ud, const char *candidate)
{
	struct stat st;

	(void)ud;
	if (candidate[0] != '/' || stat(candidate, &st) < 0 || S_ISDIR(st.st_mode))
		return NSB_PATH_ABSENT;
	return access(candidate, X_OK) == 0 ? NSB_PATH_EXEC : NSB_PATH_NOEXEC;
}

/*
 * The command was not found inside: say where it is outside, if anywhere, and
 * which --ro would expose it.
 */
void nsb_run_hint_not_found(struct nsb_error *se, const char *name)
{
	char found[PATH_MAX], dir[PATH_MAX];
	const char *path = getenv("PATH");

	found[0] = '\0';
	if (strchr(name, '/')) {
		if (!realpath(name, found)) {
			nsb_error_hint(se, "'%s' does not exist outside the sandbox either", name);
			return;
		}
		nsb_format(dir, sizeof(dir), "%s", found);
		char *sl = strrchr(dir, '/');
		if (sl && sl != dir)
			*sl = '\0';
		nsb_error_hint(se, "'%s' exists outside the sandbox (real path '%s'): add --ro %s",
			       name, found, dir);
		return;
	}
	if (nsb_path_search(path, name, probe_host, NULL, found, sizeof(found)) < 0)
		found[0] = '\0';
	if (!found[0]) {
		nsb_error_hint(
			se,
			"'%s' does not exist outside the sandbox either (searched the caller's PATH)",
			name);
		return;
	}
	nsb_format(dir, sizeof(dir), "%s", found);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir)
		*slash = '\0';
	nsb_error_hint(se, "'%s' exists outside the sandbox at '%s': add --ro %s and run it as %s",
		       name, found, dir, found);
}
