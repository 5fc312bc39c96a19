/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Ordinary tools that run a shell command or program text taken from
 * argv (git -c alias.x=!cmd, sed's e command, tar --to-command, vim -c,
 * ssh -o ProxyCommand=, env LESSOPEN=...): a table of code-bearing options
 * per tool, in the policy format (shell-option TOOL[:SUB] OPTION [MATCH],
 * nsbox-policy(5)), and the rule exec.shell_option that reads it.
 *
 * Storage lives in struct nsb_gate_policy (gate_policy.h); the built-in
 * rows are written as policy lines (nsb_gate_shellopt_builtin) and parsed
 * by the same code as a policy file's.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct nsb_gate_policy;
struct nsb_gate_ctx;

#define NSB_MAX_GATE_SHELLOPT 1024 /* shell-option rows */
#define NSB_SHELLOPT_GLOB_MAX 256  /* longer values are not globbed: they match */

/* One row: TOOL[:SUB] OPTION [MATCH] (see nsbox-policy(5)). */
struct nsb_shellopt {
	char *tool; /* an executable's family name (gate_interp.h) or basename */
	char *sub;  /* a subcommand word after which OPTION counts, or NULL */
	char *opt;  /* -x, --long, -long, +, NAME=, %1 or * */
	char *match; /* a glob (fnmatch extglob, case-insensitive), @sed, @stdin, @value; NULL: any */
};

/* The built-in rows as policy lines (without the directive word), row after
 * row (nsb_strs_next). */
extern const char nsb_gate_shellopt_builtin[];

/*
 * Add the row written in text (the words after "shell-option").  0,
 * -EINVAL with *why and *col (0-based offset into text) set, -E2BIG (table
 * full) or -ENOMEM.  A row already present is not added again.
 */
int nsb_gate_shellopt_add(struct nsb_gate_policy *p, const char *text, size_t *col,
			  const char **why);
/* Add every built-in row.  0, -E2BIG or -ENOMEM. */
int nsb_gate_shellopt_add_builtin(struct nsb_gate_policy *p);
void nsb_gate_shellopt_free(struct nsb_gate_policy *p);
/* Write one row as a policy line ("shell-option ...\n"). */
void nsb_gate_shellopt_print(FILE *out, const struct nsb_shellopt *r);

/* True when sed script text runs a command: the e command or the e flag of s. */
bool nsb_gate_sed_runs_command(const char *script);

/*
 * The rule: judge argv[s..e) (called: the name it is called by; real_base:
 * the basename of the file it resolves to, or NULL).  1 when refused.
 */
int nsb_gate_check_shellopt(struct nsb_gate_ctx *c, int s, int e, const char *called,
			    const char *real_base);
