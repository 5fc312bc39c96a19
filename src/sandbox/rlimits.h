/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The payload's side of the limits: the rlimits chosen as fallbacks. */
#pragma once

#include "base/error.h"
#include "core/limitplan.h"

/* In the payload, before execve: set the rlimits chosen as fallbacks
 * (core/limitplan.c decides which; the supervisor never sets them). */
int nsb_limits_apply_rlimits(const struct nsb_limits *l, struct nsb_error *e);
