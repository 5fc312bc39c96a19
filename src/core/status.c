// SPDX-License-Identifier: GPL-2.0-or-later
/* status: how a run ended, as the record names it, and the status each error stage gives (pure; supervisor). */
#include "base/macro.h"
#include "core/result.h"

const char *nsb_status_name(enum nsb_status s)
{
	static const char *const names[] = {
		[NSB_STATUS_EXITED] = "exited",
		[NSB_STATUS_SIGNALED] = "signaled",
		[NSB_STATUS_TIMED_OUT] = "timed_out",
		[NSB_STATUS_OOM_KILLED] = "oom_killed",
		[NSB_STATUS_DENIED] = "denied",
		[NSB_STATUS_SETUP_FAILED] = "setup_failed",
		[NSB_STATUS_EXEC_FAILED] = "exec_failed",
		[NSB_STATUS_USAGE_ERROR] = "usage_error",
		[NSB_STATUS_NEEDS_APPROVAL] = "needs_approval",
	};

	if ((unsigned)s >= ARRAY_SIZE(names) || !names[s])
		return "unknown";
	return names[s];
}

enum nsb_status nsb_stage_status(enum nsb_stage s)
{
	/* Every stage is here (a unit test walks the enum): a missing one
	 * would read as NSB_STATUS_EXITED. */
	static const enum nsb_status status[NSB_STAGE_COUNT] = {
		[NSB_STAGE_NONE] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_USAGE] = NSB_STATUS_USAGE_ERROR,
		[NSB_STAGE_PLAN] = NSB_STATUS_USAGE_ERROR,
		[NSB_STAGE_POLICY] = NSB_STATUS_USAGE_ERROR,
		[NSB_STAGE_PROFILE] = NSB_STATUS_USAGE_ERROR,
		[NSB_STAGE_LIMITS] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_CGROUP] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_GATE] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_SECCOMP] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_CLONE] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_USERNS] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_SUPERVISE] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_INIT] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_FDS] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_SESSION] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_PTY] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_MOUNT] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_PIVOT_ROOT] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_CHDIR] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_NET] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_HOSTNAME] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_CAPS] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_NO_NEW_PRIVS] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_LANDLOCK] = NSB_STATUS_SETUP_FAILED,
		[NSB_STAGE_RESOLVE] = NSB_STATUS_EXEC_FAILED,
		[NSB_STAGE_EXEC] = NSB_STATUS_EXEC_FAILED,
	};

	if ((unsigned)s >= ARRAY_SIZE(status))
		return NSB_STATUS_SETUP_FAILED;
	return status[s];
}
