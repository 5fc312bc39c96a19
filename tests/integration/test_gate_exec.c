// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exec rules' second generation through the real binary: the one PATH
 * search (a relative --env PATH entry is looked up by the gate and run by
 * the payload alike), a PATH set with env on the command line, the deny
 * list by file identity on the host's own tree (mke2fs, which mkfs.ext4
 * links to), deny-mode rules that leave the files in place, an operator's
 * wrapper line, and ordinary wrapper use that must keep running.
 *
 * Every run sets .gate = true: the harness otherwise relaxes the gate.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

/* Under /var/tmp: inside, /tmp is the sandbox's own tmpfs (see test_gate.c). */
__attribute__((constructor)) static void gate_exec_tmpdir(void)
{
	setenv("NSBOX_ITEST_TMPDIR", "/var/tmp", 1);
}

static const struct itest_opts gate_opts = {.gate = true};

#define GATE_RUN(r, ...) itest_run(&itest_cur, &gate_opts, ITEST_ARGV(__VA_ARGS__), (r))

static void make_project(void)
{
	itest_mkdir(&itest_cur, "bin");
	itest_mkdir(&itest_cur, "out");
	itest_write(&itest_cur, "out/keep", "kept\n");
	itest_write(&itest_cur, "notes.txt", "a word here\n");
	itest_write(&itest_cur, "bin/mytool", "#!/bin/sh\necho ran mytool \"$@\"\n");
	cr_assert(chmod(itest_path(&itest_cur, "bin/mytool"), 0755) == 0);
	cr_assert(symlink("/usr/bin/rm", itest_path(&itest_cur, "bin/zap")) == 0);
	cr_assert(lchown(itest_path(&itest_cur, "bin/zap"), itest_cur.uid, itest_cur.gid) == 0);
}

static bool exists(const char *rel)
{
	struct stat st;
	return lstat(itest_path(&itest_cur, rel), &st) == 0;
}

static void expect_refused(struct itest_run *r, const char *rule, const char *idx,
			   const char *token)
{
	ITEST_ASSERT_EXIT(r, 123);
	ITEST_EXPECT_STR(r, itest_rec(r, "status"), "denied");
	ITEST_EXPECT_STR(r, itest_rec(r, "denial.rule"), rule);
	ITEST_EXPECT_STR(r, itest_rec(r, "denial.argv_index"), idx);
	ITEST_EXPECT_STR(r, itest_rec(r, "denial.token"), token);
	const char *hint = itest_rec(r, "denial.hint");
	cr_expect(strlen(hint) > 20 && strcmp(hint, "null") != 0, "no hint%s", itest_ctx(r));
}

/* The gate and the payload find a command through the same PATH rules. */
NSB_ITEST(gate_exec, relative_path_entry_is_judged_and_run_alike)
{
	struct itest_run r;

	make_project();
	/* the payload runs bin/mytool through the relative entry */
	GATE_RUN(&r, "--env", "PATH=bin:/usr/bin:/bin", "--", "mytool", "x");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "ran mytool x\n");
	itest_run_close(&r);

	/* and the gate sees the same file behind a name found there */
	GATE_RUN(&r, "--env", "PATH=bin:/usr/bin:/bin", "--", "zap", "notes.txt");
	expect_refused(&r, "exec.denylist", "0", "zap");
	itest_run_close(&r);
	GATE_RUN(&r, "--env", "PATH=bin:/usr/bin:/bin", "--", "nice", "zap", "notes.txt");
	expect_refused(&r, "exec.denylist", "1", "zap");
	itest_run_close(&r);
	cr_expect(exists("notes.txt"));
}

NSB_ITEST(gate_exec, path_set_by_env_on_the_command_line)
{
	struct itest_run r;

	make_project();
	GATE_RUN(&r, "--", "env", "PATH=bin", "zap", "notes.txt");
	expect_refused(&r, "exec.denylist", "2", "zap");
	itest_run_close(&r);
	/* an empty entry is the working directory, as execvp has it */
	cr_assert(symlink("bin/zap", itest_path(&itest_cur, "here")) == 0);
	cr_assert(lchown(itest_path(&itest_cur, "here"), itest_cur.uid, itest_cur.gid) == 0);
	GATE_RUN(&r, "--", "env", "PATH=:/usr/bin", "here", "notes.txt");
	expect_refused(&r, "exec.denylist", "2", "here");
	itest_run_close(&r);
	GATE_RUN(&r, "--", "env", "PATH=bin:/usr/bin:/bin", "mytool", "y");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "ran mytool y\n");
	itest_run_close(&r);
	cr_expect(exists("notes.txt"));
}

NSB_ITEST(gate_exec, a_name_linked_to_a_denied_file_is_denied)
{
	char real[PATH_MAX];
	struct itest_run r;

	if (!realpath("/usr/sbin/mkfs.ext4", real) || strcmp(real, "/usr/sbin/mke2fs") != 0)
		cr_skip_test("this host has no mkfs.ext4 -> mke2fs link");
	make_project();
	GATE_RUN(&r, "--rw", "out", "--", "mke2fs", "out/img");
	expect_refused(&r, "exec.denylist", "0", "mke2fs");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "reason"), "mkfs.");
	itest_run_close(&r);
	GATE_RUN(&r, "--rw", "out", "--allow-exec", "mke2fs", "--check", "--", "mke2fs", "out/img");
	ITEST_ASSERT_EXIT(&r, 0);
	itest_run_close(&r);
}

NSB_ITEST(gate_exec, destructive_modes_are_refused_and_nothing_goes)
{
	struct itest_run r;

	make_project();
	GATE_RUN(&r, "--rw", "out", "--", "find", "out", "-delete");
	expect_refused(&r, "exec.destructive_mode", "2", "-delete");
	itest_run_close(&r);
	GATE_RUN(&r, "--rw", "out", "--", "nice", "find", "out", "-name", "keep", "-delete");
	expect_refused(&r, "exec.destructive_mode", "5", "-delete");
	itest_run_close(&r);
	cr_expect(exists("out/keep"));
	/* the operator lifts it for find */
	GATE_RUN(&r, "--rw", "out", "--allow-exec", "find", "--", "find", "out", "-name", "keep",
		 "-delete");
	ITEST_ASSERT_EXIT(&r, 0);
	itest_run_close(&r);
	cr_expect(exists("out/keep") == false);
}

NSB_ITEST(gate_exec, wrappers_fed_from_input_are_judged_deeper)
{
	struct itest_run r;

	make_project();
	GATE_RUN(&r, "--", "find", ".", "-name", "notes.txt", "-exec", "env", "{}", ";");
	expect_refused(&r, "exec.wrapper", "6", "{}");
	itest_run_close(&r);
	GATE_RUN(&r, "--", "xargs", "timeout", "5");
	expect_refused(&r, "exec.wrapper", "1", "timeout");
	itest_run_close(&r);
	GATE_RUN(&r, "--", "env", "-S", "nice rm notes.txt");
	expect_refused(&r, "exec.denylist", "2", "nice rm notes.txt");
	itest_run_close(&r);
	cr_expect(exists("notes.txt"));
}

NSB_ITEST(gate_exec, operator_wrapper_line_is_followed)
{
	struct itest_run r;

	make_project();
	itest_write(&itest_cur, "out/p.policy", "wrapper mywrap skip=1 -q --level=\n");
	GATE_RUN(&r, "--policy", "out/p.policy", "--", "mywrap", "-q", "5", "rm", "notes.txt");
	expect_refused(&r, "exec.denylist", "3", "rm");
	itest_run_close(&r);
	GATE_RUN(&r, "--policy", "out/p.policy", "--", "mywrap", "-z", "5", "true");
	expect_refused(&r, "exec.wrapper", "1", "-z");
	itest_run_close(&r);
	GATE_RUN(&r, "--print-policy");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "\nwrapper timeout skip=1 ");
	ITEST_EXPECT_CONTAINS(&r, r.out, "\ndeny-mode find -delete\n");
	itest_run_close(&r);
}

NSB_ITEST(gate_exec, ordinary_wrapper_use_still_runs)
{
	struct itest_run r;

	make_project();
	GATE_RUN(&r, "--", "find", ".", "-name", "notes.txt", "-exec", "grep", "word", "{}", "+");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "a word here\n");
	itest_run_close(&r);
	GATE_RUN(&r, "--", "timeout", "10", "nice", "-n", "5", "grep", "-c", "word", "notes.txt");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "1\n");
	itest_run_close(&r);
	GATE_RUN(&r, "--", "xargs", "-a", "notes.txt", "echo", "got");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "got a word here\n");
	itest_run_close(&r);
	GATE_RUN(&r, "--", "env", "-S", "grep -c word", "notes.txt");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "1\n");
	itest_run_close(&r);
}
