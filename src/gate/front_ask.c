// SPDX-License-Identifier: GPL-2.0-or-later
/* allow / ask / deny after the gate (front_ask.h); runs in the supervisor. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/fmt.h"
#include "base/json.h"
#include "base/util.h"
#include "core/approval.h"
#include "core/netpolicy.h"
#include "gate/front.h"
#include "gate/policy.h"

/*
 * The side effects the configuration implies, whatever the request
 * declared: a side-effect rule cannot be stepped round by leaving the
 * declaration out.  Egress (--share-net, an --allow-net entry or range, or
 * the policy's own allow-net lines) is "network"; a writable bind or an
 * overlay that is committed back is "writes_workspace"; neither is
 * "read_only".
 */
static size_t implied_effects(const struct nsb_config *c, const struct nsb_gate_policy *p,
			      const char *ret[2])
{
	const struct nsb_net_policy *pn = p->net;
	bool net = c->share_net || c->n_allow_net || c->n_allow_net_range ||
		   (pn && (pn->n_allow || pn->n_ranges));
	bool writes = c->rw_git;
	size_t n = 0;

	for (size_t i = 0; i < c->n_mounts && !writes; i++)
		writes = c->mounts[i].kind == NSB_MOUNT_RW ||
			 (c->mounts[i].kind == NSB_MOUNT_OVERLAY &&
			  c->overlay_mode == NSB_OVERLAY_COMMIT);
	if (net)
		ret[n++] = "network";
	if (writes)
		ret[n++] = "writes_workspace";
	if (!n)
		ret[n++] = "read_only";
	return n;
}

/* The matching rule: the earliest in the file of the gate's and ours. */
static const struct nsb_ask_rule *match(const struct nsb_config *c, const struct nsb_front *f)
{
	const struct nsb_gate_policy *p = &f->policy;
	const char *effects[3] = {c->request_side_effect};
	size_t n = 1 + implied_effects(c, p, effects + 1), se = 0;
	const struct nsb_ask_rule *r = nsb_ask_side_effect(p, effects, n, &se);
	int g = f->verdict.ask_rule;

	if (g > 0 && (!r || (size_t)(g - 1) < se))
		return &p->ask->rule[g - 1];
	return r;
}

/* SHA-256 of the effective policy as --print-policy writes it. */
static int policy_hash(const struct nsb_gate_policy *p, char ret[NSB_SHA256_HEX],
		       struct nsb_error *e)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int r;

	if (!m)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_GATE, "hash the policy");
	r = nsb_policy_print(m, p, e);
	if (fclose(m) != 0 && r == 0)
		r = nsb_error_set(e, -ENOMEM, NSB_STAGE_GATE, "hash the policy");
	if (r < 0)
		return r;
	nsb_sha256_hex(buf, len, ret);
	return 0;
}

static const char *env_of(const char *name)
{
	return getenv(name);
}

int nsb_front_ask(const struct nsb_config *c, struct nsb_front *f,
		  const struct nsb_front_ask_in *in, struct nsb_error *e)
{
	struct nsb_front_ask *a = &f->ask;
	const struct nsb_ask_rule *rule = NULL;
	char policy_sha[NSB_SHA256_HEX];
	int r;

	/* The flags, and the texts' first bytes but the rule's (read only
	 * when asked, and written then), each only where set: a write, even
	 * of a zero, makes the page the run's, and a launch without an ask
	 * rule then writes none of this. */
	if (a->asked || a->has_consequence || a->has_id || a->approved || a->id[0] ||
	    a->consequence[0]) {
		a->asked = a->has_consequence = a->has_id = a->approved = false;
		a->id[0] = a->consequence[0] = '\0';
	}
	/* Deny rules win: a refused command is refused, not asked about. */
	if (!f->verdict.allowed)
		return 0;
	if (f->policy.ask && (rule = match(c, f))) {
		a->asked = true;
		nsb_ask_rule_text(rule, a->rule, sizeof(a->rule));
		if (rule->consequence) {
			a->has_consequence = true;
			nsb_format(a->consequence, sizeof(a->consequence), "%s", rule->consequence);
		}
	}
	/* The default launch stops here: no hashing, no policy printed. */
	if (!a->asked && !c->approved && !c->check)
		return 0;
	if ((r = policy_hash(&f->policy, policy_sha, e)) < 0)
		return r;
	struct nsb_approval_in ai = {
		.cfg = c,
		.cwd = in->cwd,
		.policy_sha256 = policy_sha,
		.seccomp_sha256 = in->seccomp_sha256,
		.getenv = env_of,
	};
	if ((r = nsb_approval_id(&ai, a->id)) < 0)
		return nsb_error_set(e, r, NSB_STAGE_GATE, "compute the approval id");
	a->has_id = true;
	a->approved = c->approved && nsb_approval_id_equal(c->approved, a->id);
	return 0;
}

bool nsb_front_goes_ahead(const struct nsb_front *f)
{
	return f->verdict.allowed && (!f->ask.asked || f->ask.approved);
}

void nsb_front_ask_json(struct nsb_json *j, const struct nsb_config *c, const struct nsb_front *f)
{
	const struct nsb_front_ask *a = &f->ask;

	nsb_json_put_str(j, "verdict", !f->verdict.allowed ? "deny" : a->asked ? "ask" : "allow");
	nsb_json_key(j, "approval");
	if (!f->verdict.allowed || !a->has_id) {
		nsb_json_null(j);
		return;
	}
	nsb_json_begin_object(j);
	nsb_json_put_str(j, "rule", a->asked ? a->rule : NULL);
	nsb_json_put_str(j, "consequence", a->has_consequence ? a->consequence : NULL);
	nsb_json_put_str(j, "approval_id", a->id);
	nsb_json_put_bool(j, "needed", a->asked);
	nsb_json_put_bool(j, "approved", a->approved);
	nsb_json_put_str(j, "given", c->approved);
	nsb_json_end_object(j);
}
