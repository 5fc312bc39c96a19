// SPDX-License-Identifier: GPL-2.0-or-later
/* The egress options' setters (--allow-net and its kin, cli_options.h).  Pure (supervisor). */
#include <errno.h>

#include "base/util.h"
#include "core/cli_options.h"
#include "core/netpolicy.h"

/* --allow-net, --deny-net: checked now (a usage error names the entry), kept as given. */
static int add_net(const struct nsb_cli_option *o, const char *arg, const char **list, size_t *n,
		   struct nsb_cli_state *s, struct nsb_error *e)
{
	struct nsb_net_entry en;
	int r = nsb_net_entry_parse(o->name, arg, &en, e);

	if (r < 0)
		return r;
	if (*n >= NSB_MAX_NET_ARGS)
		return nsb_cli_usage_err(e, -E2BIG, "allow a common parent with *.SUFFIX instead",
					 "%s '%s': too many (at most %d)", o->name, arg,
					 NSB_MAX_NET_ARGS);
	list[(*n)++] = arg;
	s->c->net_proxy = true;
	return 0;
}

int nsb_cli_add_allow_net(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			  struct nsb_error *e)
{
	return add_net(o, arg, s->c->allow_net, &s->c->n_allow_net, s, e);
}

int nsb_cli_add_deny_net(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			 struct nsb_error *e)
{
	return add_net(o, arg, s->c->deny_net, &s->c->n_deny_net, s, e);
}

int nsb_cli_add_allow_net_range(const struct nsb_cli_option *o, const char *arg,
				struct nsb_cli_state *s, struct nsb_error *e)
{
	struct nsb_config *c = s->c;
	struct nsb_net_range rg;
	int r = nsb_net_range_parse(o->name, arg, &rg, e);

	if (r < 0)
		return r;
	if (c->n_allow_net_range >= NSB_MAX_NET_RANGE_ARGS)
		return nsb_cli_usage_err(e, -E2BIG, NULL, "%s '%s': too many (at most %d)", o->name,
					 arg, NSB_MAX_NET_RANGE_ARGS);
	c->allow_net_range[c->n_allow_net_range++] = arg;
	c->net_proxy = true;
	return 0;
}

int nsb_cli_set_proxy_port(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			   struct nsb_error *e)
{
	if (nsb_parse_uint(arg, 65535, &s->c->proxy_port) < 0 || s->c->proxy_port == 0)
		return nsb_cli_usage_err(e, -EINVAL, "PORT is a number from 1 to 65535",
					 "--proxy-port '%s': invalid port", arg);
	s->c->net_proxy = true;
	return 0;
}
