/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interpreter table of the gate (gate_interp_tab.c): each
 * interpreter's option syntax and how it reads a program from stdin.
 * Internal to gate_interp.c.
 */
#pragma once

#include "gate/gate_interp.h"
#include "gate/gate_opts.h"

enum interp_kind {
	I_PLAIN,
	I_AWK,	  /* the first operand is the program unless -f/--file gave one */
	I_DENO,	  /* deno eval CODE, deno repl --eval CODE, deno run data:/- */
	I_PYTHON, /* -m MOD: module runners looked through */
	I_SHELL,  /* -s reads commands from stdin; a lone "-" ends the options */
	I_PERL,	  /* -M/-m/-d values are code unless plain module names */
	I_NODE,	  /* --import/--require data: URLs are code */
};

enum {
	IA_BARE_STDIN = 1 << 0, /* no operand: the program comes from stdin */
	IA_DASH_STDIN = 1 << 1, /* the operand "-" is stdin */
};

struct interp {
	const char *name; /* family (nsb_gate_tool_family) */
	enum interp_kind kind;
	unsigned attr;
	const char *stdin_flags; /* short flags that read code from stdin (python -i) */
	const char *const *long_stdin;
	struct optspec o;
};

/* The interpreter whose family name is fam exactly, or NULL. */
const struct interp *nsb_gate_interp_lookup(const char *fam);

/* Every row, made (for the tests: a table error aborts when its row is made). */
size_t nsb_gate_interp_count(void);
const struct interp *nsb_gate_interp_at(size_t i);
