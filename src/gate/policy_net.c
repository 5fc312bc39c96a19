// SPDX-License-Identifier: GPL-2.0-or-later
/* The policy file's allow-net, deny-net and allow-net-range lines (policy_net.h).  Pure. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/fmt.h"
#include "base/util.h"
#include "gate/policy_net.h"

bool nsb_gate_net_directive(const char *word, size_t len)
{
	static const char *const words[] = {"allow-net", "deny-net", "allow-net-range"};

	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i]) == len && strncmp(word, words[i], len) == 0)
			return true;
	return false;
}

int nsb_gate_net_add(struct nsb_gate_policy *p, const char *word, const char *arg, char *msg,
		     size_t size)
{
	struct nsb_net_policy *np = p->net;
	struct nsb_error e = {0};
	bool range = strcmp(word, "allow-net-range") == 0, deny = strcmp(word, "deny-net") == 0;
	size_t n = range  ? np ? np->n_ranges : 0
		   : deny ? np ? np->n_deny : 0
		   : np	  ? np->n_allow
			  : 0;
	int r;

	if (n >= (range ? NSB_MAX_NET_RANGES : NSB_MAX_NET_ENTRIES)) {
		nsb_format(msg, size, "too many %s entries (at most %d)", word,
			   range ? NSB_MAX_NET_RANGES : NSB_MAX_NET_ENTRIES);
		return -E2BIG;
	}
	if (!np && !(np = p->net = calloc(1, sizeof(*np)))) {
		nsb_format(msg, size, "out of memory");
		return -ENOMEM;
	}
	if (range)
		r = nsb_net_range_parse(word, arg, &np->ranges[np->n_ranges], &e);
	else
		r = nsb_net_entry_parse(word, arg,
					deny ? &np->deny[np->n_deny] : &np->allow[np->n_allow], &e);
	if (r < 0) {
		nsb_format(msg, size, "%s", e.message);
		return r;
	}
	if (range)
		np->n_ranges++;
	else if (deny)
		np->n_deny++;
	else
		np->n_allow++;
	return 0;
}

int nsb_gate_net_merge(const struct nsb_gate_policy *p, struct nsb_net_policy *np,
		       struct nsb_error *e)
{
	const struct nsb_net_policy *g = p->net;

	if (!g)
		return 0;
	if (np->n_allow + g->n_allow > NSB_MAX_NET_ENTRIES ||
	    np->n_deny + g->n_deny > NSB_MAX_NET_ENTRIES ||
	    np->n_ranges + g->n_ranges > NSB_MAX_NET_RANGES)
		return nsb_error_setx(
			e, -E2BIG, NSB_STAGE_USAGE,
			"too many network entries in the options and the policy together (at most %d of each, %d ranges)",
			NSB_MAX_NET_ENTRIES, NSB_MAX_NET_RANGES);
	memcpy(&np->allow[np->n_allow], g->allow, g->n_allow * sizeof(g->allow[0]));
	np->n_allow += g->n_allow;
	memcpy(&np->deny[np->n_deny], g->deny, g->n_deny * sizeof(g->deny[0]));
	np->n_deny += g->n_deny;
	memcpy(&np->ranges[np->n_ranges], g->ranges, g->n_ranges * sizeof(g->ranges[0]));
	np->n_ranges += g->n_ranges;
	return 0;
}

/* The entry as a line reads it back: the default ports are not written. */
static const char *entry_text(const struct nsb_net_entry *en, char *buf, size_t size)
{
	size_t n;

	nsb_net_entry_format(en, buf, size);
	n = strlen(buf);
	if (en->ports == NSB_NET_PORTS_WEB && n > 7 && strcmp(buf + n - 7, ":80,443") == 0)
		buf[n - 7] = '\0';
	return buf;
}

void nsb_gate_net_print(FILE *out, const struct nsb_gate_policy *p)
{
	const struct nsb_net_policy *g = p->net;
	char buf[NSB_NET_HOST_MAX + 32];

	if (!g)
		return; /* the default policy's text stays as it was */
	fprintf(out, "\n# Network egress through nsbox's proxy (nsbox(1), NETWORK).\n");
	for (size_t i = 0; i < g->n_allow; i++)
		fprintf(out, "allow-net %s\n", entry_text(&g->allow[i], buf, sizeof(buf)));
	for (size_t i = 0; i < g->n_deny; i++)
		fprintf(out, "deny-net %s\n", entry_text(&g->deny[i], buf, sizeof(buf)));
	for (size_t i = 0; i < g->n_ranges; i++) {
		nsb_net_range_format(&g->ranges[i], buf, sizeof(buf));
		fprintf(out, "allow-net-range %s\n", buf);
	}
}
