// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nsb_plan_build(): the system view, /proc, /dev and /tmp, the project root
 * and its refusals, user mounts (destinations, order, conflicts), the
 * environment, and nsb_plan_free().  Config and facts are filled by hand, as
 * cli.c and the supervisor would.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <criterion/parameterized.h>

#include "core/plan.h"
#include "base/util.h"

/* Criterion's eq(str, ...) takes char *; -Wwrite-strings makes literals const. */
#pragma GCC diagnostic ignored "-Wdiscarded-qualifiers"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* All three are large (the plan is over a megabyte): keep them off the stack. */
static struct nsb_config cfg;
static struct nsb_facts facts;
/* What the supervisor resolves per config mount (facts points at them). */
static const char *src_real[NSB_MAX_MOUNTS];
static bool src_is_dir[NSB_MAX_MOUNTS];
static struct nsb_plan pl;
static struct nsb_error err;

static char *cmd[] = {"python3", "script.py", NULL};

static char *caller_env[] = {
	"PATH=/home/u/.local/bin:/usr/bin",
	"HOME=/home/u",
	"LANG=C.UTF-8",
	"SSH_AUTH_SOCK=/tmp/ssh-agent",
	"LC_ALL=C",
	"TERM=xterm-256color",
	"LANGUAGE=en_US",
	"AWS_SECRET_ACCESS_KEY=hunter2",
	"LANGX=not-a-locale",
	"TERMINAL=not-a-term",
	"LC_TIME=de_DE.UTF-8",
	"LC_NOEQUALS",
	"EMPTY=",
	NULL,
};

#define SYS_PATH_ENV "PATH=" NSB_SANDBOX_PATH

/* The system view, in plan order: this list is the whole host surface. */
static const char *const system_view[] = {
	"/usr",
	"/bin",
	"/sbin",
	"/lib",
	"/lib32",
	"/lib64",
	"/libx32",
	"/etc/ld.so.cache",
	"/etc/ld.so.conf",
	"/etc/ld.so.conf.d",
	"/etc/alternatives",
	"/etc/ssl/certs",
	"/etc/ssl/openssl.cnf",
	"/etc/ssl/cert.pem",
	"/etc/ca-certificates",
	"/etc/localtime",
	"/etc/timezone",
	"/etc/nsswitch.conf",
	"/etc/passwd",
	"/etc/group",
	"/etc/hosts",
	"/etc/host.conf",
	"/etc/resolv.conf",
	"/etc/gai.conf",
	"/etc/protocols",
	"/etc/services",
	"/etc/mime.types",
	"/etc/os-release",
};

/* The system view, then /proc, /dev and /tmp. */
#define N_SYSTEM_OPS (ARRAY_LEN(system_view) + 3)

static void setup(void)
{
	nsb_config_init(&cfg);
	cfg.cmd_argv = cmd;
	cfg.cmd_argc = 2;
	memset(&facts, 0, sizeof(facts));
	facts.cwd = "/home/u/proj";
	facts.home = "/home/u";
	facts.uid = 1000;
	facts.gid = 1001;
	facts.environ = caller_env;
	memset(src_real, 0, sizeof(src_real));
	memset(src_is_dir, 0, sizeof(src_is_dir));
	facts.mount_src_real = src_real;
	facts.mount_src_is_dir = src_is_dir;
	memset(&err, 0, sizeof(err));
}

static void teardown(void)
{
	nsb_plan_free(&pl);
}

TestSuite(plan, .init = setup, .fini = teardown);

static int build(void)
{
	return nsb_plan_build(&cfg, &facts, &pl, &err);
}

/* A --ro or --rw as cli.c leaves it, with the facts the supervisor adds. */
static void add_bind(enum nsb_mount_kind kind, const char *arg, const char *dest, const char *real,
		     bool is_dir)
{
	size_t i = cfg.n_mounts++;
	const char *colon = strchr(arg, ':');

	cr_assert(i < NSB_MAX_MOUNTS);
	cfg.mounts[i].kind = kind;
	cfg.mounts[i].src = arg;
	cfg.mounts[i].src_len = colon ? (size_t)(colon - arg) : strlen(arg);
	cfg.mounts[i].dest = dest;
	cfg.mounts[i].argv_index = 10 + (int)i;
	src_real[i] = real;
	src_is_dir[i] = is_dir;
}

static void add_tmpfs(const char *dest, uint64_t size)
{
	size_t i = cfg.n_mounts++;

	cr_assert(i < NSB_MAX_MOUNTS);
	cfg.mounts[i].kind = NSB_MOUNT_TMPFS;
	snprintf(cfg.mounts[i].dest_buf, sizeof(cfg.mounts[i].dest_buf), "%s", dest);
	cfg.mounts[i].dest = cfg.mounts[i].dest_buf;
	cfg.mounts[i].size = size;
	cfg.mounts[i].argv_index = 10 + (int)i;
}

static const struct nsb_mount_op *find_op(const char *dest)
{
	for (size_t i = 0; i < pl.n_ops; i++)
		if (strcmp(pl.ops[i].dest, dest) == 0)
			return &pl.ops[i];
	return NULL;
}

/* A plan error: return value, errno in e, stage, exact message and hint. */
#define EXPECT_PLAN_ERR(r, errno_, msg, hint_)                         \
	do {                                                           \
		cr_assert(eq(int, (r), -(errno_)));                    \
		cr_expect(eq(int, err.err, (errno_)));                 \
		cr_expect(eq(str, nsb_stage_name(err.stage), "plan")); \
		cr_expect(eq(str, err.message, (msg)));                \
		cr_expect(eq(str, err.hint, (hint_)));                 \
	} while (0)

#define HINT_PROJECT	      "run nsbox from the project's directory, or pass --project DIR or --no-project"
#define HINT_RESERVED_PROJECT "pass --project DIR with a directory of your own, or --no-project"
#define HINT_TWICE	      "give each --ro, --rw and --tmpfs its own destination"
#define HINT_SYSTEM	      "choose another destination with PATH:DEST"

/* ---- plan-wide fields -------------------------------------------------- */

Test(plan, copies_identity_command_and_defaults)
{
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(u32, pl.uid, 1000));
	cr_expect(eq(u32, pl.gid, 1001));
	cr_expect(eq(int, pl.argc, 2));
	/* A copy: init scrubs the caller's argv block (init.c). */
	cr_assert(not(eq(ptr, pl.argv, cmd)));
	for (int i = 0; i < 2; i++) {
		cr_expect(eq(str, pl.argv[i], cmd[i]));
		cr_expect(not(eq(ptr, pl.argv[i], cmd[i])));
	}
	cr_expect(eq(ptr, pl.argv[2], NULL));
	cr_expect(eq(str, pl.hostname, "nsbox"));
	cr_expect(eq(int, pl.share_net, false));
	cr_expect(eq(u64, pl.tmp_size, 256ull << 20));
}

Test(plan, refuses_to_plan_without_a_command)
{
	/* --seccomp-export and --print-policy parse without one (fuzz_cli
	 * found the plan dereferencing the missing argv). */
	cfg.cmd_argv = NULL;
	cfg.cmd_argc = 0;
	cr_assert(eq(int, build(), -EINVAL));
	cr_expect(eq(str, nsb_stage_name(err.stage), "plan"));
	cr_expect(eq(str, err.message, "no command to plan for"));
}

Test(plan, hostname_and_share_net_from_config)
{
	cfg.hostname = "ci-runner.example";
	cfg.share_net = true;
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(str, pl.hostname, "ci-runner.example"));
	cr_expect(eq(int, pl.share_net, true));
}

Test(plan, hostname_of_64_bytes_is_kept_whole)
{
	char h[NSB_MAX_HOSTNAME + 1];

	memset(h, 'h', NSB_MAX_HOSTNAME);
	h[NSB_MAX_HOSTNAME] = '\0';
	cfg.hostname = h;
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(str, pl.hostname, h));
}

/* ---- the system view, /proc, /dev, /tmp -------------------------------- */

Test(plan, system_view_is_exactly_the_list_and_read_only)
{
	cr_assert(eq(int, build(), 0));
	cr_assert(ge(sz, pl.n_ops, N_SYSTEM_OPS));
	for (size_t i = 0; i < ARRAY_LEN(system_view); i++) {
		const struct nsb_mount_op *op = &pl.ops[i];
		cr_expect(eq(str, op->dest, system_view[i]), "op %zu", i);
		/* Host path and destination are the same for the system view. */
		cr_expect(eq(str, op->src, system_view[i]), "op %zu", i);
		cr_expect(eq(int, op->readonly, true), "%s must be read-only", op->dest);
		cr_expect(eq(int, op->user, false), "%s", op->dest);
		cr_expect(eq(int, op->argv_index, -1), "%s", op->dest);
	}
}

Test(plan, usr_is_a_required_directory_bind)
{
	cr_assert(eq(int, build(), 0));
	const struct nsb_mount_op *op = find_op("/usr");
	cr_assert_not_null(op);
	cr_expect(eq(int, op->kind, NSB_OP_BIND));
	cr_expect(eq(int, op->optional, false));
	cr_expect(eq(int, op->src_is_dir, true));
}

Test(plan, merged_usr_links_are_optional_syslinks)
{
	static const char *const links[] = {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};

	cr_assert(eq(int, build(), 0));
	for (size_t i = 0; i < ARRAY_LEN(links); i++) {
		const struct nsb_mount_op *op = find_op(links[i]);
		cr_assert_not_null(op, "%s", links[i]);
		cr_expect(eq(int, op->kind, NSB_OP_SYSLINK), "%s", links[i]);
		cr_expect(eq(int, op->optional, true), "%s", links[i]);
		cr_expect(eq(int, op->readonly, true), "%s", links[i]);
	}
}

Test(plan, etc_entries_are_optional_binds_never_all_of_etc)
{
	cr_assert(eq(int, build(), 0));
	for (size_t i = 0; i < pl.n_ops; i++) {
		const struct nsb_mount_op *op = &pl.ops[i];
		/* Never the whole /etc, never the home directory. */
		cr_expect(not(eq(str, op->dest, "/etc")));
		cr_expect(eq(int, strncmp(op->dest, "/home/u", 7) == 0 && !op->user, false), "%s",
			  op->dest);
		if (strncmp(op->dest, "/etc/", 5) == 0) {
			cr_expect(eq(int, op->kind, NSB_OP_BIND), "%s", op->dest);
			cr_expect(eq(int, op->optional, true), "%s", op->dest);
			cr_expect(eq(int, op->readonly, true), "%s", op->dest);
		}
	}
}

/* What the /etc snapshot rewrites (supervisor/etc_snapshot.c): the plan's
 * etc ops are the table's entries, in its order, directories marked. */
Test(plan, etc_ops_are_the_exported_table)
{
	const char *const *paths;
	unsigned dirs;
	size_t n = nsb_plan_etc_entries(&paths, &dirs);

	cr_assert(eq(int, build(), 0));
	cr_assert(eq(sz, pl.etc_count, n));
	cr_assert(pl.etc_first + n <= pl.n_ops);
	for (size_t i = 0; i < n; i++) {
		const struct nsb_mount_op *op = &pl.ops[pl.etc_first + i];
		cr_expect(eq(int, strcmp(op->src, paths[i]), 0), "%s, %s", op->src, paths[i]);
		cr_expect(eq(int, op->src_is_dir, (int)((dirs >> i) & 1)), "%s", op->src);
		cr_expect(eq(int, op->in_snapshot || op->from_snapshot, false), "%s", op->src);
	}
	cr_expect(eq(int, (int)(dirs & 1), 0), "the first entry is a file (it becomes /etc)");
	cr_expect(pl.etc_snapshot == NULL);
}

Test(plan, proc_dev_tmp_follow_the_system_view)
{
	size_t base = ARRAY_LEN(system_view);

	cr_assert(eq(int, build(), 0));
	const struct nsb_mount_op *proc = &pl.ops[base];
	const struct nsb_mount_op *dev = &pl.ops[base + 1];
	const struct nsb_mount_op *tmp = &pl.ops[base + 2];

	cr_expect(eq(int, proc->kind, NSB_OP_PROC));
	cr_expect(eq(str, proc->dest, "/proc"));
	cr_expect(eq(str, proc->src, ""));
	cr_expect(eq(int, proc->optional, false));
	cr_expect(eq(int, proc->user, false));

	cr_expect(eq(int, dev->kind, NSB_OP_DEV));
	cr_expect(eq(str, dev->dest, "/dev"));
	cr_expect(eq(int, dev->optional, false));
	cr_expect(eq(u64, dev->size, 256ull << 20)); /* /dev/shm */

	cr_expect(eq(int, tmp->kind, NSB_OP_TMPFS));
	cr_expect(eq(str, tmp->dest, "/tmp"));
	cr_expect(eq(int, tmp->readonly, false));
	cr_expect(eq(int, tmp->optional, false));
	cr_expect(eq(u64, tmp->size, 256ull << 20));
	cr_expect(eq(u32, tmp->mode, 01777));
	cr_expect(eq(int, tmp->user, false));
}

Test(plan, system_ops_then_project_only)
{
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(sz, pl.n_ops, N_SYSTEM_OPS + 1));
}

/* ---- the project root -------------------------------------------------- */

Test(plan, project_defaults_to_cwd_read_only)
{
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(str, pl.project, "/home/u/proj"));
	cr_expect(eq(str, pl.cwd, "/home/u/proj"));
	const struct nsb_mount_op *op = &pl.ops[N_SYSTEM_OPS];
	cr_expect(eq(int, op->kind, NSB_OP_BIND));
	cr_expect(eq(str, op->src, "/home/u/proj"));
	cr_expect(eq(str, op->dest, "/home/u/proj"));
	cr_expect(eq(int, op->readonly, true));
	cr_expect(eq(int, op->user, true));
	cr_expect(eq(int, op->src_is_dir, true));
	cr_expect(eq(int, op->optional, false));
	cr_expect(eq(int, op->argv_index, -1));
}

Test(plan, implicit_root_project_is_refused)
{
	facts.cwd = "/";
	EXPECT_PLAN_ERR(build(), EPERM,
			"refusing to expose '/' as the project root (the current directory)",
			HINT_PROJECT);
}

Test(plan, implicit_home_project_is_refused)
{
	facts.cwd = "/home/u";
	EXPECT_PLAN_ERR(
		build(), EPERM,
		"refusing to expose the home directory '/home/u' as the project root (the current directory)",
		HINT_PROJECT);
}

Test(plan, implicit_project_below_home_is_allowed)
{
	facts.cwd = "/home/u/x";
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(str, pl.project, "/home/u/x"));
}

Test(plan, implicit_project_without_known_home_is_allowed)
{
	facts.cwd = "/home/u";
	facts.home = NULL;
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(str, pl.project, "/home/u"));
}

Test(plan, explicit_home_project_is_allowed)
{
	cfg.project = "~";
	facts.project_real = "/home/u";
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(str, pl.project, "/home/u"));
	cr_expect(eq(str, pl.cwd, "/home/u"));
	cr_expect(not(eq(ptr, find_op("/home/u"), NULL)));
}

Test(plan, explicit_project_uses_its_real_path_not_cwd)
{
	cfg.project = "../other";
	facts.project_real = "/srv/other";
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(str, pl.project, "/srv/other"));
	cr_expect(eq(ptr, find_op("/home/u/proj"), NULL));
	cr_expect(not(eq(ptr, find_op("/srv/other"), NULL)));
}

Test(plan, explicit_project_passes_the_cwd_check_even_at_root)
{
	/* The cwd is / but --project names a real directory: no refusal. */
	facts.cwd = "/";
	cfg.project = "/srv/p";
	facts.project_real = "/srv/p";
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(str, pl.cwd, "/srv/p"));
}

struct project_case {
	char path[24];
};

ParameterizedTestParameters(plan, reserved_explicit_project_is_refused)
{
	static struct project_case cases[] = {
		{"/"}, {"/usr"}, {"/proc"}, {"/proc/1"}, {"/dev"}, {"/dev/shm"},
	};
	return cr_make_param_array(struct project_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct project_case *c, plan, reserved_explicit_project_is_refused)
{
	char msg[96];

	setup();
	cfg.project = c->path;
	facts.project_real = c->path;
	snprintf(msg, sizeof(msg), "project root '%s' is reserved by nsbox", c->path);
	EXPECT_PLAN_ERR(build(), EINVAL, msg, HINT_RESERVED_PROJECT);
	teardown();
}

Test(plan, project_on_a_system_path_is_refused)
{
	cfg.project = "/tmp";
	facts.project_real = "/tmp";
	EXPECT_PLAN_ERR(build(), EEXIST, "destination '/tmp' is part of the system view",
			HINT_SYSTEM);
}

Test(plan, unresolved_explicit_project_is_refused)
{
	cfg.project = "p";
	facts.project_real = NULL;
	EXPECT_PLAN_ERR(build(), EINVAL, "the project root is unknown", "");
}

Test(plan, unknown_cwd_is_refused)
{
	facts.cwd = NULL;
	EXPECT_PLAN_ERR(build(), EINVAL, "the project root is unknown", "");
}

Test(plan, no_project_binds_nothing_and_works_in_root)
{
	cfg.no_project = true;
	facts.cwd = "/"; /* would be refused without --no-project */
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(str, pl.project, ""));
	cr_expect(eq(str, pl.cwd, "/"));
	cr_expect(eq(sz, pl.n_ops, N_SYSTEM_OPS));
	for (size_t i = 0; i < pl.n_ops; i++)
		cr_expect(eq(int, pl.ops[i].user, false), "%s", pl.ops[i].dest);
}

Test(plan, no_project_ignores_an_unknown_cwd)
{
	cfg.no_project = true;
	facts.cwd = NULL;
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(str, pl.cwd, "/"));
}

Test(plan, chdir_overrides_project_cwd)
{
	cfg.chdir = "/data";
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(str, pl.cwd, "/data"));
	cr_expect(eq(str, pl.project, "/home/u/proj"));
}

Test(plan, chdir_with_no_project)
{
	cfg.no_project = true;
	cfg.chdir = "/tmp/work";
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(str, pl.cwd, "/tmp/work"));
}

/* ---- user mounts ------------------------------------------------------- */

Test(plan, ro_bind_defaults_to_its_real_path)
{
	add_bind(NSB_MOUNT_RO, "input", NULL, "/home/u/proj/input", true);
	cr_assert(eq(int, build(), 0));
	const struct nsb_mount_op *op = find_op("/home/u/proj/input");
	cr_assert_not_null(op);
	cr_expect(eq(int, op->kind, NSB_OP_BIND));
	cr_expect(eq(str, op->src, "/home/u/proj/input"));
	cr_expect(eq(int, op->readonly, true));
	cr_expect(eq(int, op->user, true));
	cr_expect(eq(int, op->optional, false));
	cr_expect(eq(int, op->src_is_dir, true));
	cr_expect(eq(int, op->argv_index, 10));
}

Test(plan, rw_bind_of_a_file_at_dest)
{
	add_bind(NSB_MOUNT_RW, "out.txt:/out.txt", "/out.txt", "/home/u/proj/out.txt", false);
	cr_assert(eq(int, build(), 0));
	const struct nsb_mount_op *op = find_op("/out.txt");
	cr_assert_not_null(op);
	cr_expect(eq(str, op->src, "/home/u/proj/out.txt"));
	cr_expect(eq(int, op->readonly, false));
	cr_expect(eq(int, op->src_is_dir, false));
	cr_expect(eq(int, op->user, true));
	/* The real path is not mounted at its own place as well. */
	cr_expect(eq(ptr, find_op("/home/u/proj/out.txt"), NULL));
}

Test(plan, tmpfs_mount)
{
	add_tmpfs("/scratch", 8ull << 20);
	cr_assert(eq(int, build(), 0));
	const struct nsb_mount_op *op = find_op("/scratch");
	cr_assert_not_null(op);
	cr_expect(eq(int, op->kind, NSB_OP_TMPFS));
	cr_expect(eq(str, op->src, ""));
	cr_expect(eq(u64, op->size, 8ull << 20));
	cr_expect(eq(u32, op->mode, 0755));
	cr_expect(eq(int, op->readonly, false));
	cr_expect(eq(int, op->user, true));
	cr_expect(eq(int, op->argv_index, 10));
}

Test(plan, unresolved_bind_source_is_refused)
{
	add_tmpfs("/a", 1);
	add_bind(NSB_MOUNT_RO, "missing", NULL, NULL, false);
	EXPECT_PLAN_ERR(build(), EINVAL, "source of argument 11 is unresolved", "");
}

struct reserved_case {
	int kind;
	char arg[24];
	char real[24];
	char msg[96];
	char hint[80];
};

ParameterizedTestParameters(plan, bind_whose_real_path_is_reserved_is_refused)
{
	static struct reserved_case cases[] = {
		{NSB_MOUNT_RO, "/", "/", "--ro '/': its real path '/' is reserved by nsbox",
		 "bind it elsewhere with PATH:DEST, e.g. --ro /:/mnt/host"},
		{NSB_MOUNT_RW, "link", "/", "--rw 'link': its real path '/' is reserved by nsbox",
		 "bind it elsewhere with PATH:DEST, e.g. --ro link:/mnt/host"},
		{NSB_MOUNT_RO, "/proc/self", "/proc/4242",
		 "--ro '/proc/self': its real path '/proc/4242' is reserved by nsbox",
		 "bind it elsewhere with PATH:DEST, e.g. --ro /proc/self:/mnt/host"},
		{NSB_MOUNT_RW, "/dev/shm", "/dev/shm",
		 "--rw '/dev/shm': its real path '/dev/shm' is reserved by nsbox",
		 "bind it elsewhere with PATH:DEST, e.g. --ro /dev/shm:/mnt/host"},
		{NSB_MOUNT_RO, "/proc", "/proc",
		 "--ro '/proc': its real path '/proc' is reserved by nsbox",
		 "bind it elsewhere with PATH:DEST, e.g. --ro /proc:/mnt/host"},
	};
	return cr_make_param_array(struct reserved_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct reserved_case *c, plan, bind_whose_real_path_is_reserved_is_refused)
{
	setup();
	add_bind((enum nsb_mount_kind)c->kind, c->arg, NULL, c->real, true);
	EXPECT_PLAN_ERR(build(), EINVAL, c->msg, c->hint);
	teardown();
}

Test(plan, reserved_real_path_is_fine_with_an_explicit_dest)
{
	add_bind(NSB_MOUNT_RO, "/:/host", "/host", "/", true);
	cr_assert(eq(int, build(), 0));
	const struct nsb_mount_op *op = find_op("/host");
	cr_assert_not_null(op);
	cr_expect(eq(str, op->src, "/"));
}

Test(plan, lookalike_of_reserved_real_path_is_allowed)
{
	add_bind(NSB_MOUNT_RO, "/devices", NULL, "/devices", true);
	add_bind(NSB_MOUNT_RO, "/procfs", NULL, "/procfs", true);
	cr_assert(eq(int, build(), 0));
	cr_expect(not(eq(ptr, find_op("/devices"), NULL)));
	cr_expect(not(eq(ptr, find_op("/procfs"), NULL)));
}

Test(plan, user_mounts_sorted_parents_first_and_stable)
{
	static const char *const given[] = {"/a/b/c", "/x", "/a/b", "/a", "/y/z", "/b", "/a/c"};
	static const char *const sorted[] = {"/x", "/a", "/b", "/a/b", "/y/z", "/a/c", "/a/b/c"};

	cfg.no_project = true;
	for (size_t i = 0; i < ARRAY_LEN(given); i++)
		add_tmpfs(given[i], i + 1);
	cr_assert(eq(int, build(), 0));
	cr_assert(eq(sz, pl.n_ops, N_SYSTEM_OPS + ARRAY_LEN(given)));
	for (size_t i = 0; i < ARRAY_LEN(sorted); i++) {
		const struct nsb_mount_op *op = &pl.ops[N_SYSTEM_OPS + i];
		cr_expect(eq(str, op->dest, sorted[i]), "position %zu", i);
	}
	/* Each op moved whole: size and argv_index still match the dest. */
	for (size_t i = 0; i < ARRAY_LEN(given); i++) {
		const struct nsb_mount_op *op = find_op(given[i]);
		cr_assert_not_null(op);
		cr_expect(eq(u64, op->size, i + 1), "%s", given[i]);
		cr_expect(eq(int, op->argv_index, 10 + (int)i), "%s", given[i]);
	}
}

/* The limit, deepest first: sorted (stable) and checked in time linear in
 * the mounts (an insertion sort moved 8 KiB entries n^2/2 times here). */
Test(plan, many_mounts_sort_stably_and_fast, .timeout = 10)
{
	char dest[64];

	cfg.no_project = true;
	for (int i = 0; i < NSB_MAX_MOUNTS; i++) {
		/* depth 3, 2, 1, 3, 2, 1, ... */
		int depth = 3 - i % 3;
		snprintf(dest, sizeof(dest),
			 depth == 3   ? "/d/e/m%d"
			 : depth == 2 ? "/d/m%d"
				      : "/m%d",
			 i);
		add_tmpfs(dest, (uint64_t)i + 1);
	}
	cr_assert(eq(int, build(), 0));
	cr_assert(eq(sz, pl.n_ops, N_SYSTEM_OPS + NSB_MAX_MOUNTS));
	size_t prev_depth = 0;
	uint64_t prev_size = 0;
	for (size_t i = N_SYSTEM_OPS; i < pl.n_ops; i++) {
		size_t d = 1 + (size_t)(strchr(pl.ops[i].dest + 1, '/') != NULL) +
			   (size_t)(strncmp(pl.ops[i].dest, "/d/e/", 5) == 0);
		cr_assert(le(sz, prev_depth, d), "position %zu: %s", i, pl.ops[i].dest);
		/* Within one depth, the order given. */
		if (d == prev_depth)
			cr_assert(lt(u64, prev_size, pl.ops[i].size), "position %zu", i);
		prev_depth = d;
		prev_size = pl.ops[i].size;
	}
}

Test(plan, duplicate_among_many_mounts_names_the_first_twin, .timeout = 10)
{
	char dest[64];

	cfg.no_project = true;
	for (int i = 0; i < NSB_MAX_MOUNTS - 2; i++) {
		snprintf(dest, sizeof(dest), "/m%d", i);
		add_tmpfs(dest, 1);
	}
	add_tmpfs("/m77", 1);
	add_tmpfs("/m5", 1);
	EXPECT_PLAN_ERR(build(), EEXIST, "destination '/m77' is mounted twice", HINT_TWICE);
}

Test(plan, project_sorts_with_user_mounts)
{
	/* The project (depth 3) comes before a bind inside it (depth 4) even
	 * when that bind was given first; a shallower mount precedes both. */
	add_bind(NSB_MOUNT_RW, "out", NULL, "/home/u/proj/out", true);
	add_tmpfs("/scratch", 1 << 20);
	cr_assert(eq(int, build(), 0));
	cr_assert(eq(sz, pl.n_ops, N_SYSTEM_OPS + 3));
	cr_expect(eq(str, pl.ops[N_SYSTEM_OPS].dest, "/scratch"));
	cr_expect(eq(str, pl.ops[N_SYSTEM_OPS + 1].dest, "/home/u/proj"));
	cr_expect(eq(str, pl.ops[N_SYSTEM_OPS + 2].dest, "/home/u/proj/out"));
	/* The system view keeps its own order ahead of every user mount. */
	for (size_t i = 0; i < ARRAY_LEN(system_view); i++)
		cr_expect(eq(str, pl.ops[i].dest, system_view[i]));
}

Test(plan, duplicate_destination_is_refused)
{
	add_bind(NSB_MOUNT_RO, "a:/data", "/data", "/srv/a", true);
	add_bind(NSB_MOUNT_RW, "b:/data", "/data", "/srv/b", true);
	EXPECT_PLAN_ERR(build(), EEXIST, "destination '/data' is mounted twice", HINT_TWICE);
}

Test(plan, tmpfs_over_a_bind_destination_is_refused)
{
	add_bind(NSB_MOUNT_RO, "/srv/a", NULL, "/srv/a", true);
	add_tmpfs("/srv/a", 1);
	EXPECT_PLAN_ERR(build(), EEXIST, "destination '/srv/a' is mounted twice", HINT_TWICE);
}

Test(plan, bind_on_the_project_destination_is_refused)
{
	add_bind(NSB_MOUNT_RW, ".", NULL, "/home/u/proj", true);
	EXPECT_PLAN_ERR(build(), EEXIST, "destination '/home/u/proj' is mounted twice", HINT_TWICE);
}

Test(plan, same_source_at_two_destinations_is_allowed)
{
	add_bind(NSB_MOUNT_RO, "a:/one", "/one", "/srv/a", true);
	add_bind(NSB_MOUNT_RO, "a:/two", "/two", "/srv/a", true);
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(str, find_op("/one")->src, "/srv/a"));
	cr_expect(eq(str, find_op("/two")->src, "/srv/a"));
}

ParameterizedTestParameters(plan, destination_equal_to_a_system_path_is_refused)
{
	static struct project_case cases[] = {
		{"/usr"}, {"/bin"}, {"/lib64"}, {"/etc/passwd"}, {"/etc/ssl/certs"}, {"/tmp"},
	};
	return cr_make_param_array(struct project_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct project_case *c, plan, destination_equal_to_a_system_path_is_refused)
{
	char msg[96];

	setup();
	snprintf(msg, sizeof(msg), "destination '%s' is part of the system view", c->path);
	/* As an explicit DEST, as a real path, and as a tmpfs. */
	add_bind(NSB_MOUNT_RO, "x", c->path, "/srv/x", true);
	EXPECT_PLAN_ERR(build(), EEXIST, msg, HINT_SYSTEM);
	teardown();

	setup();
	add_bind(NSB_MOUNT_RW, c->path, NULL, c->path, true);
	EXPECT_PLAN_ERR(build(), EEXIST, msg, HINT_SYSTEM);
	teardown();

	setup();
	add_tmpfs(c->path, 1);
	EXPECT_PLAN_ERR(build(), EEXIST, msg, HINT_SYSTEM);
	teardown();
}

Test(plan, system_view_holds_no_private_key_directory)
{
	static const char *const secret[] = {"/etc/ssl/private", "/etc/ssl/private/x.key"};

	cr_assert(eq(int, build(), 0));
	/* Neither the directory nor anything that contains it is bound. */
	for (size_t i = 0; i < pl.n_ops; i++)
		for (size_t j = 0; j < ARRAY_LEN(secret); j++)
			cr_expect(not(nsb_path_is_under(secret[j], pl.ops[i].dest)),
				  "'%s' is bound and holds '%s'", pl.ops[i].dest, secret[j]);
	cr_expect(not(eq(ptr, find_op("/etc/ssl/certs"), NULL)));
}

Test(plan, destination_below_a_system_path_is_allowed)
{
	add_tmpfs("/usr/local/cache", 1);
	add_bind(NSB_MOUNT_RO, "c:/etc/ssl/private", "/etc/ssl/private", "/srv/c", true);
	cr_assert(eq(int, build(), 0));
	cr_expect(not(eq(ptr, find_op("/usr/local/cache"), NULL)));
	cr_expect(not(eq(ptr, find_op("/etc/ssl/private"), NULL)));
}

Test(plan, mount_limit_with_project_fits_the_plan)
{
	char dest[32];

	for (int i = 0; i < NSB_MAX_MOUNTS; i++) {
		snprintf(dest, sizeof(dest), "/m%d", i);
		add_tmpfs(dest, 1);
	}
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(sz, pl.n_ops, N_SYSTEM_OPS + 1 + NSB_MAX_MOUNTS));
	cr_expect(le(sz, pl.n_ops, NSB_MAX_OPS));
}

/* ---- the environment --------------------------------------------------- */

static void expect_env(char *const *want, size_t n)
{
	cr_assert(eq(sz, pl.n_envp, n));
	for (size_t i = 0; i < n; i++)
		cr_expect(eq(str, pl.envp[i], want[i]), "envp[%zu]", i);
	cr_expect(eq(ptr, pl.envp[n], NULL));
}

Test(plan, env_fixed_path_home_and_copied_locale_only)
{
	static char *const want[] = {
		SYS_PATH_ENV,	       "HOME=/tmp",	 "LANG=C.UTF-8",	"LC_ALL=C",
		"TERM=xterm-256color", "LANGUAGE=en_US", "LC_TIME=de_DE.UTF-8",
	};

	cr_assert(eq(int, build(), 0));
	expect_env(want, ARRAY_LEN(want));
}

Test(plan, env_without_caller_environment)
{
	static char *const want[] = {SYS_PATH_ENV, "HOME=/tmp"};

	facts.environ = NULL;
	cr_assert(eq(int, build(), 0));
	expect_env(want, ARRAY_LEN(want));
}

Test(plan, env_name_copies_caller_value)
{
	static char *const want[] = {
		SYS_PATH_ENV,
		"HOME=/tmp",
		"LANG=C.UTF-8",
		"LC_ALL=C",
		"TERM=xterm-256color",
		"LANGUAGE=en_US",
		"LC_TIME=de_DE.UTF-8",
		"AWS_SECRET_ACCESS_KEY=hunter2",
		"EMPTY=",
		"MODE=fast",
	};

	cfg.env[cfg.n_env++] = "AWS_SECRET_ACCESS_KEY";
	cfg.env[cfg.n_env++] = "EMPTY";
	cfg.env[cfg.n_env++] = "MODE=fast";
	cr_assert(eq(int, build(), 0));
	expect_env(want, ARRAY_LEN(want));
}

Test(plan, env_name_unset_is_refused_with_hint)
{
	cfg.env[cfg.n_env++] = "MODE=fast";
	cfg.env[cfg.n_env++] = "NOPE";
	EXPECT_PLAN_ERR(build(), ENOENT, "--env 'NOPE': not set in the caller's environment",
			"pass a value explicitly: --env NOPE=VALUE");
	/* What was built so far is already freed. */
	cr_expect(eq(sz, pl.n_envp, 0));
	cr_expect(eq(ptr, pl.envp[0], NULL));
}

/* The plan is written only on success: a failure late in the build (the
 * mounts and the first variables done) leaves the previous plan whole. */
Test(plan, a_failed_build_leaves_the_plan_untouched)
{
	cr_assert(eq(int, build(), 0));
	struct nsb_plan *before = malloc(sizeof(*before));
	cr_assert(before != NULL);
	memcpy(before, &pl, sizeof(pl));

	add_bind(NSB_MOUNT_RO, "/srv/a", NULL, "/srv/a", true);
	cfg.env[cfg.n_env++] = "MODE=fast";
	cfg.env[cfg.n_env++] = "NOPE";
	cr_assert(eq(int, build(), -ENOENT));
	cr_expect(memcmp(before, &pl, sizeof(pl)) == 0, "the failed build changed the plan");
	cr_expect(eq(str, pl.argv[0], cmd[0]));
	free(before);
}

Test(plan, env_name_needs_an_exact_match)
{
	/* "LC_NOEQUALS" has no '=' and "LANG" is only a prefix of "LANGX". */
	cfg.env[cfg.n_env++] = "LC_NOEQUALS";
	EXPECT_PLAN_ERR(build(), ENOENT, "--env 'LC_NOEQUALS': not set in the caller's environment",
			"pass a value explicitly: --env LC_NOEQUALS=VALUE");
}

Test(plan, env_overrides_path_in_place)
{
	cfg.env[cfg.n_env++] = "PATH=/opt/bin";
	cfg.env[cfg.n_env++] = "HOME=/work";
	cfg.env[cfg.n_env++] = "LANG=fr_FR.UTF-8";
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(sz, pl.n_envp, 7));
	cr_expect(eq(str, pl.envp[0], "PATH=/opt/bin"));
	cr_expect(eq(str, pl.envp[1], "HOME=/work"));
	cr_expect(eq(str, pl.envp[2], "LANG=fr_FR.UTF-8"));
}

Test(plan, env_name_path_copies_the_callers_path)
{
	cfg.env[cfg.n_env++] = "PATH";
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(str, pl.envp[0], "PATH=/home/u/.local/bin:/usr/bin"));
	cr_expect(eq(sz, pl.n_envp, 7));
}

Test(plan, env_later_value_wins_and_prefixes_are_distinct)
{
	cfg.env[cfg.n_env++] = "A=1";
	cfg.env[cfg.n_env++] = "AB=2";
	cfg.env[cfg.n_env++] = "PAT=3";
	cfg.env[cfg.n_env++] = "A=4";
	facts.environ = NULL;
	static char *const want[] = {SYS_PATH_ENV, "HOME=/tmp", "A=4", "AB=2", "PAT=3"};
	cr_assert(eq(int, build(), 0));
	expect_env(want, ARRAY_LEN(want));
}

Test(plan, env_value_may_hold_equals)
{
	cfg.env[cfg.n_env++] = "OPTS=a=b=c";
	facts.environ = NULL;
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(str, pl.envp[2], "OPTS=a=b=c"));
}

/* A caller environment of n locale variables (LC_V0=0 ...), on the heap. */
static char **locale_env(int n)
{
	char **env = calloc((size_t)n + 1, sizeof(*env));

	cr_assert_not_null(env);
	for (int i = 0; i < n; i++)
		cr_assert(asprintf(&env[i], "LC_V%d=%d", i, i) > 0);
	return env;
}

static void free_strv(char **v)
{
	for (size_t i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}

static char env_args[NSB_MAX_ENV][32];

static void fill_env_options(void)
{
	for (int i = 0; i < NSB_MAX_ENV; i++) {
		snprintf(env_args[i], sizeof(env_args[i]), "E%d=%d", i, i);
		cfg.env[cfg.n_env++] = env_args[i];
	}
}

Test(plan, env_at_limit_is_accepted)
{
	/* PATH, HOME, 46 locale variables and 128 --env: exactly 176. */
	char **env = locale_env(NSB_MAX_ENVP - 2 - NSB_MAX_ENV);

	facts.environ = env;
	fill_env_options();
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(sz, pl.n_envp, NSB_MAX_ENVP));
	cr_expect(eq(str, pl.envp[NSB_MAX_ENVP - 1], "E127=127"));
	cr_expect(eq(ptr, pl.envp[NSB_MAX_ENVP], NULL));
	nsb_plan_free(&pl);
	free_strv(env);
}

Test(plan, env_past_limit_is_refused)
{
	char **env = locale_env(NSB_MAX_ENVP - 2 - NSB_MAX_ENV + 1);

	facts.environ = env;
	fill_env_options();
	EXPECT_PLAN_ERR(build(), E2BIG, "too many environment variables (at most 176)", "");
	cr_expect(eq(sz, pl.n_envp, 0));
	free_strv(env);
}

Test(plan, env_limit_counts_distinct_names)
{
	/* Overriding an existing name takes no new slot. */
	char **env = locale_env(NSB_MAX_ENVP - 2 - NSB_MAX_ENV);

	facts.environ = env;
	fill_env_options();
	snprintf(env_args[NSB_MAX_ENV - 1], sizeof(env_args[0]), "PATH=/x");
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(sz, pl.n_envp, NSB_MAX_ENVP - 1));
	cr_expect(eq(str, pl.envp[0], "PATH=/x"));
	nsb_plan_free(&pl);
	free_strv(env);
}

/* ---- nsb_plan_free ------------------------------------------------------- */

Test(plan, plan_free_releases_the_environment)
{
	cfg.env[cfg.n_env++] = "A=1";
	cr_assert(eq(int, build(), 0));
	cr_assert(eq(sz, pl.n_envp, 8));
	nsb_plan_free(&pl);
	cr_expect(eq(sz, pl.n_envp, 0));
	cr_expect(eq(ptr, pl.envp[0], NULL));
	/* A second free (the fixture's) is harmless. */
	nsb_plan_free(&pl);
	cr_expect(eq(sz, pl.n_envp, 0));
}

Test(plan, rebuilding_starts_from_an_empty_plan)
{
	add_tmpfs("/a", 1);
	cr_assert(eq(int, build(), 0));
	nsb_plan_free(&pl);
	cfg.n_mounts = 0;
	cfg.no_project = true;
	cr_assert(eq(int, build(), 0));
	cr_expect(eq(sz, pl.n_ops, N_SYSTEM_OPS));
	cr_expect(eq(ptr, find_op("/a"), NULL));
	cr_expect(eq(sz, pl.n_envp, 7));
}
