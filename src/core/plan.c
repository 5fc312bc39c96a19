// SPDX-License-Identifier: GPL-2.0-or-later
/* Config + host facts -> struct nsb_plan (mounts, environment, cwd, argv).  Pure (supervisor). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "core/netpolicy.h"
#include "core/plan.h"
#include "core/plan_env.h"
#include "base/fmt.h"
#include "base/util.h"

/*
 * The system view: enough of the host for ordinary programs to start, and
 * nothing that identifies the host beyond it.  Never the whole /etc, never a
 * home directory.  Everything here is read-only.
 */
static const char *const sys_links[] = {
	/* merged-/usr links: copied as links when they are links on the host */
	"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
};

/*
 * /etc/ssl is never bound whole: /etc/ssl/private holds the host's private
 * keys, and a root caller is their owner inside.  Programs need only the
 * certificates and OpenSSL's configuration: Debian's OpenSSL reaches both
 * through /usr/lib/ssl/{certs,cert.pem,openssl.cnf}, which link here, and
 * Python's ssl, curl and git read /etc/ssl/certs/ca-certificates.crt.
 */
static const char *const etc_entries[] = {
	"/etc/ld.so.cache", "/etc/ld.so.conf",	    "/etc/ld.so.conf.d",  "/etc/alternatives",
	"/etc/ssl/certs",   "/etc/ssl/openssl.cnf", "/etc/ssl/cert.pem",  "/etc/ca-certificates",
	"/etc/localtime",   "/etc/timezone",	    "/etc/nsswitch.conf", "/etc/passwd",
	"/etc/group",	    "/etc/hosts",	    "/etc/host.conf",	  "/etc/resolv.conf",
	"/etc/gai.conf",    "/etc/protocols",	    "/etc/services",	  "/etc/mime.types",
	"/etc/os-release",
};

/* Which etc_entries are directories (bit i for entry i). */
#define ETC_DIRS (1u << 2 | 1u << 3 | 1u << 4 | 1u << 7)

size_t nsb_plan_etc_entries(const char *const **ret_paths, unsigned *ret_dirs)
{
	*ret_paths = etc_entries;
	*ret_dirs = ETC_DIRS;
	return ARRAY_SIZE(etc_entries);
}

/* /usr, the links, /etc, /proc, /dev and /tmp (plan_system_view). */
#define N_SYSTEM_OPS (1 + ARRAY_SIZE(sys_links) + ARRAY_SIZE(etc_entries) + 3)

static int add_op(struct nsb_plan *p, struct nsb_error *e, enum nsb_op_kind kind, const char *src,
		  const char *dest, bool ro, bool optional)
{
	struct nsb_mount_op *op;
	size_t src_len = src ? strlen(src) : 0, dest_len = strlen(dest);
	char *s;

	/* plan_mounts sized ops for every entry it adds, within the
	 * documented cap. */
	if (p->n_ops >= p->ops_room)
		return nsb_error_setx(e, -E2BIG, NSB_STAGE_PLAN,
				      "too many mounts in the plan (at most %d)", NSB_MAX_OPS);
	if (src_len > NSB_MAX_PATH)
		return nsb_error_setx(e, -ENAMETOOLONG, NSB_STAGE_PLAN, "path '%s' is too long",
				      src);
	if (dest_len > NSB_MAX_PATH)
		return nsb_error_setx(e, -ENAMETOOLONG, NSB_STAGE_PLAN, "path '%s' is too long",
				      dest);
	s = malloc(src_len + 1 + dest_len + 1);
	if (!s)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PLAN, "plan the mounts");
	memcpy(s, src ? src : "", src_len + 1);
	memcpy(s + src_len + 1, dest, dest_len + 1);
	op = &p->ops[p->n_ops++];
	*op = (struct nsb_mount_op){.kind = kind,
				    .src = s,
				    .dest = s + src_len + 1,
				    .readonly = ro,
				    .optional = optional,
				    .argv_index = -1};
	return 0;
}

/*
 * The command, copied into one allocation: the plan must not point into the
 * caller's argv, because init overwrites that block so that /proc/1/cmdline
 * shows none of nsbox's arguments (init.c, scrub_cmdline), and the payload
 * still needs its argv after that.
 */
static int copy_argv(const struct nsb_config *c, struct nsb_plan *p, struct nsb_error *e)
{
	size_t n = (size_t)c->cmd_argc, bytes = 0;
	char **v, *s;

	/* Bounded: cli.c refuses more than NSB_MAX_ARGV_BYTES of argv. */
	for (size_t i = 0; i < n; i++)
		bytes += strlen(c->cmd_argv[i]) + 1;
	v = malloc((n + 1) * sizeof(*v) + bytes);
	if (!v)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PLAN, "copy the command");
	s = (char *)(v + n + 1);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(c->cmd_argv[i]) + 1;
		memcpy(s, c->cmd_argv[i], len);
		v[i] = s;
		s += len;
	}
	v[n] = NULL;
	p->argv = v;
	return 0;
}

/*
 * Stable sort of user mounts by destination depth, parents first, in time
 * linear in n (thousands of binds): a counting sort of the indices by depth
 * (at most NSB_MAX_PATH / 2), then the permutation applied in place cycle by
 * cycle, each operation moved once.  -ENOMEM when the indices cannot
 * be allocated.
 */
static int sort_user_ops(struct nsb_mount_op *ops, size_t n)
{
	enum {
		MAX_DEPTH = NSB_MAX_PATH / 2 + 1
	};
	size_t *count = NULL, *to = NULL;
	struct nsb_mount_op *tmp = NULL;
	bool sorted = true;

	for (size_t i = 1; i < n && sorted; i++)
		sorted = nsb_path_depth(ops[i - 1].dest) <= nsb_path_depth(ops[i].dest);
	if (sorted)
		return 0;
	count = calloc(MAX_DEPTH + 1, sizeof(*count));
	to = malloc(n * sizeof(*to));
	tmp = malloc(sizeof(*tmp));
	if (!count || !to || !tmp) {
		free(count);
		free(to);
		free(tmp);
		return -ENOMEM;
	}
	/* to[i]: where ops[i] belongs. */
	for (size_t i = 0; i < n; i++)
		count[nsb_path_depth(ops[i].dest) + 1]++;
	for (size_t d = 1; d <= MAX_DEPTH; d++)
		count[d] += count[d - 1];
	for (size_t i = 0; i < n; i++)
		to[i] = count[nsb_path_depth(ops[i].dest)]++;
	for (size_t i = 0; i < n; i++) {
		/* Follow the cycle through i, carrying one operation. */
		while (to[i] != i) {
			size_t j = to[i];
			memcpy(tmp, &ops[j], sizeof(*tmp));
			memcpy(&ops[j], &ops[i], sizeof(*tmp));
			memcpy(&ops[i], tmp, sizeof(*tmp));
			to[i] = to[j];
			to[j] = j;
		}
	}
	free(count);
	free(to);
	free(tmp);
	return 0;
}

/* What the plan copies from the config and the facts as they are. */
static void plan_scalars(const struct nsb_config *c, const struct nsb_facts *f, struct nsb_plan *p)
{
	p->uid = f->uid;
	p->gid = f->gid;
	p->share_net = c->share_net;
	p->tmp_size = c->tmp_size ? c->tmp_size : NSB_DEFAULT_TMP_SIZE;
	p->pipe_output = c->has_max_output || c->capture;
	p->argc = c->cmd_argc;
	nsb_format(p->hostname, sizeof(p->hostname), "%s",
		   c->hostname ? c->hostname : NSB_DEFAULT_HOSTNAME);
}

/* The project root: --project's real path, or the working directory. */
static int plan_project(const struct nsb_config *c, const struct nsb_facts *f, struct nsb_plan *p,
			struct nsb_error *e)
{
	const char *proj;

	p->project = "";
	if (c->no_project)
		return 0;
	proj = c->project ? f->project_real : f->cwd;
	if (!proj)
		return nsb_error_setx(e, -EINVAL, NSB_STAGE_PLAN, "the project root is unknown");
	/* Only the implicit default is refused: an explicit --project
	 * is the caller's informed choice. */
	if (!c->project && strcmp(proj, "/") == 0) {
		nsb_error_setx(
			e, -EPERM, NSB_STAGE_PLAN,
			"refusing to expose '/' as the project root (the current directory)");
		return nsb_error_hint(
			e,
			"run nsbox from the project's directory, or pass --project DIR or --no-project");
	}
	if (!c->project && f->home && strcmp(proj, f->home) == 0) {
		nsb_error_setx(
			e, -EPERM, NSB_STAGE_PLAN,
			"refusing to expose the home directory '%s' as the project root (the current directory)",
			proj);
		return nsb_error_hint(
			e,
			"run nsbox from the project's directory, or pass --project DIR or --no-project");
	}
	if (strlen(proj) > NSB_MAX_PATH)
		return nsb_error_setx(e, -ENAMETOOLONG, NSB_STAGE_PLAN, "project path is too long");
	p->project = proj;
	return 0;
}

/* The system view, read-only, then /proc, /dev and /tmp. */
static int plan_system_view(struct nsb_plan *p, struct nsb_error *e)
{
	int r;

	r = add_op(p, e, NSB_OP_BIND, "/usr", "/usr", true, false);
	if (r < 0)
		return r;
	p->ops[p->n_ops - 1].src_is_dir = true;
	for (size_t i = 0; i < ARRAY_SIZE(sys_links); i++) {
		r = add_op(p, e, NSB_OP_SYSLINK, sys_links[i], sys_links[i], true, true);
		if (r < 0)
			return r;
	}
	p->etc_first = p->n_ops;
	p->etc_count = ARRAY_SIZE(etc_entries);
	for (size_t i = 0; i < ARRAY_SIZE(etc_entries); i++) {
		r = add_op(p, e, NSB_OP_BIND, etc_entries[i], etc_entries[i], true, true);
		if (r < 0)
			return r;
		/* What init expects (it checks when a mount fails). */
		p->ops[p->n_ops - 1].src_is_dir = (ETC_DIRS >> i) & 1;
	}
	r = add_op(p, e, NSB_OP_PROC, NULL, "/proc", false, false);
	if (r < 0)
		return r;
	r = add_op(p, e, NSB_OP_DEV, NULL, "/dev", false, false);
	if (r < 0)
		return r;
	p->ops[p->n_ops - 1].size = p->tmp_size;
	r = add_op(p, e, NSB_OP_TMPFS, NULL, "/tmp", false, false);
	if (r < 0)
		return r;
	p->ops[p->n_ops - 1].size = p->tmp_size;
	p->ops[p->n_ops - 1].mode = 01777;
	return 0;
}

/* The project root's bind: the first user mount. */
static int plan_project_bind(struct nsb_plan *p, struct nsb_error *e)
{
	int r;

	if (!p->project[0])
		return 0;
	r = add_op(p, e, NSB_OP_BIND, p->project, p->project, true, false);
	if (r < 0)
		return r;
	p->ops[p->n_ops - 1].user = true;
	p->ops[p->n_ops - 1].src_is_dir = true;
	if (nsb_path_depth(p->project) == 0 || strcmp(p->project, "/usr") == 0 ||
	    nsb_path_is_under(p->project, "/proc") || nsb_path_is_under(p->project, "/dev")) {
		nsb_error_setx(e, -EINVAL, NSB_STAGE_PLAN, "project root '%s' is reserved by nsbox",
			       p->project);
		return nsb_error_hint(
			e, "pass --project DIR with a directory of your own, or --no-project");
	}
	return 0;
}

/* --ro/--rw argument I: its real source (resolved by the caller) at DEST. */
static int plan_bind_arg(const struct nsb_config *c, const struct nsb_facts *f, size_t i,
			 struct nsb_plan *p, struct nsb_error *e)
{
	const struct nsb_mount_arg *m = &c->mounts[i];
	const char *real = f->mount_src_real[i];
	const char *dest = m->dest ? m->dest : real;
	int r;

	if (!real)
		return nsb_error_setx(e, -EINVAL, NSB_STAGE_PLAN,
				      "source of argument %d is unresolved", m->argv_index);
	if (!m->dest && (nsb_path_depth(real) == 0 || nsb_path_is_under(real, "/proc") ||
			 nsb_path_is_under(real, "/dev"))) {
		nsb_error_setx(e, -EINVAL, NSB_STAGE_PLAN,
			       "%s '%.*s': its real path '%s' is reserved by nsbox",
			       m->kind == NSB_MOUNT_RO	      ? "--ro"
			       : m->kind == NSB_MOUNT_OVERLAY ? "--overlay"
							      : "--rw",
			       (int)m->src_len, m->src, real);
		return nsb_error_hint(e,
				      "bind it elsewhere with PATH:DEST, e.g. --ro %.*s:/mnt/host",
				      (int)m->src_len, m->src);
	}
	r = add_op(p, e, NSB_OP_BIND, real, dest, m->kind == NSB_MOUNT_RO, false);
	if (r < 0)
		return r;
	p->ops[p->n_ops - 1].src_is_dir = f->mount_src_is_dir[i];
	if (m->kind == NSB_MOUNT_OVERLAY) {
		if (!f->mount_src_is_dir[i])
			return nsb_error_setx(e, -ENOTDIR, NSB_STAGE_PLAN,
					      "--overlay '%.*s': not a directory", (int)m->src_len,
					      m->src);
		p->ops[p->n_ops - 1].overlay = true;
		p->n_overlays++;
		p->overlay_size = c->overlay_size ? c->overlay_size : NSB_DEFAULT_OVERLAY_SIZE;
	}
	return 0;
}

/* --ro, --rw and --tmpfs, in the order given. */
static int plan_user_mounts(const struct nsb_config *c, const struct nsb_facts *f,
			    struct nsb_plan *p, struct nsb_error *e)
{
	for (size_t i = 0; i < c->n_mounts; i++) {
		const struct nsb_mount_arg *m = &c->mounts[i];
		struct nsb_mount_op *op;
		int r;

		if (m->kind == NSB_MOUNT_TMPFS) {
			r = add_op(p, e, NSB_OP_TMPFS, NULL, m->dest, false, false);
			if (r < 0)
				return r;
			op = &p->ops[p->n_ops - 1];
			op->size = m->size;
			op->mode = 0755; /* owned by the caller's mapped uid */
		} else {
			r = plan_bind_arg(c, f, i, p, e);
			if (r < 0)
				return r;
			op = &p->ops[p->n_ops - 1];
		}
		op->user = true;
		op->argv_index = m->argv_index;
	}
	return 0;
}

/* Destination order for the duplicate check; equal ones by position. */
static int cmp_dest(const void *a, const void *b, void *plan)
{
	const struct nsb_plan *p = plan;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int r = strcmp(p->ops[i].dest, p->ops[j].dest);
	return r ? r : (i > j) - (i < j);
}

/* *ret: the position of the first user mount whose destination an earlier
 * one has too (n_ops when none), found in O(n log n): sorted, duplicates
 * are neighbours.  -ENOMEM when the indices cannot be allocated. */
static int first_duplicate(const struct nsb_plan *p, size_t first_user, size_t *ret)
{
	size_t n = p->n_ops - first_user, dup = p->n_ops;
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		idx[i] = first_user + i;
	qsort_r(idx, n, sizeof(*idx), cmp_dest, (void *)(uintptr_t)p);
	for (size_t i = 1; i < n; i++)
		if (strcmp(p->ops[idx[i - 1]].dest, p->ops[idx[i]].dest) == 0 && idx[i] < dup)
			dup = idx[i];
	free(idx);
	*ret = dup;
	return 0;
}

/* User mounts from FIRST_USER on: each on a destination of its own. */
static int check_destinations(const struct nsb_plan *p, size_t first_user, struct nsb_error *e)
{
	size_t dup = 0;

	if (first_duplicate(p, first_user, &dup) < 0)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PLAN, "check the mount destinations");
	/* Two mounts on one destination would hide one of them silently; the
	 * scan starts at the first one that has an earlier twin. */
	for (size_t i = dup; i < p->n_ops; i++)
		for (size_t j = first_user; j < i; j++)
			if (strcmp(p->ops[i].dest, p->ops[j].dest) == 0) {
				nsb_error_setx(e, -EEXIST, NSB_STAGE_PLAN,
					       "destination '%s' is mounted twice", p->ops[i].dest);
				return nsb_error_hint(
					e, "give each --ro, --rw and --tmpfs its own destination");
			}
	/* User mounts may not replace the system view wholesale either. */
	for (size_t i = first_user; i < p->n_ops; i++)
		for (size_t j = 0; j < first_user; j++)
			if (strcmp(p->ops[i].dest, p->ops[j].dest) == 0) {
				nsb_error_setx(e, -EEXIST, NSB_STAGE_PLAN,
					       "destination '%s' is part of the system view",
					       p->ops[i].dest);
				return nsb_error_hint(e,
						      "choose another destination with PATH:DEST");
			}
	return 0;
}

/* The mount list: system view, then the user's mounts, parents first. */
static int plan_mounts(const struct nsb_config *c, const struct nsb_facts *f, struct nsb_plan *p,
		       struct nsb_error *e)
{
	/* Every op this adds, known now: the ops are allocated once, to size. */
	size_t cap = N_SYSTEM_OPS + 1 + c->n_mounts;
	size_t first_user;
	int r;

	if (cap > NSB_MAX_OPS)
		cap = NSB_MAX_OPS;
	p->ops = calloc(cap, sizeof(*p->ops));
	if (!p->ops)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PLAN, "plan the mounts");
	p->ops_room = cap;
	r = plan_system_view(p, e);
	if (r < 0)
		return r;
	first_user = p->n_ops;
	r = plan_project_bind(p, e);
	if (r < 0)
		return r;
	r = plan_user_mounts(c, f, p, e);
	if (r < 0)
		return r;
	r = check_destinations(p, first_user, e);
	if (r < 0)
		return r;
	/* Parents before children, so every mount point is created in (or
	 * found on) the mount it belongs to. */
	if (sort_user_ops(p->ops + first_user, p->n_ops - first_user) < 0)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PLAN, "order the mounts");
	return 0;
}

/* The steps of nsb_plan_build, into a zeroed p; on failure p owns nothing. */
static int plan_build_into(const struct nsb_config *c, const struct nsb_facts *f,
			   struct nsb_plan *p, struct nsb_error *e)
{
	int r;

	if (!c->cmd_argv || c->cmd_argc < 1)
		return nsb_error_setx(e, -EINVAL, NSB_STAGE_PLAN, "no command to plan for");
	plan_scalars(c, f, p);
	r = plan_project(c, f, p, e);
	if (r >= 0)
		r = plan_mounts(c, f, p, e);
	if (r >= 0) {
		p->cwd = strdup(c->chdir ? c->chdir : p->project[0] ? p->project : "/");
		r = p->cwd ? nsb_plan_build_env(c, f, p, e)
			   : nsb_error_set(e, -ENOMEM, NSB_STAGE_PLAN, "plan the sandbox");
	}
	if (r >= 0)
		r = copy_argv(c, p, e);
	if (r < 0) {
		nsb_plan_free(p);
		return r;
	}
	return 0;
}

int nsb_plan_build(const struct nsb_config *c, const struct nsb_facts *f, struct nsb_plan *ret,
		   struct nsb_error *e)
{
	/* Built aside and copied only on success, so a failure leaves *ret as
	 * it was.  The plan itself is small (its tables are allocated to
	 * size), but it holds a path (landlock.tmpdir): on the heap, not the
	 * stack. */
	_cleanup_free_ struct nsb_plan *p = calloc(1, sizeof(*p));
	int r;

	if (!p)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PLAN, "plan the sandbox");
	r = plan_build_into(c, f, p, e);
	if (r < 0)
		return r;
	*ret = *p; /* the owned ops, envp strings and argv move with the copy */
	return 0;
}

void nsb_plan_free(struct nsb_plan *p)
{
	free(p->cwd);
	p->cwd = NULL;
	for (size_t i = 0; i < p->n_ops; i++)
		free(p->ops[i].src); /* dest shares the allocation */
	free(p->ops);
	p->ops = NULL;
	p->n_ops = 0;
	p->ops_room = 0;
	for (size_t i = 0; i < p->n_envp; i++)
		free(p->envp[i]);
	p->n_envp = 0;
	p->envp[0] = NULL;
	free(p->argv);
	p->argv = NULL;
	for (size_t i = 0; i < p->n_covers; i++)
		free(p->covers[i].path);
	free(p->covers);
	p->covers = NULL;
	p->n_covers = 0;
}
