// SPDX-License-Identifier: GPL-2.0-or-later
/* The egress policy: entries, normalisation, per-connection decisions.  Pure (supervisor). */
#include <arpa/inet.h>
#include <errno.h>
#include <idn2.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "base/fmt.h"
#include "base/util.h"
#include "core/cli_options.h"
#include "core/config.h"
#include "core/netpolicy.h"

/* ---- host names ------------------------------------------------------------- */

static bool ldh(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_';
}

/* One ASCII label appended to out at *o, in small letters. */
static int put_label(const char *s, size_t len, char *out, size_t *o)
{
	if (len == 0 || len > 63 || s[0] == '-' || s[len - 1] == '-')
		return -EINVAL;
	if (*o + len + 1 > NSB_NET_HOST_MAX + 1)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		char ch = (char)((s[i] >= 'A' && s[i] <= 'Z') ? s[i] + 0x20 : s[i]);
		if (!ldh(ch))
			return -EINVAL;
		out[(*o)++] = ch;
	}
	out[*o] = '\0';
	return 0;
}

/*
 * A name with any byte past ASCII goes through UTS #46 (libidn2's
 * non-transitional processing, what current browsers do): case folding,
 * NFC, the width and dot variants ("ＢÜCHER。example"), then Punycode per
 * label.  Whatever it refuses (IDNA2008's disallowed code points, invalid
 * UTF-8, bidi and joiner rules) is not a name.  tmp is rewritten in place.
 */
static int to_a_labels(char *tmp, size_t size)
{
	char *out = NULL;
	size_t n;

	for (n = 0; tmp[n] && !((unsigned char)tmp[n] & 0x80); n++)
		;
	if (!tmp[n])
		return 0;
	if (idn2_to_ascii_8z(tmp, &out, IDN2_NONTRANSITIONAL) != IDN2_OK)
		return -EINVAL;
	n = strlen(out);
	if (n > 0 && out[n - 1] == '.')
		n--; /* a trailing ideographic full stop */
	if (n == 0 || n >= size) {
		idn2_free(out);
		return -EINVAL;
	}
	memcpy(tmp, out, n);
	tmp[n] = '\0';
	idn2_free(out);
	return 0;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

int nsb_net_host_normalize(const char *host, size_t len, char *buf, int *ret_family,
			   uint8_t ret_addr[16])
{
	char tmp[NSB_NET_HOST_MAX + 2];
	uint8_t addr[16] = {0};
	size_t o = 0;
	const char *last;

	if (len > 0 && host[len - 1] == '.')
		len--; /* "example.test." is "example.test" */
	if (len == 0 || len >= sizeof(tmp) || memchr(host, '\0', len))
		return -EINVAL;
	memcpy(tmp, host, len);
	tmp[len] = '\0';
	if (inet_pton(AF_INET, tmp, addr) == 1 || inet_pton(AF_INET6, tmp, addr) == 1) {
		int family = strchr(tmp, ':') ? AF_INET6 : AF_INET;
		nsb_net_addr_format(family, addr, buf, NSB_NET_HOST_MAX + 1);
		*ret_family = family;
		memcpy(ret_addr, addr, 16);
		return 0;
	}
	if (to_a_labels(tmp, sizeof(tmp)) < 0)
		return -EINVAL;
	buf[0] = '\0';
	for (const char *p = tmp; *p;) {
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);
		int r;
		if (o > 0)
			buf[o++] = '.';
		r = put_label(p, n, buf, &o);
		if (r < 0)
			return r;
		if (!dot)
			break;
		p = dot + 1;
		if (!*p)
			return -EINVAL; /* ".." or a second trailing dot */
	}
	/* Browsers read an all-digit last label as an IPv4 address in some
	 * other notation ("127.1", "2130706433"): neither a name nor ours. */
	last = strrchr(buf, '.');
	if (all_digits(last ? last + 1 : buf))
		return -EINVAL;
	*ret_family = 0;
	memset(ret_addr, 0, 16);
	return 0;
}

/* ---- entries ---------------------------------------------------------------- */

static int bad_entry(struct nsb_error *e, const char *opt, const char *s, const char *why)
{
	return nsb_cli_usage_err(
		e, -EINVAL,
		"write HOST, HOST:PORT, HOST:*, *.SUFFIX, [IPv6]:PORT or an origin such as https://api.example.test",
		"%s '%s': %s", opt, s, why);
}

static int parse_port(const char *s, size_t len, struct nsb_net_entry *en)
{
	char buf[8];
	uint64_t v;

	if (len == 1 && s[0] == '*') {
		en->ports = NSB_NET_PORTS_ANY;
		en->port = 0; /* not the origin's */
		return 0;
	}
	if (len == 0 || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (nsb_parse_uint(buf, 65535, &v) < 0 || v == 0)
		return -EINVAL;
	en->ports = NSB_NET_PORTS_ONE;
	en->port = (uint16_t)v;
	return 0;
}

/* The origin's scheme, if any: its length, and its port in *ret_port. */
static size_t scheme_of(const char *s, uint16_t *ret_port)
{
	if (nsb_strncasecmp(s, "https://", 8) == 0) {
		*ret_port = 443;
		return 8;
	}
	if (nsb_strncasecmp(s, "http://", 7) == 0) {
		*ret_port = 80;
		return 7;
	}
	*ret_port = 0;
	return 0;
}

/* Long: one pass over the entry's grammar, every malformed case named. */
int nsb_net_entry_parse(const char *opt, const char *s, struct nsb_net_entry *ret,
			struct nsb_error *e)
{
	struct nsb_net_entry en = {.ports = NSB_NET_PORTS_WEB};
	uint16_t scheme_port;
	size_t len = strlen(s), skip = scheme_of(s, &scheme_port);
	const char *h = s + skip, *end = s + len, *port = NULL, *hend;
	int r;

	if (len == 0 || len > NSB_NET_ENTRY_MAX)
		return bad_entry(e, opt, s, len ? "too long" : "empty entry");
	if (skip) {
		/* An origin: nothing after the authority but one '/'. */
		const char *slash = strchr(h, '/');
		if (slash && slash[1])
			return bad_entry(e, opt, s, "an origin has no path");
		if (slash)
			end = slash;
		if (memchr(h, '@', (size_t)(end - h)))
			return bad_entry(e, opt, s, "an origin has no user name");
		en.ports = NSB_NET_PORTS_ONE;
		en.port = scheme_port;
	} else if (strstr(s, "://")) {
		return bad_entry(e, opt, s, "only http:// and https:// origins are understood");
	}
	if (h < end && *h == '[') {
		const char *close = memchr(h, ']', (size_t)(end - h));
		if (!close)
			return bad_entry(e, opt, s, "'[' without ']'");
		if (close + 1 < end && close[1] != ':')
			return bad_entry(e, opt, s, "text after ']'");
		if (close + 1 < end)
			port = close + 2;
		hend = close;
		h++;
		if (!memchr(h, ':', (size_t)(hend - h)))
			return bad_entry(e, opt, s, "brackets hold an IPv6 address");
	} else {
		const char *colon = memchr(h, ':', (size_t)(end - h));
		/* Two colons or more: a bare IPv6 address, which has no port. */
		if (colon && memchr(colon + 1, ':', (size_t)(end - colon - 1)))
			colon = NULL;
		hend = colon ? colon : end;
		port = colon ? colon + 1 : NULL;
	}
	if (port && parse_port(port, (size_t)(end - port), &en) < 0)
		return bad_entry(e, opt, s, "PORT is 1-65535 or '*'");
	if (hend - h >= 2 && h[0] == '*' && h[1] == '.') {
		en.wildcard = true;
		h += 2;
	}
	if (memchr(h, '*', (size_t)(hend - h)))
		return bad_entry(e, opt, s,
				 "'*' only as the whole first label, as in *.example.test");
	r = nsb_net_host_normalize(h, (size_t)(hend - h), en.host, &en.family, en.addr);
	if (r < 0)
		return bad_entry(e, opt, s, "not a host name or IP address");
	if (en.wildcard && (en.family || !strchr(en.host, '.')))
		return bad_entry(e, opt, s,
				 "a wildcard needs a name of two labels or more after '*.'");
	*ret = en;
	return 0;
}

int nsb_net_range_parse(const char *opt, const char *s, struct nsb_net_range *ret,
			struct nsb_error *e)
{
	struct nsb_net_range rg = {0};
	char buf[64];
	const char *slash = strchr(s, '/');
	size_t n = slash ? (size_t)(slash - s) : strlen(s);
	uint64_t prefix;

	if (n == 0 || n >= sizeof(buf))
		goto bad;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (inet_pton(AF_INET, buf, rg.addr) == 1)
		rg.family = AF_INET;
	else if (inet_pton(AF_INET6, buf, rg.addr) == 1)
		rg.family = AF_INET6;
	else
		goto bad;
	rg.prefix = rg.family == AF_INET ? 32 : 128;
	if (slash) {
		if (nsb_parse_uint(slash + 1, rg.prefix, &prefix) < 0)
			goto bad;
		rg.prefix = (unsigned)prefix;
	}
	/* The host bits are cleared: 10.1.2.3/8 is 10.0.0.0/8. */
	for (unsigned bit = rg.prefix; bit < (rg.family == AF_INET ? 32u : 128u); bit++)
		rg.addr[bit / 8] &= (uint8_t) ~(0x80u >> (bit % 8));
	*ret = rg;
	return 0;
bad:
	return nsb_cli_usage_err(
		e, -EINVAL,
		"write an address and a prefix length, e.g. 10.20.0.0/16 or fd12:3456::/48",
		"%s '%s': not a CIDR range", opt, s);
}

void nsb_net_addr_format(int family, const uint8_t *addr, char *buf, size_t size)
{
	if (!inet_ntop(family, addr, buf, (socklen_t)size) && size)
		buf[0] = '\0';
}

void nsb_net_entry_format(const struct nsb_net_entry *en, char *buf, size_t size)
{
	char port[8];
	const char *ports = port;

	if (en->ports == NSB_NET_PORTS_ANY)
		ports = "*";
	else if (en->ports == NSB_NET_PORTS_WEB)
		ports = "80,443";
	else
		nsb_format(port, sizeof(port), "%u", en->port);
	(void)nsb_snprintf(buf, size, "%s%s%s%s:%s", en->wildcard ? "*." : "",
			   en->family == AF_INET6 ? "[" : "", en->host,
			   en->family == AF_INET6 ? "]" : "", ports);
}

void nsb_net_range_format(const struct nsb_net_range *r, char *buf, size_t size)
{
	char a[64];

	nsb_net_addr_format(r->family, r->addr, a, sizeof(a));
	(void)nsb_snprintf(buf, size, "%s/%u", a, r->prefix);
}

/* ---- decisions ---------------------------------------------------------------- */

bool nsb_net_entry_matches(const struct nsb_net_entry *en, const char *host, uint16_t port)
{
	size_t hl = strlen(host), sl = strlen(en->host);

	if ((en->ports == NSB_NET_PORTS_WEB && port != 80 && port != 443) ||
	    (en->ports == NSB_NET_PORTS_ONE && port != en->port))
		return false;
	if (!en->wildcard)
		return strcmp(host, en->host) == 0;
	/* Subdomains only: "a.example.test" for "*.example.test", never
	 * "example.test" itself nor "badexample.test". */
	return hl > sl + 1 && host[hl - sl - 1] == '.' && strcmp(host + hl - sl, en->host) == 0;
}

int nsb_net_check_host(const struct nsb_net_policy *p, const char *host, uint16_t port,
		       const char **ret_reason)
{
	for (size_t i = 0; i < p->n_deny; i++)
		if (nsb_net_entry_matches(&p->deny[i], host, port)) {
			*ret_reason = "in --deny-net";
			return -EACCES;
		}
	for (size_t i = 0; i < p->n_allow; i++)
		if (nsb_net_entry_matches(&p->allow[i], host, port))
			return 0;
	*ret_reason = "not in --allow-net";
	return -EACCES;
}

/* Does ADDR/PREFIX hold a? (both of the same family, len bytes) */
static bool in_prefix(const uint8_t *a, const uint8_t *net, unsigned prefix)
{
	unsigned full = prefix / 8, rest = prefix % 8;

	if (memcmp(a, net, full) != 0)
		return false;
	return rest == 0 || ((a[full] ^ net[full]) & (uint8_t)(0xFF00u >> rest)) == 0;
}

/* An IPv4 address carried in IPv6 (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96)
 * is judged as the IPv4 address it reaches. */
static int unwrap_v4(int family, const uint8_t **addr)
{
	static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	static const uint8_t nat64[12] = {0, 0x64, 0xff, 0x9b};

	if (family == AF_INET6 &&
	    (memcmp(*addr, mapped, 12) == 0 || memcmp(*addr, nat64, 12) == 0)) {
		*addr += 12;
		return AF_INET;
	}
	return family;
}

bool nsb_net_addr_builtin_denied(int family, const uint8_t *addr)
{
	static const struct {
		uint8_t net[4];
		unsigned prefix;
	} v4[] = {
		{{0}, 8},	   /* "this network", the unspecified address */
		{{10}, 8},	   /* private */
		{{100, 64}, 10},   /* carrier-grade NAT */
		{{127}, 8},	   /* loopback */
		{{169, 254}, 16},  /* link-local, cloud metadata (169.254.169.254) */
		{{172, 16}, 12},   /* private */
		{{192, 0, 0}, 24}, /* IETF protocol assignments */
		{{192, 168}, 16},  /* private */
		{{198, 18}, 15},   /* benchmarking */
		{{224}, 4},	   /* multicast */
		{{240}, 4},	   /* reserved, broadcast */
	};
	static const struct {
		uint8_t net[16];
		unsigned prefix;
	} v6[] = {
		{{0}, 96},	    /* unspecified, loopback, IPv4-compatible */
		{{0xfc}, 7},	    /* unique-local (fd00:ec2::254 among them) */
		{{0xfe, 0x80}, 10}, /* link-local */
		{{0xfe, 0xc0}, 10}, /* site-local (deprecated) */
		{{0xff}, 8},	    /* multicast */
	};

	family = unwrap_v4(family, &addr);
	if (family == AF_INET) {
		for (size_t i = 0; i < ARRAY_SIZE(v4); i++)
			if (in_prefix(addr, v4[i].net, v4[i].prefix))
				return true;
		return false;
	}
	if (family != AF_INET6)
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(v6); i++)
		if (in_prefix(addr, v6[i].net, v6[i].prefix))
			return true;
	return false;
}

bool nsb_net_addr_allowed(const struct nsb_net_policy *p, int family, const uint8_t *addr,
			  bool literal_allowed)
{
	if (!nsb_net_addr_builtin_denied(family, addr) || literal_allowed)
		return true;
	family = unwrap_v4(family, &addr);
	for (size_t i = 0; i < p->n_ranges; i++)
		if (p->ranges[i].family == family &&
		    in_prefix(addr, p->ranges[i].addr, p->ranges[i].prefix))
			return true;
	return false;
}

bool nsb_net_proxy_env(size_t i, uint16_t port, char *name, char *value)
{
	static const char *const names[] = {"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY",
					    "http_proxy", "https_proxy", "all_proxy", "no_proxy"};

	if (i >= ARRAY_SIZE(names))
		return false;
	nsb_format(name, 16, "%s", names[i]);
	if (i % 4 == 3)
		nsb_format(value, 48, "localhost,127.0.0.1");
	else
		nsb_format(value, 48, "%s://127.0.0.1:%u", i % 4 == 2 ? "socks5h" : "http", port);
	return true;
}

int nsb_net_policy_build(const struct nsb_config *c, uint16_t port, struct nsb_net_policy *p,
			 struct nsb_error *e)
{
	int r = 0;

	p->port = port;
	for (size_t i = 0; r >= 0 && i < c->n_allow_net && i < NSB_MAX_NET_ENTRIES; i++)
		r = nsb_net_entry_parse("--allow-net", c->allow_net[i], &p->allow[p->n_allow++], e);
	for (size_t i = 0; r >= 0 && i < c->n_deny_net && i < NSB_MAX_NET_ENTRIES; i++)
		r = nsb_net_entry_parse("--deny-net", c->deny_net[i], &p->deny[p->n_deny++], e);
	for (size_t i = 0; r >= 0 && i < c->n_allow_net_range && i < NSB_MAX_NET_RANGES; i++)
		r = nsb_net_range_parse("--allow-net-range", c->allow_net_range[i],
					&p->ranges[p->n_ranges++], e);
	return r;
}
