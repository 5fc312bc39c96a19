/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --isolation in the supervisor: which mode a run gets, and what a Landlock
 * run needs around the sandbox (its private TMPDIR, the subreaper, the
 * sweep of survivors).  Nothing here runs for the default mode beyond one
 * comparison: namespaces cost what they always did.
 */
#pragma once

#include "supervisor/run.h"

/*
 * Decide run->plan.isolation (and plan.landlock) from --isolation: auto
 * tries a user namespace in a short-lived child (supervisor/doctor.h).
 * Fails (stage "landlock") when Landlock cannot keep the options' promises.
 */
int nsb_isolation_decide(struct nsb_run *run, struct nsb_error *e);

/*
 * Before the clone of a Landlock run: refuse protected paths and masks
 * (they need mounts), say that auto fell back, make the private TMPDIR and
 * put it into the payload's environment (TMPDIR, HOME), and become the
 * child subreaper.  Nothing for a namespaces run.
 */
int nsb_isolation_prepare(struct nsb_run *run, struct nsb_error *e);

/* For nsb_supervise's kill_all in a Landlock run without a cgroup. */
int nsb_isolation_kill_all(void *ud);

/* After the run: kill and reap every survivor, remove the TMPDIR.  Safe to
 * call twice and for a namespaces run. */
void nsb_isolation_finish(struct nsb_run *run);
