// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate's judgement context (supervisor, pure): how a rule records a
 * refusal and words its reason and hint.
 */
#include <stdarg.h>
#include <stdio.h>

#include "base/fmt.h"
#include "gate/gate_ctx.h"

void nsb_gate_text(char *buf, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	nsb_vformat(buf, NSB_GATE_TEXT_MAX, fmt, ap);
	va_end(ap);
}

int nsb_gate_refuse(struct nsb_gate_ctx *c, const char *rule, int idx)
{
	struct nsb_gate_verdict *v = c->v;
	v->allowed = false;
	v->rule = rule;
	v->argv_index = idx;
	nsb_format(v->token, sizeof(v->token), "%s", c->in->argv[idx]);
	return 1;
}
