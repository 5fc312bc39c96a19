/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which mechanism enforces each resource limit.  cgroup v2 is preferred;
 * where it cannot be had, memory falls back to RLIMIT_AS/RLIMIT_DATA and
 * pids to RLIMIT_NPROC (counted per user namespace, so only the sandbox's
 * processes count), and the record says which mechanism was used.  CPU time
 * has no rlimit equivalent and is refused without cgroups.
 *
 * Without --pids, a default of NSB_DEFAULT_PIDS processes applies wherever
 * something can enforce it: the cgroup's pids controller, else RLIMIT_NPROC
 * for a caller other than root.  Nobody asked for it, so it never fails a
 * run and is never announced on stderr: where nothing can enforce it (uid 0
 * without a pids controller, or --require-cgroup without one) the record
 * says so instead.  --pids unlimited lifts it.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/config.h"
#include "base/error.h"

enum nsb_via {
	NSB_VIA_NONE,
	NSB_VIA_CGROUP,
	NSB_VIA_RLIMIT,
};

struct nsb_limits {
	uint64_t memory; /* bytes; 0 none */
	enum nsb_via memory_via;
	uint64_t pids; /* 0 when no mechanism enforces a pids limit */
	enum nsb_via pids_via;
	bool pids_default;	     /* nsbox's default, not asked for */
	const char *pids_unenforced; /* static text: why no pids limit is enforced, or NULL */
	uint64_t cpus_milli;
	uint64_t cpu_quota_us;	/* cpu.max for cpus_milli; 0 without --cpus */
	uint64_t cpu_period_us; /* NSB_CGROUP_PERIOD_US_DEFAULT */
	enum nsb_via cpus_via;
	bool use_cgroup; /* a cgroup is created for this run */
};

/* "cgroup", "rlimit" or NULL. */
const char *nsb_via_name(enum nsb_via v);

/* What the supervisor found out about the host (facts, no decisions). */
struct nsb_limits_host {
	bool cgroup_ok;	     /* a cgroup with the controllers the asked limits need */
	bool cgroup_pids;    /* ... that also has the pids controller (for the default) */
	const char *why_not; /* why not cgroup_ok (for messages) */
	uid_t uid;	     /* the caller's uid (RLIMIT_NPROC does not bind uid 0) */
	uint64_t nproc_hard; /* the caller's hard RLIMIT_NPROC; UINT64_MAX: unlimited */
};

/*
 * Decide (pure).  Fails (stage "limits") when a limit that was asked for
 * cannot be enforced at all, or a fallback is needed and --require-cgroup
 * forbids it; never because of the default.  The CPU quota is computed here,
 * once, for the cgroup and the record alike.
 */
int nsb_limits_decide(const struct nsb_config *c, const struct nsb_limits_host *h,
		      struct nsb_limits *ret, struct nsb_error *e);
