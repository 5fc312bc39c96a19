// SPDX-License-Identifier: GPL-2.0-or-later
/* The record's "approval" member (issue 17, result.h).  Pure (supervisor). */
#include "base/json.h"
#include "core/result.h"

/* The ask rule that held the command and the request's id (nsbox(1)). */
void nsb_result_put_approval(struct nsb_json *j, const struct nsb_result *r)
{
	nsb_json_key(j, "approval");
	nsb_json_begin_object(j);
	nsb_json_put_str(j, "rule", r->approval_rule);
	nsb_json_put_str(j, "consequence", r->approval_consequence);
	nsb_json_put_str(j, "approval_id", r->approval_id);
	nsb_json_put_bool(j, "needed", r->approval_needed);
	nsb_json_put_bool(j, "approved", r->approval_approved);
	nsb_json_put_str(j, "given", r->approval_given);
	if (r->approval_hint)
		nsb_json_put_str(j, "hint", r->approval_hint);
	nsb_json_end_object(j);
}
