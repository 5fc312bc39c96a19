/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which mechanism enforces each resource limit.  cgroup v2 is preferred;
 * where it cannot be had, memory falls back to RLIMIT_AS/RLIMIT_DATA and
 * pids to RLIMIT_NPROC (counted per user namespace, so only the sandbox's
 * processes count), and the record says which mechanism was used.  CPU time
 * has no rlimit equivalent and is refused without cgroups.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "config.h"
#include "error.h"

enum nsb_via {
	NSB_VIA_NONE,
	NSB_VIA_CGROUP,
	NSB_VIA_RLIMIT,
};

struct nsb_limits {
	uint64_t memory; /* bytes; 0 none */
	enum nsb_via memory_via;
	uint64_t pids;
	enum nsb_via pids_via;
	uint64_t cpus_milli;
	enum nsb_via cpus_via;
	bool use_cgroup; /* a cgroup is created for this run */
};

/* "cgroup", "rlimit" or NULL. */
const char *nsb_via_name(enum nsb_via v);

/*
 * Decide (pure).  cgroup_ok: the controllers the limits need are usable;
 * why_not: the reason when they are not (for messages).  uid: the caller's
 * uid (RLIMIT_NPROC does not bind uid 0).  Fails (stage "limits") when a
 * limit cannot be enforced at all, or a fallback is needed and
 * --require-cgroup forbids it.
 */
int nsb_limits_decide(const struct nsb_config *c, bool cgroup_ok, const char *why_not, uid_t uid,
		      struct nsb_limits *ret, struct nsb_error *e);

/* In the payload, before execve: set the rlimits chosen as fallbacks. */
int nsb_limits_apply_rlimits(const struct nsb_limits *l, struct nsb_error *e);
