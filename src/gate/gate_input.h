/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the gate is handed and what it answers: the command, the roots it may
 * reach, the filesystem seen through struct nsb_fs_ops, and the verdict.
 * Also the two lookups every rule and the caller share: mapping an inside
 * path to the host through the roots, and a command's basename.
 */
#pragma once

/* Entry types of list_dir, the values readdir's d_type has on Linux. */
#define NSB_DT_UNKNOWN 0
#define NSB_DT_DIR     4
#define NSB_DT_REG     8
#define NSB_DT_LNK     10

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#define NSB_GATE_TOKEN_MAX    512 /* bytes of the offending argument kept */
#define NSB_GATE_TEXT_MAX     768 /* hint and reason */
#define NSB_GATE_MAX_WRAPPERS 8	  /* nested wrappers looked through */

/* Stable rule ids (documented in nsbox-policy(5)); never renamed. */
#define NSB_RULE_EXEC_DENYLIST	   "exec.denylist"
#define NSB_RULE_EXEC_WRAPPER	   "exec.wrapper"
#define NSB_RULE_INTERP_INLINE	   "interp.inline"
#define NSB_RULE_SHELL_METACHAR	   "shell.metachar"
#define NSB_RULE_PATH_OUTSIDE	   "path.outside"
#define NSB_RULE_PATH_SYMLINK_ESC  "path.symlink_escape"
#define NSB_RULE_EXEC_DESTRUCTIVE  "exec.destructive_mode"
#define NSB_RULE_PATH_TOO_LONG	   "path.too_long"
#define NSB_RULE_INTERP_STDIN	   "interp.stdin"
#define NSB_RULE_EXEC_SHELL_OPTION "exec.shell_option"

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
	/*
	 * Optional: what the host file at path is to a PATH search, as
	 * nsb_path_kind answers it (base/path_search.h).  With it the gate
	 * runs the PATH search itself (gate_which.c), with any PATH; without
	 * it only which is asked, for the sandbox's PATH.
	 */
	int (*exec_probe)(void *ud, const char *path);
	/*
	 * Optional: call fn with each name in the host directory dir (one
	 * level, at most NSB_GATE_LIST_MAX names), its type (NSB_DT_*, as
	 * readdir gives it) and inode number (0 when unknown), until fn
	 * returns non-zero; 0 or -errno.  Used to find a denied name that is
	 * the command's own file (gate_deny.c).
	 */
	int (*list_dir)(void *ud, const char *dir,
			int (*fn)(void *fnud, const char *name, unsigned char type,
				  unsigned long long ino),
			void *fnud);
	/*
	 * Optional: list_dir for the names keep accepts, which the host may
	 * answer from a cache (gate_fs_cache.c) kept under key, a digest of
	 * everything keep decides by; fn sees only kept names.  Without it,
	 * list_dir is asked and keep applied here.
	 */
	int (*list_kept)(void *ud, const char *dir, const unsigned char key[32],
			 bool (*keep)(void *fnud, const char *name),
			 int (*fn)(void *fnud, const char *name, unsigned char type,
				   unsigned long long ino),
			 void *fnud);
	/*
	 * Optional: the identity of the host file at path, links followed
	 * (stat(2): device and inode), so that hard links to a denied file are
	 * known as that file; 0 or -errno.
	 */
	int (*file_id)(void *ud, const char *path, unsigned long long *dev,
		       unsigned long long *ino);
};

#define NSB_GATE_LIST_MAX 65536 /* names read from one PATH directory */

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
	/* The sandbox's PATH (the plan's, --env PATH included); NULL: the
	 * sandbox default.  Commands are looked up in it (gate_which.c). */
	const char *path_list;
	/*
	 * The inside destination of every mount of the plan (system view,
	 * /proc, /dev, /tmp, the project, --ro/--rw/--tmpfs): a top-level
	 * name none of them starts with does not exist in the sandbox, whose
	 * root is a read-only tmpfs.  NULL: unknown, every name may exist.
	 */
	const char *const *view;
	size_t n_view;
};

struct nsb_gate_verdict {
	bool allowed;
	const char *rule;     /* NSB_RULE_*, NULL when allowed */
	int argv_index;	      /* offending argument, -1 when allowed */
	const char *metachar; /* the shell.metachar mode that judged: "syntax", "strict", "off" */
	/* An exec or argv ask rule matched (policy_ask.h): 1 + its index in
	 * the policy's ask rules, 0 for none; and the command's position. */
	int ask_rule;
	int ask_argv_index;
	/* The texts last, the longest at the end: an allowed verdict leaves
	 * them empty, and the pages it writes stay few. */
	char token[NSB_GATE_TOKEN_MAX]; /* that argument (truncated to fit) */
	char hint[NSB_GATE_TEXT_MAX];	/* how to do the legitimate thing */
	char reason[NSB_GATE_TEXT_MAX]; /* what was refused and why */
	char resolved[PATH_MAX];	/* host path for path rules, else "" */
};

/*
 * Map an absolute inside path to the host path through the roots (paths
 * outside every root are the same on both sides).  0 or -ENAMETOOLONG.
 */
int nsb_gate_map_host(const struct nsb_gate_input *in, const char *inside, char *out, size_t outsz);

/* Basename of a path ("/usr/bin/rm" -> "rm"; "rm" -> "rm"). */
const char *nsb_gate_basename(const char *path);
