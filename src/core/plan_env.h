/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plan's environment (plan_env.c), built by nsb_plan_build. */
#pragma once

#include "base/error.h"
#include "core/config.h"
#include "core/plan.h"

/* PATH and HOME, proxy mode's variables, the caller's locale and TERM, then
 * --env (which may override any of them).  Errors: stage "plan". */
int nsb_plan_build_env(const struct nsb_config *c, const struct nsb_facts *f, struct nsb_plan *p,
		       struct nsb_error *e);
