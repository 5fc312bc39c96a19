/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The policy file's ask rules (issue 17, nsbox-policy(5) APPROVALS): a
 * command that is neither allowed nor refused but needs a human.
 *
 *   ask exec NAME [: CONSEQUENCE]
 *   ask argv NAME WORD... [: CONSEQUENCE]
 *   ask side-effect EFFECT [: CONSEQUENCE]
 *
 * exec and argv rules are matched by the gate at every command position
 * (through wrappers, like the deny list); side-effect rules by the front
 * (front_ask.c), which knows the configuration.  Kept in the gate's policy,
 * allocated at the first rule: a policy without them costs nothing.
 */
#pragma once

#include <stdio.h>

#include "gate/gate_ctx.h"
#include "gate/gate_policy.h"

#define NSB_ASK_MAX_RULES	64  /* ask lines in one policy */
#define NSB_ASK_MAX_WORDS	16  /* NAME and WORDs of one argv rule */
#define NSB_ASK_CONSEQUENCE_MAX 200 /* bytes of the consequence text */
#define NSB_ASK_EFFECT_MAX	32  /* bytes of a side-effect name */
/* The rule as the record names it: "ask argv git push" (at most
 * NSB_POLICY_LINE_MAX bytes, so it always fits). */
#define NSB_ASK_RULE_TEXT_MAX 4200

enum nsb_ask_kind {
	NSB_ASK_EXEC,
	NSB_ASK_ARGV,
	NSB_ASK_SIDE_EFFECT,
};

struct nsb_ask_rule {
	enum nsb_ask_kind kind;
	char *words[NSB_ASK_MAX_WORDS]; /* exec, side-effect: one */
	size_t n_words;
	char *consequence; /* NULL: none given */
};

struct nsb_ask_rules {
	struct nsb_ask_rule rule[NSB_ASK_MAX_RULES];
	size_t n;
};

/*
 * Add the rule on the rest of an "ask" line (arg: after "ask ").  0, or
 * -errno with *ret_col (0-based, in arg) and *ret_why saying what is wrong.
 */
int nsb_ask_add(struct nsb_gate_policy *p, const char *arg, size_t *ret_col, const char **ret_why);

/* The rules, for --print-policy (parsing them again gives them back). */
void nsb_ask_print(FILE *out, const struct nsb_gate_policy *p);

/* "ask argv git push": the rule as written, without its consequence. */
void nsb_ask_rule_text(const struct nsb_ask_rule *r, char *buf, size_t size);

/*
 * The gate's hook (gate_exec.c): the command at argv[s] (called by the name
 * called, real name real_base or NULL), its arguments up to argv[e-1].  An
 * exec or argv rule that matches is noted in the verdict (ask_rule), the
 * earliest rule of the file winning.  Never refuses.
 */
void nsb_gate_ask_cmd(struct nsb_gate_ctx *c, int s, int e, const char *called,
		      const char *real_base);

/* The first side-effect rule naming one of effects (n of them), or NULL. */
const struct nsb_ask_rule *nsb_ask_side_effect(const struct nsb_gate_policy *p,
					       const char *const *effects, size_t n,
					       size_t *ret_index);

void nsb_ask_free(struct nsb_gate_policy *p);
