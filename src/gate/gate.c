// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The front gate's verdict (supervisor, pure): check the input, then run the
 * rules in their order (gate_rules.h); the first refusal wins.  The policy
 * is in gate_policy.c, the rules in gate_exec.c, gate_metachar.c and
 * gate_path.c; the filesystem is only seen through struct nsb_fs_ops.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "gate/gate.h"
#include "gate/gate_rules.h"
#include "base/macro.h"
#include "core/result.h"

/*
 * Each text only as far as its NUL: a verdict kept in static storage (the
 * front's, in struct nsb_run) costs a page for every page written, and a
 * whole copy wrote three pages of empty texts for an allowed command.
 */
void nsb_gate_verdict_copy_texts(struct nsb_gate_verdict *to, const struct nsb_gate_verdict *v)
{
	memcpy(to->token, v->token, strnlen(v->token, sizeof(v->token) - 1) + 1);
	memcpy(to->hint, v->hint, strnlen(v->hint, sizeof(v->hint) - 1) + 1);
	memcpy(to->reason, v->reason, strnlen(v->reason, sizeof(v->reason) - 1) + 1);
	memcpy(to->resolved, v->resolved, strnlen(v->resolved, sizeof(v->resolved) - 1) + 1);
}

int nsb_gate_check(const struct nsb_gate_policy *p, const struct nsb_gate_input *in,
		   struct nsb_gate_verdict *ret)
{
	if (!p || !in || !ret || !in->argv || in->argc < 1 || !in->argv[0] || !in->cwd ||
	    in->cwd[0] != '/' || !in->fs || !in->fs->realpath || !in->fs->lstat_kind)
		return -EINVAL;
	if (in->argc > NSB_MAX_ARGS)
		return -E2BIG;
	for (int i = 0; i < in->argc; i++)
		if (!in->argv[i])
			return -EINVAL;

	_cleanup_free_ struct nsb_gate_ctx *c = calloc(1, sizeof(*c));
	_cleanup_free_ struct nsb_gate_verdict *v = calloc(1, sizeof(*v));
	if (!c || !v)
		return -ENOMEM;
	c->p = p;
	c->in = in;
	c->v = v;
	v->allowed = true;
	v->argv_index = -1;
	v->metachar = nsb_gate_metachar_mode(p);

	/* exec rules first: the command decides what its arguments mean */
	if (nsb_gate_check_exec(c) == 0 && (p->allow_metachar || nsb_gate_check_metachar(c) == 0))
		nsb_gate_check_paths(c);
	/* a table row needed on the way could not be had: no verdict */
	if (p->lazy_err)
		return p->lazy_err;

	memcpy(ret, v, offsetof(struct nsb_gate_verdict, token));
	nsb_gate_verdict_copy_texts(ret, v);
	return 0;
}

void nsb_gate_denial(const struct nsb_gate_verdict *v, struct nsb_denial *d)
{
	d->stage = "gate";
	d->rule = v->rule;
	d->argv_index = v->argv_index;
	d->token = v->token;
	d->resolved = v->resolved[0] ? v->resolved : NULL;
	d->hint = v->hint;
	d->metachar = v->metachar;
}
