/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nsbox doctor, the pure half: what the host supports, judged from a fact
 * set that supervisor/doctor_facts.c gathers (the only code of doctor that
 * touches the kernel).  Every verdict here is a function of the facts alone,
 * so the unit tests replay fact sets recorded on other hosts (Ubuntu 24.04,
 * Docker, rootless Podman, WSL2, Debian 12).
 */
#pragma once

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "base/json.h"
#include "core/landlock_plan.h"

/* The document's schema number (nsbox doctor --json). */
#define NSB_DOCTOR_SCHEMA 1

/* Exit statuses of nsbox doctor. */
#define NSB_DOCTOR_FULL	    0 /* the full sandbox (namespaces) works here */
#define NSB_DOCTOR_DEGRADED 1 /* only --isolation landlock (or auto) works */
#define NSB_DOCTOR_NONE	    2 /* nsbox cannot run here */

/* The Landlock ABIs that refuse TCP and scope signals (core/landlock_plan.h). */
#define NSB_LANDLOCK_ABI_NET   NSB_LL_ABI_NET
#define NSB_LANDLOCK_ABI_SCOPE NSB_LL_ABI_SCOPE

/* What the host showed; -1 in a long means "absent or unreadable". */
struct nsb_doctor_facts {
	char kernel[65]; /* uname release */
	uid_t uid;

	/* user namespaces */
	long max_user_namespaces;     /* user.max_user_namespaces */
	long unprivileged_userns;     /* kernel.unprivileged_userns_clone (Debian) */
	long apparmor_restrict;	      /* kernel.apparmor_restrict_unprivileged_userns */
	bool apparmor_enabled;	      /* the AppArmor LSM is active */
	bool apparmor_profile_loaded; /* a profile named nsbox is loaded */
	long seccomp_mode;	      /* Seccomp: in /proc/self/status */
	/* The real attempt: 0 when a user namespace was created and its id
	 * maps written; else the errno, and the step that failed. */
	int userns_errno;
	char userns_step[16]; /* "clone", "uid_map", ... */

	/* container heuristics: what was seen, "" when nothing */
	char container[128];

	/* kernel features */
	bool mount_api;	     /* fsopen and friends exist (not ENOSYS) */
	bool seccomp_filter; /* seccomp filters can be loaded */
	bool seccomp_notify; /* SECCOMP_RET_USER_NOTIF is available */
	int landlock_abi;    /* 0: no Landlock */

	/* cgroup v2 */
	bool cgroup2;		      /* a cgroup2 mount was found */
	char cgroup_mount[256];	      /* where */
	char cgroup_own[512];	      /* the caller's own cgroup directory (absolute) */
	bool cgroup_writable;	      /* the caller may create a child there */
	char cgroup_controllers[256]; /* cgroup.controllers of its own cgroup */
	bool systemd_run;	      /* systemd-run exists (for the Delegate= line) */
};

/* One line of the report. */
struct nsb_doctor_check {
	const char *name; /* "user namespaces" */
	bool ok;
	bool info;	  /* neither ok nor failing: only a fact */
	char value[1024]; /* what was found */
	char fix[1024];	  /* what to change when !ok, "" otherwise */
};

#define NSB_DOCTOR_MAX_CHECKS 12

struct nsb_doctor_report {
	struct nsb_doctor_check checks[NSB_DOCTOR_MAX_CHECKS];
	size_t n_checks;
	const char *isolation_default; /* "namespaces" or "none" */
	const char *isolation_auto;    /* "namespaces", "landlock" or "none" */
	bool landlock_net;	       /* Landlock can switch TCP off */
	int exit_code;		       /* NSB_DOCTOR_* */
};

/* The verdicts, from the facts alone. */
void nsb_doctor_judge(const struct nsb_doctor_facts *f, struct nsb_doctor_report *ret);

/* Whether a fact set says user namespaces work (the probe succeeded). */
bool nsb_doctor_userns_ok(const struct nsb_doctor_facts *f);

/* The report as a table for people. */
void nsb_doctor_print(FILE *out, const struct nsb_doctor_facts *f,
		      const struct nsb_doctor_report *r);

/* The report as one JSON document (schema NSB_DOCTOR_SCHEMA) into j. */
void nsb_doctor_json(struct nsb_json *j, const struct nsb_doctor_facts *f,
		     const struct nsb_doctor_report *r);
