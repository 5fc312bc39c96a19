/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The facts a run's plan is built from (supervisor): the caller's ids and
 * environment, and the real path of the working directory, $HOME, the
 * project and every mount source, each malloc'd to size and owned by the
 * run (nsb_run_close frees them).
 */
#pragma once

#include "base/error.h"
#include "supervisor/run.h"

/* Resolve every source path now, so the plan is built from real paths and a
 * missing path is reported (stage usage) before anything is created.
 * 0 or -errno with e set. */
int nsb_run_facts(struct nsb_run *run, struct nsb_error *e);
