/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the exec rules: gate_exec.c judges one command (deny list, the
 * files it names, destructive modes, then wrappers and interpreters);
 * gate_wrap.c finds the command a wrapper runs and hands it back.  The
 * chain says what the commands further in inherit.
 */
#pragma once

#include <stdbool.h>

#include "gate/gate_ctx.h"
#include "gate/gate_tables.h"

#define NSB_GATE_MAX_SUBST 4

struct nsb_deny_ids;

struct nsb_exec_chain {
	int depth;
	/* words holding one of these are filled in from file names or input
	 * (find's {}, xargs -I R): never a command */
	const char *subst[NSB_GATE_MAX_SUBST];
	int n_subst;
	bool input_tail;  /* more words follow from input (xargs): a command may be missing */
	const char *path; /* PATH set on the command line (env PATH=...), NULL: the sandbox's */
	struct nsb_deny_ids *ids; /* the files the deny list names, built on first use */
};

/*
 * Judge the command at argv[s] whose arguments run to argv[e-1].
 * real_base/real_path: the basename and host realpath of the command when
 * the caller knows them (NULL: looked up here).  1 when refused.
 */
int nsb_gate_exec_cmd(struct nsb_gate_ctx *c, int s, int e, struct nsb_exec_chain ch,
		      const char *real_base, const char *real_path);

/* gate_wrap.c: the command a wrapper at argv[s] runs, judged. 1 when refused. */
int nsb_gate_run_wrapper(struct nsb_gate_ctx *c, const struct nsb_wrapper *w, int s, int e,
			 struct nsb_exec_chain ch);

/* Refuse under exec.wrapper with the common hint. Returns 1. */
int nsb_gate_refuse_wrapper(struct nsb_gate_ctx *c, int idx, const char *wname, const char *why);
