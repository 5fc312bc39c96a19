/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The gate's policy: which executables are denied or allowed, which host
 * directories are reachable besides the roots, which rules are relaxed.
 * Storage only; the rules that read it live in gate_exec.c, gate_path.c and
 * gate_metachar.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/config.h"  /* NSB_MAX_GATE_OPTS, NSB_MAX_GATE_PATHS: the lists' limits */
#include "core/protect.h" /* NSB_PROTECT_MAX_GLOBS */

struct nsb_net_policy;

struct nsb_shellopt;
struct nsb_ask_rules;

#define NSB_GATE_NAME_MAX 255 /* one executable name (NAME_MAX) */

struct nsb_wrapper;
struct nsb_deny_mode;

/*
 * Every gate setting.  The policy owns its strings (copies), so it can be
 * filled from argv, from a policy file or from the built-in default alike.
 * A deny-exec NAME ending in '*' matches every name with that prefix
 * ("mkfs.*").  allow-exec wins over deny-exec.  Each reached limit is a
 * clear error, never a silent cut.
 */
struct nsb_gate_policy {
	/* The lists are on the heap, grown as they fill (each at most its
	 * limit): the policy itself stays a few hundred bytes, and a run's
	 * static one writes a page of it, not the 8 KiB the arrays took. */
	char **deny_exec;
	size_t n_deny_exec;
	char **allow_exec;
	size_t n_allow_exec;
	char **allow_path; /* clean absolute host paths */
	size_t n_allow_path;
	bool allow_inline_code;
	bool allow_metachar; /* shell.metachar off (wins over metachar_strict) */
	/* "metachar strict": refuse the characters ; | & > < ` $( and a newline
	 * anywhere; otherwise ("metachar syntax", the default) only shell syntax. */
	bool metachar_strict;
	/* Protected paths and secret masks (core/protect.h): patterns. */
	char **protect;
	size_t n_protect;
	char **mask;
	size_t n_mask;
	char **mask_key; /* masked when holding a private key */
	size_t n_mask_key;
	/* the exec rules' tables (gate_tables.h): wrapper and deny-mode entries */
	struct nsb_wrapper *wrappers;
	size_t n_wrappers;
	struct nsb_deny_mode *deny_modes;
	size_t n_deny_modes;
	/* shell-option rows (gate_shellopt.h): code-bearing options per tool */
	struct nsb_shellopt *shellopt;
	size_t n_shellopt, cap_shellopt;
	/*
	 * The built-in wrapper and shell-option rows are parsed when a command
	 * needs them (gate_tables.c, gate_shellopt.c): parsing all of them for
	 * every launch cost more than the rest of the gate.  lazy: some are
	 * still text; lazy_tools: the tools whose shell-option rows are in.
	 * nsb_gate_policy_load_builtin() parses what is left.
	 */
	bool lazy;
	int lazy_err; /* a row could not be parsed when needed: -errno */
	char *lazy_tools[32];
	size_t n_lazy_tools;

	/* allow-net, deny-net, allow-net-range lines (policy_net.h): NULL
	 * until the first one. */
	struct nsb_net_policy *net;
	/* ask rules (policy_ask.h): NULL until the first one. */
	struct nsb_ask_rules *ask;
};

/* The policy as its lazy rows are added to it: it owns them, and the
 * judging, which sees it const, is where they turn out to be needed. */
static inline struct nsb_gate_policy *nsb_gate_policy_mut(const struct nsb_gate_policy *p)
{
	return (struct nsb_gate_policy *)(uintptr_t)p;
}

/* Parse every built-in row still pending (for --print-policy, --check and
 * tests); rows the policy set by name stay.  0 or -ENOMEM. */
int nsb_gate_policy_load_builtin(struct nsb_gate_policy *p);

/* Empty policy: nothing denied, nothing relaxed. */
void nsb_gate_policy_init(struct nsb_gate_policy *p);
/* The built-in default: the default deny list, every rule on. 0 or -ENOMEM. */
int nsb_gate_policy_init_default(struct nsb_gate_policy *p);
void nsb_gate_policy_free(struct nsb_gate_policy *p);

/*
 * Add one entry (a copy is kept; duplicates are ignored).
 * Returns 0, -EINVAL (empty, too long, '/' or whitespace in a name; a path
 * that is not clean and absolute), -E2BIG (list full) or -ENOMEM.
 */
int nsb_gate_policy_deny_exec(struct nsb_gate_policy *p, const char *name);
int nsb_gate_policy_allow_exec(struct nsb_gate_policy *p, const char *name);
int nsb_gate_policy_allow_path(struct nsb_gate_policy *p, const char *dir);

/* Add a protect, mask or mask-key pattern: 0, -EINVAL (nsb_protect_glob_valid),
 * -E2BIG (list full) or -ENOMEM. */
enum nsb_glob_list {
	NSB_GLOB_PROTECT,
	NSB_GLOB_MASK,
	NSB_GLOB_MASK_KEY,
};
int nsb_gate_policy_glob(struct nsb_gate_policy *p, enum nsb_glob_list which, const char *glob);

/* True when the executable name (a basename) is denied: a deny-exec entry
 * matches it and no allow-exec entry does. */
bool nsb_gate_name_denied(const struct nsb_gate_policy *p, const char *name);

/* The shell.metachar mode in force: "off", "strict" or "syntax". */
const char *nsb_gate_metachar_mode(const struct nsb_gate_policy *p);

/* The names of the default deny list, name after name (nsb_strs_next), for
 * docs and tests. */
extern const char nsb_gate_default_deny[];
