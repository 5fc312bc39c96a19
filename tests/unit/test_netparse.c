// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The proxy's request parsers (HTTP head, the forward request's rewrite,
 * SOCKS5, TLS SNI) and the record's proxy members.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/netparse.h"
#include "core/result.h"
#include "json_check.h"
#include "unit.h"

/* Criterion's eq(str, ...) takes char *; -Wwrite-strings makes literals const. */
#pragma GCC diagnostic ignored "-Wdiscarded-qualifiers"

static struct nsb_http_req req;

static int head(const char *s)
{
	memset(&req, 0, sizeof(req));
	return nsb_http_parse_head(s, strlen(s), &req);
}

Test(netparse, connect)
{
	cr_assert(eq(int, head("CONNECT api.example.test:443 HTTP/1.1\r\nHost: x\r\n\r\nrest"), 0));
	cr_expect(req.connect);
	expect_str(req.host, "api.example.test");
	cr_expect(eq(u16, req.port, 443));
	cr_expect(eq(sz, req.head_len,
		     strlen("CONNECT api.example.test:443 HTTP/1.1\r\nHost: x\r\n\r\n")));
	cr_assert(eq(int, head("CONNECT [::1]:8443 HTTP/1.1\r\n\r\n"), 0));
	expect_str(req.host, "::1");
	cr_expect(eq(u16, req.port, 8443));
	/* CONNECT needs the port. */
	cr_expect(eq(int, head("CONNECT api.example.test HTTP/1.1\r\n\r\n"), -EINVAL));
	cr_expect(eq(int, head("CONNECT a:0 HTTP/1.1\r\n\r\n"), -EINVAL));
}

Test(netparse, forward_request_and_rewrite)
{
	const char *in =
		"GET http://Example.test:8080/a/b?c=d HTTP/1.1\r\nHost: example.test:8080\r\n"
		"Proxy-Connection: keep-alive\r\nConnection: keep-alive\r\n"
		"Proxy-Authorization: Basic eA==\r\nAccept: */*\r\n\r\n";
	char out[1024];

	cr_assert(eq(int, head(in), 0));
	cr_expect(req.connect == false);
	expect_str(req.host, "Example.test");
	cr_expect(eq(u16, req.port, 8080));
	cr_assert(gt(int, nsb_http_rewrite(in, &req, out, sizeof(out)), 0));
	expect_str(out, "GET /a/b?c=d HTTP/1.1\r\nHost: example.test:8080\r\nAccept: */*\r\n"
			"Connection: close\r\n\r\n");
	cr_assert(eq(int, head("POST http://e.test HTTP/1.0\r\n\r\n"), 0));
	cr_expect(eq(u16, req.port, 80));
	cr_assert(
		gt(int,
		   nsb_http_rewrite("POST http://e.test HTTP/1.0\r\n\r\n", &req, out, sizeof(out)),
		   0));
	expect_str(out, "POST / HTTP/1.0\r\nConnection: close\r\n\r\n");
	cr_assert(eq(int, head("GET http://e.test?x HTTP/1.1\r\n\r\n"), 0));
	cr_assert(
		gt(int,
		   nsb_http_rewrite("GET http://e.test?x HTTP/1.1\r\n\r\n", &req, out, sizeof(out)),
		   0));
	expect_str(out, "GET /?x HTTP/1.1\r\nConnection: close\r\n\r\n");
	cr_expect(eq(int, nsb_http_rewrite(in, &req, out, 10), -E2BIG));
}

Test(netparse, malformed_and_incomplete_heads)
{
	cr_expect(eq(int, head("GET http://e.test/ HTTP/1.1\r\nHost: e"), -EAGAIN));
	cr_expect(eq(int, head(""), -EAGAIN));
	cr_expect(eq(int, head("GET /local HTTP/1.1\r\n\r\n"), -EPROTONOSUPPORT));
	cr_expect(eq(int, head("GET ftp://e.test/ HTTP/1.1\r\n\r\n"), -EPROTONOSUPPORT));
	cr_expect(eq(int, head("GET http://u@e.test/ HTTP/1.1\r\n\r\n"), -EINVAL));
	cr_expect(eq(int, head("GET http://e.test/ HTTP/2.0\r\n\r\n"), -EINVAL));
	cr_expect(eq(int, head("G(T http://e.test/ HTTP/1.1\r\n\r\n"), -EINVAL));
	cr_expect(eq(int, head("GET  http://e.test/ HTTP/1.1\r\n\r\n"), -EINVAL));
	cr_expect(eq(int, head("GET http://e.test/\x01 HTTP/1.1\r\n\r\n"), -EINVAL));
	cr_expect(eq(int, head("GET http://e.test:99999/ HTTP/1.1\r\n\r\n"), -EINVAL));
	cr_expect(eq(int, head("\r\n\r\n"), -EINVAL));

	/* Past the bound without a blank line. */
	size_t n = NSB_HTTP_HEAD_MAX + 10;
	char *big = malloc(n + 1);
	cr_assert(big != NULL);
	memcpy(big, "GET http://e.test/ HTTP/1.1\r\n", 29);
	memset(big + 29, 'a', n - 29);
	big[n] = '\0';
	cr_expect(eq(int, nsb_http_parse_head(big, n, &req), -E2BIG));
	free(big);
}

Test(netparse, socks5)
{
	static const uint8_t greet[] = {5, 2, 2, 0}, greet_auth[] = {5, 1, 2};
	static const uint8_t dom[] = {5, 1, 0, 3, 6, 'e', '.', 't', 'e', 's', 't', 0x01, 0xbb};
	static const uint8_t v4[] = {5, 1, 0, 1, 127, 0, 0, 1, 0, 80};
	static const uint8_t bind_[] = {5, 2, 0, 1, 127, 0, 0, 1, 0, 80};
	char host[NSB_NET_HOST_MAX + 1];
	size_t used;
	uint16_t port;
	int atyp;

	cr_expect(eq(int, nsb_socks5_greeting(greet, 3, &used), -EAGAIN));
	cr_expect(eq(int, nsb_socks5_greeting(greet, sizeof(greet), &used), 0));
	cr_expect(eq(sz, used, 4));
	cr_expect(eq(int, nsb_socks5_greeting(greet_auth, sizeof(greet_auth), &used), -EACCES));
	cr_expect(eq(int, nsb_socks5_greeting((const uint8_t *)"\x04\x01", 2, &used), -EINVAL));
	cr_expect(eq(int, nsb_socks5_request(dom, 8, host, &atyp, &port, &used), -EAGAIN));
	cr_assert(eq(int, nsb_socks5_request(dom, sizeof(dom), host, &atyp, &port, &used), 0));
	expect_str(host, "e.test");
	cr_expect(eq(int, atyp, 3));
	cr_expect(eq(u16, port, 443));
	cr_expect(eq(sz, used, sizeof(dom)));
	cr_assert(eq(int, nsb_socks5_request(v4, sizeof(v4), host, &atyp, &port, &used), 0));
	expect_str(host, "127.0.0.1");
	cr_expect(eq(int, atyp, 1));
	cr_expect(eq(int, nsb_socks5_request(bind_, sizeof(bind_), host, &atyp, &port, &used),
		     -EOPNOTSUPP));

	/* The name's length is one byte: up to 255, past the longest DNS name
	 * (and past host[]).  The fuzzer found a 255-byte one overflowing it. */
	uint8_t big[5 + 255 + 2];
	memset(big, 'a', sizeof(big));
	big[0] = 5, big[1] = 1, big[2] = 0, big[3] = 3;
	for (unsigned n = NSB_NET_HOST_MAX; n <= 255; n++) {
		big[4] = (uint8_t)n;
		big[5 + n] = 1, big[5 + n + 1] = 187; /* port 443 */
		int r = nsb_socks5_request(big, 5 + n + 2, host, &atyp, &port, &used);
		cr_expect(eq(int, r, n <= NSB_NET_HOST_MAX ? 0 : -EINVAL), "name of %u bytes", n);
		big[5 + n] = big[5 + n + 1] = 'a';
	}
}

/* A ClientHello with the extensions given (type, then body). */
static size_t hello(uint8_t *b, const char *sni)
{
	size_t o = 0, body, hs, ext, n = sni ? strlen(sni) : 0;

	b[o++] = 22, b[o++] = 3, b[o++] = 1, o += 2; /* record */
	hs = o;
	b[o++] = 1, o += 3; /* ClientHello */
	body = o;
	b[o++] = 3, b[o++] = 3;
	memset(b + o, 7, 32), o += 32;			   /* random */
	b[o++] = 0;					   /* session id */
	b[o++] = 0, b[o++] = 2, b[o++] = 0x13, b[o++] = 1; /* suites */
	b[o++] = 1, b[o++] = 0;				   /* compression */
	ext = o;
	o += 2;
	/* an unrelated extension first */
	b[o++] = 0, b[o++] = 10, b[o++] = 0, b[o++] = 2, b[o++] = 0, b[o++] = 0;
	if (sni) {
		b[o++] = 0, b[o++] = 0;
		b[o++] = (uint8_t)((n + 5) >> 8), b[o++] = (uint8_t)(n + 5);
		b[o++] = (uint8_t)((n + 3) >> 8), b[o++] = (uint8_t)(n + 3);
		b[o++] = 0;
		b[o++] = (uint8_t)(n >> 8), b[o++] = (uint8_t)n;
		memcpy(b + o, sni, n), o += n;
	}
	b[ext] = (uint8_t)((o - ext - 2) >> 8), b[ext + 1] = (uint8_t)(o - ext - 2);
	b[hs + 1] = 0, b[hs + 2] = (uint8_t)((o - body) >> 8), b[hs + 3] = (uint8_t)(o - body);
	b[3] = (uint8_t)((o - 5) >> 8), b[4] = (uint8_t)(o - 5);
	return o;
}

Test(netparse, tls_sni)
{
	uint8_t b[512];
	char host[300];
	size_t n = hello(b, "api.example.test");

	cr_assert(eq(int, nsb_tls_sni(b, n, host, sizeof(host)), 0));
	expect_str(host, "api.example.test");
	for (size_t k = 0; k < n; k++)
		cr_expect(eq(int, nsb_tls_sni(b, k, host, sizeof(host)), -EAGAIN), "at %zu", k);
	n = hello(b, NULL);
	cr_expect(eq(int, nsb_tls_sni(b, n, host, sizeof(host)), -ENOENT));
	cr_expect(eq(int,
		     nsb_tls_sni((const uint8_t *)"GET / HTTP/1.1\r\n", 16, host, sizeof(host)),
		     -EINVAL));
	n = hello(b, "x.test");
	b[9 + 2 + 32] = 200; /* a session id longer than the hello */
	cr_expect(eq(int, nsb_tls_sni(b, n, host, sizeof(host)), -EINVAL));
}

Test(netparse, record_lists_connections)
{
	struct nsb_result r;
	struct nsb_net_policy pol = {.port = 3128};
	struct nsb_net_conn c = {.port = 443,
				 .protocol = "connect",
				 .allowed = true,
				 .n_addrs = 1,
				 .bytes_up = 10,
				 .bytes_down = 20,
				 .start_ms = 5,
				 .duration_ms = 7};
	struct nsb_error e = {0};
	char *out = NULL;
	size_t len;

	snprintf(c.host, sizeof(c.host), "a.test");
	snprintf(c.addrs[0], sizeof(c.addrs[0]), "192.0.2.1");
	cr_assert(eq(int, nsb_net_entry_parse("--allow-net", "a.test", &pol.allow[0], &e), 0));
	pol.n_allow = 1;
	nsb_result_init(&r);
	r.has_enforced = true;
	r.enforced.net_policy = &pol;
	r.has_network = true;
	r.net_conns = &c;
	r.n_net_conns = 1;
	r.net_conns_more = 3;
	cr_assert(eq(int, nsb_result_to_json(&r, &out, &len), 0));
	cr_assert(json_check(out, len), "%s", out);
	cr_expect(
		strstr(out,
		       "\"network\":{\"mode\":\"proxy\",\"port\":3128,\"allow\":[\"a.test:80,443\"],"
		       "\"deny\":[],\"ranges\":[]}") != NULL,
		"%s", out);
	cr_expect(strstr(out, "\"network\":{\"connections\":[{\"host\":\"a.test\",\"port\":443,"
			      "\"protocol\":\"connect\",\"allowed\":true,\"reason\":null,"
			      "\"addresses\":[\"192.0.2.1\"],\"bytes_up\":10,\"bytes_down\":20,"
			      "\"start_ms\":5,\"duration_ms\":7}],\"more\":3}") != NULL,
		  "%s", out);
	free(out);
	/* Other modes keep the string. */
	r.enforced.net_policy = NULL;
	r.has_network = false;
	cr_assert(eq(int, nsb_result_to_json(&r, &out, &len), 0));
	cr_expect(strstr(out, "\"network\":\"none\"") != NULL, "%s", out);
	cr_expect(strstr(out, "\"connections\"") == NULL, "%s", out);
	free(out);
}
