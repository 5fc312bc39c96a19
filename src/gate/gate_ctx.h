/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One judgement in progress: the policy, the input, the verdict being filled
 * and the marks the exec rules leave for the argument rules.  Every rule
 * (gate_exec.c, gate_metachar.c, gate_path.c) works on this and nothing else;
 * only the rules and gate.c include it.
 */
#pragma once

#include "core/config.h" /* NSB_MAX_ARGS */
#include "gate/gate_input.h"
#include "gate/gate_policy.h"

/* Per-argument marks set while walking the command chain. */
enum {
	NSB_ARG_COMMAND = 1 << 0,    /* a command position: judged by the exec rules */
	NSB_ARG_FIND_END = 1 << 1,   /* the ';' or '+' closing find -exec */
	NSB_ARG_SHELL_CODE = 1 << 2, /* a shell's -c program, with inline code allowed */
};

struct nsb_gate_ctx {
	const struct nsb_gate_policy *p;
	const struct nsb_gate_input *in;
	struct nsb_gate_verdict *v;
	unsigned char marks[NSB_MAX_ARGS];
};

/* Record a refusal of argv[idx] under rule; returns 1 ("refused"). */
int nsb_gate_refuse(struct nsb_gate_ctx *c, const char *rule, int idx);
/* Format the verdict's reason or hint (buf holds NSB_GATE_TEXT_MAX bytes). */
void nsb_gate_text(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
