/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a client inside says to the proxy, parsed: an HTTP request head
 * (CONNECT or an absolute-URI forward request), SOCKS5's greeting and
 * request, and the server name of a TLS ClientHello.  Pure; every parser
 * reads only the bytes it is handed and says -EAGAIN when it needs more.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/netpolicy.h"

#define NSB_HTTP_HEAD_MAX (16u << 10) /* request line and headers */

struct nsb_http_req {
	bool connect;			 /* CONNECT host:port */
	char host[NSB_NET_HOST_MAX + 1]; /* as written (IPv6 without brackets) */
	uint16_t port;
	size_t method_len;  /* the method at the head's start */
	size_t path_off;    /* forward requests: origin-form ("/x?y") in the head */
	size_t path_len;    /* 0: the URI had none ("/" is sent) */
	size_t version_off; /* "HTTP/1.x" */
	size_t headers_off; /* the first header line (after the request line's CRLF) */
	size_t head_len;    /* through the blank line */
};

/*
 * Parse a request head at buf[0..len).  0 and *ret; -EAGAIN: no blank line
 * yet (and len < NSB_HTTP_HEAD_MAX); -E2BIG: the head is longer than that;
 * -EINVAL: malformed; -EPROTONOSUPPORT: an absolute URI that is not http://
 * (or an origin-form request, which a proxy cannot place).
 */
int nsb_http_parse_head(const char *buf, size_t len, struct nsb_http_req *ret);

/*
 * The head to send upstream for a forward request: origin-form request
 * line, the client's headers without the hop-by-hop ones (Connection,
 * Proxy-Connection, Proxy-Authorization, Keep-Alive), and "Connection:
 * close" (one request per connection: the next one might be for another
 * host).  Returns its length, or -E2BIG when it does not fit in size.
 */
int nsb_http_rewrite(const char *head, const struct nsb_http_req *req, char *out, size_t size);

/* SOCKS5 greeting (VER NMETHODS METHODS): 0 (no-auth offered; *ret_used set),
 * -EACCES (it is not), -EAGAIN, -EINVAL. */
int nsb_socks5_greeting(const uint8_t *buf, size_t len, size_t *ret_used);

/*
 * SOCKS5 request (VER CMD RSV ATYP ADDR PORT): host as text (a domain, or an
 * IPv4/IPv6 literal), *ret_atyp (1, 3, 4), port, bytes used.  -EAGAIN,
 * -EINVAL malformed, -EOPNOTSUPP a command other than CONNECT.
 */
int nsb_socks5_request(const uint8_t *buf, size_t len, char host[NSB_NET_HOST_MAX + 1],
		       int *ret_atyp, uint16_t *ret_port, size_t *ret_used);

/*
 * The server_name of the TLS ClientHello at buf[0..len) (the first
 * handshake record).  0 with the name in host (NUL-terminated); -ENOENT no
 * SNI extension; -EAGAIN need more bytes; -EINVAL not a ClientHello.
 */
int nsb_tls_sni(const uint8_t *buf, size_t len, char *host, size_t size);
