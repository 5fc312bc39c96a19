// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bad input: each kind is refused with exit 125, nothing runs, and stderr
 * holds a short "nsbox: ..." message that names the offending value.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

/* Refused: 125, nothing ran (no marker written), a one- or two-line message
 * starting "nsbox: " that mentions `needle`. */
static void expect_refused(const struct itest_run *r, const char *needle)
{
	int lines = 0;

	ITEST_EXPECT_EXIT(r, 125);
	cr_expect(strncmp(r->err, "nsbox: ", 7) == 0, "message does not start with 'nsbox: '%s",
		  itest_ctx(r));
	for (const char *p = r->err; *p; p++)
		lines += *p == '\n';
	cr_expect(lines >= 1 && lines <= 2, "message is %d lines%s", lines, itest_ctx(r));
	if (needle)
		ITEST_EXPECT_CONTAINS(r, r->err, needle);
	ITEST_EXPECT_STR(r, r->out, "");
}

NSB_ITEST(errors, missing_bind_source)
{
	struct itest_run r;

	ITEST_RUN(&r, "--ro", "no-such-input", "--", "./probe", "exit", "0");
	expect_refused(&r, "no-such-input");
	itest_run_close(&r);
	ITEST_RUN(&r, "--rw", "/nsbox-itest/absent", "--", "./probe", "exit", "0");
	expect_refused(&r, "/nsbox-itest/absent");
	itest_run_close(&r);
}

NSB_ITEST(errors, unknown_option_and_missing_command)
{
	struct itest_run r;

	ITEST_RUN(&r, "--frobnicate", "--", "./probe", "exit", "0");
	expect_refused(&r, "--frobnicate");
	itest_run_close(&r);
	ITEST_RUN(&r, "--ro");
	expect_refused(&r, "--ro");
	itest_run_close(&r);
	ITEST_RUN(&r, "--hostname", "x");
	expect_refused(&r, NULL);
	itest_run_close(&r);
}

NSB_ITEST(errors, bad_result_fd)
{
	struct itest_run r;
	struct itest_opts raw = {.raw_argv = true, .no_record = true};
	struct itest_opts leak = {.raw_argv = true, .no_record = true, .leak_fd = 5};

	/* Not a number, not open, one of the command's own fds. */
	itest_run(&itest_cur, &raw,
		  ITEST_ARGV("--result-fd", "three", "--", "./probe", "exit", "0"), &r);
	expect_refused(&r, "three");
	itest_run_close(&r);
	itest_run(&itest_cur, &raw, ITEST_ARGV("--result-fd", "9", "--", "./probe", "exit", "0"),
		  &r);
	expect_refused(&r, "9");
	itest_run_close(&r);
	itest_run(&itest_cur, &raw, ITEST_ARGV("--result-fd", "1", "--", "./probe", "exit", "0"),
		  &r);
	expect_refused(&r, "1");
	itest_run_close(&r);
	itest_run(&itest_cur, &raw, ITEST_ARGV("--result-fd", "-4", "--", "./probe", "exit", "0"),
		  &r);
	expect_refused(&r, "-4");
	itest_run_close(&r);
	/* Open, but only for reading (a directory). */
	itest_run(&itest_cur, &leak, ITEST_ARGV("--result-fd", "5", "--", "./probe", "exit", "0"),
		  &r);
	expect_refused(&r, "5");
	itest_run_close(&r);
}

NSB_ITEST(errors, relative_or_unclean_destination)
{
	struct itest_run r;

	itest_mkdir(&itest_cur, "input");
	ITEST_RUN(&r, "--ro", "input:rel/dest", "--", "./probe", "exit", "0");
	expect_refused(&r, "rel/dest");
	itest_run_close(&r);
	ITEST_RUN(&r, "--ro", "input:/a/../etc", "--", "./probe", "exit", "0");
	expect_refused(&r, "/a/../etc");
	itest_run_close(&r);
	ITEST_RUN(&r, "--tmpfs", "relative", "--", "./probe", "exit", "0");
	expect_refused(&r, "relative");
	itest_run_close(&r);
	ITEST_RUN(&r, "--tmpfs", "/scratch:lots", "--", "./probe", "exit", "0");
	expect_refused(&r, "lots");
	itest_run_close(&r);
}

NSB_ITEST(errors, symlinked_destination_is_refused)
{
	struct itest_run r;
	char outside[512], link[512], escaped[600];

	/* The project holds a symlink pointing out of it, to a host directory
	 * that the sandbox does not show. */
	itest_mkdir(&itest_cur, "input");
	snprintf(outside, sizeof(outside), "%s/outside", itest_cur.top);
	cr_assert(mkdir(outside, 0777) == 0);
	snprintf(link, sizeof(link), "%s", itest_path(&itest_cur, "to-outside"));
	cr_assert(symlink(outside, link) == 0);
	cr_assert(lchown(link, itest_cur.uid, itest_cur.gid) == 0);

	char spec[700];
	snprintf(spec, sizeof(spec), "input:%s", link);
	ITEST_RUN(&r, "--ro", spec, "--", "./probe", "exit", "0");
	expect_refused(&r, link);
	itest_run_close(&r);

	/* The same after a bind beside it (the walk then keeps the project's
	 * directory, and the next destination there is tried with mkdir
	 * first, which fails on the link and leaves it to the walk). */
	itest_mkdir(&itest_cur, "slot");
	char spec2[700];
	snprintf(spec2, sizeof(spec2), "input:%s", itest_path(&itest_cur, "slot"));
	snprintf(spec, sizeof(spec), "input:%s", link);
	ITEST_RUN(&r, "--ro", spec2, "--ro", spec, "--", "./probe", "exit", "0");
	expect_refused(&r, link);
	itest_run_close(&r);

	/* Through the link into a new directory: must never create it on the host. */
	snprintf(spec, sizeof(spec), "input:%s/made-by-nsbox", link);
	snprintf(escaped, sizeof(escaped), "%s/made-by-nsbox", outside);
	ITEST_RUN(&r, "--ro", spec, "--", "./probe", "exit", "0");
	cr_expect(access(escaped, F_OK) != 0, "nsbox followed a symlink out to the host%s",
		  itest_ctx(&r));
	ITEST_EXPECT_NE_STR(&r, itest_rec(&r, "status"), "exited");
	itest_run_close(&r);
}

NSB_ITEST(errors, too_many_mounts)
{
	struct itest_run r;
	static char names[4097][32];
	static const char *argv[4097 * 2 + 8];
	size_t n = 0;

	for (int i = 0; i < 4097; i++) {
		snprintf(names[i], sizeof(names[i]), "/m%d", i);
		argv[n++] = "--tmpfs";
		argv[n++] = names[i];
	}
	argv[n++] = "--";
	argv[n++] = "./probe";
	argv[n++] = "exit";
	argv[n++] = "0";
	argv[n] = NULL;
	itest_run(&itest_cur, NULL, argv, &r);
	expect_refused(&r, "at most 4096");
	itest_run_close(&r);

	/* 4096 is still fine. */
	itest_run(&itest_cur, NULL, argv + 2, &r);
	ITEST_EXPECT_EXIT(&r, 0);
	itest_run_close(&r);
}

NSB_ITEST(errors, argv_larger_than_1_mib)
{
	struct itest_run r;
	const char *argv[32];
	size_t n = 0, chunk = 64 * 1024;
	char *big = malloc(chunk);

	cr_assert(big != NULL);
	memset(big, 'a', chunk - 1);
	big[chunk - 1] = '\0';
	argv[n++] = "--";
	argv[n++] = "./probe";
	argv[n++] = "exit";
	argv[n++] = "0";
	for (int i = 0; i < 17; i++) /* 17 * 64 KiB > 1 MiB */
		argv[n++] = big;
	argv[n] = NULL;
	itest_run(&itest_cur, NULL, argv, &r);
	expect_refused(&r, NULL);
	itest_run_close(&r);
	free(big);
}

NSB_ITEST(errors, root_or_home_as_project_is_refused)
{
	struct itest_run r;
	struct itest_opts at_root = {.cwd = "/"};
	struct itest_opts at_home = {.home = itest_cur.dir};

	itest_run(&itest_cur, &at_root, ITEST_ARGV("--", "/bin/true"), &r);
	expect_refused(&r, "--project");
	itest_run_close(&r);

	itest_run(&itest_cur, &at_home, ITEST_ARGV("--", "/bin/true"), &r);
	expect_refused(&r, itest_cur.dir);
	itest_run_close(&r);
}

Test(errors, help_and_version_succeed, .timeout = 30, .fini = itest_project_fini)
{
	struct itest_run r;
	struct itest_opts raw = {.raw_argv = true, .no_record = true};

	itest_project_setup(&itest_cur, false);
	itest_run(&itest_cur, &raw, ITEST_ARGV("--version"), &r);
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "0.1.0");
	itest_run_close(&r);
	itest_run(&itest_cur, &raw, ITEST_ARGV("--help"), &r);
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "--ro");
	itest_run_close(&r);
}
