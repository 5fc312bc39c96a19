// SPDX-License-Identifier: GPL-2.0-or-later
/* The record's "request" member: who asked, why, and what the request said it
 * would touch (issue 17), so an audit log can tie the run to it.  Pure. */
#include "core/config.h"
#include "core/result.h"
#include "base/json.h"

void nsb_result_set_request(struct nsb_result *r, const struct nsb_config *c)
{
	r->has_request = c->from_request;
	r->request_actor = c->request_actor;
	r->request_reason = c->request_reason;
	r->request_side_effect = c->request_side_effect;
}

/* Each value bounded by the request (NSB_REQUEST_MAX_META); null when not given. */
void nsb_request_echo_put(struct nsb_json *j, const char *actor, const char *reason,
			  const char *side_effect)
{
	nsb_json_key(j, "request");
	nsb_json_begin_object(j);
	nsb_json_put_str(j, "actor", actor);
	nsb_json_put_str(j, "reason", reason);
	nsb_json_put_str(j, "side_effect", side_effect);
	nsb_json_end_object(j);
}

void nsb_result_put_request(struct nsb_json *j, const struct nsb_result *r)
{
	nsb_request_echo_put(j, r->request_actor, r->request_reason, r->request_side_effect);
}
