// SPDX-License-Identifier: GPL-2.0-or-later
/* The front's verdict in a run (run_approval.h); supervisor. */
#include "core/result.h"
#include "supervisor/run.h"
#include "supervisor/run_approval.h"

#define HINT_APPROVE                                                               \
	"nsbox --check with the same options shows the approval_id; once a human " \
	"approved the request, rerun it with --approved ID"

int nsb_run_decide_approval(struct nsb_run *run, struct nsb_error *e)
{
	/* The caller's directory and the compiled filter: what the id covers
	 * besides the options and the policy. */
	struct nsb_front_ask_in in = {
		.cwd = run->cwd_real,
		.seccomp_sha256 = run->bpf.none ? NULL : run->bpf.sha256,
	};

	return nsb_front_ask(run->cfg, &run->front, &in, e);
}

/* The gate refused: nothing is created; main.c prints the refusal. */
static void record_denial(struct nsb_run *run)
{
	const struct nsb_gate_verdict *v = &run->front.verdict;
	struct nsb_result *res = &run->res;

	res->status = NSB_STATUS_DENIED;
	res->denied = true;
	res->exit_code_set = true;
	res->exit_code = NSB_EXIT_CODE_DENIED;
	res->reason = v->reason;
	res->has_denial = true;
	nsb_gate_denial(v, &res->denial);
}

bool nsb_run_gate_stops(struct nsb_run *run)
{
	const struct nsb_front_ask *a = &run->front.ask;
	struct nsb_result *res = &run->res;

	/* Deny rules win: a refused command is never asked about. */
	if (!run->front.verdict.allowed) {
		record_denial(run);
		return true;
	}
	/* Without an ask rule or an --approved id there is nothing to say. */
	if (!a->has_id)
		return false;
	res->has_approval = true;
	res->approval_rule = a->asked ? a->rule : NULL;
	res->approval_consequence = a->has_consequence ? a->consequence : NULL;
	res->approval_id = a->id;
	res->approval_given = run->cfg->approved;
	res->approval_needed = a->asked;
	res->approval_approved = a->approved;
	/* --approved on a command no ask rule holds: it runs as it would
	 * anyway; the record says whether the id matched (nsbox(1)). */
	if (!a->asked || a->approved)
		return false;
	res->status = NSB_STATUS_NEEDS_APPROVAL;
	res->exit_code_set = false;
	res->reason =
		run->cfg->approved
			? "the --approved id does not match this request (nothing ran)"
			: "an ask rule holds the command: a human must approve it (nothing ran)";
	res->approval_hint = HINT_APPROVE;
	return true;
}
