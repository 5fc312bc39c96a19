/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Proxy mode's parts of the record, for result.c: enforced.network and "network". */
#pragma once

#include "base/json.h"
#include "core/result.h"

/* "network": {"mode":"proxy","port":P,"allow":[..],"deny":[..],"ranges":[..]} */
void nsb_result_put_net_policy(struct nsb_json *j, const struct nsb_net_policy *p);

/* The top-level "network": {"connections":[...], "more": N}. */
void nsb_result_put_network(struct nsb_json *j, const struct nsb_result *r);
