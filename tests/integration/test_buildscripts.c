// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The deny list judges the command a model asks for, not what that command
 * runs (issue 12, section 1): a configure-style script and a Makefile's
 * clean target call rm -f, rm -rf and chmod internally, and they run to the
 * end under the default policy (the gate as a user gets it) and the default
 * seccomp profile, while the same rm asked for directly is still refused.
 * Judged from the host: which files exist afterwards and their modes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

/* Under /var/tmp like test_gate.c: the gate judges /tmp paths lexically. */
__attribute__((constructor)) static void build_tmpdir(void)
{
	setenv("NSBOX_ITEST_TMPDIR", "/var/tmp", 1);
}

/* The gate exactly as a user gets it; the whole project writable, as agents
 * are often given it (the default project bind is read-only). */
static const struct itest_opts gate_opts = {.gate = true};

#define BUILD_RUN(r, ...)                                                                     \
	itest_run(&itest_cur, &gate_opts,                                                     \
		  ITEST_ARGV("--no-project", "--rw", itest_cur.dir, "--chdir", itest_cur.dir, \
			     __VA_ARGS__),                                                    \
		  (r))

/*
 * What autoconf's output does between its probes: remove the previous run's
 * leftovers, compile-test files and the cache, write and chmod
 * config.status, run it, and tidy up.
 */
static const char configure_sh[] =
	"#!/bin/sh\n"
	"set -e\n"
	"rm -f conftest conftest.c conftest.o config.log config.mk\n"
	"rm -rf autom4te.cache\n"
	": >config.log\n"
	"mkdir -p autom4te.cache\n"
	"echo 'int main(void) { return 0; }' >conftest.c\n"
	"cp conftest.c conftest\n"
	"chmod 755 conftest\n"
	"printf '#!/bin/sh\\necho PREFIX=/usr/local >config.mk\\n' >config.status\n"
	"chmod +x config.status\n"
	"./config.status\n"
	"chmod 0600 config.log\n"
	"rm -f conftest conftest.c\n"
	"rm -rf autom4te.cache\n"
	"echo configured\n";

/* A build that marks its output executable, and a clean that forces its
 * way through a read-only file and directory, as generated Makefiles do. */
static const char makefile[] = "all: out/app\n"
			       "out/app: src/app.sh\n"
			       "\tmkdir -p out/obj\n"
			       "\tcp src/app.sh out/app\n"
			       "\tchmod 0755 out/app\n"
			       "\techo o >out/obj/a.o\n"
			       "\tchmod a-w out/obj/a.o out/obj\n"
			       "clean:\n"
			       "\tchmod -R u+w out\n"
			       "\trm -f out/app out/obj/*.o\n"
			       "\trm -rf out\n"
			       "\t@echo cleaned\n"
			       ".PHONY: all clean\n";

static bool exists(const char *rel)
{
	struct stat st;

	return lstat(itest_path(&itest_cur, rel), &st) == 0;
}

static bool gone(const char *rel)
{
	return !exists(rel);
}

static mode_t mode_of(const char *rel)
{
	struct stat st;

	cr_assert(stat(itest_path(&itest_cur, rel), &st) == 0, "stat '%s': %s", rel,
		  strerror(errno));
	return st.st_mode & 07777;
}

static void expect_default_profile(const struct itest_run *r)
{
	ITEST_EXPECT_STR(r, itest_rec(r, "status"), "exited");
	ITEST_EXPECT_STR(r, itest_rec(r, "denied"), "false");
	ITEST_EXPECT_STR(r, itest_rec(r, "enforced.seccomp.profile"), "default");
	ITEST_EXPECT_STR(r, itest_rec(r, "violations"), "[]");
}

NSB_ITEST(buildscripts, configure_script_runs_its_rm_and_chmod)
{
	struct itest_run r;

	itest_write(&itest_cur, "configure", configure_sh);
	cr_assert(chmod(itest_path(&itest_cur, "configure"), 0755) == 0);
	/* Leftovers of an earlier run, which the script removes. */
	itest_write(&itest_cur, "config.log", "old\n");
	itest_write(&itest_cur, "conftest.o", "old\n");

	BUILD_RUN(&r, "--", "./configure");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "configured\n");
	expect_default_profile(&r);
	itest_run_close(&r);

	cr_expect(gone("conftest"), "rm -f left conftest");
	cr_expect(gone("conftest.c"), "rm -f left conftest.c");
	cr_expect(gone("conftest.o"), "rm -f left conftest.o");
	cr_expect(gone("autom4te.cache"), "rm -rf left the cache");
	cr_expect(eq(u32, mode_of("config.status") & 0111, 0111), "chmod +x");
	cr_expect(eq(u32, mode_of("config.log"), 0600), "chmod 0600");
	char *mk = itest_slurp(itest_path(&itest_cur, "config.mk"));
	cr_assert(mk != NULL, "config.status did not run");
	cr_expect(itest_streq(mk, "PREFIX=/usr/local\n"), "config.mk is '%s'", mk);
	free(mk);
}

NSB_ITEST(buildscripts, make_clean_runs_its_rm_and_chmod)
{
	struct itest_run r;

	itest_write(&itest_cur, "Makefile", makefile);
	itest_mkdir(&itest_cur, "src");
	itest_write(&itest_cur, "src/app.sh", "#!/bin/sh\necho app\n");

	BUILD_RUN(&r, "--", "make");
	ITEST_ASSERT_EXIT(&r, 0);
	expect_default_profile(&r);
	itest_run_close(&r);
	cr_expect(eq(u32, mode_of("out/app"), 0755), "chmod 0755 in the build");
	cr_expect(eq(u32, mode_of("out/obj") & 0222, 0), "chmod a-w on the directory");

	BUILD_RUN(&r, "--", "make", "clean");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "cleaned\n");
	expect_default_profile(&r);
	itest_run_close(&r);
	cr_expect(gone("out"), "make clean left out/ behind");
	cr_expect(exists("src/app.sh") && exists("Makefile"), "clean removed a source");
}

/* The deny list still judges what is asked for: the same rm, directly. */
NSB_ITEST(buildscripts, rm_asked_for_directly_is_still_refused)
{
	struct itest_run r;

	itest_write(&itest_cur, "config.log", "keep\n");
	BUILD_RUN(&r, "--", "rm", "-f", "config.log");
	ITEST_ASSERT_EXIT(&r, 123);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "denial.rule"), "exec.denylist");
	itest_run_close(&r);
	cr_expect(exists("config.log"), "a refused rm removed the file");
}
