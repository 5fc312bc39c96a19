/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The deny list's reach (gate_deny.c): by name, by resolved name, by file
 * identity, and the deny-mode rules.
 */
#pragma once

#include "gate/gate_ctx.h"

/* The files the deny list names in the sandbox's PATH, found on first use. */
struct nsb_deny_ids;
struct nsb_deny_ids *nsb_gate_deny_ids_new(void);
void nsb_gate_deny_ids_free(struct nsb_deny_ids *ids);

/*
 * Judge the command at argv[s] (arguments to argv[e-1]) called as called,
 * resolving to real_path (host, NULL when unknown) whose basename is
 * real_base (NULL when it equals called or is unknown).  1 when refused
 * (exec.denylist or exec.destructive_mode).  ids may be NULL.
 */
int nsb_gate_check_denied(struct nsb_gate_ctx *c, int s, int e, const char *called,
			  const char *real_base, const char *real_path, struct nsb_deny_ids *ids);
