// SPDX-License-Identifier: GPL-2.0-or-later
/* The record's "approval" member (issue 17, result.h).  Pure (supervisor). */
#include "base/json.h"
#include "core/result.h"

static void put_str(struct nsb_json *j, const char *key, const char *s)
{
	nsb_json_key(j, key);
	nsb_json_string(j, s);
}

static void put_bool(struct nsb_json *j, const char *key, bool v)
{
	nsb_json_key(j, key);
	nsb_json_bool(j, v);
}

/* The ask rule that held the command and the request's id (nsbox(1)). */
void nsb_result_put_approval(struct nsb_json *j, const struct nsb_result *r)
{
	nsb_json_key(j, "approval");
	nsb_json_begin_object(j);
	put_str(j, "rule", r->approval_rule);
	put_str(j, "consequence", r->approval_consequence);
	put_str(j, "approval_id", r->approval_id);
	put_bool(j, "needed", r->approval_needed);
	put_bool(j, "approved", r->approval_approved);
	put_str(j, "given", r->approval_given);
	if (r->approval_hint)
		put_str(j, "hint", r->approval_hint);
	nsb_json_end_object(j);
}
