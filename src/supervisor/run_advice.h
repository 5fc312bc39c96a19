/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a run says besides the record (supervisor): a warning on stderr for
 * each limit a weaker mechanism enforces and for each --rw bind root inside
 * cannot write (also in the record's warnings), and the hint for a command
 * that was not found inside.
 */
#pragma once

#include "base/error.h"
#include "supervisor/run.h"

void nsb_run_warn_fallbacks(const struct nsb_run *run);
void nsb_run_warn_unwritable_binds(struct nsb_run *run);
/* The scan's bound was reached, or --rw-git kept a .git read-only. */
void nsb_run_warn_covers(struct nsb_run *run);
/* se is the exec_failed error of stage resolve; name the command's argv[0]. */
void nsb_run_hint_not_found(struct nsb_error *se, const char *name);
