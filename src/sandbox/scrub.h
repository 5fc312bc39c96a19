/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * init's own /proc files (environ, cmdline) are readable inside the
 * sandbox: what they would show of the caller's environment and of
 * nsbox's command line is overwritten in place, once the plan holds its
 * own copies of all init still needs.
 */
#pragma once

#include "base/error.h"

/* Zero the environment's strings and clear environ. */
void nsb_scrub_environment(void);

/* Overwrite the argument block (leaving "nsbox").  Returns 0 or -errno, @e set. */
int nsb_scrub_cmdline(struct nsb_error *e);
