// SPDX-License-Identifier: GPL-2.0-or-later
/* Proxy mode's parts of the record (result_net.h).  Pure (supervisor). */
#include "base/json.h"
#include "core/result_net.h"

/* Proxy mode's "network": {"mode":"proxy","port":P,"allow":[..],"deny":[..],"ranges":[..]}. */
void nsb_result_put_net_policy(struct nsb_json *j, const struct nsb_net_policy *p)
{
	char buf[NSB_NET_HOST_MAX + 32];

	nsb_json_key(j, "network");
	nsb_json_begin_object(j);
	nsb_json_put_str(j, "mode", "proxy");
	nsb_json_put_uint(j, "port", p->port);
	nsb_json_key(j, "allow");
	nsb_json_begin_array(j);
	for (size_t i = 0; i < p->n_allow; i++) {
		nsb_net_entry_format(&p->allow[i], buf, sizeof(buf));
		nsb_json_string(j, buf);
	}
	nsb_json_end_array(j);
	nsb_json_key(j, "deny");
	nsb_json_begin_array(j);
	for (size_t i = 0; i < p->n_deny; i++) {
		nsb_net_entry_format(&p->deny[i], buf, sizeof(buf));
		nsb_json_string(j, buf);
	}
	nsb_json_end_array(j);
	nsb_json_key(j, "ranges");
	nsb_json_begin_array(j);
	for (size_t i = 0; i < p->n_ranges; i++) {
		nsb_net_range_format(&p->ranges[i], buf, sizeof(buf));
		nsb_json_string(j, buf);
	}
	nsb_json_end_array(j);
	nsb_json_end_object(j);
}

/* The top-level "network": {"connections":[...], "more": N}. */
void nsb_result_put_network(struct nsb_json *j, const struct nsb_result *r)
{
	nsb_json_key(j, "network");
	nsb_json_begin_object(j);
	nsb_json_key(j, "connections");
	nsb_json_begin_array(j);
	for (size_t i = 0; i < r->n_net_conns; i++) {
		const struct nsb_net_conn *c = &r->net_conns[i];
		nsb_json_begin_object(j);
		nsb_json_put_str(j, "host", c->host);
		nsb_json_put_uint(j, "port", c->port);
		nsb_json_put_str(j, "protocol", c->protocol);
		nsb_json_put_bool(j, "allowed", c->allowed);
		nsb_json_put_str(j, "reason", c->reason);
		nsb_json_key(j, "addresses");
		nsb_json_begin_array(j);
		for (size_t k = 0; k < c->n_addrs && k < NSB_NET_ADDRS_MAX; k++)
			nsb_json_string(j, c->addrs[k]);
		nsb_json_end_array(j);
		nsb_json_put_uint(j, "bytes_up", c->bytes_up);
		nsb_json_put_uint(j, "bytes_down", c->bytes_down);
		nsb_json_put_int(j, "start_ms", c->start_ms);
		nsb_json_put_int(j, "duration_ms", c->duration_ms);
		nsb_json_end_object(j);
	}
	nsb_json_end_array(j);
	nsb_json_put_uint(j, "more", r->net_conns_more);
	nsb_json_end_object(j);
}
