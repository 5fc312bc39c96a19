// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exec rules' second generation against an in-memory filesystem with
 * the PATH search and directory listing of gate_fakefs.h: wrappers from the
 * policy's table (found one level deeper under find, xargs and parallel),
 * the deny list by file identity, deny-mode rules, and command lookup with
 * a PATH set on the command line or by --env.  Each case is one command
 * line and the exact verdict: allowed, or rule + argv index.  Then the
 * tables as policy text: operator entries, errors with their column, and
 * the print -> parse round trip.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gate/gate.h"
#include "gate/gate_fs.h"
#include "gate/gate_tables.h"
#include "gate/gate_which.h"
#include "gate/policy.h"
#include "gate_fakefs.h"
#include "unit.h"

#define D(p)	FAKE_DIR(p)
#define F(p)	FAKE_FILE(p)
#define S(p, t) FAKE_LINK(p, t)
#define PROJ	"/home/u/proj"

static const struct fake_ent fake[] = {
	D("/home"),
	D("/home/u"),
	D(PROJ),
	D(PROJ "/out"),
	D(PROJ "/bin"),
	D(PROJ "/sub"),
	F(PROJ "/Makefile"),
	S(PROJ "/bin/zap", "/usr/bin/rm"),
	S(PROJ "/zap", "/usr/bin/rm"),
	F(PROJ "/bin/mytool"),
	D("/opt"),
	D("/opt/tools"),
	S("/opt/tools/zap", "/usr/bin/rm"),
	S("/opt/tools/lister", "/usr/bin/ls"),
	D("/usr"),
	D("/usr/bin"),
	D("/usr/sbin"),
	S("/bin", "usr/bin"),
	S("/sbin", "usr/sbin"),
	D("/tmp"),
	F("/usr/bin/rm"),
	F("/usr/bin/ls"),
	F("/usr/bin/env"),
	F("/usr/bin/make"),
	F("/usr/bin/grep"),
	F("/usr/bin/cp"),
	F("/usr/bin/gzip"),
	F("/usr/bin/find"),
	F("/usr/bin/xargs"),
	F("/usr/bin/nice"),
	F("/usr/bin/timeout"),
	F("/usr/bin/git"),
	F("/usr/bin/cmake"),
	F("/usr/bin/watch"),
	F("/usr/bin/parallel"),
	F("/usr/bin/flock"),
	F("/usr/bin/strace"),
	F("/usr/bin/valgrind"),
	F("/usr/bin/busybox"),
	F("/usr/bin/kmod"),
	S("/usr/bin/lsmod", "kmod"),
	S("/usr/sbin/modprobe", "../bin/kmod"),
	F("/usr/sbin/mke2fs"),
	S("/usr/sbin/mkfs.ext4", "mke2fs"),
	S("/usr/sbin/mkfs.ext3", "mke2fs"),
	F("/usr/sbin/runuser"),
	F("/usr/bin/sudo"),
	S("/usr/bin/sudoedit", "sudo"),
	S("/usr/bin/blah", "sudo"),
};

static struct fake_fs fs = {fake, sizeof(fake) / sizeof(fake[0]), NULL, 0};

static const struct nsb_fs_ops ops = {
	.ud = &fs,
	.realpath = fake_realpath,
	.lstat_kind = fake_lstat_kind,
	.exec_probe = fake_exec_probe,
	.list_dir = fake_list_dir,
};

static const struct nsb_gate_root roots[] = {
	{PROJ, PROJ, false},
	{PROJ "/out", PROJ "/out", true},
};

enum {
	P_ENV_PATH = 1 << 0,   /* --env PATH=/opt/tools:/usr/bin */
	P_ENV_REL = 1 << 1,    /* --env PATH=bin:/usr/bin */
	P_ALLOW_FIND = 1 << 2, /* --allow-exec find */
	P_ALLOW_MKE2 = 1 << 3, /* --allow-exec mke2fs */
	P_OPERATOR = 1 << 4,   /* the operator's policy file below */
	P_INLINE = 1 << 5,     /* --allow-inline-code */
};

struct gcase {
	const char *name;
	const char *argv[20];
	const char *rule; /* NULL: allowed */
	int idx;
	unsigned flags;
};

#define A(...)                    \
	{                         \
		__VA_ARGS__, NULL \
	}
#define OK(n, a, f)               \
	{                         \
		n, a, NULL, -1, f \
	}
#define NO(n, a, r, i, f)     \
	{                     \
		n, a, r, i, f \
	}
#define DENY  "exec.denylist"
#define WRAP  "exec.wrapper"
#define DESTR "exec.destructive_mode"

static const char operator_policy[] = "wrapper mywrap skip=1 -x= --level=\n"
				      "deny-mode make distclean\n";

/* clang-format off */
static const struct gcase cases[] = {
	/* ordinary work stays allowed */
	OK("find_exec_grep_plus", A("find", ".", "-name", "x", "-exec", "grep", "y", "{}", "+"), 0),
	OK("find_exec_grep_semi", A("find", ".", "-exec", "grep", "-l", "main", "{}", ";"), 0),
	OK("find_print", A("find", ".", "-name", "*.c", "-print"), 0),
	OK("xargs_grep", A("xargs", "grep", "foo"), 0),
	OK("xargs_0_n1_grep", A("xargs", "-0", "-n1", "grep", "foo"), 0),
	OK("xargs_I_cp", A("xargs", "-I{}", "cp", "{}", "out/"), 0),
	OK("xargs_alone_echoes", A("xargs"), 0),
	OK("timeout_make", A("timeout", "10", "make", "test"), 0),
	OK("timeout_signal_make", A("timeout", "-s", "KILL", "5", "make"), 0),
	OK("nice_make", A("nice", "make"), 0),
	OK("nice_n_make", A("nice", "-n", "5", "make", "-j2"), 0),
	OK("nice_alone", A("nice"), 0),
	OK("ionice_make", A("ionice", "-c3", "make"), 0),
	OK("chrt_make", A("chrt", "-b", "0", "make"), 0),
	OK("chrt_pid_query", A("chrt", "-p", "1"), 0),
	OK("taskset_make", A("taskset", "-c", "0", "make"), 0),
	OK("taskset_pid_query", A("taskset", "-p", "1"), 0),
	OK("flock_make", A("flock", "out/lock", "make"), 0),
	OK("watch_make", A("watch", "-n", "5", "make", "test"), 0),
	OK("parallel_gzip", A("parallel", "gzip", ":::", "a", "b"), 0),
	OK("parallel_template", A("parallel", "-j4", "gzip {}", ":::", "a"), 0),
	OK("env_assign_make", A("env", "FOO=1", "make"), 0),
	OK("env_S_make", A("env", "-S", "make test"), 0),
	OK("env_path_usr_bin", A("env", "PATH=/usr/bin", "make"), 0),
	OK("strace_make", A("strace", "-f", "-o", "out/trace", "make"), 0),
	OK("valgrind_make", A("valgrind", "--leak-check=full", "make"), 0),
	OK("stdbuf_make", A("stdbuf", "-oL", "make"), 0),
	OK("setsid_make", A("setsid", "-f", "make"), 0),
	OK("chronic_make", A("chronic", "make"), 0),
	OK("prlimit_make", A("prlimit", "--nofile=1024", "make"), 0),
	OK("fakeroot_make", A("fakeroot", "make"), 0),
	OK("dbus_run_session_make", A("dbus-run-session", "--", "make"), 0),
	OK("xvfb_run_make", A("xvfb-run", "-a", "make"), 0),
	OK("busybox_ls", A("busybox", "ls"), 0),
	OK("busybox_list", A("busybox", "--list"), 0),
	OK("lsmod_is_kmod_not_modprobe", A("lsmod"), 0),
	OK("git_clean_dry_run", A("git", "clean", "-n"), 0),
	OK("git_status", A("git", "status"), 0),
	OK("git_commit_f_elsewhere", A("git", "commit", "-m", "msg"), 0),
	OK("cmake_E_echo", A("cmake", "-E", "echo", "hi"), 0),
	OK("cmake_build", A("cmake", "--build", "out"), 0),
	OK("at_list", A("at", "-l"), 0),
	OK("sandbox_path_default_ls", A("lister"), 0),
	OK("relative_path_entry_tool", A("env", "PATH=bin", "mytool"), 0),
	OK("env_path_lister_is_ls", A("nice", "lister"), 0),
	OK("allow_exec_find_lifts_delete", A("find", ".", "-delete"), P_ALLOW_FIND),
	OK("allow_exec_mke2fs", A("mke2fs", "out/img"), P_ALLOW_MKE2),
	OK("operator_wrapper_ok", A("mywrap", "-x", "v", "5", "make"), P_OPERATOR),
	OK("watch_shell_code_with_inline_allowed", A("watch", "ls | wc -l"), P_INLINE),

	/* find and xargs: a command filled in from file names or input */
	NO("find_exec_env_subst", A("find", ".", "-exec", "env", "{}", ";"), WRAP, 4, 0),
	NO("find_exec_timeout_subst", A("find", ".", "-exec", "timeout", "5", "{}", ";"), WRAP, 5, 0),
	NO("find_exec_nice_plus", A("find", ".", "-exec", "nice", "{}", "+"), WRAP, 4, 0),
	NO("find_exec_subst_first", A("find", ".", "-exec", "{}", ";"), WRAP, 3, 0),
	NO("find_exec_rm", A("find", ".", "-exec", "rm", "{}", "+"), DENY, 3, 0),
	NO("xargs_env_from_input", A("xargs", "env"), WRAP, 1, 0),
	NO("xargs_nice_from_input", A("xargs", "nice"), WRAP, 1, 0),
	NO("xargs_timeout_from_input", A("xargs", "timeout", "5"), WRAP, 1, 0),
	NO("xargs_xargs", A("xargs", "xargs"), WRAP, 1, 0),
	NO("xargs_I_nice", A("xargs", "-I%", "nice", "%"), WRAP, 3, 0),
	NO("xargs_i_env", A("xargs", "-i", "env", "{}"), WRAP, 3, 0),
	NO("xargs_replace_env", A("xargs", "--replace=@@", "env", "x@@"), WRAP, 3, 0),
	NO("xargs_rm", A("xargs", "-0", "rm"), DENY, 2, 0),
	NO("find_exec_xargs_env", A("find", ".", "-exec", "xargs", "env", ";"), WRAP, 4, 0),
	NO("parallel_commands_from_args", A("parallel", ":::", "rm x"), WRAP, 1, 0),
	NO("parallel_rm_template", A("parallel", "rm {}", ":::", "a"), DENY, 1, 0),
	NO("parallel_subst_command", A("parallel", "{}", ":::", "rm"), WRAP, 1, 0),
	NO("parallel_shell_syntax", A("parallel", "gzip {} && rm {}", ":::", "a"), WRAP, 1, 0),
	NO("parallel_no_command", A("parallel"), WRAP, 0, 0),

	/* wrappers that were not on the list */
	NO("watch_rm", A("watch", "rm", "x"), DENY, 1, 0),
	NO("watch_string_rm", A("watch", "-n", "1", "ls; rm x"), WRAP, 3, 0),
	NO("watch_glob_command", A("watch", "*"), WRAP, 1, 0),
	NO("watch_assignment", A("watch", "A=1 rm x"), DENY, 1, 0),
	NO("chrt_rm", A("chrt", "-f", "10", "rm", "x"), DENY, 3, 0),
	NO("taskset_rm", A("taskset", "0x1", "rm", "x"), DENY, 2, 0),
	NO("flock_rm", A("flock", "out/lock", "rm", "x"), DENY, 2, 0),
	/* flock -c is a shell-option row (issue 12, section 2) */
	NO("flock_c", A("flock", "-c", "rm x", "out/lock"), NSB_RULE_EXEC_SHELL_OPTION, 1, 0),
	NO("setarch_rm", A("setarch", "x86_64", "-R", "rm", "x"), DENY, 3, 0),
	NO("prlimit_rm", A("prlimit", "--nofile=10", "rm", "x"), DENY, 2, 0),
	NO("cpulimit_rm", A("cpulimit", "-l", "50", "rm", "x"), DENY, 3, 0),
	NO("chronic_rm", A("chronic", "rm", "x"), DENY, 1, 0),
	NO("unbuffer_rm", A("unbuffer", "rm", "x"), DENY, 1, 0),
	NO("setsid_rm", A("setsid", "rm", "x"), DENY, 1, 0),
	NO("nohup_rm", A("nohup", "rm", "x"), DENY, 1, 0),
	NO("time_rm", A("time", "-p", "rm", "x"), DENY, 2, 0),
	NO("ssh_agent_rm", A("ssh-agent", "rm", "x"), DENY, 1, 0),
	NO("dbus_run_session_rm", A("dbus-run-session", "--", "rm"), DENY, 2, 0),
	NO("dbus_daemon_option", A("dbus-run-session", "--dbus-daemon=rm", "make"), WRAP, 1, 0),
	NO("fakeroot_rm", A("fakeroot", "--", "rm", "x"), DENY, 2, 0),
	NO("fakechroot_rm", A("fakechroot", "rm", "x"), DENY, 1, 0),
	NO("eatmydata_rm", A("eatmydata", "rm", "x"), DENY, 1, 0),
	NO("strace_rm", A("strace", "-f", "rm", "x"), DENY, 2, 0),
	NO("strace_unknown_option", A("strace", "--bogus", "x", "rm"), WRAP, 1, 0),
	NO("valgrind_rm", A("valgrind", "--tool=memcheck", "rm"), DENY, 2, 0),
	NO("xvfb_run_rm", A("xvfb-run", "-a", "rm"), DENY, 2, 0),
	NO("entr_shell", A("entr", "-s", "make"), WRAP, 1, 0),
	NO("at_now", A("at", "now"), WRAP, 0, 0),
	NO("batch", A("batch"), WRAP, 0, 0),
	NO("busybox_timeout_rm", A("busybox", "timeout", "5", "rm", "x"), DENY, 3, 0),
	NO("busybox_shred", A("busybox", "shred", "x"), DENY, 1, 0),
	NO("toybox_rm", A("toybox", "rm", "x"), DENY, 1, 0),
	NO("coreutils_prog_rm", A("coreutils", "--coreutils-prog=rm", "x"), DENY, 1, 0),
	NO("env_S_rm", A("env", "-S", "rm -rf x"), DENY, 2, 0),
	NO("env_S_nested", A("env", "-S", "-i nice rm"), DENY, 2, 0),
	NO("env_S_quotes", A("env", "-S", "'rm' x"), WRAP, 2, 0),
	NO("env_chdir", A("env", "-C", "sub", "make"), WRAP, 1, 0),
	NO("nested_too_deep", A("nice", "nice", "nice", "nice", "nice", "nice", "nice", "nice",
				"nice", "make"), WRAP, 8, 0),
	NO("operator_wrapper_rm", A("mywrap", "--level=3", "5", "rm"), DENY, 3, P_OPERATOR),
	NO("operator_wrapper_unknown", A("mywrap", "-y", "5", "make"), WRAP, 1, P_OPERATOR),

	/* the deny list's reach */
	NO("mke2fs_is_mkfs_ext4", A("mke2fs", "out/img"), DENY, 0, 0),
	NO("mke2fs_by_path", A("/usr/sbin/mke2fs", "out/img"), DENY, 0, 0),
	NO("mkfs_ext3_by_name", A("mkfs.ext3", "out/img"), DENY, 0, 0),
	NO("nice_mke2fs", A("nice", "mke2fs", "out/img"), DENY, 1, 0),
	NO("alias_of_sudo", A("blah", "ls"), DENY, 0, 0),
	NO("modprobe", A("modprobe", "x"), DENY, 0, 0),
	NO("runuser", A("runuser", "-u", "x", "make"), DENY, 0, 0),
	NO("pkexec", A("pkexec", "make"), DENY, 0, 0),
	NO("doas", A("doas", "make"), DENY, 0, 0),
	NO("unlink", A("unlink", "x"), DENY, 0, 0),
	NO("find_delete", A("find", ".", "-delete"), DESTR, 2, 0),
	NO("find_name_delete", A("find", ".", "-name", "*.o", "-delete"), DESTR, 4, 0),
	NO("cmake_E_rm", A("cmake", "-E", "rm", "-rf", "out/x"), DESTR, 2, 0),
	NO("cmake_E_remove_directory", A("cmake", "-E", "remove_directory", "out"), DESTR, 2, 0),
	NO("git_clean_fdx", A("git", "clean", "-fdx"), DESTR, 2, 0),
	NO("git_clean_d_force", A("git", "clean", "-d", "--force"), DESTR, 3, 0),
	NO("git_C_clean_f", A("git", "-C", "sub", "clean", "-f"), DESTR, 4, 0),
	NO("nice_find_delete", A("nice", "find", ".", "-delete"), DESTR, 3, 0),
	NO("operator_deny_mode", A("make", "distclean"), DESTR, 1, P_OPERATOR),

	/* lookup with the PATH the command will see */
	NO("env_path_abs", A("env", "PATH=/opt/tools", "zap", "x"), DENY, 2, 0),
	NO("env_path_relative", A("env", "PATH=bin", "zap", "x"), DENY, 2, 0),
	NO("env_path_empty_is_cwd", A("env", "PATH=", "zap", "x"), DENY, 2, 0),
	NO("env_path_leading_colon", A("env", "PATH=:/usr/bin", "zap", "x"), DENY, 2, 0),
	NO("nice_env_path_timeout", A("nice", "env", "PATH=/opt/tools", "timeout", "5", "zap"),
	   DENY, 5, 0),
	NO("env_dash_S_path", A("env", "-S", "PATH=/opt/tools zap x"), DENY, 2, 0),
	NO("sandbox_path_env", A("zap", "x"), DENY, 0, P_ENV_PATH),
	NO("sandbox_path_relative", A("zap", "x"), DENY, 0, P_ENV_REL),
	NO("sandbox_path_wrapped", A("nice", "zap", "x"), DENY, 1, P_ENV_REL),
};
/* clang-format on */

#define N_CASES (sizeof(cases) / sizeof(cases[0]))

static void make_policy(unsigned flags, struct nsb_gate_policy *p)
{
	cr_assert(eq(int, nsb_gate_policy_init_default(p), 0));
	if (flags & P_ALLOW_FIND)
		cr_assert(eq(int, nsb_gate_policy_allow_exec(p, "find"), 0));
	if (flags & P_ALLOW_MKE2)
		cr_assert(eq(int, nsb_gate_policy_allow_exec(p, "mke2fs"), 0));
	if (flags & P_INLINE)
		p->allow_inline_code = true;
	if (flags & P_OPERATOR) {
		struct nsb_error e = {0};
		FILE *f =
			fmemopen((void *)(uintptr_t)operator_policy, strlen(operator_policy), "r");
		cr_assert(f != NULL);
		cr_assert(eq(int, nsb_policy_parse(f, "op.policy", p, &e), 0), "%s", e.message);
		fclose(f);
	}
}

static void run_case(const struct gcase *t, struct nsb_gate_verdict *v)
{
	char *argv[20];
	int argc = 0;
	for (; t->argv[argc]; argc++)
		argv[argc] = (char *)(uintptr_t)t->argv[argc];
	argv[argc] = NULL;

	struct nsb_gate_policy p;
	make_policy(t->flags, &p);
	struct nsb_gate_input in = {
		.argv = argv,
		.argc = argc,
		.cwd = PROJ,
		.home = "/home/u",
		.roots = roots,
		.n_roots = sizeof(roots) / sizeof(roots[0]),
		.fs = &ops,
		.path_list = t->flags & P_ENV_PATH  ? "/opt/tools:/usr/bin"
			     : t->flags & P_ENV_REL ? "bin:/usr/bin"
						    : "/usr/bin:/bin:/usr/sbin:/sbin:/opt/tools",
	};
	/* the command as the front resolves it: the same lookup */
	char real[PATH_MAX];
	if (nsb_gate_resolve(&in, NULL, argv[0], real, sizeof(real)) == 0) {
		in.cmd_path = real;
		in.cmd_real_base = nsb_gate_basename(real);
	}
	cr_assert(eq(int, nsb_gate_check(&p, &in, v), 0), "%s: gate failed", t->name);
	nsb_gate_policy_free(&p);
}

ParameterizedTestParameters(gate_exec2, table)
{
	static int idx[N_CASES];
	for (size_t i = 0; i < N_CASES; i++)
		idx[i] = (int)i;
	return cr_make_param_array(int, idx, N_CASES);
}

ParameterizedTest(int *i, gate_exec2, table)
{
	const struct gcase *t = &cases[*i];
	struct nsb_gate_verdict v;
	run_case(t, &v);

	if (!t->rule) {
		cr_assert(v.allowed, "%s: refused by %s at %d ('%s'): %s", t->name,
			  v.rule ? v.rule : "?", v.argv_index, v.token, v.reason);
		return;
	}
	cr_assert(v.allowed == false, "%s: allowed, expected %s at %d", t->name, t->rule, t->idx);
	cr_assert(strcmp(v.rule, t->rule) == 0, "%s: rule %s at %d, want %s (reason: %s)", t->name,
		  v.rule, v.argv_index, t->rule, v.reason);
	cr_expect(eq(int, v.argv_index, t->idx), "%s: argv index (token '%s', reason %s)", t->name,
		  v.token, v.reason);
	expect_str_at(v.token, t->argv[t->idx], t->name);
	cr_expect(v.hint[0] != '\0', "%s: a refusal carries a hint", t->name);
	cr_expect(v.reason[0] != '\0', "%s: a refusal carries a reason", t->name);
}

/* ---- the words of each refusal ---------------------------------------- */

static void verdict_of(const char *const *args, unsigned flags, struct nsb_gate_verdict *v)
{
	struct gcase t = {.name = "words", .flags = flags};
	for (int i = 0; args[i]; i++)
		t.argv[i] = args[i];
	run_case(&t, v);
}

Test(gate_exec2, identity_names_the_linked_name)
{
	struct nsb_gate_verdict v;
	verdict_of((const char *const[])A("mke2fs", "out/img"), 0, &v);
	expect_str(v.reason, "'mke2fs' is the file '/usr/sbin/mke2fs', which 'mkfs.ext4' on the "
			     "exec deny list names too");
	cr_expect(strstr(v.hint, "--allow-exec mkfs.ext4") != NULL, "%s", v.hint);
}

Test(gate_exec2, destructive_mode_says_which_rule)
{
	struct nsb_gate_verdict v;
	verdict_of((const char *const[])A("git", "clean", "-fdx"), 0, &v);
	expect_str(v.reason, "'git' run as 'git ... clean -f' deletes files (deny-mode)");
	cr_expect(strstr(v.hint, "git clean -n") != NULL, "%s", v.hint);
	cr_expect(strstr(v.hint, "--allow-exec git") != NULL, "%s", v.hint);
}

Test(gate_exec2, split_line_refusal_points_at_the_argument)
{
	struct nsb_gate_verdict v;
	verdict_of((const char *const[])A("env", "-S", "rm -rf x"), 0, &v);
	expect_str(v.reason, "in the command line 'rm -rf x': 'rm' is on the exec deny list");
	expect_str(v.token, "rm -rf x");
}

Test(gate_exec2, input_refusal_says_input)
{
	struct nsb_gate_verdict v;
	verdict_of((const char *const[])A("xargs", "env"), 0, &v);
	expect_str(v.reason, "env: the command it runs would be read from input, which the gate "
			     "cannot see");
	cr_expect(strstr(v.hint, "'wrapper' line") != NULL, "%s", v.hint);
}

/* ---- the one PATH search ---------------------------------------------- */

Test(gate_exec2, which_follows_execvp_rules)
{
	char out[PATH_MAX];
	struct nsb_gate_input in = {.cwd = PROJ, .roots = roots, .n_roots = 2, .fs = &ops};
	cr_assert(eq(int, nsb_gate_which(&in, "bin:/usr/bin", "zap", out, sizeof(out)), 0));
	expect_str(out, "/usr/bin/rm");
	cr_assert(eq(int, nsb_gate_which(&in, "/usr/bin::", "mytool", out, sizeof(out)), -ENOENT));
	cr_assert(eq(int, nsb_gate_which(&in, "/usr/bin::", "zap", out, sizeof(out)), 0));
	expect_str(out, "/usr/bin/rm");
	cr_assert(eq(int, nsb_gate_which(&in, "/usr/bin:bin", "mytool", out, sizeof(out)), 0));
	expect_str(out, PROJ "/bin/mytool");
	cr_expect(eq(int, nsb_gate_which(&in, "/usr/bin", "a/b", out, sizeof(out)), -EINVAL));
	/* a directory is no hit: the search goes on */
	cr_assert(eq(int, nsb_gate_which(&in, "/home/u:/usr/bin", "proj", out, sizeof(out)),
		     -ENOENT));
}

/* ---- the tables as policy text ---------------------------------------- */

static int parse_text(const char *text, struct nsb_gate_policy *p, struct nsb_error *e)
{
	FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
	cr_assert(f != NULL);
	int r = nsb_policy_parse(f, "t.policy", p, e);
	fclose(f);
	return r;
}

static char *print_policy(const struct nsb_gate_policy *p)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	cr_assert(f != NULL);
	cr_assert(eq(int, nsb_policy_print(f, p, NULL), 0));
	fclose(f);
	return out;
}

struct bad {
	const char *text;
	const char *message;
	int err;
};

Test(gate_exec2, table_errors_have_their_column)
{
	static const struct bad bad[] = {
		{"wrapper\n", "t.policy:1:8: 'wrapper' needs a NAME"},
		{"wrapper a/b\n", "t.policy:1:9: NAME must be a basename of at most 255 bytes, "
				  "without '/' or '*'"},
		{"wrapper w bogus\n", "t.policy:1:11: unknown word 'bogus' (keys: run= skip= "
				      "subst= end= dash adjust lenient input-args "
				      "input-commands shell; options start with '-')"},
		{"wrapper w run=later\n",
		 "t.policy:1:11: run= takes first, env, applet, find or input"},
		{"wrapper w skip=9\n", "t.policy:1:11: skip= takes a count from 0 to 8"},
		{"wrapper w -x -yz\n", "t.policy:1:14: bad option word '-yz': -X or --NAME, then "
				       "nothing (a flag) or one of = ? ! . @ ?@ %"},
		{"wrapper w --a/b=\n", "t.policy:1:11: bad option word '--a/b=': -X or --NAME, "
				       "then nothing (a flag) or one of = ? ! . @ ?@ %"},
		{"wrapper w color=red\n", "t.policy:1:11: unknown key 'color='"},
		{"deny-mode\n", "t.policy:1:10: 'deny-mode' needs a TOOL and a WORD"},
		{"deny-mode find\n", "t.policy:1:11: 'deny-mode find' needs a WORD (for example: "
				     "deny-mode find -delete)"},
		{"deny-mode find -de*te\n",
		 "t.policy:1:16: a WORD is at most 64 printable bytes; '*' may only end it"},
		{"deny-mode t 1 2 3 4 5 6 7 8 9\n", "t.policy:1:29: at most 8 WORDs", -E2BIG},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct nsb_gate_policy p;
		struct nsb_error e = {0};
		nsb_gate_policy_init(&p);
		cr_expect(
			eq(int, parse_text(bad[i].text, &p, &e), bad[i].err ? bad[i].err : -EINVAL),
			"%s", bad[i].text);
		expect_str_at(e.message, bad[i].message, bad[i].text);
		cr_expect(e.hint[0] != '\0', "%s: a hint", bad[i].text);
		nsb_gate_policy_free(&p);
	}
}

Test(gate_exec2, operator_wrapper_replaces_the_builtin_one)
{
	struct nsb_gate_policy p;
	struct nsb_error e = {0};
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	cr_assert(eq(int, nsb_gate_policy_load_builtin(&p), 0));
	size_t n = p.n_wrappers;
	cr_assert(eq(int, parse_text("wrapper nice -z\nwrapper new run=env\n", &p, &e), 0));
	cr_expect(eq(sz, p.n_wrappers, n + 1));
	const struct nsb_wrapper *w = nsb_gate_find_wrapper(&p, "nice");
	cr_assert(w != NULL);
	cr_expect(eq(sz, w->n_words, 1));
	cr_expect(eq(int, (int)nsb_gate_find_wrapper(&p, "new")->run, NSB_RUN_ENV));
	nsb_gate_policy_free(&p);
}

Test(gate_exec2, builtin_tables_round_trip)
{
	struct nsb_gate_policy p, q, r;
	struct nsb_error e = {0};
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	cr_assert(eq(int, nsb_gate_policy_load_builtin(&p), 0));
	cr_assert(p.n_wrappers > 50 && p.n_deny_modes >= 6);
	char *one = print_policy(&p);
	/* into an empty policy and into the default alike */
	nsb_gate_policy_init(&q);
	cr_assert(eq(int, parse_text(one, &q, &e), 0), "%s", e.message);
	char *two = print_policy(&q);
	expect_str(two, one);
	cr_assert(eq(int, nsb_gate_policy_init_default(&r), 0));
	cr_assert(eq(int, parse_text(one, &r, &e), 0), "%s", e.message);
	char *three = print_policy(&r);
	expect_str(three, one);
	cr_expect(strstr(one, "\nwrapper xargs input-args ") != NULL);
	cr_expect(strstr(one, "\ndeny-mode find -delete\n") != NULL);
	free(one);
	free(two);
	free(three);
	nsb_gate_policy_free(&p);
	nsb_gate_policy_free(&q);
	nsb_gate_policy_free(&r);
}

Test(gate_exec2, every_word_class_round_trips)
{
	static const char text[] =
		"wrapper w run=applet skip=2 dash adjust lenient input-args input-commands shell "
		"subst=%% end=:: -a -b= -c? -d! -e. -f@ -g?@ -h% --aa --bb= --cc? --dd! --ee. "
		"--ff@ --gg?@ --hh%\n";
	static const char mode[] = "deny-mode tool one two* -x\n";
	struct nsb_gate_policy p, q;
	struct nsb_error e = {0};
	nsb_gate_policy_init(&p);
	cr_assert(eq(int, parse_text(text, &p, &e), 0), "%s", e.message);
	cr_assert(eq(int, parse_text(mode, &p, &e), 0), "%s", e.message);
	char *one = print_policy(&p);
	cr_expect(strstr(one, text) != NULL, "%s", one);
	cr_expect(strstr(one, mode) != NULL, "%s", one);
	nsb_gate_policy_init(&q);
	cr_assert(eq(int, parse_text(one, &q, &e), 0), "%s", e.message);
	char *two = print_policy(&q);
	expect_str(two, one);
	struct optspec o;
	nsb_gate_wrapper_optspec(nsb_gate_find_wrapper(&p, "w"), &o);
	expect_str(o.flags, "a");
	expect_str(o.arg, "b");
	expect_str(o.optrest, "c");
	expect_str(o.refuse, "d");
	expect_str(o.noexec, "e");
	expect_str(o.subst, "f");
	expect_str(o.subst_opt, "g");
	expect_str(o.split, "h");
	expect_str(o.long_split[0], "--hh");
	expect_str(o.subst_default, "%%");
	free(one);
	free(two);
	nsb_gate_policy_free(&p);
	nsb_gate_policy_free(&q);
}

Test(gate_exec2, tables_have_limits)
{
	struct nsb_gate_policy p;
	struct nsb_error e = {0};
	char line[64];
	nsb_gate_policy_init(&p);
	int r = 0;
	for (int i = 0; i <= NSB_GATE_MAX_DENY_MODES && r == 0; i++) {
		snprintf(line, sizeof(line), "deny-mode t%d x\n", i);
		r = parse_text(line, &p, &e);
	}
	cr_expect(eq(int, r, -E2BIG));
	cr_expect(eq(sz, p.n_deny_modes, NSB_GATE_MAX_DENY_MODES));
	nsb_gate_policy_free(&p);
}

/* ---- on the real tree: a hard link is the same file ------------------- */

Test(gate_exec2, hard_link_to_a_denied_file_is_denied)
{
	char top[] = "/tmp/nsbox-exec2-XXXXXX", bin[PATH_MAX + 8], a[PATH_MAX + 32],
	     b[PATH_MAX + 32];
	char real[PATH_MAX];
	cr_assert(mkdtemp(top) != NULL);
	cr_assert(realpath(top, real) != NULL);
	snprintf(bin, sizeof(bin), "%s/bin", real);
	snprintf(a, sizeof(a), "%s/wipe", bin);
	snprintf(b, sizeof(b), "%s/innocent", bin);
	cr_assert(mkdir(bin, 0755) == 0);
	FILE *f = fopen(a, "w");
	cr_assert(f != NULL);
	fputs("#!/bin/sh\n", f);
	fclose(f);
	cr_assert(chmod(a, 0755) == 0);
	cr_assert(link(a, b) == 0);

	struct nsb_gate_policy p;
	nsb_gate_policy_init(&p);
	cr_assert(eq(int, nsb_gate_policy_deny_exec(&p, "wipe"), 0));
	struct nsb_gate_root root = {real, real, false};
	struct nsb_gate_fs_host host = {
		.roots = &root, .n_roots = 1, .path_list = bin, .cwd = real};
	struct nsb_fs_ops hops;
	nsb_gate_fs_host_ops(&host, &hops);
	char a0[] = "innocent", a1[] = "nice", a2[] = "innocent";
	char *argv1[] = {a0, NULL}, *argv2[] = {a1, a2, NULL};
	struct nsb_gate_input in = {
		.argv = argv1,
		.argc = 1,
		.cwd = real,
		.roots = &root,
		.n_roots = 1,
		.fs = &hops,
		.path_list = bin,
	};
	struct nsb_gate_verdict v;
	cr_assert(eq(int, nsb_gate_check(&p, &in, &v), 0));
	cr_expect(v.allowed == false, "a hard link to a denied file runs");
	expect_str(v.rule ? v.rule : "(none)", "exec.denylist");
	cr_expect(strstr(v.reason, "'wipe'") != NULL, "%s", v.reason);

	/* wrapped, and through the built-in wrapper table */
	cr_assert(eq(int, nsb_gate_tables_default(&p), 0));
	cr_assert(eq(int, nsb_gate_wrappers_load_all(&p), 0));
	in.argv = argv2;
	in.argc = 2;
	cr_assert(eq(int, nsb_gate_check(&p, &in, &v), 0));
	cr_expect(v.allowed == false);
	cr_expect(eq(int, v.argv_index, 1));
	nsb_gate_policy_free(&p);

	unlink(a);
	unlink(b);
	rmdir(bin);
	rmdir(real);
}
