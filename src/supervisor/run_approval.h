/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * allow / ask / deny in a run (issue 17): put the front's approval decision
 * (gate/front_ask.h) into the record, and hold a command an ask rule holds
 * without a matching --approved (status needs_approval, exit 123).
 */
#pragma once

#include <stdbool.h>

struct nsb_run;

/* Fill the record's "approval" where there is one; true when the run must
 * stop here (needs_approval recorded), false when it goes ahead. */
bool nsb_run_record_approval(struct nsb_run *run);
