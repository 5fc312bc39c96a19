/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The supervisor's verdicts on a finished run, as pure functions of what it
 * gathered: the exit status from the result, the cgroup's counters (resources,
 * violations, the OOM verdict), and the record's `enforced` member from the
 * decisions that were applied.  No I/O: unit-tested in tests/unit/test_verdict.c.
 */
#pragma once

#include <stdbool.h>

#include "supervisor/cgroup.h"
#include "core/config.h"
#include "core/limitplan.h"
#include "core/plan.h"
#include "core/result.h"
#include "seccomp/filter.h"
#include "supervisor/spawn.h"

/* The exit status nsbox ends with for this result (nsbox(1) EXIT STATUS). */
int nsb_exit_code_for(const struct nsb_result *res);

/*
 * Fold the run's cgroup counters into res: resources (where the cgroup knows
 * them), one violation per counter above zero, and the OOM verdict (a SIGKILL
 * with an oom_kill event is the OOM killer's work).
 */
void nsb_verdict_cgroup(const struct nsb_cgroup_stats *st, struct nsb_result *res);

/* What a fully built sandbox enforced; every pointer outlives the record. */
struct nsb_enforced_in {
	const struct nsb_config *cfg;
	const struct nsb_plan *plan;
	const struct nsb_limits *limits;
	const struct nsb_bpf *bpf;
	const struct nsb_stdio *stdio;
	unsigned namespaces;	 /* NSB_NS_* the sandbox was created with */
	const char *cgroup_path; /* NULL: the run had no cgroup */
	bool cgroup_joined;	 /* placed by cgroup.procs, not by clone3 */
};

/* Fill res->enforced (and set has_enforced) from in. */
void nsb_verdict_enforced(const struct nsb_enforced_in *in, struct nsb_result *res);
