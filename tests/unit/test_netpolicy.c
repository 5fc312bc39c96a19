// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Proxy mode's pure parts: --allow-net entries and their normalisation, the
 * options on the command line, the per-connection decisions, the built-in
 * address deny set, the request parsers (HTTP, SOCKS5, TLS SNI) and the
 * record's network members.
 */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include "core/cli.h"
#include "core/netparse.h"
#include "core/netpolicy.h"
#include "core/result.h"
#include "gate/gate_policy.h"
#include "gate/policy.h"
#include "gate/policy_net.h"
#include "json_check.h"
#include "unit.h"

/* Criterion's eq(str, ...) takes char *; -Wwrite-strings makes literals const. */
#pragma GCC diagnostic ignored "-Wdiscarded-qualifiers"

static struct nsb_net_entry en;
static struct nsb_error err;

static int parse(const char *s)
{
	memset(&en, 0, sizeof(en));
	memset(&err, 0, sizeof(err));
	return nsb_net_entry_parse("--allow-net", s, &en, &err);
}

static void expect_entry(const char *in, const char *formatted)
{
	char buf[512];

	cr_assert(eq(int, parse(in), 0), "'%s': %s", in, err.message);
	nsb_net_entry_format(&en, buf, sizeof(buf));
	cr_expect(strcmp(buf, formatted) == 0, "'%s' -> '%s', want '%s'", in, buf, formatted);
}

/* ---- entries ----------------------------------------------------------------------- */

Test(netpolicy, names_ports_and_defaults)
{
	expect_entry("example.test", "example.test:80,443");
	expect_entry("example.test:8443", "example.test:8443");
	expect_entry("example.test:*", "example.test:*");
	expect_entry("Example.TEST.", "example.test:80,443");
	expect_entry("*.example.test", "*.example.test:80,443");
	expect_entry("*.Example.test:22", "*.example.test:22");
	expect_entry("pypi_mirror.corp.test", "pypi_mirror.corp.test:80,443");
}

Test(netpolicy, origins_are_normalised_like_a_browser)
{
	expect_entry("https://api.example.test", "api.example.test:443");
	expect_entry("HTTPS://API.example.test/", "api.example.test:443");
	expect_entry("http://api.example.test", "api.example.test:80");
	expect_entry("https://api.example.test:8443", "api.example.test:8443");
	expect_entry("https://[::1]:8443", "[::1]:8443");
}

Test(netpolicy, ip_literals)
{
	expect_entry("127.0.0.1:8080", "127.0.0.1:8080");
	expect_entry("[::1]:80", "[::1]:80");
	expect_entry("::1", "[::1]:80,443");
	expect_entry("[0:0::1]", "[::1]:80,443");
	expect_entry("[::ffff:10.0.0.1]:443", "[::ffff:10.0.0.1]:443");
	cr_expect(eq(int, en.family, AF_INET6));
	cr_expect(eq(int, parse("10.1.2.3"), 0));
	cr_expect(eq(int, en.family, AF_INET));
}

Test(netpolicy, internationalised_names_become_a_labels)
{
	expect_entry("bücher.example", "xn--bcher-kva.example:80,443");
	expect_entry("münchen.test:443", "xn--mnchen-3ya.test:443");
	/* Latin-1 capitals fold as their small letters. */
	expect_entry("BÜCHER.example", "xn--bcher-kva.example:80,443");
	/* RFC 3492's sample (Chinese, simplified). */
	expect_entry("\xe4\xbb\x96\xe4\xbb\xac\xe4\xb8\xba\xe4\xbb\x80\xe4\xb9\x88\xe4\xb8\x8d"
		     "\xe8\xaf\xb4\xe4\xb8\xad\xe6\x96\x87.test",
		     "xn--ihqwcrb4cv8a8dqg056pqjye.test:80,443");
	expect_entry("xn--bcher-kva.example", "xn--bcher-kva.example:80,443");
	/* UTS #46 mapping: fullwidth letters, capitals beyond Latin-1, the
	 * ideographic full stop as a dot, sharp s kept (non-transitional). */
	expect_entry("\xef\xbc\xa2\xc3\x9c\x43HER.example", "xn--bcher-kva.example:80,443");
	expect_entry("b\xc3\xbc\x63her\xe3\x80\x82\x65xample", "xn--bcher-kva.example:80,443");
	expect_entry("\xce\x91\xce\x92\xce\x93.test", "xn--mxacd.test:80,443");
	expect_entry("fa\xc3\x9f.de", "xn--fa-hia.de:80,443");
	expect_entry("*.B\xc3\x9c\x43HER.example", "*.xn--bcher-kva.example:80,443");
}

Test(netpolicy, malformed_entries_are_usage_errors_naming_the_entry)
{
	static const char *const bad[] = {
		"",
		"example.test:0",
		"example.test:65536",
		"example.test:http",
		"example.test:",
		"ftp://example.test",
		"https://example.test/path",
		"https://user@example.test",
		"*.test",
		"*example.test",
		"a.*.example.test",
		"*.127.0.0.1",
		"exa mple.test",
		"example..test",
		"-example.test",
		"example-.test",
		"127.1",
		"2130706433",
		"[::1",
		"[example.test]:80",
		"[::1]x",
		"\xff\xfe.test",
		"a\xc3.test",
		"\xe2\x98\x83.net",	  /* U+2603 SNOWMAN: disallowed by IDNA2008 */
		"b\xc3\xbc cher.example", /* a space is no letter, in any script */
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.test",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_expect(eq(int, parse(bad[i]), -EINVAL), "'%s' accepted", bad[i]);
		cr_expect(strstr(err.message, "--allow-net '") == err.message, "'%s': %s", bad[i],
			  err.message);
		expect_str(nsb_stage_name(err.stage), "usage");
	}
}

Test(netpolicy, ranges)
{
	struct nsb_net_range rg;
	char buf[80];

	cr_assert(eq(int, nsb_net_range_parse("--allow-net-range", "10.1.2.3/8", &rg, &err), 0));
	nsb_net_range_format(&rg, buf, sizeof(buf));
	expect_str(buf, "10.0.0.0/8");
	cr_assert(
		eq(int, nsb_net_range_parse("--allow-net-range", "fd12:3456::1/48", &rg, &err), 0));
	nsb_net_range_format(&rg, buf, sizeof(buf));
	expect_str(buf, "fd12:3456::/48");
	cr_assert(eq(int, nsb_net_range_parse("--allow-net-range", "::1", &rg, &err), 0));
	cr_expect(eq(u32, rg.prefix, 128));
	cr_expect(eq(int, nsb_net_range_parse("--allow-net-range", "10.0.0.0/33", &rg, &err),
		     -EINVAL));
	cr_expect(eq(int, nsb_net_range_parse("--allow-net-range", "example.test/8", &rg, &err),
		     -EINVAL));
	cr_expect(
		eq(int, nsb_net_range_parse("--allow-net-range", "10.0.0.0/", &rg, &err), -EINVAL));
}

/* ---- the options ------------------------------------------------------------------- */

static struct nsb_config cfg;

#define PARSE(...)                                                                             \
	({                                                                                     \
		char *argv_[] = {"nsbox", __VA_ARGS__, NULL};                                  \
		memset(&err, 0, sizeof(err));                                                  \
		nsb_cli_parse((int)(sizeof(argv_) / sizeof(argv_[0])) - 1, argv_, &cfg, &err); \
	})

Test(netpolicy, options_set_proxy_mode)
{
	cr_assert(eq(int, PARSE("true"), 0));
	cr_expect(eq(int, cfg.net_proxy, false));
	cr_assert(
		eq(int,
		   PARSE("--allow-net", "a.test", "--allow-net", "b.test:1", "--deny-net", "c.test",
			 "--allow-net-range", "10.0.0.0/8", "--proxy-port", "8080", "true"),
		   0));
	cr_expect(eq(int, cfg.net_proxy, true));
	cr_expect(eq(sz, cfg.n_allow_net, 2));
	cr_expect(eq(sz, cfg.n_deny_net, 1));
	cr_expect(eq(sz, cfg.n_allow_net_range, 1));
	cr_expect(eq(u64, cfg.proxy_port, 8080));
	cr_assert(eq(int, PARSE("--deny-net", "c.test", "true"), 0));
	cr_expect(eq(int, cfg.net_proxy, true));
}

Test(netpolicy, option_errors)
{
	cr_expect(eq(int, PARSE("--allow-net", "a.test", "--share-net", "true"), -EINVAL));
	cr_expect(strstr(err.message, "--share-net") != NULL, "%s", err.message);
	cr_expect(eq(int, PARSE("--allow-net", "bad host", "true"), -EINVAL));
	expect_str(err.message, "--allow-net 'bad host': not a host name or IP address");
	cr_expect(eq(int, PARSE("--deny-net", "x.test:99999", "true"), -EINVAL));
	expect_str(err.message, "--deny-net 'x.test:99999': PORT is 1-65535 or '*'");
	cr_expect(eq(int, PARSE("--proxy-port", "0", "true"), -EINVAL));
	cr_expect(eq(int, PARSE("--allow-net-range", "10/8", "true"), -EINVAL));
}

Test(netpolicy, at_most_256_entries)
{
	static char *argv[2 + 2 * 257 + 1];
	static char names[257][24];
	int argc = 0;

	argv[argc++] = "nsbox";
	for (int i = 0; i < 257; i++) {
		snprintf(names[i], sizeof(names[i]), "h%d.test", i);
		argv[argc++] = "--allow-net";
		argv[argc++] = names[i];
	}
	argv[argc++] = "true";
	cr_expect(eq(int, nsb_cli_parse(argc, argv, &cfg, &err), -E2BIG));
	cr_expect(strstr(err.message, "h256.test") != NULL, "%s", err.message);
}

/* ---- decisions ------------------------------------------------------------------- */

static struct nsb_net_policy pol;

static void policy(const char *const *allow, const char *const *deny, const char *const *ranges)
{
	memset(&pol, 0, sizeof(pol));
	for (; allow && *allow; allow++)
		cr_assert(eq(int, nsb_net_entry_parse("a", *allow, &pol.allow[pol.n_allow++], &err),
			     0));
	for (; deny && *deny; deny++)
		cr_assert(
			eq(int, nsb_net_entry_parse("d", *deny, &pol.deny[pol.n_deny++], &err), 0));
	for (; ranges && *ranges; ranges++)
		cr_assert(eq(int,
			     nsb_net_range_parse("r", *ranges, &pol.ranges[pol.n_ranges++], &err),
			     0));
}

static bool allowed(const char *host, uint16_t port)
{
	const char *why = NULL;
	char norm[NSB_NET_HOST_MAX + 1];
	uint8_t addr[16];
	int family;

	cr_assert(eq(int, nsb_net_host_normalize(host, strlen(host), norm, &family, addr), 0), "%s",
		  host);
	return nsb_net_check_host(&pol, norm, port, &why) == 0;
}

Test(netpolicy, host_matching)
{
	policy((const char *const[]){"api.example.test", "*.pkg.test:8080", "https://o.test",
				     "10.0.0.5:22", NULL},
	       (const char *const[]){"bad.pkg.test:*", NULL}, NULL);
	cr_expect(allowed("api.example.test", 443));
	cr_expect(allowed("API.Example.Test.", 80));
	cr_expect(allowed("api.example.test", 8443) == false);
	cr_expect(allowed("example.test", 443) == false);
	cr_expect(allowed("x.api.example.test", 443) == false);
	cr_expect(allowed("a.pkg.test", 8080));
	cr_expect(allowed("a.b.pkg.test", 8080));
	cr_expect(allowed("pkg.test", 8080) == false);
	cr_expect(allowed("xpkg.test", 8080) == false);
	cr_expect(allowed("bad.pkg.test", 8080) == false); /* deny wins */
	cr_expect(allowed("o.test", 443));
	cr_expect(allowed("o.test", 80) == false);
	cr_expect(allowed("10.0.0.5", 22));
	cr_expect(allowed("10.0.0.6", 22) == false);
}

Test(netpolicy, deny_reason)
{
	const char *why = NULL;

	policy((const char *const[]){"a.test", NULL}, (const char *const[]){"a.test:443", NULL},
	       NULL);
	cr_expect(eq(int, nsb_net_check_host(&pol, "a.test", 443, &why), -EACCES));
	expect_str(why, "in --deny-net");
	cr_expect(eq(int, nsb_net_check_host(&pol, "b.test", 443, &why), -EACCES));
	expect_str(why, "not in --allow-net");
	cr_expect(eq(int, nsb_net_check_host(&pol, "a.test", 80, &why), 0));
}

static bool denied(const char *text)
{
	uint8_t a[16] = {0};
	int family = strchr(text, ':') ? AF_INET6 : AF_INET;

	cr_assert(eq(int, inet_pton(family, text, a), 1), "%s", text);
	return nsb_net_addr_builtin_denied(family, a);
}

Test(netpolicy, builtin_deny_set)
{
	static const char *const in[] = {
		"0.0.0.0",
		"10.1.2.3",
		"100.64.0.1",
		"127.0.0.1",
		"127.255.0.9",
		"169.254.169.254",
		"172.16.0.1",
		"172.31.255.255",
		"192.168.1.1",
		"224.0.0.1",
		"255.255.255.255",
		"::",
		"::1",
		"fe80::1",
		"fd00:ec2::254",
		"fc00::1",
		"ff02::1",
		"::ffff:127.0.0.1",
		"::ffff:169.254.169.254",
		"64:ff9b::a9fe:a9fe",
		"198.18.0.1",
		"192.0.0.8",
	};
	static const char *const out[] = {"93.184.216.34",   "172.32.0.1",     "1.1.1.1",
					  "2606:4700::1111", "::ffff:8.8.8.8", "11.0.0.1"};

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		cr_expect(denied(in[i]), "%s not denied", in[i]);
	for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++)
		cr_expect(denied(out[i]) == false, "%s denied", out[i]);
}

Test(netpolicy, ranges_and_literals_lift_the_builtin_deny)
{
	uint8_t lo[16] = {127, 0, 0, 1}, md[16] = {169, 254, 169, 254}, mapped[16] = {0};

	inet_pton(AF_INET6, "::ffff:127.0.0.1", mapped);
	policy(NULL, NULL, (const char *const[]){"127.0.0.0/8", NULL});
	cr_expect(nsb_net_addr_allowed(&pol, AF_INET, lo, false));
	cr_expect(nsb_net_addr_allowed(&pol, AF_INET6, mapped, false));
	cr_expect(nsb_net_addr_allowed(&pol, AF_INET, md, false) == false);
	cr_expect(nsb_net_addr_allowed(&pol, AF_INET, md, true));
}

Test(netpolicy, proxy_environment)
{
	char name[16], value[48];
	size_t n = 0;

	for (; nsb_net_proxy_env(n, 3128, name, value); n++)
		if (strcmp(name, "https_proxy") == 0)
			expect_str(value, "http://127.0.0.1:3128");
		else if (strcmp(name, "ALL_PROXY") == 0)
			expect_str(value, "socks5h://127.0.0.1:3128");
		else if (strcmp(name, "NO_PROXY") == 0)
			expect_str(value, "localhost,127.0.0.1");
	cr_expect(eq(sz, n, 8));
}

/* ---- the policy file's lines -------------------------------------------------------- */

static int parse_policy(const char *text, struct nsb_gate_policy *gp)
{
	FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
	int r;

	cr_assert(f != NULL);
	nsb_gate_policy_init(gp);
	memset(&err, 0, sizeof(err));
	r = nsb_policy_parse(f, "p", gp, &err);
	fclose(f);
	return r;
}

Test(netpolicy, policy_lines_parse_merge_and_print)
{
	struct nsb_gate_policy gp, again;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	cr_assert(eq(int,
		     parse_policy("# egress\nallow-net https://pypi.org\nallow-net *.corp.test:*\n"
				  "deny-net evil.corp.test\nallow-net-range 10.0.0.0/8\n",
				  &gp),
		     0),
		  "%s", err.message);
	cr_assert(gp.net != NULL);
	memset(&pol, 0, sizeof(pol));
	cr_assert(eq(int, nsb_net_entry_parse("--allow-net", "a.test", &pol.allow[0], &err), 0));
	pol.n_allow = 1;
	cr_assert(eq(int, nsb_gate_net_merge(&gp, &pol, &err), 0));
	cr_expect(eq(sz, pol.n_allow, 3));
	cr_expect(eq(sz, pol.n_deny, 1));
	cr_expect(eq(sz, pol.n_ranges, 1));
	cr_expect(allowed("pypi.org", 443));
	cr_expect(allowed("x.corp.test", 22));
	cr_expect(allowed("evil.corp.test", 443) == false);
	cr_expect(allowed("evil.corp.test", 22)); /* deny-net covers 80 and 443 only */

	/* --print-policy writes lines that read back the same. */
	out = open_memstream(&text, &len);
	cr_assert(out != NULL);
	cr_assert(eq(int, nsb_policy_print(out, &gp, &err), 0));
	fclose(out);
	cr_expect(strstr(text, "\nallow-net pypi.org:443\nallow-net *.corp.test:*\n"
			       "deny-net evil.corp.test\nallow-net-range 10.0.0.0/8\n") != NULL,
		  "%s", text);
	cr_assert(eq(int, parse_policy(text, &again), 0), "%s", err.message);
	cr_expect(eq(sz, again.net->n_allow, 2));
	nsb_gate_policy_free(&again);
	free(text);
	nsb_gate_policy_free(&gp);
}

Test(netpolicy, policy_line_errors_name_file_line_and_column)
{
	struct nsb_gate_policy gp;

	cr_expect(eq(int, parse_policy("\nallow-net bad_host!\n", &gp), -EINVAL));
	expect_str(err.message, "p:2:11: allow-net 'bad_host!': not a host name or IP address");
	nsb_gate_policy_free(&gp);
	cr_expect(eq(int, parse_policy("deny-net a.test b.test\n", &gp), -EINVAL));
	expect_str(err.message, "p:1:10: 'deny-net' takes one entry");
	nsb_gate_policy_free(&gp);
	cr_expect(eq(int, parse_policy("allow-net-range 10.0.0.0/40\n", &gp), -EINVAL));
	nsb_gate_policy_free(&gp);
	/* Without such lines nothing is allocated. */
	cr_assert(eq(int, parse_policy("allow-metachar\n", &gp), 0));
	cr_expect(gp.net == NULL);
	nsb_gate_policy_free(&gp);
}
