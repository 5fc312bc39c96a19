// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cgroup v2 placement (supervisor, reads only): where the run's cgroup can
 * go, decided once before the gate and consumed by nsb_cgroup_create().
 * --cgroup-parent, else the caller's own cgroup, else its parent; each
 * candidate checked for the controllers, write access and the kernel's
 * no-internal-processes rule, with a message that says which one failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "supervisor/cgroup.h"
#include "supervisor/cgroup_file.h"
#include "base/fmt.h"
#include "base/macro.h"
#include "base/util.h"

void nsb_cgroup_where_free(struct nsb_cgroup_where *w)
{
	free(w->mnt);
	free(w->own);
	free(w->avail_of);
	free(w->avail);
	*w = (struct nsb_cgroup_where){0};
}

static void where_freep(struct nsb_cgroup_where **w)
{
	if (*w) {
		nsb_cgroup_where_free(*w);
		free(*w);
	}
}

/* statmount(2) and the unique mount ids of statx(2), Linux 6.8: Debian
 * 12's headers predate them.  The system call's number is one for every
 * architecture (the unified table). */
#ifndef __NR_statmount
#define __NR_statmount 457
#endif
#define NSB_STATX_MNT_ID_UNIQUE 0x4000u
#define NSB_STATMOUNT_SB_BASIC	0x1u
#define NSB_STATMOUNT_MNT_ROOT	0x8u
#define NSB_STATMOUNT_MNT_POINT 0x10u
#define NSB_CGROUP2_SUPER_MAGIC 0x63677270u

/* The request (MNT_ID_REQ_SIZE_VER0) and the fixed part of the answer, as
 * include/uapi/linux/mount.h lays them out; the strings follow at 512. */
struct nsb_mnt_id_req {
	uint32_t size, spare;
	uint64_t mnt_id, param;
};
struct nsb_statmount {
	uint32_t size, mnt_opts;
	uint64_t mask;
	uint32_t sb_dev_major, sb_dev_minor;
	uint64_t sb_magic;
	uint32_t sb_flags, fs_type;
	uint64_t mnt_id, mnt_parent_id;
	uint32_t mnt_id_old, mnt_parent_id_old;
	uint64_t mnt_attr, mnt_propagation, mnt_peer_group, mnt_master, propagate_from;
	uint32_t mnt_root, mnt_point;
	uint64_t spare2[50];
	char str[];
};
_Static_assert(offsetof(struct nsb_statmount, str) == 512, "statmount's strings start at 512");

/*
 * Is the mount at PATH a whole cgroup2 hierarchy (root "/") mounted right
 * there?  Asked of the kernel about that one mount (statx for its id,
 * statmount for its type, root and mount point) in a buffer of SIZE bytes:
 * mountinfo lists every mount of the host, about 1.5 us each to read.
 * false for anything else, an older kernel included.
 */
static bool whole_cgroup2_at(const char *path, char *buf, size_t size)
{
	struct nsb_statmount *sm = (struct nsb_statmount *)(void *)buf;
	struct statx stx;
	struct nsb_mnt_id_req req = {.size = sizeof(req)};
	const uint64_t want =
		NSB_STATMOUNT_SB_BASIC | NSB_STATMOUNT_MNT_ROOT | NSB_STATMOUNT_MNT_POINT;

	if (size <= sizeof(*sm) ||
	    statx(AT_FDCWD, path, AT_NO_AUTOMOUNT, NSB_STATX_MNT_ID_UNIQUE, &stx) < 0 ||
	    !(stx.stx_mask & NSB_STATX_MNT_ID_UNIQUE))
		return false;
	req.mnt_id = stx.stx_mnt_id;
	req.param = want;
	if (syscall(__NR_statmount, &req, buf, size, 0) < 0 || (sm->mask & want) != want ||
	    sm->sb_magic != NSB_CGROUP2_SUPER_MAGIC || sm->size > size ||
	    sm->mnt_root >= size - sizeof(*sm) || sm->mnt_point >= size - sizeof(*sm))
		return false;
	/* The strings end within the answer (the kernel NUL-terminates them). */
	if (!memchr(sm->str + sm->mnt_root, '\0', size - sizeof(*sm) - sm->mnt_root) ||
	    !memchr(sm->str + sm->mnt_point, '\0', size - sizeof(*sm) - sm->mnt_point))
		return false;
	return strcmp(sm->str + sm->mnt_root, "/") == 0 &&
	       strcmp(sm->str + sm->mnt_point, path) == 0;
}

/*
 * Where the cgroup2 mount usually is: /sys/fs/cgroup, or /sys/fs/cgroup/unified
 * on a hybrid host.  The whole hierarchy mounted at the first of them that
 * has it, else NULL (the caller reads mountinfo, which finds a mount
 * anywhere, a bind of a subtree included).  Where mountinfo lists another
 * whole-hierarchy mount first, both name the same cgroups.
 */
static const char *usual_cgroup2(char *buf, size_t size)
{
	static const char *const places[] = {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"};

	for (size_t i = 0; i < ARRAY_SIZE(places); i++)
		if (whole_cgroup2_at(places[i], buf, size))
			return places[i];
	return NULL;
}

/* Fill w->mnt and w->own (w's strings freed first); valid only when both are. */
static int locate(const struct nsb_cgroup_opts *o, struct nsb_cgroup_where *w, struct nsb_error *e)
{
	const char *mi = o && o->mountinfo_path ? o->mountinfo_path : "/proc/self/mountinfo";
	const char *pc = o && o->proc_cgroup_path ? o->proc_cgroup_path : "/proc/self/cgroup";
	_cleanup_free_ char *text = NULL, *paths = NULL;
	char *root, *cgpath, *path;
	int r;

	nsb_cgroup_where_free(w);
	/* On the heap: every run comes here, and a frame's every page is
	 * touched (-fstack-clash-protection) and kept by the process. */
	paths = malloc(3 * PATH_MAX);
	if (!paths)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_CGROUP, "locate the cgroup2 mount");
	root = paths;
	cgpath = paths + PATH_MAX;
	path = paths + 2 * PATH_MAX;
	/* Fixtures name their own mountinfo: the host's mounts are not theirs. */
	const char *usual = o && o->mountinfo_path ? NULL : usual_cgroup2(path, PATH_MAX);
	if (usual) {
		nsb_format(path, PATH_MAX, "%s", usual);
		nsb_format(root, PATH_MAX, "/");
		w->by_statmount = true;
	} else {
		r = nsb_cgroup_read_at(AT_FDCWD, mi, NSB_CGROUP_PROC_FILE_MAX, &text);
		if (r < 0)
			return nsb_error_set(e, r, NSB_STAGE_CGROUP, "read '%s'", mi);
		r = nsb_cgroup_parse_mountinfo(text, path, PATH_MAX, root, PATH_MAX);
		if (r == -ENOENT) {
			nsb_error_setx(e, -ENOENT, NSB_STAGE_CGROUP,
				       "no cgroup2 filesystem is mounted (read '%s')", mi);
			return nsb_error_hint(
				e, "mount it with 'mount -t cgroup2 none /sys/fs/cgroup', "
				   "or boot with systemd.unified_cgroup_hierarchy=1");
		}
		if (r < 0)
			return nsb_error_set(e, r, NSB_STAGE_CGROUP, "parse '%s'", mi);
		free(TAKE_PTR(text));
	}
	w->mnt = strdup(path);
	if (!w->mnt)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_CGROUP, "locate the cgroup2 mount");

	r = nsb_cgroup_read_at(AT_FDCWD, pc, NSB_CGROUP_PROC_FILE_MAX, &text);
	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_CGROUP, "read '%s'", pc);
	r = nsb_cgroup_parse_proc_cgroup(text, cgpath, PATH_MAX);
	if (r < 0)
		return nsb_error_setx(e, r, NSB_STAGE_CGROUP,
				      "no cgroup v2 entry (\"0::\") in '%s'", pc);
	r = nsb_cgroup_join(w->mnt, root, cgpath, path, PATH_MAX);
	if (r == -EXDEV)
		return nsb_error_setx(
			e, -EXDEV, NSB_STAGE_CGROUP,
			"own cgroup '%s' is outside the cgroup2 mount '%s' (root '%s')", cgpath,
			w->mnt, root);
	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_CGROUP, "own cgroup '%s'", cgpath);
	w->own = strdup(path);
	if (!w->own)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_CGROUP, "own cgroup '%s'", cgpath);
	w->valid = true;
	return 0;
}

/* Why is controller NAME missing from DIR/cgroup.controllers?  A hybrid host
 * binds it to a v1 hierarchy (/proc/cgroups column 2 is non-zero). */
static int explain_missing(const struct nsb_cgroup_opts *o, const char *dir, const char *name,
			   struct nsb_error *e)
{
	const char *pcs = o && o->proc_cgroups_path ? o->proc_cgroups_path : "/proc/cgroups";
	_cleanup_free_ char *text = NULL;
	unsigned hier = 0;

	nsb_error_setx(e, -ENODEV, NSB_STAGE_CGROUP,
		       "controller '%s' is not available in '%s/cgroup.controllers'", name, dir);
	if (!e)
		return -ENODEV; /* nobody reads the hint: /proc/cgroups stays unread */
	/* Lines are "name<TAB>hierarchy<TAB>num_cgroups<TAB>enabled". */
	if (nsb_cgroup_read_at(AT_FDCWD, pcs, NSB_CGROUP_PROC_FILE_MAX, &text) == 0) {
		size_t nl = strlen(name);
		for (const char *line = text; line && *line;) {
			if (!strncmp(line, name, nl) && line[nl] == '\t') {
				hier = (unsigned)nsb_strtoull10(line + nl + 1, NULL);
				break;
			}
			line = strchr(line, '\n');
			line = line ? line + 1 : NULL;
		}
	}
	if (hier > 0)
		return nsb_error_hint(
			e,
			"'%s' is bound to a cgroup v1 hierarchy (hybrid setup); only a "
			"unified cgroup v2 hierarchy can give it to nsbox",
			name);
	return nsb_error_hint(e,
			      "the parent cgroup does not delegate '%s'; run under a delegated "
			      "cgroup (systemd-run --user --scope -p Delegate=yes ...) or pass "
			      "--cgroup-parent",
			      name);
}

/*
 * Can DIR be the parent of a run that needs the controllers in NAMES?  0 when
 * it can (the names not yet in DIR's cgroup.subtree_control are then
 * enabled by nsb_cgroup_create, which needs it writable).  Reasons a candidate fails: no write access, a controller not offered by
 * DIR's parent, or processes in DIR (the kernel's no-internal-processes rule
 * forbids enabling domain controllers there; the root cgroup is exempt).
 */
static int check_parent(const struct nsb_cgroup_opts *o, const char *dir, const char *const names[],
			struct nsb_error *e)
{
	_cleanup_free_ char *avail = NULL, *enabled = NULL, *procs = NULL;
	struct nsb_cgroup_where *w = o ? o->where : NULL;
	bool need_enable = false, is_root, has_procs;
	int r;

	/* What DIR's parent offers, read once per directory and run. */
	if (w && w->avail_of && w->avail && !strcmp(w->avail_of, dir)) {
		for (size_t i = 0; names && names[i]; i++)
			if (!nsb_cgroup_list_has(w->avail, names[i]))
				return explain_missing(o, dir, names[i], e);
	}
	_cleanup_close_ int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return nsb_error_set(e, -errno, NSB_STAGE_CGROUP, "open cgroup '%s'", dir);
	r = nsb_cgroup_read_at(dfd, "cgroup.controllers", NSB_CGROUP_FILE_MAX, &avail);
	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_CGROUP, "read '%s/cgroup.controllers'", dir);
	if (w) {
		/* Only a cache: without memory for it the next ask reads again. */
		free(w->avail_of);
		free(w->avail);
		w->avail_of = strdup(dir);
		w->avail = strdup(avail);
	}
	for (size_t i = 0; names && names[i]; i++)
		if (!nsb_cgroup_list_has(avail, names[i]))
			return explain_missing(o, dir, names[i], e);

	r = nsb_cgroup_read_at(dfd, "cgroup.subtree_control", NSB_CGROUP_FILE_MAX, &enabled);
	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_CGROUP, "read '%s/cgroup.subtree_control'",
				     dir);
	for (size_t i = 0; names && names[i]; i++)
		if (!nsb_cgroup_list_has(enabled, names[i]))
			need_enable = true;

	/* The root cgroup has no cgroup.type; only it may hold processes and
	 * have controllers enabled at the same time. */
	is_root = faccessat(dfd, "cgroup.type", F_OK, 0) < 0 && errno == ENOENT;
	/* The root's processes are every process of the host not in another
	 * cgroup, and it is exempt from the rule: not read there. */
	has_procs = false;
	if (!is_root) {
		r = nsb_cgroup_read_at(dfd, "cgroup.procs", NSB_CGROUP_PROC_FILE_MAX, &procs);
		if (r < 0)
			return nsb_error_set(e, r, NSB_STAGE_CGROUP, "read '%s/cgroup.procs'", dir);
		has_procs = procs[0] != '\0';
	}

	if (faccessat(dfd, ".", W_OK, AT_EACCESS) < 0) {
		nsb_error_set(e, -errno, NSB_STAGE_CGROUP, "cannot create cgroups in '%s'", dir);
		return nsb_error_hint(e, "run under a delegated cgroup (systemd-run --user --scope "
					 "-p Delegate=yes ...) or pass --cgroup-parent DIR");
	}
	/* A parent with processes of its own is refused even when nothing is
	 * left to enable: the kernel would never let it enable a controller
	 * later (no internal processes), so the run would get no accounting,
	 * and its children could not be controller-enabled either.  Only the
	 * root cgroup is exempt from the rule. */
	if (has_procs && !is_root) {
		nsb_error_setx(e, -EBUSY, NSB_STAGE_CGROUP,
			       "cannot create the run's cgroup under '%s': it has processes, and "
			       "cgroup v2 lets no cgroup hold both processes and controllers",
			       dir);
		return nsb_error_hint(e, "pass --cgroup-parent naming an empty delegated cgroup");
	}
	if (need_enable && faccessat(dfd, "cgroup.subtree_control", W_OK, AT_EACCESS) < 0)
		return nsb_error_set(e, -errno, NSB_STAGE_CGROUP,
				     "cannot enable controllers in '%s'", dir);
	/* CLONE_INTO_CGROUP moves a task from our cgroup into the new one: the
	 * kernel wants write access to cgroup.procs of their common ancestor,
	 * which is DIR itself for the parents we derive. */
	if (faccessat(dfd, "cgroup.procs", W_OK, AT_EACCESS) < 0)
		return nsb_error_set(e, -errno, NSB_STAGE_CGROUP,
				     "cannot move processes within '%s'", dir);
	return 0;
}

/*
 * Choose the parent: --cgroup-parent, else the own cgroup, else (when the own
 * cgroup holds processes, as every systemd scope does) its parent, so the run
 * becomes a sibling leaf.
 */
/* The own cgroup and its parent both failed: say both (kept out of
 * choose_parent's frame, which every run enters). */
static void __attribute__((noinline)) explain_both(struct nsb_error *e, const struct nsb_error *e2)
{
	char msg[NSB_ERR_MESSAGE_MAX];

	nsb_format(msg, sizeof(msg), "%s", e->message);
	nsb_error_setx(e, -e2->err, NSB_STAGE_CGROUP, "%.700s; and %.700s", msg, e2->message);
	if (e2->hint[0])
		nsb_error_hint(e, "%s", e2->hint);
}

/* Try the parent of the own cgroup UP (a heap copy of it, made here); 0 and
 * ret_parent when it can hold the run. */
static int __attribute__((noinline))
try_beside(const struct nsb_cgroup_opts *o, const struct nsb_cgroup_where *w,
	   const char *const names[], char *ret_parent, size_t size, struct nsb_error *e, int r)
{
	_cleanup_free_ char *up = strdup(w->own);
	struct nsb_error e2 = {0};

	if (!up)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_CGROUP, "own cgroup '%s'", w->own);
	nsb_cgroup_dirname(up);
	if (strncmp(up, w->mnt, strlen(w->mnt)))
		return r;
	r = check_parent(o, up, names, &e2);
	if (r < 0) {
		/* Say both: the own cgroup is busy, and why its parent fails. */
		if (e)
			explain_both(e, &e2);
		return r;
	}
	if (ret_parent)
		nsb_format(ret_parent, size, "%s", up);
	return 0;
}

/*
 * Choose the parent: --cgroup-parent, else the own cgroup, else (when the own
 * cgroup holds processes, as every systemd scope does) its parent, so the run
 * becomes a sibling leaf.  ret_parent is written only on success (and not
 * at all when NULL).
 */
static int choose_parent(const struct nsb_cgroup_opts *o, const char *const names[],
			 char *ret_parent, size_t size, struct nsb_error *e)
{
	_cleanup_(where_freep) struct nsb_cgroup_where *local = NULL;
	struct nsb_cgroup_where *w = o ? o->where : NULL;
	int r;

	if (!w) {
		/* No cache given (tests): a throwaway one, on the heap. */
		w = local = calloc(1, sizeof(*local));
		if (!local)
			return nsb_error_set(e, -ENOMEM, NSB_STAGE_CGROUP,
					     "locate the cgroup2 mount");
	}
	if (!w->valid || !w->mnt || !w->own) {
		r = locate(o, w, e);
		if (r < 0)
			return r;
		/* locate sets both when it succeeds; said for the analyzer. */
		if (!w->mnt || !w->own)
			return nsb_error_setx(e, -EINVAL, NSB_STAGE_CGROUP,
					      "the cgroup2 mount is unknown");
	}
	if (o && o->parent) {
		size_t ml = strlen(w->mnt);
		if (o->parent[0] != '/' || strncmp(o->parent, w->mnt, ml) ||
		    (o->parent[ml] != '/' && o->parent[ml] != '\0')) {
			nsb_error_setx(e, -EINVAL, NSB_STAGE_CGROUP,
				       "--cgroup-parent '%s' is not inside the cgroup2 mount '%s'",
				       o->parent, w->mnt);
			return nsb_error_hint(e, "give an absolute path below '%s'", w->mnt);
		}
		r = check_parent(o, o->parent, names, e);
		if (r < 0)
			return r;
		if (strlen(o->parent) >= size)
			return nsb_error_setx(e, -ENAMETOOLONG, NSB_STAGE_CGROUP,
					      "--cgroup-parent too long");
		if (ret_parent)
			strcpy(ret_parent, o->parent);
		return 0;
	}

	r = check_parent(o, w->own, names, e);
	if (r == 0 || !strcmp(w->own, w->mnt)) {
		if (r == 0 && ret_parent)
			nsb_format(ret_parent, size, "%s", w->own);
		return r;
	}
	/* Own cgroup is not usable, typically a leaf with processes (every
	 * systemd scope is one): try beside it. */
	return try_beside(o, w, names, ret_parent, size, e, r);
}

int nsb_cgroup_place(const struct nsb_cgroup_opts *o, const char *const controllers[],
		     struct nsb_cgroup_place *ret, struct nsb_error *e)
{
	/* Straight into *ret (no 4 KiB copy on the stack): choose_parent
	 * writes the parent only when it succeeds. */
	int r = choose_parent(o, controllers, ret ? ret->parent : NULL,
			      ret ? sizeof(ret->parent) : PATH_MAX, e);
	if (r < 0)
		return r;
	if (ret)
		ret->clean_stale = o && o->clean_stale;
	return 0;
}
