/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The front gate (issue 3): a pure verdict on the command line, computed in
 * the supervisor before any namespace, cgroup or process exists.  Everything
 * the gate learns about the filesystem comes through struct nsb_fs_ops, so
 * the rules can be tested and fuzzed against an in-memory table.
 *
 * Rules, evaluated in this order; the first refusal wins:
 *   exec.denylist       the command (or a wrapped one) is on the deny list
 *   exec.wrapper        a wrapper runs something the gate cannot see
 *   interp.inline       an interpreter is handed program text in argv
 *   shell.metachar      an argument carries shell syntax that no shell will run
 *   path.outside        a path argument lands outside every allowed root
 *   path.symlink_escape a path under a root leaves it through a symlink
 */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "result.h"

/* Limits on a policy (each reached limit is a clear error, never a silent cut). */
#define NSB_GATE_MAX_NAMES    256 /* deny-exec / allow-exec entries, each list */
#define NSB_GATE_MAX_PATHS    64  /* allow-path entries */
#define NSB_GATE_NAME_MAX     255 /* one executable name (NAME_MAX) */
#define NSB_GATE_TOKEN_MAX    512 /* bytes of the offending argument kept */
#define NSB_GATE_TEXT_MAX     768 /* hint and reason */
#define NSB_GATE_MAX_WRAPPERS 8	  /* nested wrappers looked through */

/* Stable rule ids (documented in nsbox-policy(5)); never renamed. */
#define NSB_RULE_EXEC_DENYLIST	  "exec.denylist"
#define NSB_RULE_EXEC_WRAPPER	  "exec.wrapper"
#define NSB_RULE_INTERP_INLINE	  "interp.inline"
#define NSB_RULE_SHELL_METACHAR	  "shell.metachar"
#define NSB_RULE_PATH_OUTSIDE	  "path.outside"
#define NSB_RULE_PATH_SYMLINK_ESC "path.symlink_escape"

/*
 * Every gate setting.  The policy owns its strings (copies), so it can be
 * filled from argv, from a policy file or from the built-in default alike.
 * A deny-exec NAME ending in '*' matches every name with that prefix
 * ("mkfs.*").  allow-exec wins over deny-exec.
 */
struct nsb_gate_policy {
	char *deny_exec[NSB_GATE_MAX_NAMES];
	size_t n_deny_exec;
	char *allow_exec[NSB_GATE_MAX_NAMES];
	size_t n_allow_exec;
	char *allow_path[NSB_GATE_MAX_PATHS]; /* clean absolute host paths */
	size_t n_allow_path;
	bool allow_inline_code;
	bool allow_metachar;
};

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

/* True when the executable name (a basename) is denied: a deny-exec entry
 * matches it and no allow-exec entry does. */
bool nsb_gate_name_denied(const struct nsb_gate_policy *p, const char *name);

/* The names of the default deny list, NULL-terminated (for docs and tests). */
extern const char *const nsb_gate_default_deny[];

/* What lstat_kind reports. */
enum nsb_fs_kind {
	NSB_FS_FILE,
	NSB_FS_DIR,
	NSB_FS_SYMLINK,
	NSB_FS_OTHER,
};

/*
 * Filesystem facts, all on host paths.  The gate maps inside paths to host
 * paths through the roots itself and never touches the filesystem directly.
 */
struct nsb_fs_ops {
	void *ud;
	/* realpath(3): 0 with out filled, or -errno (-ENOENT, -ELOOP, ...). */
	int (*realpath)(void *ud, const char *path, char *out, size_t outsz);
	/* lstat(2) kind: an enum nsb_fs_kind >= 0, or -errno (-ENOENT when absent). */
	int (*lstat_kind)(void *ud, const char *path);
	/*
	 * Optional (may be NULL): look a bare command name up in the sandbox's
	 * PATH and give the realpath of the hit, or -ENOENT.  Used to see
	 * through aliases of wrapped commands (env foo where foo -> rm).
	 */
	int (*which)(void *ud, const char *name, char *out, size_t outsz);
};

/* A directory the command may reach: the project root, each --ro/--rw. */
struct nsb_gate_root {
	const char *inside; /* clean absolute path inside the sandbox */
	const char *host;   /* clean absolute, symlink-free host path */
	bool writable;
};

struct nsb_gate_input {
	char *const *argv; /* the command's argv; argv[0] is the command */
	int argc;
	/*
	 * The command as the caller resolved it inside the sandbox (PATH
	 * lookup), and the basename of its realpath ("python3.11" for
	 * python3).  Either may be NULL when unknown.
	 */
	const char *cmd_path;
	const char *cmd_real_base;
	const char *cwd;  /* working directory inside, clean absolute */
	const char *home; /* the host user's home for '~', or NULL */
	const struct nsb_gate_root *roots;
	size_t n_roots;
	const struct nsb_fs_ops *fs;
};

struct nsb_gate_verdict {
	bool allowed;
	const char *rule;		/* NSB_RULE_*, NULL when allowed */
	int argv_index;			/* offending argument, -1 when allowed */
	char token[NSB_GATE_TOKEN_MAX]; /* that argument (truncated to fit) */
	char resolved[PATH_MAX];	/* host path for path rules, else "" */
	char hint[NSB_GATE_TEXT_MAX];	/* how to do the legitimate thing */
	char reason[NSB_GATE_TEXT_MAX]; /* what was refused and why */
};

/*
 * Judge the command.  Returns 0 with *ret filled (allowed or refused), or
 * -EINVAL when the input itself is malformed (no argv, cwd not absolute,
 * missing fs ops).  Bounded: O(argc) filesystem lookups, no directory walks.
 */
int nsb_gate_check(const struct nsb_gate_policy *p, const struct nsb_gate_input *in,
		   struct nsb_gate_verdict *ret);

/* Fill the record's denial from a refusal; d's strings point into v. */
void nsb_gate_denial(const struct nsb_gate_verdict *v, struct nsb_denial *d);

/*
 * The real filesystem (gate_fs.c, impure): realpath(3) and lstat(2) on the
 * host.  which searches path_list (colon-separated directories, inside
 * paths mapped to host paths through roots; NULL: the sandbox default PATH).
 */
struct nsb_gate_fs_host {
	const struct nsb_gate_root *roots;
	size_t n_roots;
	const char *path_list;
};
void nsb_gate_fs_host_ops(struct nsb_gate_fs_host *h, struct nsb_fs_ops *ret);
