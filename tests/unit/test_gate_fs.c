// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate's host filesystem ops against a real temporary tree, and the
 * gate end to end on top of them.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gate/gate.h"
#include "unit.h"

static char top[128]; /* realpath of the temporary directory */
static char proj[PATH_MAX], bin[PATH_MAX];

static void mk(const char *fmt, const char *kind, const char *target)
{
	char p[PATH_MAX + 256];
	snprintf(p, sizeof(p), "%s/%s", top, fmt);
	if (strcmp(kind, "dir") == 0) {
		cr_assert(eq(int, mkdir(p, 0755), 0), "mkdir %s", p);
	} else if (strcmp(kind, "link") == 0) {
		cr_assert(eq(int, symlink(target, p), 0), "symlink %s", p);
	} else {
		int fd = open(p, O_WRONLY | O_CREAT | O_EXCL,
			      strcmp(kind, "exe") == 0 ? 0755 : 0644);
		cr_assert(fd >= 0, "create %s", p);
		close(fd);
	}
}

static void setup(void)
{
	unit_tmpdir("nsbox-gate-fs", top, sizeof(top));
	snprintf(proj, sizeof(proj), "%s/proj", top);
	snprintf(bin, sizeof(bin), "%s/bin", top);
	mk("proj", "dir", NULL);
	mk("proj/input", "dir", NULL);
	mk("proj/input/data.txt", "file", NULL);
	mk("proj/out", "dir", NULL);
	mk("proj/etc-link", "link", "/etc");
	mk("proj/loop1", "link", "loop2");
	mk("proj/loop2", "link", "loop1");
	mk("proj/dangling", "link", "/nonexistent-nsbox-test/x");
	mk("proj/inlink", "link", "input");
	mk("bin", "dir", NULL);
	mk("bin/tool", "exe", NULL);
	mk("bin/alias", "link", "tool");
	mk("bin/notexec", "file", NULL);
}

static void teardown(void)
{
	char cmd[PATH_MAX + 16];
	/* the tree is ours and under /tmp; rm -r keeps the test short */
	if (top[0] && strncmp(top, "/tmp/nsbox-gate-fs-", 19) == 0) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
		cr_expect(eq(int, system(cmd), 0));
	}
}

TestSuite(gate_fs, .init = setup, .fini = teardown);

static struct nsb_gate_fs_host host;
static struct nsb_fs_ops ops;

static void ops_init(const struct nsb_gate_root *roots, size_t n, const char *path_list)
{
	host = (struct nsb_gate_fs_host){.roots = roots, .n_roots = n, .path_list = path_list};
	nsb_gate_fs_host_ops(&host, &ops);
}

static void path(char *buf, const char *rel)
{
	cr_assert(strlen(top) + strlen(rel) + 2 <= PATH_MAX);
	strcpy(buf, top);
	strcat(buf, "/");
	strcat(buf, rel);
}

Test(gate_fs, realpath_and_lstat)
{
	char p[PATH_MAX], out[PATH_MAX], want[PATH_MAX];
	ops_init(NULL, 0, NULL);

	path(p, "proj/inlink/data.txt");
	cr_assert(eq(int, ops.realpath(ops.ud, p, out, sizeof(out)), 0));
	path(want, "proj/input/data.txt");
	expect_str(out, want);

	path(p, "proj/etc-link");
	cr_expect(eq(int, ops.realpath(ops.ud, p, out, sizeof(out)), 0));
	expect_str(out, "/etc");
	cr_expect(eq(int, ops.lstat_kind(ops.ud, p), NSB_FS_SYMLINK));

	path(p, "proj/loop1");
	cr_expect(eq(int, ops.realpath(ops.ud, p, out, sizeof(out)), -ELOOP));
	path(p, "proj/dangling");
	cr_expect(eq(int, ops.realpath(ops.ud, p, out, sizeof(out)), -ENOENT));
	cr_expect(eq(int, ops.lstat_kind(ops.ud, p), NSB_FS_SYMLINK));
	path(p, "proj/missing");
	cr_expect(eq(int, ops.lstat_kind(ops.ud, p), -ENOENT));
	path(p, "proj/input");
	cr_expect(eq(int, ops.lstat_kind(ops.ud, p), NSB_FS_DIR));
	path(p, "proj/input/data.txt");
	cr_expect(eq(int, ops.lstat_kind(ops.ud, p), NSB_FS_FILE));
	cr_expect(eq(int, ops.lstat_kind(ops.ud, "/dev/null"), NSB_FS_OTHER));
	/* too small an output buffer is an error, never a truncated path */
	cr_expect(eq(int, ops.realpath(ops.ud, p, out, 4), -ENAMETOOLONG));
}

Test(gate_fs, which_follows_path_and_roots)
{
	char out[PATH_MAX], want[PATH_MAX];
	path(want, "bin/tool");

	ops_init(NULL, 0, bin);
	cr_assert(eq(int, ops.which(ops.ud, "alias", out, sizeof(out)), 0));
	expect_str(out, want);
	cr_expect(eq(int, ops.which(ops.ud, "notexec", out, sizeof(out)), -ENOENT));
	cr_expect(eq(int, ops.which(ops.ud, "missing", out, sizeof(out)), -ENOENT));
	cr_expect(eq(int, ops.which(ops.ud, "a/b", out, sizeof(out)), -EINVAL));

	/* the sandbox sees bin at /sandbox/bin: PATH entries are inside paths */
	const struct nsb_gate_root roots[] = {{"/sandbox/bin", bin, false}};
	ops_init(roots, 1, "relative:/nowhere:/sandbox/bin");
	cr_assert(eq(int, ops.which(ops.ud, "alias", out, sizeof(out)), 0));
	expect_str(out, want);

	/* the default PATH finds the system's own tools */
	ops_init(NULL, 0, NULL);
	cr_expect(eq(int, ops.which(ops.ud, "sh", out, sizeof(out)), 0));
}

static int gate(char **argv, int argc, struct nsb_gate_policy *p, struct nsb_gate_verdict *v)
{
	const struct nsb_gate_root roots[] = {{proj, proj, false}};
	ops_init(roots, 1, bin);
	struct nsb_gate_input in = {
		.argv = argv,
		.argc = argc,
		.cwd = proj,
		.home = getenv("HOME"),
		.roots = roots,
		.n_roots = 1,
		.fs = &ops,
	};
	return nsb_gate_check(p, &in, v);
}

Test(gate_fs, gate_on_the_real_tree)
{
	struct nsb_gate_policy p;
	struct nsb_gate_verdict v;
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	cr_assert(eq(int, nsb_gate_policy_deny_exec(&p, "tool"), 0));

	char a0[] = "cat", a1[] = "input/data.txt", a2[] = "out/new.txt";
	char *ok[] = {a0, a1, a2, NULL};
	cr_assert(eq(int, gate(ok, 3, &p, &v), 0));
	cr_expect(v.allowed, "%s: %s", v.rule, v.reason);

	char b1[] = "etc-link/passwd";
	char *esc[] = {a0, b1, NULL};
	cr_assert(eq(int, gate(esc, 2, &p, &v), 0));
	expect_str(v.rule, "path.symlink_escape");
	expect_str(v.resolved, "/etc/passwd");

	char c1[] = "loop1";
	char *loop[] = {a0, c1, NULL};
	cr_assert(eq(int, gate(loop, 2, &p, &v), 0));
	expect_str(v.rule, "path.symlink_escape");

	char d1[] = "dangling";
	char *dang[] = {a0, d1, NULL};
	cr_assert(eq(int, gate(dang, 2, &p, &v), 0));
	expect_str(v.rule, "path.symlink_escape");

	char e1[] = "../../../../../../etc/passwd";
	char *out[] = {a0, e1, NULL};
	cr_assert(eq(int, gate(out, 2, &p, &v), 0));
	expect_str(v.rule, "path.outside");
	expect_str(v.resolved, "/etc/passwd");

	/* env alias: the wrapped name is looked up in PATH and its symlink
	 * followed to "tool", which the policy denies */
	char f0[] = "env", f1[] = "alias";
	char *alias[] = {f0, f1, NULL};
	cr_assert(eq(int, gate(alias, 2, &p, &v), 0));
	expect_str(v.rule, "exec.denylist");
	cr_expect(eq(int, v.argv_index, 1));
	nsb_gate_policy_free(&p);
}

Test(gate_fs, dotdot_out_of_a_project_under_tmp_is_judged_against_the_roots)
{
	/* The project lives under /tmp here: "../../etc/passwd" lands in
	 * /tmp lexically, which must not make it the sandbox's scratch space. */
	struct nsb_gate_policy p;
	struct nsb_gate_verdict v;
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));

	char a0[] = "cat", a1[] = "../../etc/passwd", a2[] = "../sibling";
	char *esc[] = {a0, a1, NULL};
	cr_assert(eq(int, gate(esc, 2, &p, &v), 0));
	cr_expect(not(v.allowed));
	expect_str(v.rule, "path.outside");

	char *sib[] = {a0, a2, NULL};
	cr_assert(eq(int, gate(sib, 2, &p, &v), 0));
	cr_expect(not(v.allowed));
	expect_str(v.rule, "path.outside");

	/* Written as /tmp/..., it is the sandbox's own /tmp: allowed. */
	char b1[] = "/tmp/scratch/file";
	char *tmp[] = {a0, b1, NULL};
	cr_assert(eq(int, gate(tmp, 2, &p, &v), 0));
	cr_expect(v.allowed, "%s: %s", v.rule, v.reason);
	nsb_gate_policy_free(&p);
}

Test(gate_fs, a_shells_c_program_has_a_shell_when_inline_code_is_allowed)
{
	struct nsb_gate_policy p;
	struct nsb_gate_verdict v;
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	p.allow_inline_code = true;

	char sh[] = "sh", c[] = "-c", ec[] = "-ec", prog[] = "echo a; echo b | tr a b";
	char *ok[] = {sh, c, prog, NULL};
	cr_assert(eq(int, gate(ok, 3, &p, &v), 0));
	cr_expect(v.allowed, "%s: %s", v.rule, v.reason);
	char *ok2[] = {sh, ec, prog, NULL};
	cr_assert(eq(int, gate(ok2, 3, &p, &v), 0));
	cr_expect(v.allowed, "%s: %s", v.rule, v.reason);

	/* $0 and $1 after the program are plain arguments: still judged. */
	char arg[] = "x;", zero[] = "name";
	char *extra[] = {sh, c, prog, zero, arg, NULL};
	cr_assert(eq(int, gate(extra, 5, &p, &v), 0));
	expect_str(v.rule, "shell.metachar");
	cr_expect(eq(int, v.argv_index, 4));

	/* Without --allow-inline-code the -c itself is refused first. */
	p.allow_inline_code = false;
	cr_assert(eq(int, gate(ok, 3, &p, &v), 0));
	expect_str(v.rule, "interp.inline");
	nsb_gate_policy_free(&p);
}
