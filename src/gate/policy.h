/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The gate policy file (nsbox-policy(5)): one directive per line, '#'
 * comments, every gate setting.  Pure: reads a FILE * it is handed and
 * writes to one; it opens nothing and prints no diagnostics itself.
 */
#pragma once

#include <stdio.h>

#include "base/error.h"
#include "gate/gate.h"

#define NSB_POLICY_MAX_BYTES (256u << 10) /* whole file */
#define NSB_POLICY_LINE_MAX  4200	  /* one line, without its newline */

/*
 * Apply every directive of f to p (which the caller has initialized,
 * normally with nsb_gate_policy_init_default: a file adds to the built-in
 * default and lifts entries with allow-exec).  name is used in messages.
 * Returns 0, or -errno with e filled: stage "policy", message
 * "<name>:<line>:<col>: <what>" and a hint.  On error p holds the
 * directives before the bad line; the caller discards it.
 */
int nsb_policy_parse(FILE *f, const char *name, struct nsb_gate_policy *p, struct nsb_error *e);

/*
 * Write p in the policy format (what --print-policy shows); parsing the
 * output into an empty or a default policy gives p back.  0, or -EIO with e
 * set (stage "gate"; no record is written for it).
 */
int nsb_policy_print(FILE *out, const struct nsb_gate_policy *p, struct nsb_error *e);
