// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stages of a failure (base/stage.h) and the status each gives
 * (nsb_stage_status): every stage has a unique name that fits the record and
 * one status; the names are the record's, frozen; the error setter keeps the
 * stage it is given; and the seccomp failures that were usage errors carry
 * the stage "profile" (a usage error), so that "seccomp" is always a setup
 * failure.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <criterion/redirect.h>

#include "base/error.h"
#include "core/result.h"
#include "seccomp/filter.h"
#include "unit.h"

Test(stage, every_stage_has_a_unique_name_that_fits_and_a_status)
{
	for (int s = NSB_STAGE_NONE + 1; s < NSB_STAGE_COUNT; s++) {
		const char *name = nsb_stage_name((enum nsb_stage)s);
		enum nsb_status st = nsb_stage_status((enum nsb_stage)s);

		cr_expect(name[0] != '\0', "stage %d has no name", s);
		cr_expect(strlen(name) < NSB_ERR_STAGE_MAX, "stage '%s' is too long", name);
		cr_expect(st == NSB_STATUS_USAGE_ERROR || st == NSB_STATUS_SETUP_FAILED ||
				  st == NSB_STATUS_EXEC_FAILED,
			  "stage '%s' has no status (%s)", name, nsb_status_name(st));
		for (int t = NSB_STAGE_NONE + 1; t < s; t++)
			cr_expect(strcmp(name, nsb_stage_name((enum nsb_stage)t)) != 0,
				  "stages %d and %d are both '%s'", t, s, name);
	}
}

Test(stage, no_stage_and_out_of_range_are_empty_and_setup_failures)
{
	expect_str(nsb_stage_name(NSB_STAGE_NONE), "");
	expect_str(nsb_stage_name((enum nsb_stage)NSB_STAGE_COUNT), "");
	expect_str(nsb_stage_name((enum nsb_stage) - 1), "");
	cr_expect(eq(int, nsb_stage_status(NSB_STAGE_NONE), NSB_STATUS_SETUP_FAILED));
	cr_expect(eq(int, nsb_stage_status((enum nsb_stage)NSB_STAGE_COUNT),
		     NSB_STATUS_SETUP_FAILED));
	cr_expect(eq(int, nsb_stage_valid((enum nsb_stage) - 1, NSB_STAGE_INIT), NSB_STAGE_INIT));
	cr_expect(eq(int, nsb_stage_valid(NSB_STAGE_MOUNT, NSB_STAGE_INIT), NSB_STAGE_MOUNT));
}

/* The record's spelling and status of every stage, as nsbox(1) lists them. */
Test(stage, names_and_statuses_are_the_documented_ones)
{
	static const struct {
		enum nsb_stage stage;
		const char *name;
		enum nsb_status status;
	} want[] = {
		{NSB_STAGE_USAGE, "usage", NSB_STATUS_USAGE_ERROR},
		{NSB_STAGE_PLAN, "plan", NSB_STATUS_USAGE_ERROR},
		{NSB_STAGE_POLICY, "policy", NSB_STATUS_USAGE_ERROR},
		{NSB_STAGE_PROFILE, "profile", NSB_STATUS_USAGE_ERROR},
		{NSB_STAGE_LIMITS, "limits", NSB_STATUS_SETUP_FAILED},
		{NSB_STAGE_CGROUP, "cgroup", NSB_STATUS_SETUP_FAILED},
		{NSB_STAGE_GATE, "gate", NSB_STATUS_SETUP_FAILED},
		{NSB_STAGE_SECCOMP, "seccomp", NSB_STATUS_SETUP_FAILED},
		{NSB_STAGE_CLONE, "clone", NSB_STATUS_SETUP_FAILED},
		{NSB_STAGE_USERNS, "userns", NSB_STATUS_SETUP_FAILED},
		{NSB_STAGE_SUPERVISE, "supervise", NSB_STATUS_SETUP_FAILED},
		{NSB_STAGE_INIT, "init", NSB_STATUS_SETUP_FAILED},
		{NSB_STAGE_FDS, "fds", NSB_STATUS_SETUP_FAILED},
		{NSB_STAGE_SESSION, "session", NSB_STATUS_SETUP_FAILED},
		{NSB_STAGE_PTY, "pty", NSB_STATUS_SETUP_FAILED},
		{NSB_STAGE_MOUNT, "mount", NSB_STATUS_SETUP_FAILED},
		{NSB_STAGE_PIVOT_ROOT, "pivot_root", NSB_STATUS_SETUP_FAILED},
		{NSB_STAGE_CHDIR, "chdir", NSB_STATUS_SETUP_FAILED},
		{NSB_STAGE_NET, "net", NSB_STATUS_SETUP_FAILED},
		{NSB_STAGE_HOSTNAME, "hostname", NSB_STATUS_SETUP_FAILED},
		{NSB_STAGE_CAPS, "caps", NSB_STATUS_SETUP_FAILED},
		{NSB_STAGE_NO_NEW_PRIVS, "no_new_privs", NSB_STATUS_SETUP_FAILED},
		{NSB_STAGE_LANDLOCK, "landlock", NSB_STATUS_SETUP_FAILED},
		{NSB_STAGE_RESOLVE, "resolve", NSB_STATUS_EXEC_FAILED},
		{NSB_STAGE_EXEC, "exec", NSB_STATUS_EXEC_FAILED},
	};

	cr_assert(eq(sz, sizeof(want) / sizeof(want[0]), (size_t)NSB_STAGE_COUNT - 1),
		  "a stage was added or removed: list it here and in nsbox(1)");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		expect_str(nsb_stage_name(want[i].stage), want[i].name);
		cr_expect(eq(int, nsb_stage_status(want[i].stage), want[i].status), "%s",
			  want[i].name);
	}
}

Test(stage, the_setter_keeps_the_stage_and_takes_a_negative_errno)
{
	struct nsb_error e = {0};

	cr_expect(eq(int, nsb_error_setx(&e, -ENOENT, NSB_STAGE_PIVOT_ROOT, "x"), -ENOENT));
	cr_expect(eq(int, e.stage, NSB_STAGE_PIVOT_ROOT));
	cr_expect(eq(int, e.err, ENOENT));
	cr_expect(eq(int, nsb_error_setx(&e, 0, NSB_STAGE_NET, "y"), -EIO));
	cr_expect(eq(int, e.err, EIO));
	cr_expect(eq(int, nsb_error_set(NULL, -EPERM, NSB_STAGE_NET, "z"), -EPERM));
}

/* A positive errno is a call site that was not converted: it must not pass. */
Test(stage, the_setter_refuses_a_positive_errno, .signal = SIGABRT, .init = cr_redirect_stderr)
{
	struct nsb_error e = {0};

	nsb_error_setx(&e, EPERM, NSB_STAGE_NET, "positive");
}

/*
 * The record changes of the stage table: these failures were usage errors
 * with the stage "seccomp"; they are now "profile", the usage-error stage of
 * the seccomp profile, while "seccomp" is only a setup failure (the
 * --seccomp-export file, installing the filter).
 */
Test(stage, seccomp_usage_errors_are_the_profile_stage)
{
	struct nsb_bpf b = {0};
	struct nsb_error e = {0};

	/* A profile that is not there (was "seccomp"). */
	cr_expect(nsb_seccomp_load("no-such-profile-nsbox-test", &b, &e) < 0);
	expect_str(nsb_stage_name(e.stage), "profile");
	cr_expect(eq(int, nsb_stage_status(e.stage), NSB_STATUS_USAGE_ERROR));

	/* A name that cannot be a profile (was "seccomp"). */
	cr_expect(nsb_seccomp_load("bad name", &b, &e) < 0);
	cr_expect(eq(int, e.stage, NSB_STAGE_PROFILE), "%s", e.message);

	/* --seccomp-export of "none": nothing to export (was "seccomp"). */
	cr_assert(eq(int, nsb_seccomp_load("none", &b, &e), 0));
	cr_expect(nsb_seccomp_export(&b, 1, &e) < 0);
	cr_expect(eq(int, e.stage, NSB_STAGE_PROFILE), "%s", e.message);
	cr_expect(eq(int, nsb_stage_status(e.stage), NSB_STATUS_USAGE_ERROR));
	nsb_bpf_free(&b);
}

Test(stage, writing_the_seccomp_export_is_a_setup_failure)
{
	struct nsb_bpf b = {0};
	struct nsb_error e = {0};
	int p[2];

	cr_assert(eq(int, nsb_seccomp_load("default", &b, &e), 0), "%s", e.message);
	cr_assert(eq(int, pipe(p), 0));
	/* The read end: write(2) fails with EBADF. */
	cr_expect(eq(int, nsb_seccomp_export(&b, p[0], &e), -EBADF));
	expect_str(nsb_stage_name(e.stage), "seccomp");
	cr_expect(eq(int, nsb_stage_status(e.stage), NSB_STATUS_SETUP_FAILED));
	close(p[0]);
	close(p[1]);
	nsb_bpf_free(&b);
}
