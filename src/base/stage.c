// SPDX-License-Identifier: GPL-2.0-or-later
/* The names of the stages (stage.h), as the record spells them; any process. */
#include "base/macro.h"
#include "base/stage.h"

/* No pointer, no relocation (base/macro.h); an index left out reads "". */
static const char stage_names[NSB_STAGE_COUNT][16] = {
	[NSB_STAGE_NONE] = "",
	[NSB_STAGE_USAGE] = "usage",
	[NSB_STAGE_PLAN] = "plan",
	[NSB_STAGE_POLICY] = "policy",
	[NSB_STAGE_PROFILE] = "profile",
	[NSB_STAGE_LIMITS] = "limits",
	[NSB_STAGE_CGROUP] = "cgroup",
	[NSB_STAGE_GATE] = "gate",
	[NSB_STAGE_SECCOMP] = "seccomp",
	[NSB_STAGE_CLONE] = "clone",
	[NSB_STAGE_USERNS] = "userns",
	[NSB_STAGE_SUPERVISE] = "supervise",
	[NSB_STAGE_INIT] = "init",
	[NSB_STAGE_FDS] = "fds",
	[NSB_STAGE_SESSION] = "session",
	[NSB_STAGE_PTY] = "pty",
	[NSB_STAGE_MOUNT] = "mount",
	[NSB_STAGE_PIVOT_ROOT] = "pivot_root",
	[NSB_STAGE_CHDIR] = "chdir",
	[NSB_STAGE_NET] = "net",
	[NSB_STAGE_HOSTNAME] = "hostname",
	[NSB_STAGE_CAPS] = "caps",
	[NSB_STAGE_NO_NEW_PRIVS] = "no_new_privs",
	[NSB_STAGE_LANDLOCK] = "landlock",
	[NSB_STAGE_RESOLVE] = "resolve",
	[NSB_STAGE_EXEC] = "exec",
};

const char *nsb_stage_name(enum nsb_stage s)
{
	/* Unsigned: a negative value from a bad pipe read is out of range too. */
	if ((unsigned)s >= ARRAY_SIZE(stage_names))
		return "";
	return stage_names[s];
}

enum nsb_stage nsb_stage_valid(enum nsb_stage s, enum nsb_stage fallback)
{
	return (unsigned)s < NSB_STAGE_COUNT ? s : fallback;
}
