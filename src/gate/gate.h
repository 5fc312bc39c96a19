/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The front gate (issue 3): a pure verdict on the command line, computed in
 * the supervisor before any namespace, cgroup or process exists.  Everything
 * the gate learns about the filesystem comes through struct nsb_fs_ops, so
 * the rules can be tested and fuzzed against an in-memory table.
 *
 * Rules, evaluated in this order; the first refusal wins:
 *   exec.denylist       the command (or a wrapped one) is on the deny list,
 *                       by name, resolved name or file identity
 *   exec.destructive_mode  an ordinary tool in a mode that deletes (deny-mode)
 *   exec.wrapper        a wrapper runs something the gate cannot see
 *   exec.shell_option   a tool's option carries a command (gate_shellopt.h)
 *   interp.inline       an interpreter is handed program text in argv
 *   interp.stdin        an interpreter reads its program from stdin
 *   shell.metachar      an argument carries shell syntax that no shell will run
 *   path.outside        a path argument lands outside every allowed root
 *   path.symlink_escape a path under a root leaves it through a symlink
 *   path.too_long       an argument of PATH_MAX bytes or more (unjudgeable)
 *
 * The modules, each depending only on those listed before it:
 *   gate_policy   the policy's storage (deny/allow lists, switches)
 *   gate_input    input, fs ops, verdict; inside -> host path mapping
 *   gate_ctx      one judgement in progress: refuse, text
 *   gate_opts     the option syntax of wrappers and interpreters
 *   gate_tables   the wrapper and deny-mode tables (policy data; gate_builtin)
 *   gate_which    the command lookup: the one PATH search over the roots
 *   gate_exec, gate_metachar, gate_path   the rules (gate_rules.h); the exec
 *                 rules use gate_deny (deny list's reach), gate_wrap,
 *                 gate_interp(_tab) and gate_shellopt(_tab) with gate_sedcmd;
 *                 gate_path_args and gate_sed find the path candidates
 *   gate          the verdict: validates the input, orders the rules
 *   gate_fs       the real filesystem behind struct nsb_fs_ops (impure)
 */
#pragma once

#include "gate/gate_fs.h"
#include "gate/gate_input.h"
#include "gate/gate_policy.h"

struct nsb_denial;

/*
 * Judge the command.  Returns 0 with *ret filled (allowed or refused), or
 * -EINVAL when the input itself is malformed (no argv, cwd not absolute,
 * missing fs ops).  Bounded: O(argc) filesystem lookups, no directory walks.
 */
int nsb_gate_check(const struct nsb_gate_policy *p, const struct nsb_gate_input *in,
		   struct nsb_gate_verdict *ret);

/*
 * Copies the four texts of v (token, hint, reason, resolved) into to, each
 * only as far as its NUL: the bytes past it are left as they were.
 */
void nsb_gate_verdict_copy_texts(struct nsb_gate_verdict *to, const struct nsb_gate_verdict *v);

/* Fill the record's denial (result.h) from a refusal; d's strings point into v. */
void nsb_gate_denial(const struct nsb_gate_verdict *v, struct nsb_denial *d);
