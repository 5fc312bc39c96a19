/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The exec rules' tables as data (nsbox-policy(5)): wrappers, the tools
 * that run another command given in their operands, and deny-mode rules,
 * the modes in which an ordinary tool destroys files.  Both are policy
 * directives; the built-in ones are policy text too (gate_builtin.c), so
 * --print-policy shows them in the form an operator extends them in.
 *
 *   wrapper NAME [KEY...] [OPTION...]
 *   deny-mode TOOL WORD...
 *
 * Pure: the words are parsed here, the directive lines in policy.c.
 */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "gate/gate_opts.h"

struct nsb_gate_policy;

#define NSB_GATE_MAX_WRAPPERS_TABLE 256 /* wrapper entries */
#define NSB_GATE_MAX_WRAP_WORDS	    128 /* option words of one wrapper */
#define NSB_GATE_MAX_DENY_MODES	    256
#define NSB_GATE_MAX_MODE_WORDS	    8
#define NSB_GATE_WORD_MAX	    64 /* one option word, key value or mode word */
#define NSB_GATE_TABLE_ERR_MAX	    256

/* Where a wrapper's command starts, after its options. */
enum nsb_wrap_run {
	NSB_RUN_FIRST,	/* the first operand (after skip operands): nice CMD */
	NSB_RUN_ENV,	/* after NAME=VALUE operands: env A=1 CMD */
	NSB_RUN_APPLET, /* a multi-call binary: the first operand names the applet */
	NSB_RUN_FIND,	/* find's -exec/-execdir/-ok/-okdir CMD ... ; (or {} +) */
	NSB_RUN_INPUT,	/* the commands are read from input or a file (at): refused */
};

enum {
	NSB_WRAP_DASH = 1 << 0,		  /* a lone "-" is an option (env -) */
	NSB_WRAP_ADJUST = 1 << 1,	  /* -N, --N, -+N are options (nice) */
	NSB_WRAP_LENIENT = 1 << 2,	  /* unknown options are plain flags (valgrind) */
	NSB_WRAP_INPUT_ARGS = 1 << 3,	  /* the command gets more words from input (xargs) */
	NSB_WRAP_INPUT_COMMANDS = 1 << 4, /* with no command, input lines are run (parallel) */
	NSB_WRAP_SHELL = 1 << 5,	  /* the operands are joined and run by sh -c (watch) */
};

/* Classes of option words: the suffix after the option's name. */
enum nsb_wopt_class {
	NSB_WOPT_FLAG,	    /* -x, --name */
	NSB_WOPT_ARG,	    /* -x=, --name=: takes a value */
	NSB_WOPT_OPTIONAL,  /* -x?, --name?: an optional value, glued or after '=' */
	NSB_WOPT_REFUSE,    /* -x!, --name!: hides the command that runs */
	NSB_WOPT_NOEXEC,    /* -x., --name.: the tool then runs no command */
	NSB_WOPT_SUBST,	    /* -x@, --name@: the value is the substitution string */
	NSB_WOPT_SUBST_OPT, /* -x?@, --name?@: optional, default the wrapper's subst= */
	NSB_WOPT_SPLIT,	    /* -x%, --name%: the value is a command line, split on blanks */
	NSB_WOPT_N,
};

struct nsb_wrapper {
	char *name;
	enum nsb_wrap_run run;
	unsigned skip;	/* operands before the command (timeout's DURATION) */
	unsigned flags; /* NSB_WRAP_* */
	char *subst;	/* the substitution string, or NULL (find: "{}") */
	char *end;	/* an operand starting with this ends the command (":::") */
	char **words;	/* the option words as written (printing) */
	size_t n_words;
	/* derived from words: what the option parser reads */
	char shorts[NSB_WOPT_N][NSB_GATE_MAX_WRAP_WORDS + 1];
	const char **longs[NSB_WOPT_N]; /* NULL-terminated, pointing into words */
};

/* The option parser's view of w (pointing into w: build it where it is used). */
void nsb_gate_wrapper_optspec(const struct nsb_wrapper *w, struct optspec *ret);

struct nsb_deny_mode {
	char *tool;
	char *words[NSB_GATE_MAX_MODE_WORDS];
	size_t n_words;
};

/*
 * Add one directive from the words after its keyword (args, NUL-terminated,
 * blank-separated).  A wrapper NAME already present is replaced in place.
 * Returns 0, or -EINVAL/-E2BIG/-ENOMEM with *ret_off the byte offset of the
 * offending word in args and err a message (NSB_GATE_TABLE_ERR_MAX bytes).
 */
int nsb_gate_wrapper_add(struct nsb_gate_policy *p, const char *args, size_t *ret_off, char *err);
int nsb_gate_deny_mode_add(struct nsb_gate_policy *p, const char *args, size_t *ret_off, char *err);

/* The built-in tables (gate_builtin.c), added to p. 0 or -ENOMEM. */
int nsb_gate_tables_default(struct nsb_gate_policy *p);
/* Every built-in wrapper row not named by the policy already. */
int nsb_gate_wrappers_load_all(struct nsb_gate_policy *p);
void nsb_gate_tables_free(struct nsb_gate_policy *p);

struct nsb_json;
/* The --check document's view: "wrappers" (names), "deny_modes" ("TOOL WORD..."). */
void nsb_gate_tables_json(struct nsb_json *j, const struct nsb_gate_policy *p);

/* Print both tables as directives, one per line. */
void nsb_gate_tables_print(FILE *out, const struct nsb_gate_policy *p);

const struct nsb_wrapper *nsb_gate_find_wrapper(const struct nsb_gate_policy *p, const char *name);

/* The built-in table's lines, line after line (nsb_strs_next; gate_builtin.c). */
extern const char nsb_gate_builtin_tables[];
