/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The scan for protected paths and secrets (supervisor, after the gate
 * allowed the run, before clone): reads the host trees of the binds and adds
 * the covers to the plan, which init mounts (sandbox/mount_cover.c).
 *
 * Breadth first, so the shallow entries (a bind's root: .git, .envrc, .env)
 * are always seen before a bound is reached; bounded by NSB_SCAN_MAX_ENTRIES
 * entries per run and NSB_SCAN_MAX_DEPTH levels.  A bound reached does not
 * fail the run: the scan stops there, says so on stderr and in the record
 * (scan_truncated), and what lies beyond is neither protected nor masked.
 * More than NSB_MAX_COVERS covers fails the run (usage_error, stage plan).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "core/config.h"
#include "core/plan.h"
#include "core/result.h"
#include "gate/gate_policy.h"

struct nsb_cover_stats {
	size_t entries;		  /* directory entries read */
	size_t sniffed;		  /* mask-key candidates opened and read */
	bool truncated;		  /* a bound stopped the scan */
	const char *truncated_in; /* the bind's source where it stopped (the plan's) */
	bool git_fallback;	  /* --rw-git found a .git without hooks/config: kept read-only */
};

/*
 * Scan every user bind of p: protected paths in the writable ones (unless
 * --no-protect), secrets in all (unless --no-mask), --mask PATH directly.
 * Nothing to do (no writable bind and masking off, or nothing to match)
 * costs no system call.  0, or -errno with e set (stage plan).
 */
int nsb_protect_scan(const struct nsb_config *cfg, const struct nsb_gate_policy *pol,
		     struct nsb_plan *p, struct nsb_cover_stats *st, struct nsb_error *e);

/* The record's enforced.protected and enforced.masked, pointing into p. */
void nsb_protect_record(const struct nsb_config *cfg, const struct nsb_plan *p,
			const struct nsb_cover_stats *st, struct nsb_enforced *en);
