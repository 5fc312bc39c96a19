/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The stage of a failure: which step of a run went wrong.  It is the
 * record's setup_error.stage (its name, spelt as nsbox(1) lists it) and it
 * decides the run's status (nsb_stage_status in core/result.h): the
 * compiler checks every place that sets one.  Grouped by the status each
 * gives; the names never change, tests and callers read them.
 */
#pragma once

enum nsb_stage {
	NSB_STAGE_NONE = 0, /* no error set: the name is "" */

	/* usage_error: the options, files or profile the caller gave. */
	NSB_STAGE_USAGE,   /* "usage": an option, a path it names, stdio */
	NSB_STAGE_PLAN,	   /* "plan": the mount plan built from the options */
	NSB_STAGE_POLICY,  /* "policy": the gate policy file */
	NSB_STAGE_PROFILE, /* "profile": finding, reading or compiling a seccomp profile */

	/* setup_failed, in the supervisor: the host could not do what was asked. */
	NSB_STAGE_LIMITS,  /* "limits": no way to enforce a limit (also setrlimit in the payload) */
	NSB_STAGE_CGROUP,  /* "cgroup" */
	NSB_STAGE_GATE,	   /* "gate": the gate could not judge the command */
	NSB_STAGE_SECCOMP, /* "seccomp": writing --seccomp-export, installing the filter */
	NSB_STAGE_CLONE,   /* "clone" */
	NSB_STAGE_USERNS,  /* "userns": uid/gid maps, no usable user namespace */
	NSB_STAGE_SUPERVISE, /* "supervise": the supervisor's wait loop */

	/* setup_failed, in init or the payload before execve. */
	NSB_STAGE_INIT,		/* "init" */
	NSB_STAGE_FDS,		/* "fds" */
	NSB_STAGE_SESSION,	/* "session" */
	NSB_STAGE_PTY,		/* "pty" */
	NSB_STAGE_MOUNT,	/* "mount" */
	NSB_STAGE_PIVOT_ROOT,	/* "pivot_root" */
	NSB_STAGE_CHDIR,	/* "chdir" */
	NSB_STAGE_NET,		/* "net" */
	NSB_STAGE_HOSTNAME,	/* "hostname" */
	NSB_STAGE_CAPS,		/* "caps" */
	NSB_STAGE_NO_NEW_PRIVS, /* "no_new_privs" */
	NSB_STAGE_LANDLOCK, /* "landlock": --isolation landlock (also decided by the supervisor) */

	/* exec_failed: the command itself (exit 127 and 126). */
	NSB_STAGE_RESOLVE, /* "resolve": not found */
	NSB_STAGE_EXEC,	   /* "exec": found, not executable */

	NSB_STAGE_COUNT
};

/* The record's name of a stage; "" for NSB_STAGE_NONE and out of range. */
const char *nsb_stage_name(enum nsb_stage s);

/* s as received from another process: itself when in range, else fallback. */
enum nsb_stage nsb_stage_valid(enum nsb_stage s, enum nsb_stage fallback);
