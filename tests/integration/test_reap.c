// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nsbox leaves nothing behind for its caller to reap.  The test process is
 * made a child subreaper, as a container's first process or a harness with
 * PR_SET_CHILD_SUBREAPER is: a process of nsbox's that outlived it (its
 * init, exiting a moment after the supervisor) would be handed to the test
 * and wait there as a zombie, which a caller that never reaps strangers
 * (Python's subprocess, a harness as pid 1) keeps for ever: one pid lost
 * per run.  As root and as the unprivileged user.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "harness.h"

NSB_ITEST(reap, no_process_of_nsbox_is_left_to_the_caller)
{
	struct itest_run r;
	(void)as_user;

	cr_assert(prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
	for (int i = 0; i < 20; i++) {
		ITEST_RUN(&r, "--", "/bin/true");
		ITEST_ASSERT_EXIT(&r, 0);
		itest_run_close(&r);
		/* Right after nsbox's exit: whatever it left is ours now. */
		int st;
		pid_t left = waitpid(-1, &st, WNOHANG);
		cr_assert(left < 0 && errno == ECHILD,
			  "run %d left a process to the caller (waitpid: %d)", i + 1, (int)left);
	}
}
