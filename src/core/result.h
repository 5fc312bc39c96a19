/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The result record (DESIGN.md section 5): one line of JSON, written once by the
 * supervisor.  struct nsb_result is plain data; result.c turns it into JSON
 * (pure) and writes it to an fd.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/errname.h"
#include "base/error.h"
#include "core/namespaces.h"
#include "core/netpolicy.h"
#include "core/protect.h"

#define NSB_RECORD_SCHEMA 1

struct nsb_overlay_result;

/* Sentinels for exit_code (DESIGN section 5). */
#define NSB_EXIT_CODE_DENIED	(-100)
#define NSB_EXIT_CODE_TIMED_OUT (-101)

/* At most this many entries in "warnings" (stderr still gets every line). */
#define NSB_RESULT_MAX_WARNINGS 16

enum nsb_status {
	NSB_STATUS_EXITED,
	NSB_STATUS_SIGNALED,
	NSB_STATUS_TIMED_OUT,
	NSB_STATUS_OOM_KILLED,
	NSB_STATUS_DENIED,
	NSB_STATUS_SETUP_FAILED,
	NSB_STATUS_EXEC_FAILED,
	NSB_STATUS_USAGE_ERROR,
	NSB_STATUS_NEEDS_APPROVAL, /* an ask rule held the command (issue 17) */
};

struct nsb_denial {
	const char *stage; /* "gate" */
	const char *rule;  /* stable rule id, e.g. "exec.denylist" */
	int argv_index;	   /* index into the command's argv, -1 when none */
	const char *token;
	const char *resolved; /* resolved path for path rules, else NULL */
	const char *hint;
	const char *metachar; /* the gate's shell.metachar mode: "syntax", "strict", "off" */
};

struct nsb_enforced {
	unsigned namespaces; /* NSB_NS_* bits */
	bool caps_dropped;
	bool no_new_privs;
	/* seccomp: NULL profile means no filter was loaded (field is null). */
	const char *seccomp_profile;
	const char *seccomp_sha256;
	const char *seccomp_default_action;
	/* the profile's unmapped-ids action ("errno EPERM"); NULL: no such filter */
	const char *seccomp_unmapped_ids;
	const char *hostname;
	bool share_net;
	const char *mount_api; /* "new" (open_tree/mount_setattr) or "legacy" */
	/* The system view's /etc files: "snapshot" (one bind of the cache's
	 * copy, supervisor/etc_snapshot.h) or "binds"; NULL: no mounts. */
	const char *etc;

	/* limits: a "via" of NULL means the limit was not asked for. */
	uint64_t memory_bytes;
	const char *memory_via; /* "cgroup" | "rlimit" */
	uint64_t pids_max;
	const char *pids_via;
	bool pids_default;	 /* the limit is nsbox's default, not asked for */
	const char *pids_reason; /* why no pids limit is enforced (then pids_via is NULL) */
	uint64_t cpus_milli;
	uint64_t cpu_quota_us, cpu_period_us;
	const char *cpus_via;
	uint64_t timeout_ms, kill_after_ms; /* timeout_ms 0: none */
	bool has_max_output;
	uint64_t max_output;
	bool capture;
	uint64_t tmp_size;

	/* stdio: what fds 0-2 were inside ("inherited", "pipe", "pty",
	 * "reopened", "closed"), and whether a pty was allocated. */
	bool has_stdio;
	bool stdio_pty;
	const char *stdio[3];

	const char *cgroup_path;      /* NULL: no cgroup */
	const char *cgroup_placement; /* "clone3" (CLONE_INTO_CGROUP) or "join" */

	/* Protected paths and secret masks (supervisor/protect_scan.c):
	 * "protected" and "masked", each null when switched off. */
	bool has_covers;
	bool protect_on, mask_on;
	bool covers_truncated; /* the scan's bound was reached */
	size_t covers_entries; /* directory entries the scan read */
	size_t n_protected, n_masked;
	const char *protected_paths[NSB_RECORD_MAX_COVER_PATHS]; /* the first ones */
	const char *masked_paths[NSB_RECORD_MAX_COVER_PATHS];

	/* --isolation: "namespaces" or "landlock" (NULL: not recorded); for
	 * landlock, what Landlock enforced ("missing" lists the namespaces). */
	const char *isolation;
	int landlock_abi;
	bool landlock_net_tcp;	     /* TCP bind and connect refused by Landlock */
	bool landlock_socket_filter; /* socket() refused but for AF_UNIX (seccomp) */
	uint64_t landlock_scoped;    /* NSB_LL_SCOPE_* */
	/* Proxy mode: "network" is an object (mode, port, allow, deny, ranges)
	 * instead of "none"/"host".  NULL: not proxy mode. */
	const struct nsb_net_policy *net_policy;
	/* --overlay: each overlay's bound and what enforced it: "tmpfs" (the
	 * kernel, ENOSPC) or "watch" (--overlay-store: the supervisor's kill).
	 * NULL: no overlay. */
	uint64_t overlay_size;
	const char *overlay_via;
};

/* A syscall the seccomp filter refused and reported (supervisor/notify.h):
 * one per syscall and action, with its first occurrence. */
#define NSB_RESULT_MAX_SECCOMP 256
struct nsb_seccomp_violation {
	char syscall[32]; /* "mount"; "?" when libseccomp has no name */
	int nr;
	char action[48]; /* "errno EPERM" */
	uint64_t count;
	/* The first call: pid and comm as seen inside the sandbox (pid -1 and
	 * comm "" when the caller was gone before they could be read), its
	 * six arguments, milliseconds since the supervisor started waiting. */
	int pid;
	char comm[16];
	uint64_t args[6];
	int64_t ms;
};

struct nsb_result {
	enum nsb_status status;
	bool exit_code_set; /* false: "exit_code": null */
	int exit_code;
	int signal; /* 0: null */
	bool timed_out;
	bool oom_killed;
	bool denied;
	const char *reason; /* NULL: null */

	bool has_denial;
	struct nsb_denial denial;

	bool has_setup_error;
	struct nsb_error setup_error; /* stage, errno, message, hint */

	int64_t duration_ms; /* -1: null */

	/* -1: null (output went straight to the caller's fds, not counted) */
	int64_t stdout_bytes, stderr_bytes;
	bool stdout_truncated, stderr_truncated;

	/* --capture: the kept output ("stdout"/"stderr" appear only then) */
	bool captured;
	const char *stdout_data, *stderr_data;
	size_t stdout_len, stderr_len;

	/* resources: -1 means unknown (null) */
	int64_t cpu_user_ms, cpu_sys_ms, memory_peak_bytes, pids_peak;

	/* What the kernel refused during the run, where it was observed (cgroup
	 * event counters): {"kind": "pids.max", "count": N}. */
	struct {
		const char *kind;
		uint64_t count;
		const char *path; /* where, when it has a place (disk.full); NULL: none */
	} violations[8];
	size_t n_violations;

	/* Said before the run, e.g. a --rw directory root cannot write:
	 * {"kind", "path", "message"}.  "warnings" is written only when
	 * there is one. */
	struct {
		const char *kind;
		const char *path;
		const char *message;
	} warnings[NSB_RESULT_MAX_WARNINGS];
	size_t n_warnings;

	bool has_enforced; /* false: "enforced": null (nothing was set up) */
	struct nsb_enforced enforced;

	/* The front gate judged the command: "gate": {"metachar": mode}, the
	 * shell.metachar mode ("syntax", "strict", "off").  NULL: no "gate". */
	const char *gate_metachar;

	/* Seccomp refusals reported to the supervisor: appended to
	 * "violations" as {"kind": "seccomp", ...}; refused calls of syscalls
	 * past the bound as one {"kind": "seccomp_unlisted", "count"}. */
	const struct nsb_seccomp_violation *seccomp_violations;
	size_t n_seccomp_violations;
	uint64_t seccomp_unlisted;
	/* "violations_reporting" (and its reason), written when set: whether
	 * seccomp refusals were observed, and why not. */
	bool has_violations_reporting;
	bool violations_reporting;
	const char *violations_reporting_reason;
	/* --overlay: each one's change set (core/overlay_record.h), not owned;
	 * "overlay" is written only for a run that had some. */
	const struct nsb_overlay_result *overlays;
	size_t n_overlays;
	/* Proxy mode: every connection, in order ("network"; written only
	 * then), the first NSB_NET_RECORD_MAX of them and a count of the rest.
	 * net_conns is malloc'd (the run frees it). */
	bool has_network;
	struct nsb_net_conn *net_conns;
	size_t n_net_conns;
	uint64_t net_conns_more;
	/* allow / ask / deny (issue 17): "approval", written when set, i.e.
	 * an ask rule held the command or --approved was given.  Strings
	 * point into the run's front (not owned). */
	bool has_approval;
	const char *approval_rule;	  /* "ask argv git push"; NULL: no rule held it */
	const char *approval_consequence; /* NULL: none */
	const char *approval_id;	  /* this request's id */
	const char *approval_given;	  /* --approved ID, or NULL */
	bool approval_needed, approval_approved;
	const char *approval_hint; /* for needs_approval; NULL otherwise */
	/* A run from a request document (core/request.h): "request" with its
	 * actor, reason and side_effect (each null when not given); not owned. */
	bool has_request;
	const char *request_actor, *request_reason, *request_side_effect;
};

struct nsb_json;
/* The seccomp entries of "violations" (result_seccomp.c), into the open array. */
void nsb_result_put_seccomp(struct nsb_json *j, const struct nsb_result *r);

/* "approval" (result_approval.c), into the open record. */
void nsb_result_put_approval(struct nsb_json *j, const struct nsb_result *r);
/* The request's members (result_request.c): has_request and the three
 * strings from the config; "request" into the open record object. */
struct nsb_config;
void nsb_result_set_request(struct nsb_result *r, const struct nsb_config *c);
void nsb_result_put_request(struct nsb_json *j, const struct nsb_result *r);
/* "request": {actor, reason, side_effect} (also the --check document's). */
void nsb_request_echo_put(struct nsb_json *j, const char *actor, const char *reason,
			  const char *side_effect);

/* Fill with the "nothing known yet" values (all nullable fields null). */
void nsb_result_init(struct nsb_result *r);

/* Stable string for a status ("exited", "signaled", ...); "unknown" out of range. */
const char *nsb_status_name(enum nsb_status s);

/*
 * The status a failure in stage s gives the run: usage_error, setup_failed or
 * exec_failed (the table in result.c, listed in nsbox(1)).  NSB_STAGE_NONE
 * and out of range: setup_failed.
 */
enum nsb_status nsb_stage_status(enum nsb_stage s);

/* nsb_errno_name(), the record's "errno_name", lives in errname.h. */

/*
 * Serialize to one line of JSON terminated by '\n' (malloc'd, NUL-terminated).
 * Pure.  Returns 0 or -ENOMEM (-E2BIG past NSB_JSON_MAX_LEN, which bounded
 * inputs cannot reach).  Strings are escaped; invalid UTF-8 becomes U+FFFD.
 */
int nsb_result_to_json(const struct nsb_result *r, char **ret, size_t *ret_len);

/* Serialize and write the whole record to fd (retrying short writes and EINTR).
 * The same bytes as nsb_result_to_json; large captured output is escaped
 * straight from its buffers to fd in chunks, never copied whole. */
int nsb_result_write(int fd, const struct nsb_result *r);

/*
 * Check the --result-fd before anything runs: it must be open for writing.
 * Also sets close-on-exec on it.  Errors are usage errors (stage "usage").
 */
int nsb_result_fd_check(int fd, struct nsb_error *e);
