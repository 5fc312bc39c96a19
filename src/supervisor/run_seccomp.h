/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The end of a run, for its seccomp filter: the listener's entries and
 * violations_reporting into the record, a SIGSYS death named, the stderr
 * summary line; and --seccomp-learn's FILE.
 */
#pragma once

#include "base/error.h"
#include "supervisor/run.h"

/* Fill run->res from the listener (notify.h) and say what was refused. */
void nsb_run_record_seccomp(struct nsb_run *run);

/* --seccomp-learn FILE: what the run used, merged with FILE, written in place
 * (a temporary file renamed over it).  Returns 0 or -errno (e set). */
int nsb_run_write_learned(struct nsb_run *run, struct nsb_error *e);
