/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared between gate.c (policy, metacharacters, path jail) and gate_exec.c
 * (deny list, wrappers, interpreters).  Not part of the gate's public API.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "gate.h"
#include "config.h"

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
/* Format the verdict's reason or hint. */
void nsb_gate_text(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Basename of a path ("/usr/bin/rm" -> "rm"; "rm" -> "rm"). */
const char *nsb_gate_basename(const char *path);

/*
 * Map an absolute inside path to the host path through the roots (paths
 * outside every root are the same on both sides).  0 or -ENAMETOOLONG.
 */
int nsb_gate_map_host(const struct nsb_gate_input *in, const char *inside, char *out, size_t outsz);

/*
 * Walk the command chain from argv[0]: deny list, wrappers, interpreters.
 * Marks command positions and find terminators.  Returns 1 when refused
 * (verdict filled), 0 when every command in the chain passes.
 */
int nsb_gate_check_exec(struct nsb_gate_ctx *c);
