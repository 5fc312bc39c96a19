// SPDX-License-Identifier: GPL-2.0-or-later
/* The record's "approval" and the needs_approval stop (run_approval.h); supervisor. */
#include "core/result.h"
#include "supervisor/run.h"
#include "supervisor/run_approval.h"

#define HINT_APPROVE                                                               \
	"nsbox --check with the same options shows the approval_id; once a human " \
	"approved the request, rerun it with --approved ID"

bool nsb_run_record_approval(struct nsb_run *run)
{
	const struct nsb_front_ask *a = &run->front.ask;
	struct nsb_result *res = &run->res;

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
