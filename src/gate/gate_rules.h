/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The gate's rules, one file each, each judging a context (gate_ctx.h) and
 * returning 1 when it refused (the verdict filled) or 0 when it passes.
 * gate.c decides their order; none of them calls another.
 */
#pragma once

#include "gate/gate_ctx.h"

/*
 * gate_exec.c: walk the command chain from argv[0]: deny list, wrappers,
 * interpreters.  Marks command positions, find terminators and shell code.
 * Runs first: the command decides what its arguments mean.
 */
int nsb_gate_check_exec(struct nsb_gate_ctx *c);

/* gate_metachar.c: shell syntax in an argument that no shell will run. */
int nsb_gate_check_metachar(struct nsb_gate_ctx *c);

/* gate_path.c: path arguments outside every root, or leaving one through a
 * symlink.  Skips command positions. */
int nsb_gate_check_paths(struct nsb_gate_ctx *c);
