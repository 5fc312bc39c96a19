// SPDX-License-Identifier: GPL-2.0-or-later
/* Proxy mode's policy for a run, from the options and the policy file (run_net.h).  Supervisor. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "gate/policy_net.h"
#include "supervisor/proxy.h"
#include "supervisor/run_net.h"

/*
 * Proxy mode's policy from the options (each entry was checked by the
 * parser; parsed again here, where the result is kept).  Nothing to do,
 * and nothing allocated, without --allow-net and its kin.
 */
int nsb_run_net_options(struct nsb_run *run, struct nsb_error *e)
{
	const struct nsb_config *cfg = run->cfg;
	struct nsb_net_policy *p;

	if (!cfg->net_proxy)
		return 0;
	p = run->net_policy = calloc(1, sizeof(*p));
	if (!p)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_USAGE, "build the network policy");
	return nsb_net_policy_build(cfg, run->plan.proxy_port, p, e);
}

/* The policy file's allow-net lines: proxy mode too, their entries added. */
int nsb_run_net_policy_file(struct nsb_run *run, struct nsb_error *e)
{
	const struct nsb_config *cfg = run->cfg;
	int r;

	if (!run->front.policy.net)
		return 0;
	if (cfg->share_net)
		return nsb_error_setx(
			e, -EINVAL, NSB_STAGE_USAGE,
			"--policy '%s': allow-net, deny-net and allow-net-range cannot be combined with --share-net",
			cfg->policy ? cfg->policy : "");
	if (!run->plan.proxy_port) {
		r = nsb_plan_proxy_env(&run->plan, NSB_DEFAULT_PROXY_PORT, true, e);
		if (r < 0)
			return r;
	}
	if (!run->net_policy && !(run->net_policy = calloc(1, sizeof(*run->net_policy))))
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_USAGE, "build the network policy");
	run->net_policy->port = run->plan.proxy_port;
	return nsb_gate_net_merge(&run->front.policy, run->net_policy, e);
}

void nsb_run_net_start(struct nsb_run *run)
{
	struct nsb_error e = {0};

	if (run->sb.net_sock >= 0 &&
	    nsb_proxy_start(run->net_policy, TAKE_FD(run->sb.net_sock), &run->proxy, &e) < 0)
		fprintf(stderr, "nsbox: %s\n", e.message);
}

void nsb_run_net_stop(struct nsb_run *run, struct nsb_result *res)
{
	nsb_proxy_stop(run->proxy, res);
	run->proxy = NULL;
}

void nsb_run_net_free(struct nsb_run *run)
{
	nsb_run_net_stop(run, &run->res);
	free(run->res.net_conns);
	run->res.net_conns = NULL;
	run->res.n_net_conns = 0;
	free(run->net_policy);
	run->net_policy = NULL;
}
