// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exec rules of the front gate: the deny list (gate_deny.c), code in an
 * ordinary tool's options (gate_shellopt.c), wrappers looked through
 * recursively (gate_wrap.c, their table in the policy), and interpreters
 * handed inline code (gate_interp.c).  Each wrapper and interpreter is
 * parsed with its own option syntax, because a generic "skip words that start with
 * a dash" gets both ways wrong: it misses the command behind an option that
 * takes a value (timeout -s KILL 5 rm) and sees code where there is none
 * (python3 script.py -c conf).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gate/gate_deny.h"
#include "gate/gate_exec.h"
#include "gate/gate_interp.h"
#include "gate/gate_opts.h"
#include "gate/policy_ask.h"
#include "gate/gate_rules.h"
#include "gate/gate_shellopt.h"
#include "gate/gate_which.h"
#include "base/macro.h"

/*
 * Judge the command at argv[s] whose arguments run to argv[e-1].  A word
 * filled in from file names or input is no command the gate can judge.
 */
int nsb_gate_exec_cmd(struct nsb_gate_ctx *c, int s, int e, struct nsb_exec_chain ch,
		      const char *real_base, const char *real_path)
{
	const char *cmd = c->in->argv[s];
	const char *called = nsb_gate_basename(cmd);
	char buf[PATH_MAX];

	c->marks[s] |= NSB_ARG_COMMAND;
	for (int i = 0; i < ch.n_subst; i++)
		if (strstr(cmd, ch.subst[i]))
			return nsb_gate_refuse_wrapper(c, s, called,
						       "the command is taken from file names or "
						       "input, which the gate cannot see");
	if (!real_base && nsb_gate_resolve(c->in, ch.path, cmd, buf, sizeof(buf)) == 0) {
		real_path = buf;
		real_base = nsb_gate_basename(buf);
	}
	if (real_base && strcmp(real_base, called) == 0)
		real_base = NULL;
	if (nsb_gate_check_denied(c, s, e, called, real_base, real_path, ch.ids))
		return 1;
	/* Not a refusal: a note for the front (front_ask.c), deny rules winning. */
	nsb_gate_ask_cmd(c, s, e, called, real_base);

	/*
	 * Kind by the called name first: a multi-call binary (busybox) decides
	 * what to be from the name it was called by, and an alias named like
	 * a wrapper or interpreter behaves like one.
	 */
	const struct nsb_wrapper *rw = nsb_gate_find_wrapper(c->p, real_base);
	bool multicall = rw && rw->run == NSB_RUN_APPLET;
	/* Code handed to an ordinary tool in an option (gate_shellopt.c). */
	if (nsb_gate_check_shellopt(c, s, e, called, multicall ? NULL : real_base))
		return 1;
	const struct nsb_wrapper *w = nsb_gate_find_wrapper(c->p, called);
	if (!w && !multicall)
		w = rw;
	if (w)
		return nsb_gate_run_wrapper(c, w, s, e, ch);

	/* Interpreters (gate_interp.c): inline code, stdin, module runners. */
	return nsb_gate_interp_cmd(c, s, e, called, real_base, multicall);
}

int nsb_gate_check_exec(struct nsb_gate_ctx *c)
{
	struct nsb_exec_chain ch = {.ids = nsb_gate_deny_ids_new()};
	/* without memory for the identity list the names still judge */
	int r = nsb_gate_exec_cmd(c, 0, c->in->argc, ch, c->in->cmd_real_base, c->in->cmd_path);
	nsb_gate_deny_ids_free(ch.ids);
	return r;
}
