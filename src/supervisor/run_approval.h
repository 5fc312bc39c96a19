/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The front's verdict in a run: allow, ask or deny (issue 17).  Decide the
 * ask rule and the approval id (gate/front_ask.h) once the gate has judged;
 * then, before anything is created, record a refusal (status denied) or a
 * hold (status needs_approval, exit 123) and stop, or let the run go ahead
 * with the record's "approval" filled where there is one.
 */
#pragma once

#include <stdbool.h>

#include "base/error.h"

struct nsb_run;

/* After nsb_front_check: the ask rule, and the id when needed.  0 or -errno
 * with e set. */
int nsb_run_decide_approval(struct nsb_run *run, struct nsb_error *e);

/* true when the run stops here (denied or needs_approval recorded; main.c
 * prints it); false when it goes ahead. */
bool nsb_run_gate_stops(struct nsb_run *run);
