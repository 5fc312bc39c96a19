/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interpreters for the exec rule (gate_exec.c): which commands take program
 * text, and the check that refuses it (interp.inline).  Internal to the
 * gate's exec rule.
 */
#pragma once

#include <stdbool.h>

#include "gate/gate_ctx.h"

struct interp;

/* The interpreter family of an executable name ("python3.11" -> python), or NULL. */
const struct interp *nsb_gate_find_interp(const char *name);
/* Refuse inline code handed to interpreter ip at argv[s..e); 1 when refused. */
int nsb_gate_check_interp(struct nsb_gate_ctx *c, const struct interp *ip, int s, int e,
			  const char *name);
/* Shells: with inline code allowed, their -c program is run by a shell. */
bool nsb_gate_is_shell(const char *name);
/* Mark the program text of `SHELL [opts] -c PROGRAM` (NSB_ARG_SHELL_CODE). */
void nsb_gate_mark_shell_code(struct nsb_gate_ctx *c, int s, int e);
