// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate's interpreter and shell-option rules through the real binary:
 * a program on standard input and a command in a tool's option are refused
 * with exit 123 and the rule id in the record, and what they would have
 * done did not happen; the harmless neighbours really run; a policy file's
 * shell-option row is enforced; --print-policy reads back as a policy;
 * --allow-inline-code lifts both rules (and the command then really runs
 * the code, which is why they exist).
 *
 * Every run here sets .gate = true: the harness otherwise relaxes the gate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"

/* A project under /var/tmp: /tmp is the sandbox's private tmpfs. */
__attribute__((constructor)) static void interp_tmpdir(void)
{
	setenv("NSBOX_ITEST_TMPDIR", "/var/tmp", 1);
}

#define GATE_RUN(o, r, ...) itest_run(&itest_cur, (o), ITEST_ARGV(__VA_ARGS__), (r))

static const struct itest_opts gate_opts = {.gate = true};

static void make_project(void)
{
	itest_mkdir(&itest_cur, "input");
	itest_mkdir(&itest_cur, "out");
	itest_write(&itest_cur, "input/a", "payload a\n");
	itest_write(&itest_cur, "prog.py", "open('out/pwned', 'w').write('x')\n");
}

static bool exists(const char *rel)
{
	struct stat st;
	return lstat(itest_path(&itest_cur, rel), &st) == 0;
}

static void expect_refused(const struct itest_run *r, const char *rule, const char *idx)
{
	ITEST_ASSERT_EXIT(r, 123);
	ITEST_EXPECT_STR(r, r->out, "");
	ITEST_EXPECT_STR(r, itest_rec(r, "status"), "denied");
	ITEST_EXPECT_STR(r, itest_rec(r, "denial.rule"), rule);
	ITEST_EXPECT_STR(r, itest_rec(r, "denial.argv_index"), idx);
	const char *hint = itest_rec(r, "denial.hint");
	cr_expect(strlen(hint) > 20 && strcmp(hint, "null") != 0, "no hint%s", itest_ctx(r));
}

static void stdin_case(const char *const *argv, const char *idx)
{
	struct itest_opts o = {.gate = true, .stdin_path = "prog.py"};
	struct itest_run r;
	itest_run(&itest_cur, &o, argv, &r);
	expect_refused(&r, "interp.stdin", idx);
	itest_run_close(&r);
	cr_expect(exists("out/pwned") == false, "%s ran the program", argv[3]);
}

NSB_ITEST(interp, a_program_on_stdin_is_refused_and_does_not_run)
{
	make_project();
	stdin_case(ITEST_ARGV("--rw", "out", "--", "python3"), "0");
	stdin_case(ITEST_ARGV("--rw", "out", "--", "python3", "-"), "1");
	stdin_case(ITEST_ARGV("--rw", "out", "--", "python3", "/dev/stdin"), "1");
	stdin_case(ITEST_ARGV("--rw", "out", "--", "sh", "-s"), "1");
}

NSB_ITEST(interp, a_command_in_an_option_is_refused_and_does_not_run)
{
	struct itest_run r;
	make_project();
	GATE_RUN(&gate_opts, &r, "--rw", "out", "--", "git", "-c", "alias.x=!touch out/pwned", "x");
	expect_refused(&r, "exec.shell_option", "1");
	itest_run_close(&r);
	GATE_RUN(&gate_opts, &r, "--rw", "out", "--", "sed", "s/.*/touch out\\/pwned/e", "input/a");
	expect_refused(&r, "exec.shell_option", "1");
	itest_run_close(&r);
	GATE_RUN(&gate_opts, &r, "--rw", "out", "--", "tar", "--to-command=touch out/pwned", "-xf",
		 "x.tar");
	expect_refused(&r, "exec.shell_option", "1");
	itest_run_close(&r);
	GATE_RUN(&gate_opts, &r, "--rw", "out", "--", "python3", "-m", "cProfile", "-m", "timeit",
		 "open('out/pwned','w')");
	expect_refused(&r, "interp.inline", "4");
	itest_run_close(&r);
	cr_expect(exists("out/pwned") == false);
}

NSB_ITEST(interp, harmless_neighbours_run)
{
	struct itest_run r;
	make_project();
	GATE_RUN(&gate_opts, &r, "--", "sed", "-n", "1p", "input/a");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "payload a\n");
	itest_run_close(&r);
	GATE_RUN(&gate_opts, &r, "--", "git", "-c", "user.name=x", "-c", "core.pager=cat",
		 "version");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "git version");
	itest_run_close(&r);
	GATE_RUN(&gate_opts, &r, "--", "python3", "--version");
	ITEST_ASSERT_EXIT(&r, 0);
	itest_run_close(&r);
	GATE_RUN(&gate_opts, &r, "--rw", "out", "--", "tar", "-cf", "out/x.tar", "input");
	ITEST_ASSERT_EXIT(&r, 0);
	itest_run_close(&r);
	cr_expect(exists("out/x.tar"));
}

NSB_ITEST(interp, a_policy_row_is_enforced_and_the_printout_reads_back)
{
	struct itest_run r;
	make_project();
	itest_write(&itest_cur, "p.conf", "shell-option head --run-hook\n");
	GATE_RUN(&gate_opts, &r, "--policy", "p.conf", "--", "head", "--run-hook=x", "input/a");
	expect_refused(&r, "exec.shell_option", "1");
	itest_run_close(&r);

	struct itest_opts print = {.gate = true, .stdout_path = "printed.conf"};
	GATE_RUN(&print, &r, "--policy", "p.conf", "--print-policy");
	ITEST_ASSERT_EXIT(&r, 0);
	itest_run_close(&r);
	GATE_RUN(&gate_opts, &r, "--policy", "printed.conf", "--", "head", "--run-hook", "x",
		 "input/a");
	expect_refused(&r, "exec.shell_option", "1");
	itest_run_close(&r);
	GATE_RUN(&gate_opts, &r, "--policy", "printed.conf", "--", "head", "-n1", "input/a");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "payload a\n");
	itest_run_close(&r);
}

NSB_ITEST(interp, allow_inline_code_lifts_both_rules)
{
	struct itest_run r;
	make_project();
	/* sed's e flag really runs the pattern space as a command */
	GATE_RUN(&gate_opts, &r, "--allow-inline-code", "--", "sed", "s/.*/echo ran-by-sed/e",
		 "input/a");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "ran-by-sed\n");
	itest_run_close(&r);
	struct itest_opts o = {.gate = true, .stdin_path = "input/a"};
	GATE_RUN(&o, &r, "--allow-inline-code", "--", "sh", "-s");
	ITEST_ASSERT_EXIT(&r, 127); /* "payload a": sh ran it, no such command */
	itest_run_close(&r);
}
