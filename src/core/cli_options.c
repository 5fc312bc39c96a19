// SPDX-License-Identifier: GPL-2.0-or-later
/* What each option means: the option table and its setters (the --help text is cli_usage.c).  Pure (supervisor). */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/cli.h"
#include "core/approval.h"
#include "core/cli_options.h"
#include "base/util.h"
#include "core/protect.h"

int nsb_cli_usage_err(struct nsb_error *e, int err, const char *hint, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = nsb_error_vsetx(e, err, NSB_STAGE_USAGE, NULL, fmt, ap);
	va_end(ap);
	if (hint && hint[0])
		nsb_error_hint(e, "%s", hint);
	return r;
}

static void *field_of(const struct nsb_cli_option *o, struct nsb_cli_state *s)
{
	return (char *)s->c + o->field;
}

/* ---- the four shapes ----------------------------------------------------- */

static int set_flag(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
		    struct nsb_error *e)
{
	*(bool *)field_of(o, s) = true;
	return 0;
}

static int set_path(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
		    struct nsb_error *e)
{
	if (!*arg || strlen(arg) > NSB_MAX_PATH)
		return nsb_cli_usage_err(e, -EINVAL, o->hint, "%s '%s': %s", o->name, arg, o->what);
	*(const char **)field_of(o, s) = arg;
	return 0;
}

static int set_abs_path(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			struct nsb_error *e)
{
	if (strlen(arg) > NSB_MAX_PATH || !nsb_path_is_clean_abs(arg))
		return nsb_cli_usage_err(e, -EINVAL, o->hint, "%s '%s': %s", o->name, arg, o->what);
	*(const char **)field_of(o, s) = arg;
	return 0;
}

/* A number in [o->min, o->max], read by PARSE (a size or a fraction). */
static int set_number(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
		      int (*parse)(const char *, uint64_t, uint64_t *), struct nsb_error *e)
{
	uint64_t *v = field_of(o, s);

	if (parse(arg, o->max, v) < 0 || *v < o->min)
		return nsb_cli_usage_err(e, -EINVAL, o->hint, "%s '%s': %s", o->name, arg, o->what);
	return 0;
}

static int set_size(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
		    struct nsb_error *e)
{
	return set_number(o, arg, s, nsb_parse_size, e);
}

static int set_fraction(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			struct nsb_error *e)
{
	return set_number(o, arg, s, nsb_parse_milli, e);
}

/* ---- mounts --------------------------------------------------------------- */

/* A mount destination: absolute, no "." or ".." or empty components. */
static int check_dest(const char *opt, const char *dest, struct nsb_error *e)
{
	if (dest[0] != '/')
		return nsb_cli_usage_err(
			e, -EINVAL,
			"DEST is where the path appears inside the sandbox; write it as an absolute path such as /data",
			"%s: destination '%s' is not an absolute path", opt, dest);
	if (strlen(dest) > NSB_MAX_PATH)
		return nsb_cli_usage_err(e, -ENAMETOOLONG, NULL,
					 "%s: destination is longer than %d bytes", opt,
					 NSB_MAX_PATH);
	if (!nsb_path_is_clean_abs(dest))
		return nsb_cli_usage_err(
			e, -EINVAL, "write DEST without '.', '..', '//' or a trailing '/'",
			"%s: destination '%s' is not a normalized path", opt, dest);
	if (strcmp(dest, "/") == 0 || nsb_path_is_under(dest, "/proc") ||
	    nsb_path_is_under(dest, "/dev"))
		return nsb_cli_usage_err(e, -EINVAL,
					 "choose a destination outside /, /proc and /dev",
					 "%s: destination '%s' is reserved by nsbox", opt, dest);
	return 0;
}

/* --tmpfs DEST[:SIZE]: the size is after the last ':'. */
static int parse_tmpfs(struct nsb_mount_arg *m, const char *opt, const char *arg,
		       struct nsb_error *e)
{
	const char *colon = strrchr(arg, ':');
	size_t n = colon ? (size_t)(colon - arg) : strlen(arg);
	int r;

	if (n == 0)
		return nsb_cli_usage_err(e, -EINVAL, NULL, "%s: empty destination", opt);
	if (n > NSB_MAX_PATH)
		return nsb_cli_usage_err(e, -ENAMETOOLONG, NULL,
					 "%s: destination is longer than %d bytes", opt,
					 NSB_MAX_PATH);
	memcpy(m->dest_buf, arg, n);
	m->dest_buf[n] = '\0';
	m->dest = m->dest_buf;
	r = check_dest(opt, m->dest, e);
	if (r < 0)
		return r;
	m->size = NSB_DEFAULT_TMPFS_SIZE;
	if (colon) {
		r = nsb_parse_size(colon + 1, NSB_MAX_TMPFS_SIZE, &m->size);
		if (r < 0 || m->size == 0)
			return nsb_cli_usage_err(
				e, -EINVAL,
				"SIZE is bytes with an optional k, M or G suffix, at most 64G",
				"%s: invalid size '%s'", opt, colon + 1);
	}
	return 0;
}

/* --ro/--rw PATH[:DEST]: PATH ends at the first ':'. */
static int parse_bind(struct nsb_mount_arg *m, const char *opt, const char *arg,
		      struct nsb_error *e)
{
	const char *colon = strchr(arg, ':');

	m->src = arg;
	m->src_len = colon ? (size_t)(colon - arg) : strlen(arg);
	if (m->src_len == 0)
		return nsb_cli_usage_err(e, -EINVAL, NULL, "%s '%s': empty source path", opt, arg);
	if (m->src_len > NSB_MAX_PATH)
		return nsb_cli_usage_err(e, -ENAMETOOLONG, NULL,
					 "%s: source path is longer than %d bytes", opt,
					 NSB_MAX_PATH);
	if (colon) {
		m->dest = colon + 1;
		if (!*m->dest)
			return nsb_cli_usage_err(e, -EINVAL, NULL,
						 "%s '%s': empty destination after ':'", opt, arg);
		return check_dest(opt, m->dest, e);
	}
	return 0;
}

/* --ro, --rw, --tmpfs: o->min is the enum nsb_mount_kind. */
static int add_mount(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
		     struct nsb_error *e)
{
	struct nsb_config *c = s->c;
	enum nsb_mount_kind kind = (enum nsb_mount_kind)o->min;
	struct nsb_mount_arg *m;
	int r;

	if (c->n_mounts >= NSB_MAX_MOUNTS)
		return nsb_cli_usage_err(
			e, -E2BIG, "merge binds: bind a common parent directory instead",
			"%s '%s': too many mounts (at most %d --ro, --rw and --tmpfs in total)",
			o->name, arg, NSB_MAX_MOUNTS);
	m = &c->mounts[c->n_mounts];
	memset(m, 0, sizeof(*m));
	m->kind = kind;
	m->argv_index = s->argv_index;

	if (kind == NSB_MOUNT_TMPFS)
		r = parse_tmpfs(m, o->name, arg, e);
	else
		r = parse_bind(m, o->name, arg, e);
	if (r < 0)
		return r;
	c->n_mounts++;
	return 0;
}

/* ---- options with a handler of their own ---------------------------------- */

static int set_project(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
		       struct nsb_error *e)
{
	if (!*arg)
		return nsb_cli_usage_err(e, -EINVAL, NULL, "--project: empty path");
	if (strlen(arg) > NSB_MAX_PATH)
		return nsb_cli_usage_err(e, -ENAMETOOLONG, NULL,
					 "--project: path is longer than %d bytes", NSB_MAX_PATH);
	s->c->project = arg;
	return 0;
}

static bool env_name_valid(const char *s, size_t n)
{
	if (n == 0 || n > 255)
		return false;
	if (!((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
		return false;
	for (size_t i = 1; i < n; i++) {
		char ch = s[i];
		if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
		      (ch >= '0' && ch <= '9') || ch == '_'))
			return false;
	}
	return true;
}

static int add_env(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
		   struct nsb_error *e)
{
	struct nsb_config *c = s->c;
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);

	if (!env_name_valid(arg, n))
		return nsb_cli_usage_err(
			e, -EINVAL, "NAME is letters, digits and '_', not starting with a digit",
			"--env '%s': invalid variable name", arg);
	if (c->n_env >= NSB_MAX_ENV)
		return nsb_cli_usage_err(e, -E2BIG, NULL,
					 "--env '%s': too many --env options (at most %d)", arg,
					 NSB_MAX_ENV);
	c->env[c->n_env++] = arg;
	return 0;
}

static bool hostname_valid(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > NSB_MAX_HOSTNAME || s[0] == '-' || s[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
		      (ch >= '0' && ch <= '9') || ch == '-' || ch == '.'))
			return false;
	}
	return true;
}

static int set_hostname(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			struct nsb_error *e)
{
	if (!hostname_valid(arg))
		return nsb_cli_usage_err(e, -EINVAL, "use 1-64 letters, digits, '-' and '.'",
					 "--hostname '%s': invalid hostname", arg);
	s->c->hostname = arg;
	return 0;
}

static int set_pty_on(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
		      struct nsb_error *e)
{
	s->c->pty = NSB_PTY_ON;
	return 0;
}

static int set_pty_off(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
		       struct nsb_error *e)
{
	s->c->pty = NSB_PTY_OFF;
	return 0;
}

static int set_pids(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
		    struct nsb_error *e)
{
	struct nsb_config *c = s->c;

	if (strcmp(arg, "unlimited") == 0) {
		c->pids = NSB_PIDS_UNLIMITED;
		return 0;
	}
	if (nsb_parse_uint(arg, NSB_MAX_PIDS, &c->pids) < 0 || c->pids < 2)
		return nsb_cli_usage_err(
			e, -EINVAL,
			"N counts nsbox's init too: at least 2, at most 4194304; 'unlimited' lifts the default",
			"--pids '%s': invalid number of processes", arg);
	return 0;
}

static int set_max_output(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			  struct nsb_error *e)
{
	int r = set_size(o, arg, s, e);

	if (r < 0)
		return r;
	s->c->has_max_output = true;
	s->max_output_arg = arg;
	return 0;
}

/* --deny-exec, --allow-exec: a list of command base names. */
static int add_exec_name(const struct nsb_cli_option *o, const char *arg, const char **list,
			 size_t *n, struct nsb_error *e)
{
	if (!*arg || strlen(arg) > 255 || strchr(arg, '/'))
		return nsb_cli_usage_err(e, -EINVAL,
					 "NAME is a command's base name such as rm, without '/'",
					 "%s '%s': invalid command name", o->name, arg);
	if (*n >= NSB_MAX_GATE_OPTS)
		return nsb_cli_usage_err(e, -E2BIG, "keep long lists in a --policy file",
					 "%s '%s': too many (at most %d)", o->name, arg,
					 NSB_MAX_GATE_OPTS);
	list[(*n)++] = arg;
	return 0;
}

static int add_deny_exec(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			 struct nsb_error *e)
{
	return add_exec_name(o, arg, s->c->deny_exec, &s->c->n_deny_exec, e);
}

static int add_allow_exec(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			  struct nsb_error *e)
{
	return add_exec_name(o, arg, s->c->allow_exec, &s->c->n_allow_exec, e);
}

static int add_allow_path(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			  struct nsb_error *e)
{
	struct nsb_config *c = s->c;

	if (!*arg || strlen(arg) > NSB_MAX_PATH)
		return nsb_cli_usage_err(e, -EINVAL, NULL, "--allow-path '%s': invalid directory",
					 arg);
	if (c->n_allow_path >= NSB_MAX_GATE_PATHS)
		return nsb_cli_usage_err(
			e, -E2BIG, "bind and allow a common parent directory instead",
			"--allow-path '%s': too many (at most %d)", arg, NSB_MAX_GATE_PATHS);
	c->allow_path[c->n_allow_path++] = arg;
	return 0;
}

/* --mask: a glob (checked as the policy's) or a host path (resolved by the run). */
static int add_mask(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
		    struct nsb_error *e)
{
	struct nsb_config *c = s->c;
	bool bad = nsb_protect_is_glob(arg) ? nsb_protect_glob_valid(arg) < 0
					    : !*arg || strlen(arg) > NSB_MAX_PATH;

	if (bad)
		return nsb_cli_usage_err(
			e, -EINVAL,
			"a GLOB is relative to each bind's root, without '.', '..' or spaces",
			"--mask '%s': invalid path or pattern", arg);
	if (c->n_mask >= NSB_MAX_MASK_ARGS)
		return nsb_cli_usage_err(e, -E2BIG, "keep long lists in a --policy file",
					 "--mask '%s': too many (at most %d)", arg,
					 NSB_MAX_MASK_ARGS);
	c->mask[c->n_mask++] = arg;
	return 0;
}

static int set_result_fd(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			 struct nsb_error *e)
{
	uint64_t fd;

	if (nsb_parse_uint(arg, INT_MAX, &fd) < 0)
		return nsb_cli_usage_err(e, -EINVAL, NULL,
					 "--result-fd '%s': not a file descriptor number", arg);
	if (fd <= 2)
		return nsb_cli_usage_err(
			e, -EINVAL,
			"open another descriptor for the record, e.g. 3>record.json with --result-fd 3",
			"--result-fd %s: descriptors 0-2 belong to the command", arg);
	s->c->result_fd = (int)fd;
	return 0;
}

/* --approved ID: an approval_id as --check prints it (core/approval.h). */
static int set_approved(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			struct nsb_error *e)
{
	if (!nsb_approval_id_valid(arg))
		return nsb_cli_usage_err(e, -EINVAL,
					 "give the approval_id that nsbox --check printed for this "
					 "request",
					 "--approved '%.80s': not 64 hexadecimal digits", arg);
	s->c->approved = arg;
	return 0;
}

/* ---- the table ------------------------------------------------------------ */

/* Every setter, once: the rows name theirs by its index (SET). */
// clang-format off
#define SETTERS(X) \
	X(add_allow_exec) X(add_allow_path) X(add_deny_exec) X(add_env) X(add_mask) \
	X(add_mount) X(nsb_cli_add_allow_net) X(nsb_cli_add_allow_net_range) \
	X(nsb_cli_add_deny_net) X(nsb_cli_set_isolation) X(nsb_cli_set_overlay_mode) \
	X(nsb_cli_set_overlay_size) X(nsb_cli_set_proxy_port) X(nsb_cli_set_request) \
	X(nsb_cli_set_request_fd) X(set_abs_path) X(set_approved) X(set_flag) X(set_fraction) \
	X(set_hostname) X(set_max_output) X(set_path) X(set_pids) X(set_project) \
	X(set_pty_off) X(set_pty_on) X(set_result_fd) X(set_size)
// clang-format on

#define SETTER_ENUM(f) SETTER_##f,
enum {
	SETTERS(SETTER_ENUM) N_SETTERS
};
#undef SETTER_ENUM
#define SET(f) .set = SETTER_##f

int nsb_cli_set(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
		struct nsb_error *e)
{
#define SETTER_FN(f) f,
	static const nsb_cli_setter setters[] = {SETTERS(SETTER_FN)};
#undef SETTER_FN
	_Static_assert(ARRAY_SIZE(setters) == N_SETTERS, "one function per setter");
	return setters[o->set](o, arg, s, e);
}

#define FIELD(f) .field = offsetof(struct nsb_config, f)

const struct nsb_cli_option nsb_cli_options[] = {
	/* Filesystem */
	{.name = "--ro", .metavar = "PATH[:DEST]", SET(add_mount), .min = NSB_MOUNT_RO},
	{.name = "--rw", .metavar = "PATH[:DEST]", SET(add_mount), .min = NSB_MOUNT_RW},
	{.name = "--tmpfs", .metavar = "DEST[:SIZE]", SET(add_mount), .min = NSB_MOUNT_TMPFS},
	{.name = "--project", .metavar = "DIR", SET(set_project)},
	{.name = "--no-project", SET(set_flag), FIELD(no_project)},
	{.name = "--chdir",
	 .metavar = "DIR",
	 SET(set_abs_path),
	 FIELD(chdir),
	 .what = "not a normalized absolute path",
	 .hint = "give the directory as it appears inside, e.g. --chdir /data"},
	{.name = "--rw-git", SET(set_flag), FIELD(rw_git)},
	{.name = "--no-protect", SET(set_flag), FIELD(no_protect)},
	{.name = "--mask", .metavar = "PATH|GLOB", SET(add_mask)},
	{.name = "--no-mask", SET(set_flag), FIELD(no_mask)},
	{.name = "--overlay", .metavar = "DIR[:DEST]", SET(add_mount), .min = NSB_MOUNT_OVERLAY},
	{.name = "--overlay-size", .metavar = "SIZE", SET(nsb_cli_set_overlay_size)},
	{.name = "--overlay-mode", .metavar = "MODE", SET(nsb_cli_set_overlay_mode)},
	{.name = "--overlay-commit-always", SET(set_flag), FIELD(overlay_commit_always)},
	{.name = "--overlay-store",
	 .metavar = "PATH",
	 SET(set_path),
	 FIELD(overlay_store),
	 .what = "invalid directory name"},
	/* Environment and identity */
	{.name = "--env", .metavar = "NAME[=VALUE]", SET(add_env)},
	{.name = "--hostname", .metavar = "NAME", SET(set_hostname)},
	{.name = "--share-net", SET(set_flag), FIELD(share_net)},
	{.name = "--allow-net", .metavar = "HOST[:PORT]", SET(nsb_cli_add_allow_net)},
	{.name = "--deny-net", .metavar = "HOST[:PORT]", SET(nsb_cli_add_deny_net)},
	{.name = "--allow-net-range", .metavar = "CIDR", SET(nsb_cli_add_allow_net_range)},
	{.name = "--proxy-port", .metavar = "PORT", SET(nsb_cli_set_proxy_port)},
	/* Terminal */
	{.name = "--pty", SET(set_pty_on)},
	{.name = "--no-pty", SET(set_pty_off)},
	/* Limits and lifetime */
	{.name = "--memory",
	 .metavar = "SIZE",
	 SET(set_size),
	 FIELD(memory),
	 .min = NSB_MIN_MEMORY,
	 .max = NSB_MAX_MEMORY,
	 .what = "invalid size",
	 .hint = "SIZE is bytes with an optional k, M, G or T suffix, from 1M to 1T"},
	{.name = "--pids", .metavar = "N|unlimited", SET(set_pids)},
	{.name = "--cpus",
	 .metavar = "FRACTION",
	 SET(set_fraction),
	 FIELD(cpus_milli),
	 .min = 10,
	 .max = NSB_MAX_CPUS_MILLI,
	 .what = "invalid CPU amount",
	 .hint = "FRACTION is a number of CPUs from 0.01 to 1024, e.g. 0.5"},
	{.name = "--timeout",
	 .metavar = "SECONDS",
	 SET(set_fraction),
	 FIELD(timeout_ms),
	 .min = 1,
	 .max = NSB_MAX_TIMEOUT_MS,
	 .what = "invalid duration",
	 .hint = "SECONDS is a positive number with up to 3 decimals, at most one year"},
	{.name = "--kill-after",
	 .metavar = "SECONDS",
	 SET(set_fraction),
	 FIELD(kill_after_ms),
	 .max = NSB_MAX_KILL_AFTER_MS,
	 .what = "invalid duration",
	 .hint = "SECONDS is a number from 0 to 3600 with up to 3 decimals"},
	{.name = "--max-output",
	 .metavar = "BYTES",
	 SET(set_max_output),
	 FIELD(max_output),
	 .max = NSB_MAX_OUTPUT,
	 .what = "invalid size",
	 .hint = "BYTES is a size with an optional k, M, G or T suffix, at most 1T"},
	{.name = "--capture", SET(set_flag), FIELD(capture)},
	{.name = "--tmp-size",
	 .metavar = "SIZE",
	 SET(set_size),
	 FIELD(tmp_size),
	 .min = NSB_MIN_TMP_SIZE,
	 .max = NSB_MAX_TMPFS_SIZE,
	 .what = "invalid size",
	 .hint = "SIZE is bytes with an optional k, M or G suffix, from 1M to 64G"},
	{.name = "--cgroup-parent",
	 .metavar = "DIR",
	 SET(set_abs_path),
	 FIELD(cgroup_parent),
	 .what = "not a normalized absolute path",
	 .hint = "give the cgroup directory as an absolute path, e.g. /sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice"},
	{.name = "--require-cgroup", SET(set_flag), FIELD(require_cgroup)},
	/* Front gate */
	{.name = "--deny-exec", .metavar = "NAME", SET(add_deny_exec)},
	{.name = "--allow-exec", .metavar = "NAME", SET(add_allow_exec)},
	{.name = "--allow-inline-code", SET(set_flag), FIELD(allow_inline_code)},
	{.name = "--allow-metachar", SET(set_flag), FIELD(allow_metachar)},
	{.name = "--allow-path", .metavar = "DIR", SET(add_allow_path)},
	{.name = "--policy",
	 .metavar = "FILE",
	 SET(set_path),
	 FIELD(policy),
	 .what = "invalid file name"},
	{.name = "--print-policy", SET(set_flag), FIELD(print_policy)},
	{.name = "--check", SET(set_flag), FIELD(check)},
	{.name = "--approved", .metavar = "ID", SET(set_approved)},
	/* Hardening */
	{.name = "--seccomp",
	 .metavar = "NAME|PATH",
	 SET(set_path),
	 FIELD(seccomp),
	 .what = "invalid profile",
	 .hint = "name a shipped profile (default, strict, none) or give a path"},
	{.name = "--seccomp-export",
	 .metavar = "FILE",
	 SET(set_path),
	 FIELD(seccomp_export),
	 .what = "invalid file name"},
	{.name = "--print-profile",
	 .metavar = "NAME",
	 SET(set_path),
	 FIELD(print_profile),
	 .what = "invalid profile name",
	 .hint = "name a built-in profile (default, strict, groups)"},
	{.name = "--seccomp-learn",
	 .metavar = "FILE",
	 SET(set_path),
	 FIELD(seccomp_learn),
	 .what = "invalid file name"},
	{.name = "--isolation", .metavar = "MODE", SET(nsb_cli_set_isolation)},
	/* Reporting */
	{.name = "--result-fd", .metavar = "FD", SET(set_result_fd)},
	{.name = "--quiet", SET(set_flag), FIELD(quiet)},
	{.name = "--request", .metavar = "FILE|-", SET(nsb_cli_set_request)},
	{.name = "--request-fd", .metavar = "N", SET(nsb_cli_set_request_fd)},
	{.name = "--help", SET(set_flag), FIELD(help), .stop = true},
	{.name = "--version", SET(set_flag), FIELD(version), .stop = true},
};

#undef FIELD

_Static_assert(ARRAY_SIZE(nsb_cli_options) == NSB_CLI_N_OPTIONS,
	       "NSB_CLI_N_OPTIONS counts the rows of nsb_cli_options");

const char *nsb_cli_option(size_t i, const char **ret_metavar)
{
	if (i >= NSB_CLI_N_OPTIONS)
		return NULL;
	*ret_metavar = nsb_cli_options[i].metavar[0] ? nsb_cli_options[i].metavar : NULL;
	return nsb_cli_options[i].name;
}
