/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One run of a command, in the supervisor: prepare (facts, plan, seccomp,
 * policy, limits, the gate: nothing is created), execute (cgroup, clone,
 * supervise, the verdicts), then nsb_run_destroy, the one cleanup outside
 * the process for every path (and nsb_run_close, its memory, where the
 * process does not exit next).  A failing step records its error in
 * run->res (status usage_error or setup_failed); main.c prints it, writes
 * the record and picks the exit status.
 */
#pragma once

#include <limits.h>
#include <stdbool.h>

#include "supervisor/etc_snapshot.h"
#include "supervisor/overlay_store.h"
#include "supervisor/cgroup.h"
#include "core/config.h"
#include "gate/front.h"
#include "core/limitplan.h"
#include "core/plan.h"
#include "core/result.h"
#include "seccomp/filter.h"
#include "supervisor/overlay.h"
#include "supervisor/protect_scan.h"
#include "supervisor/proxy.h"
#include "supervisor/spawn.h"
#include "supervisor/supervise.h"

/*
 * The run lives in main's static storage, and a page of it costs memory only
 * once written: what every run writes comes first, packed, and the large
 * buffers that a run writes a few bytes of, or none, come last, so that a
 * run touches as few pages as it can (bench/memory.sh).
 */
struct nsb_run {
	/* Its 8 KiB of paths, written only when a cgroup is made, then its
	 * descriptors, which every run writes, on the page of what follows. */
	struct nsb_cgroup cg;
	const struct nsb_config *cfg;
	struct nsb_result res;

	/* prepare */
	/* malloc'd by realpath, freed by nsb_run_close; facts points here */
	char *cwd_real, *home_real, *project_real;
	/* One per config mount (NULL for tmpfs), allocated to size; then as
	 * many bools, whether each is a directory (facts points at both). */
	char **mount_real;
	struct nsb_plan plan;
	struct nsb_bpf bpf; /* compiled once, here; plan.seccomp points here */
	struct nsb_limits_host lim_host;
	bool cg_usable; /* the asked limits can have a cgroup */

	/* execute */
	struct nsb_stdio stdio;
	struct nsb_cgroup_where cg_where; /* the cgroup2 mount and own cgroup, read once */
	struct nsb_sandbox sb;
	struct nsb_captured cap_out, cap_err;
	struct nsb_notify notify;      /* the seccomp listener's counts (notify.h) */
	struct nsb_overlays *overlays; /* --overlay only: the upper layers and change sets */

	/* Proxy mode (--allow-net ...): the policy (malloc'd) and the proxy
	 * while the sandbox runs.  NULL otherwise. */
	struct nsb_net_policy *net_policy;
	struct nsb_proxy *proxy;
	/* --overlay-store only: the run's directory for the upper layers. */
	struct nsb_ovl_store *ovl_store;
	/* The /etc snapshot the plan binds, held for the run (path NULL: none). */
	struct nsb_etc_snapshot etc;

	/* The large ones, each with what a run writes at its start. */
	struct nsb_facts facts;
	struct nsb_cover_stats covers; /* the scan for protected paths and secrets */
	struct nsb_front front;
	/* --isolation auto fell back to Landlock: why ("uid_map: ..."), else "". */
	char isolation_why[NSB_ERR_MESSAGE_MAX];
	struct nsb_cgroup_place cg_place;	     /* where the cgroup goes, decided once */
	char fallback_why[NSB_ERR_MESSAGE_MAX];	     /* why not, for the rlimit warnings */
	char pids_fallback_why[NSB_ERR_MESSAGE_MAX]; /* why not, for --pids in particular */
	/* Storage for the record's strings (the record outlives cg and the plan's users). */
	char cgroup_path[sizeof(((struct nsb_cgroup *)0)->path)];
	char warn_path[NSB_RESULT_MAX_WARNINGS][NSB_MAX_PATH + 1];
	char warn_msg[NSB_RESULT_MAX_WARNINGS][NSB_ERR_MESSAGE_MAX];
};

/*
 * Set up *run for cfg (which main fills afterwards, before any other call).
 * *run must be zero-filled already: a static or calloc'ed object.
 */
void nsb_run_init(struct nsb_run *run, const struct nsb_config *cfg);

/*
 * Record a failure that nothing ran because of; its stage decides the status
 * (usage_error or setup_failed: nsb_stage_status).  Returns -e->err.
 */
int nsb_run_fail(struct nsb_run *run, const struct nsb_error *e);

/* Everything decided, nothing created; front.verdict holds the gate's word.
 * < 0: run->res says why. */
int nsb_run_prepare(struct nsb_run *run);

/* --seccomp-export without a command: compile the profile and write it. */
int nsb_run_export_only(struct nsb_run *run);

/* Carry out a prepared run (or record the gate's refusal); run->res is final
 * afterwards, whatever happened. */
void nsb_run_execute(struct nsb_run *run);

/* The one cleanup of what reaches outside the process: every path, after
 * the record is written.  As a backstop it removes the cgroup, and it
 * removes the Landlock TMPDIR and the overlay store and stops the proxy.
 * Descriptors and memory stay for nsb_run_close, or for the exit. */
void nsb_run_destroy(struct nsb_run *run);

/* Close the run's descriptors and free its memory (after nsb_run_destroy). */
void nsb_run_close(struct nsb_run *run);
