/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interpreters for the exec rule (gate_exec.c): which commands take program
 * text, and the check that refuses it in argv (interp.inline) or on
 * standard input (interp.stdin).  Internal to the gate's exec rule.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "gate/gate_ctx.h"

struct interp;

/*
 * The family of an executable name: GNU triplets, "-static"/"-dbg",
 * "-VERSION" and trailing version digits cut ("x86_64-linux-gnu-gcc-12" ->
 * gcc, "perl5.36-x86_64-linux-gnu" -> perl, "python3.11d" -> python).
 */
void nsb_gate_tool_family(const char *name, char *out, size_t outsz);
/* The interpreter of an executable name's family ("python3.11", "pdb.py"), or NULL. */
const struct interp *nsb_gate_find_interp(const char *name);
/*
 * Judge argv[s..e) as an interpreter call when called (the name it is
 * called by) or real_base (the basename of the file it resolves to; not
 * used for a multi-call binary) names one; both are judged when they name
 * different interpreters.  With inline code allowed, only marks a shell's
 * -c program.  1 when refused.
 */
int nsb_gate_interp_cmd(struct nsb_gate_ctx *c, int s, int e, const char *called,
			const char *real_base, bool multicall);
/* /dev/stdin, /dev/fd/0, /proc/self/fd/0, /proc/thread-self/fd/0 */
bool nsb_gate_is_stdin_path(const char *a);
/* Shells: with inline code allowed, their -c program is run by a shell. */
bool nsb_gate_is_shell(const char *name);
/* Mark the program text of `SHELL [opts] -c PROGRAM` (NSB_ARG_SHELL_CODE). */
void nsb_gate_mark_shell_code(struct nsb_gate_ctx *c, int s, int e);
