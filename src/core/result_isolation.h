/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Between result.c and result_isolation.c: the --isolation members of enforced. */
#pragma once

#include "base/json.h"
#include "core/result.h"

/* "isolation" (when recorded) and, for Landlock, "missing" and "landlock". */
void nsb_result_put_isolation(struct nsb_json *j, const struct nsb_enforced *en);
