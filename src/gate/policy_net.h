/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The policy file's network lines (nsbox-policy(5)): allow-net, deny-net and
 * allow-net-range, the options' twins.  Kept parsed in the gate's policy
 * (allocated at the first such line: a policy without them costs nothing)
 * until the run merges them into its own (supervisor/run.c).
 */
#pragma once

#include <stdio.h>

#include "core/netpolicy.h"
#include "gate/gate_policy.h"

/* Is WORD one of the three directives? */
bool nsb_gate_net_directive(const char *word, size_t len);

/* Add the line "WORD ARG"; on error a message in msg.  0 or -errno. */
int nsb_gate_net_add(struct nsb_gate_policy *p, const char *word, const char *arg, char *msg,
		     size_t size);

/* Append p's lines to np.  -E2BIG past np's bounds (e says so). */
int nsb_gate_net_merge(const struct nsb_gate_policy *p, struct nsb_net_policy *np,
		       struct nsb_error *e);

/* The lines, for --print-policy. */
void nsb_gate_net_print(FILE *out, const struct nsb_gate_policy *p);
