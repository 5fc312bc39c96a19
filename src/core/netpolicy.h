/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The egress policy of proxy mode (--allow-net, --deny-net, --allow-net-range):
 * entries parsed and normalised, and the decisions the proxy asks for each
 * connection (is HOST:PORT allowed? may it reach this address?).  Pure: no
 * syscalls, no output; the proxy (supervisor/proxy.c) does the I/O.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

#define NSB_MAX_NET_ENTRIES    256  /* --allow-net, --deny-net, each */
#define NSB_MAX_NET_RANGES     64   /* --allow-net-range */
#define NSB_NET_HOST_MAX       253  /* a DNS name in text form, without the final dot */
#define NSB_NET_ENTRY_MAX      1024 /* one entry as given, in bytes */
#define NSB_DEFAULT_PROXY_PORT 3128

/* Which ports an entry covers. */
enum nsb_net_ports {
	NSB_NET_PORTS_WEB, /* none given: 80 and 443 */
	NSB_NET_PORTS_ONE, /* port */
	NSB_NET_PORTS_ANY, /* '*' */
};

struct nsb_net_entry {
	/* Normalised: lower case, A-labels, no trailing dot; an IP literal in
	 * its canonical text form (IPv6 without brackets).  For a wildcard,
	 * the suffix without "*.". */
	char host[NSB_NET_HOST_MAX + 1];
	bool wildcard; /* "*.suffix": subdomains of host only */
	int family;    /* 0 for a name; AF_INET or AF_INET6 for an IP literal */
	uint8_t addr[16];
	enum nsb_net_ports ports;
	uint16_t port;
};

struct nsb_net_range {
	int family; /* AF_INET or AF_INET6 */
	uint8_t addr[16];
	unsigned prefix;
};

struct nsb_net_policy {
	struct nsb_net_entry allow[NSB_MAX_NET_ENTRIES], deny[NSB_MAX_NET_ENTRIES];
	size_t n_allow, n_deny;
	struct nsb_net_range ranges[NSB_MAX_NET_RANGES];
	size_t n_ranges;
	uint16_t port; /* the proxy's port inside */
};

/*
 * Parse one --allow-net/--deny-net entry: HOST, HOST:PORT, HOST:*, [IPv6]:PORT,
 * *.SUFFIX[:PORT], or an origin http[s]://HOST[:PORT][/] (https: 443 only,
 * http: 80 only, unless a port is given).  HOST is a DNS name (UTF-8 labels
 * become A-labels; case and a trailing dot are ignored) or an IP literal.
 * Usage errors (stage "usage") name OPT and the entry.
 */
int nsb_net_entry_parse(const char *opt, const char *s, struct nsb_net_entry *ret,
			struct nsb_error *e);

/* "CIDR" for --allow-net-range: ADDR/PREFIX (or a bare ADDR: one address). */
int nsb_net_range_parse(const char *opt, const char *s, struct nsb_net_range *ret,
			struct nsb_error *e);

struct nsb_config;

/* The policy the options ask for (each entry parsed again), with the proxy's
 * PORT, into the zeroed *p.  Usage errors as nsb_net_entry_parse. */
int nsb_net_policy_build(const struct nsb_config *c, uint16_t port, struct nsb_net_policy *p,
			 struct nsb_error *e);

/* The entry as text: "api.example.test:443", "*.example.test:80,443", "[::1]:*". */
void nsb_net_entry_format(const struct nsb_net_entry *en, char *buf, size_t size);
void nsb_net_range_format(const struct nsb_net_range *r, char *buf, size_t size);

/*
 * Normalise a host the way entries are (for what a client asks the proxy):
 * into buf (NSB_NET_HOST_MAX + 1 bytes), with its IP family (0 for a name)
 * and address.  -EINVAL for a malformed host.
 */
int nsb_net_host_normalize(const char *host, size_t len, char *buf, int *ret_family,
			   uint8_t ret_addr[16]);

/* Does the entry cover this normalised host and port? */
bool nsb_net_entry_matches(const struct nsb_net_entry *en, const char *host, uint16_t port);

/*
 * The request's verdict: 0 allowed; -EACCES refused, with the reason in
 * *ret_reason ("not in --allow-net", "in --deny-net").  Deny wins.
 */
int nsb_net_check_host(const struct nsb_net_policy *p, const char *host, uint16_t port,
		       const char **ret_reason);

/*
 * May a connection go to this resolved address?  The built-in deny set
 * (loopback, link-local, private, unique-local, multicast, unspecified, ...)
 * holds unless a range lifts it, or the request named this very address as
 * an IP literal that an --allow-net entry names (literal_allowed).
 */
bool nsb_net_addr_builtin_denied(int family, const uint8_t *addr);
bool nsb_net_addr_allowed(const struct nsb_net_policy *p, int family, const uint8_t *addr,
			  bool literal_allowed);

/* Text form of an address ("127.0.0.1", "::1"); buf of at least 46 bytes. */
void nsb_net_addr_format(int family, const uint8_t *addr, char *buf, size_t size);

/*
 * Proxy mode's environment, variable I (from 0) for PORT: its name (16
 * bytes) and value (48 bytes); false past the last.  The one port serves
 * HTTP CONNECT, forward requests and SOCKS5 (socks5h: the proxy resolves
 * names; nothing inside can).  Both spellings: curl reads only the
 * lower-case http_proxy, other clients the upper-case forms.
 */
bool nsb_net_proxy_env(size_t i, uint16_t port, char *name, char *value);

/* One connection, as the record lists it (the top-level "network" member). */
#define NSB_NET_RECORD_MAX 1024 /* entries kept; the rest are counted */
#define NSB_NET_ADDRS_MAX  4	/* addresses kept per entry */

struct nsb_net_conn {
	char host[NSB_NET_HOST_MAX + 1];
	uint16_t port;
	const char *protocol; /* "connect", "http", "socks5" */
	bool allowed;
	const char *reason; /* why refused or ended, NULL when allowed and clean */
	char addrs[NSB_NET_ADDRS_MAX][46];
	size_t n_addrs;
	uint64_t bytes_up, bytes_down;
	int64_t start_ms, duration_ms;
};
