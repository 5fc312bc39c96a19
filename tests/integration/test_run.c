// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run's own failures and warnings (run.c): a --seccomp-export file that
 * cannot be created fails the run as a setup failure, not a usage error, and
 * creates nothing; a profile that cannot be had is a usage error of the stage
 * "profile"; the --pids fallback warning gives the pids controller's
 * reason, not another limit's.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

Test(run, seccomp_export_to_an_unwritable_place_is_a_setup_failure, .timeout = 60,
     .fini = itest_project_fini)
{
	struct itest_run r;

	itest_project_setup(&itest_cur, false);
	itest_mkdir(&itest_cur, "out");
	ITEST_RUN(&r, "--seccomp-export", "/nonexistent-nsbox-dir/f.bpf", "--rw", "out", "--",
		  "./probe", "write", "out/ran");
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "setup_failed");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "setup_error.stage"), "seccomp");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "setup_error.message"), "--seccomp-export");
	ITEST_EXPECT_CONTAINS(&r, r.err, "nsbox: --seccomp-export '/nonexistent-nsbox-dir/f.bpf'");
	cr_expect(access(itest_path(&itest_cur, "out/ran"), F_OK) != 0, "the payload ran");
	itest_run_close(&r);
}

/*
 * The status follows the stage (nsb_stage_status): the seccomp profile's own
 * failures are the stage "profile" and a usage error, exporting "none" too;
 * "seccomp" is only ever a setup failure (above).
 */
Test(run, seccomp_profile_failures_are_usage_errors_of_stage_profile, .timeout = 60,
     .fini = itest_project_fini)
{
	struct itest_run r;

	itest_project_setup(&itest_cur, false);
	ITEST_RUN(&r, "--seccomp", "no-such-profile-nsbox", "--", "./probe", "write", "ran");
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "setup_error.stage"), "profile");
	itest_run_close(&r);

	ITEST_RUN(&r, "--seccomp", "none", "--seccomp-export", "f.bpf", "--", "./probe", "write",
		  "ran");
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "setup_error.stage"), "profile");
	ITEST_EXPECT_CONTAINS(&r, r.err, "nsbox: seccomp profile 'none' has no filter to export");
	itest_run_close(&r);
	cr_expect(access(itest_path(&itest_cur, "ran"), F_OK) != 0, "the payload ran");
}

/* The line of text that starts with prefix, up to its end (static storage). */
static const char *line_of(const char *text, const char *prefix)
{
	static char line[4096];
	const char *l = text ? strstr(text, prefix) : NULL;

	if (!l)
		return NULL;
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(l, "\n"), l);
	return line;
}

Test(run, pids_fallback_warning_names_the_pids_reason, .timeout = 60, .fini = itest_project_fini)
{
	struct itest_run r;
	const char *w;

	itest_require_user();
	itest_project_setup(&itest_cur, true);
	ITEST_RUN(&r, "--memory", "256M", "--pids", "64", "--", "./probe", "fork", "1");
	ITEST_EXPECT_EXIT(&r, 0);
	/* Decided from the host: only where the cgroup could not be had. */
	if (!itest_streq(itest_rec(&r, "enforced.limits.pids.via"), "rlimit")) {
		itest_run_close(&r);
		cr_skip_test("this host gives --pids a cgroup");
	}
	w = line_of(r.err, "nsbox: warning: --pids enforced by RLIMIT_NPROC");
	cr_assert(w != NULL, "no --pids warning%s", itest_ctx(&r));
	/* --memory's controller is named only as --memory's. */
	bool names_memory = strstr(w, "'memory'") != NULL;
	bool as_memorys = strstr(w, "--memory needs it") != NULL;
	bool fair = !names_memory || as_memorys;
	cr_expect(fair, "%s", w);
	itest_run_close(&r);
}
