// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nsb_supervise_outcome(): how the supervisor's facts at the end of a run
 * (setup error, deadline, the payload's and init's wait statuses) become the
 * record's status, exit code, signal and reason.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include <criterion/criterion.h>
#include <criterion/new/assert.h>

#include "sandbox/init.h"
#include "supervisor/supervise.h"

/* Criterion's eq(str, ...) takes char *; -Wwrite-strings makes literals const. */
#pragma GCC diagnostic ignored "-Wdiscarded-qualifiers"

/* Wait statuses as the kernel encodes them (W_EXITCODE, W_STOPCODE aside). */
#define EXITED(n)   ((n) << 8)
#define KILLED(sig) (sig)

static struct nsb_result res;

static void outcome(const struct nsb_wait_facts *f)
{
	memset(&res, 0, sizeof(res));
	nsb_supervise_outcome(f, &res);
}

Test(supervise, payload_exit_code_passes_through)
{
	outcome(&(struct nsb_wait_facts){
		.have_payload = true, .payload_status = EXITED(3), .init_status = EXITED(3)});
	cr_expect(eq(int, res.status, NSB_STATUS_EXITED));
	cr_expect(eq(int, res.exit_code_set, true));
	cr_expect(eq(int, res.exit_code, 3));
	cr_expect(eq(int, res.signal, 0));
	cr_expect(res.reason == NULL);
	cr_expect(eq(int, res.has_setup_error, false));
}

Test(supervise, payload_killed_by_a_signal)
{
	outcome(&(struct nsb_wait_facts){.have_payload = true,
					 .payload_status = KILLED(SIGSEGV),
					 .init_status = EXITED(128 + SIGSEGV)});
	cr_expect(eq(int, res.status, NSB_STATUS_SIGNALED));
	cr_expect(eq(int, res.exit_code_set, false));
	cr_expect(eq(int, res.signal, SIGSEGV));
}

Test(supervise, setup_error_wins_and_is_terminated)
{
	struct nsb_error ce;

	memset(&ce, 'x', sizeof(ce));
	ce.stage = NSB_STAGE_MOUNT;
	outcome(&(struct nsb_wait_facts){.setup_error = &ce,
					 .timed_out = true,
					 .have_payload = true,
					 .payload_status = EXITED(0)});
	cr_expect(eq(int, res.status, NSB_STATUS_SETUP_FAILED));
	cr_expect(eq(int, res.has_setup_error, true));
	cr_expect(eq(str, nsb_stage_name(res.setup_error.stage), "mount"));
	cr_expect(eq(sz, strlen(res.setup_error.message), sizeof(ce.message) - 1));
	cr_expect(eq(sz, strlen(res.setup_error.hint), sizeof(ce.hint) - 1));
	cr_expect(eq(int, res.timed_out, false));
}

Test(supervise, resolve_and_exec_stages_are_exec_failures)
{
	static const enum nsb_stage stages[] = {NSB_STAGE_RESOLVE, NSB_STAGE_EXEC};

	for (size_t i = 0; i < 2; i++) {
		struct nsb_error ce;

		memset(&ce, 0, sizeof(ce));
		ce.stage = stages[i];
		ce.err = ENOENT;
		outcome(&(struct nsb_wait_facts){.setup_error = &ce});
		cr_expect(eq(int, res.status, NSB_STATUS_EXEC_FAILED), "stage %s",
			  nsb_stage_name(stages[i]));
		cr_expect(eq(int, res.setup_error.err, ENOENT));
	}
}

Test(supervise, timeout_stopped_by_sigterm)
{
	outcome(&(struct nsb_wait_facts){.timed_out = true,
					 .have_payload = true,
					 .payload_status = KILLED(SIGTERM),
					 .init_status = EXITED(128 + SIGTERM)});
	cr_expect(eq(int, res.status, NSB_STATUS_TIMED_OUT));
	cr_expect(eq(int, res.timed_out, true));
	cr_expect(eq(int, res.exit_code_set, true));
	cr_expect(eq(int, res.exit_code, NSB_EXIT_CODE_TIMED_OUT));
	cr_expect(eq(int, res.signal, SIGTERM));
	cr_expect(eq(str, res.reason, "wall-clock timeout: stopped by SIGTERM"));
}

Test(supervise, timeout_that_needed_sigkill_says_so)
{
	/* init itself was killed: its status names the signal. */
	outcome(&(struct nsb_wait_facts){
		.timed_out = true, .killed = true, .init_status = KILLED(SIGKILL)});
	cr_expect(eq(int, res.status, NSB_STATUS_TIMED_OUT));
	cr_expect(eq(int, res.signal, SIGKILL));
	cr_expect(eq(str, res.reason,
		     "wall-clock timeout: SIGTERM, then SIGKILL after the grace period"));
}

Test(supervise, timeout_after_a_clean_exit_has_no_signal)
{
	outcome(&(struct nsb_wait_facts){.timed_out = true,
					 .have_payload = true,
					 .payload_status = EXITED(0),
					 .init_status = EXITED(0)});
	cr_expect(eq(int, res.status, NSB_STATUS_TIMED_OUT));
	cr_expect(eq(int, res.signal, 0));
}

Test(supervise, init_killed_from_outside)
{
	outcome(&(struct nsb_wait_facts){.init_status = KILLED(SIGKILL)});
	cr_expect(eq(int, res.status, NSB_STATUS_SIGNALED));
	cr_expect(eq(int, res.signal, SIGKILL));
	cr_expect(eq(str, res.reason,
		     "the sandbox's init was killed; every process inside died with it"));
}

Test(supervise, init_exiting_without_a_report_is_a_setup_failure)
{
	outcome(&(struct nsb_wait_facts){.init_status = EXITED(7)});
	cr_expect(eq(int, res.status, NSB_STATUS_SETUP_FAILED));
	cr_expect(eq(int, res.has_setup_error, true));
	cr_expect(eq(int, res.setup_error.err, EPROTO));
	cr_expect(eq(str, nsb_stage_name(res.setup_error.stage), "init"));
	cr_expect(eq(str, res.setup_error.message,
		     "the sandbox's init exited with status 7 before reporting"));
}
