// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The egress proxy's parsers on hostile input: the HTTP request head (and
 * the forward request's rewrite), SOCKS5's greeting and request, the TLS
 * ClientHello's SNI, and the --allow-net entry and host normalisation.  The
 * first byte picks the parser; the rest is what a client inside (or a
 * caller) would send.  Invariants: no crash, out-parameters only on
 * success, every result inside its bounds, and a normalised host normalises
 * to itself.
 */
#include <errno.h>

#include "fuzz.h"
#include "core/netparse.h"
#include "core/netpolicy.h"

static void check_host(const char *host)
{
	char norm[NSB_NET_HOST_MAX + 1], again[NSB_NET_HOST_MAX + 1];
	uint8_t addr[16], addr2[16];
	int family, family2;

	if (nsb_net_host_normalize(host, strlen(host), norm, &family, addr) < 0)
		return;
	FUZZ_ASSERT(strlen(norm) <= NSB_NET_HOST_MAX);
	/* Idempotent: what the proxy compares is a fixed point. */
	FUZZ_ASSERT(nsb_net_host_normalize(norm, strlen(norm), again, &family2, addr2) == 0);
	FUZZ_ASSERT(strcmp(norm, again) == 0 && family == family2);
}

static void fuzz_http(const char *s, size_t len)
{
	struct nsb_http_req req;
	static char out[NSB_HTTP_HEAD_MAX * 2];

	memset(&req, 0x5a, sizeof(req));
	int r = nsb_http_parse_head(s, len, &req);
	if (r < 0) {
		FUZZ_ASSERT(r == -EAGAIN || r == -EINVAL || r == -E2BIG || r == -EPROTONOSUPPORT);
		return;
	}
	FUZZ_ASSERT(req.head_len <= len && req.head_len <= NSB_HTTP_HEAD_MAX);
	FUZZ_ASSERT(req.port != 0 && strlen(req.host) > 0);
	FUZZ_ASSERT(req.headers_off <= req.head_len && req.version_off + 8 <= req.head_len);
	FUZZ_ASSERT(req.path_off + req.path_len <= req.head_len);
	check_host(req.host);
	if (!req.connect) {
		int n = nsb_http_rewrite(s, &req, out, sizeof(out));
		FUZZ_ASSERT(n > 0 && (size_t)n < sizeof(out) && strlen(out) == (size_t)n);
	}
}

static void fuzz_socks(const uint8_t *d, size_t len)
{
	char host[NSB_NET_HOST_MAX + 1];
	size_t used = 7777;
	uint16_t port;
	int atyp;

	if (nsb_socks5_greeting(d, len, &used) == 0)
		FUZZ_ASSERT(used <= len);
	used = 7777;
	if (nsb_socks5_request(d, len, host, &atyp, &port, &used) == 0) {
		FUZZ_ASSERT(used <= len && port != 0 && strlen(host) <= NSB_NET_HOST_MAX);
		FUZZ_ASSERT(atyp == 1 || atyp == 3 || atyp == 4);
		check_host(host);
	} else {
		FUZZ_ASSERT(used == 7777);
	}
}

static void fuzz_sni(const uint8_t *d, size_t len)
{
	char host[NSB_NET_HOST_MAX + 2];
	int r = nsb_tls_sni(d, len, host, sizeof(host));

	FUZZ_ASSERT(r == 0 || r == -ENOENT || r == -EAGAIN || r == -EINVAL);
	if (r == 0) {
		FUZZ_ASSERT(strlen(host) < sizeof(host));
		check_host(host);
	}
}

static void fuzz_entry(const char *s)
{
	struct nsb_net_entry en, again;
	struct nsb_error e = {0};
	char buf[NSB_NET_HOST_MAX + 32];

	if (nsb_net_entry_parse("--allow-net", s, &en, &e) < 0) {
		FUZZ_ASSERT(e.message[0] != '\0');
		return;
	}
	check_host(en.host);
	/* The record's text form is an entry meaning the same. */
	nsb_net_entry_format(&en, buf, sizeof(buf));
	if (en.ports != NSB_NET_PORTS_WEB) {
		FUZZ_ASSERT(nsb_net_entry_parse("--allow-net", buf, &again, &e) == 0);
		FUZZ_ASSERT(strcmp(again.host, en.host) == 0 && again.ports == en.ports &&
			    again.port == en.port && again.wildcard == en.wildcard);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > NSB_HTTP_HEAD_MAX + 64)
		return 0;
	uint8_t which = data[0];
	char *s = malloc(size);
	if (!s)
		abort();
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	switch (which % 4) {
	case 0:
		fuzz_http(s, size - 1);
		break;
	case 1:
		fuzz_socks((const uint8_t *)s, size - 1);
		break;
	case 2:
		fuzz_sni((const uint8_t *)s, size - 1);
		break;
	default:
		fuzz_entry(s);
		check_host(s);
		break;
	}
	free(s);
	return 0;
}
